import { buildTaxonRecords, fakeTaxonomy } from '../fixtures/manifests/taxa';
import { createHarness, type Harness } from './harness';
import { type RepositoryServer, startRepositoryServer } from './repository-server';

/** A repository the local server (tests/support/repository-server) speaks for. */
type Service = 'ena' | 'tolid' | 'localContexts';

/** The settings that point the service at the local repository server's ENA (Webin), ToLID service or Local Contexts Hub. */
export function repositorySettings(server: RepositoryServer, services: readonly Service[]): Record<string, string> {
  const settings: Record<Service, Record<string, string>> = {
    ena: {
      ENA_WEBIN_URL: server.enaUrl,
      ENA_USERNAME: server.credentials.ena.username,
      ENA_PASSWORD: server.credentials.ena.password,
    },
    tolid: { TOLID_URL: server.tolidUrl, TOLID_TOKEN: server.credentials.tolid.token },
    localContexts: { LOCAL_CONTEXTS_URL: server.localContextsUrl },
  };
  return Object.assign({}, ...services.map((s) => settings[s]));
}

export interface RegistrationWorld {
  server: RepositoryServer;
  h: Harness;
  close(): Promise<void>;
}

/**
 * Where approved samples go: the local repository server (knowing the taxa of the manifest fixtures) and a service
 * whose repositories are the `services` it names there, validating with the fixtures' taxonomy.
 */
export async function startRegistrationWorld(services: readonly Service[], opts: { workers?: boolean } = {}): Promise<RegistrationWorld> {
  const server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  const h = await createHarness(repositorySettings(server, services), { workers: opts.workers ?? true, taxonomy: fakeTaxonomy() });
  return {
    server,
    h,
    async close() {
      await h.close();
      await server.close();
    },
  };
}

/** POST sample/decision: a sample manager's (or approver's) decision on these samples, as sent. */
export const decideSamples = (h: Harness, key: string, body: { svc_ids: string[]; decision: 'accept' | 'reject'; reason?: string }) =>
  h.request('/api/sample/decision', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
