import { startRepositoryServer } from './index';

/**
 * The test server as a process, for a manual or Playwright run:
 *   npx tsx tests/support/repository-server/main.ts [port]
 * prints the settings that point the service at it, and runs until interrupted.
 */
const port = process.argv[2] ? Number(process.argv[2]) : 0;
const server = await startRepositoryServer({ port });
const env = {
  ENA_WEBIN_URL: server.enaUrl,
  ENA_USERNAME: server.credentials.ena.username,
  ENA_PASSWORD: server.credentials.ena.password,
  ENA_TAXONOMY_URL: server.taxonomyUrl,
  ENA_BROWSER_URL: server.browserUrl,
  ENA_FTP_URL: server.ftpUrl,
  ZENODO_URL: server.zenodoUrl,
  ZENODO_TOKEN: server.credentials.zenodo.token,
  TOLID_URL: server.tolidUrl,
  TOLID_TOKEN: server.credentials.tolid.token,
  LOCAL_CONTEXTS_URL: server.localContextsUrl,
  OLS_URL: server.olsUrl,
  SMTP_URL: server.smtpUrl,
};
process.stdout.write(
  `${Object.entries(env)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n')}\n`,
);
const stop = () => void server.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
