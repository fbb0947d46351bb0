// The browser tests' server: a local ENA/Zenodo/taxonomy test server, then the real service (`npm start`) pointed at
// it, on a fresh embedded database. Playwright starts this as its webServer and stops it afterwards.
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { buildTaxonRecords } from '../tests/fixtures/manifests/taxa';
import { startOidcServer } from '../tests/support/oidc-server';
import { startRepositoryServer } from '../tests/support/repository-server';

const dataDir = process.env.DATA_DIR ?? '.data/e2e';
rmSync(dataDir, { recursive: true, force: true });

const fixtureTaxa = buildTaxonRecords();
const repositories = await startRepositoryServer({
  taxa: fixtureTaxa.records,
  synonyms: Object.fromEntries([...fixtureTaxa.synonyms].map(([name, record]) => [name, record.taxId])),
});
console.log(`repository test server on ${repositories.url}`);
// a traditional-knowledge project its community keeps private (e2e/rights.spec.ts)
repositories.localContexts.setProject('5c2f5f1e-7d3b-4b8e-9a61-2f4c8d9e0a17', 'Private', 'Sámi reindeer lichens');

// E2E_ORCID=1: an OpenID Connect server stands in for ORCID (e2e/orcid.spec.ts), and people may register themselves
const port = Number(process.env.PORT ?? 3000);
const orcid = process.env.E2E_ORCID
  ? await startOidcServer(`http://localhost:${port}/api/auth/callback/orcid`, {
      anyone: (orcidId) => ({ given_name: 'Robin', family_name: `Orcid-${orcidId.slice(-4)}` }),
    })
  : null;
if (orcid) console.log(`OpenID Connect server standing in for ORCID on ${orcid.issuer}`);

// the browser tests' hand on the stand-ins, on the port after the service's: POST /ena/refuse?count=N makes Webin refuse
// the next N submissions with ENA's wording (e2e/refused-by-ena.spec.ts); nothing of the service's own
const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method === 'POST' && url.pathname === '/ena/refuse') {
    repositories.faults.errorReceipt(Number(url.searchParams.get('count') ?? 1), [
      url.searchParams.get('message') ?? 'Sample: refused; Attribute: collection date; Reason: must match format "date"',
    ]);
    res.writeHead(204).end();
  } else if (req.method === 'POST' && url.pathname === '/ena/clear') {
    repositories.faults.clear();
    res.writeHead(204).end();
  } else res.writeHead(404).end();
}).listen(port + 1, '127.0.0.1');

const app = spawn(process.execPath, ['scripts/start.mjs'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATA_DIR: dataDir,
    ENA_TAXONOMY_URL: repositories.taxonomyUrl,
    ENA_WEBIN_URL: repositories.enaUrl,
    ENA_USERNAME: repositories.credentials.ena.username,
    ENA_PASSWORD: repositories.credentials.ena.password,
    ENA_BROWSER_URL: repositories.browserUrl,
    ENA_FTP_URL: repositories.ftpUrl,
    TOLID_URL: repositories.tolidUrl,
    TOLID_TOKEN: repositories.credentials.tolid.token,
    LOCAL_CONTEXTS_URL: repositories.localContextsUrl,
    OLS_URL: repositories.olsUrl,
    SMTP_URL: repositories.smtpUrl,
    ZENODO_URL: repositories.zenodoUrl,
    ZENODO_TOKEN: repositories.credentials.zenodo.token,
    ...(orcid && {
      ORCID_CLIENT_ID: orcid.clientId,
      ORCID_CLIENT_SECRET: orcid.clientSecret,
      ORCID_ISSUER: orcid.issuer,
      SELF_REGISTRATION: 'true',
    }),
  },
});
const stop = async () => {
  app.kill('SIGTERM');
  control.close();
  await Promise.all([repositories.close(), orcid?.close()]);
};
process.on('SIGINT', () => void stop().then(() => process.exit(0)));
process.on('SIGTERM', () => void stop().then(() => process.exit(0)));
app.on('exit', (code) => {
  control.close();
  void Promise.all([repositories.close(), orcid?.close()]).then(() => process.exit(code ?? 1));
});
