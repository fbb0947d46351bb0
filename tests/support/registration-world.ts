import { eq, inArray } from 'drizzle-orm';
import { samples } from '@/db/schema';
import { mailContext } from '@/lib/mail/outbox';
import { createEnaClient, type EnaClient, enaClientOptionsFromConfig } from '@/lib/repositories/ena';
import { runSampleRegistration } from '@/lib/submissions/registration';
import { buildTaxonRecords, fakeTaxonomy } from '../fixtures/manifests/taxa';
import { uploadManifest } from './flows';
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

/** These samples' rows as stored. */
export const samplesOf = (h: Harness, ids: string[]) => h.database.db.select().from(samples).where(inArray(samples.id, ids));

/** The svc_ids of a fresh manifest of `rows`, uploaded and confirmed by `key` into `profileId`, still pending. */
export async function uploadPendingSamples(
  h: Harness,
  key: string,
  profileId: string,
  rows: Record<string, string>[],
  opts: { validateHere?: boolean } = {},
): Promise<string[]> {
  const { manifest_id } = await uploadManifest(h, key, profileId, rows, opts);
  return (await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id))).map((r) => r.id);
}

/** Runs one registration now, in the test's process, as its job would (with the service's ENA client unless given). */
export const runRegistrationHere = (h: Harness, submissionId: string, ena?: EnaClient) =>
  runSampleRegistration(
    {
      db: h.database.db,
      logger: h.deps.logger,
      ena: () => ena ?? createEnaClient(enaClientOptionsFromConfig(h.config, h.deps.logger)),
      jobs: h.deps.jobs,
      mail: mailContext(h.config, h.deps.jobs),
    },
    submissionId,
  );

/** POST sample/register: a sample manager's retry of these samples' registration, as sent. */
export const retryRegistration = (h: Harness, key: string, svcIds: string[]) =>
  h.request('/api/sample/register', {
    method: 'POST',
    key,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ svc_ids: svcIds }),
  });
