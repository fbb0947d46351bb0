import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sampleUpdates, samples, specimens, submissions } from '@/db/schema';
import { createEnaClient, enaClientOptionsFromConfig, type EnaClient } from '@/lib/repositories/ena';
import { runSampleRegistration } from '@/lib/submissions/register-samples';
import { buildTaxonRecords, fakeTaxonomy } from './fixtures/manifests/taxa';
import { createProfile, dtolRows, uploadManifest, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { startRepositoryServer, type RepositoryServer } from './support/repository-server';
import { runReferenceClient } from './query-client';

let server: RepositoryServer;
let h: Harness;
let manager: Awaited<ReturnType<Harness['user']>>;
let profileId: string;
let offset = 0;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  h = await createHarness(
    {
      ENA_WEBIN_URL: server.enaUrl,
      ENA_USERNAME: server.credentials.ena.username,
      ENA_PASSWORD: server.credentials.ena.password,
    },
    { workers: true, taxonomy: fakeTaxonomy() },
  );
  manager = await h.user({ username: 'dtol-lead', memberOf: ['dtol'], managerOf: ['dtol'] });
  profileId = await createProfile(h, manager.key, { title: 'Wytham registration', description: '', type: 'dtol' });
}, 120_000);
afterAll(async () => {
  await h.close();
  await server.close();
});
beforeEach(() => server.faults.clear());

/** n accepted samples of a fresh manifest. */
async function acceptedSamples(n: number): Promise<string[]> {
  const rows = dtolRows(n, offset);
  offset += n;
  const { manifest_id } = await uploadManifest(h, manager.key, profileId, rows);
  const ids = (await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id))).map((r) => r.id);
  const res = await h.request('/api/sample/decision', { method: 'POST', key: manager.key, headers: json, body: JSON.stringify({ svc_ids: ids, decision: 'accept' }) });
  expect(res.status).toBe(200);
  return ids;
}

async function registerAndWait(ids: string[]) {
  const res = await h.request('/api/sample/register', { method: 'POST', key: manager.key, headers: json, body: JSON.stringify({ svc_ids: ids }) });
  expect(res.status).toBe(202);
  const [queued] = (await res.json()) as { submission_id: string }[];
  return waitFor(
    async () => (await (await h.request(`/api/submissions/${queued!.submission_id}`, { key: manager.key })).json()) as { status: string; error: string | null; submission_id: string },
    (s) => s.status === 'accepted' || s.status === 'rejected',
    'the submission',
  );
}

const addsOf = (alias: string) =>
  server.ena.submissions.filter((s) => s.actions.includes('ADD') && s.objects.some((o) => o.alias === alias)).length;

describe('registering accepted ToL samples at ENA', () => {
  it('registers specimens then samples, sets accessions with system audit records', async () => {
    const ids = await acceptedSamples(2);
    const sub = await registerAndWait(ids);
    expect(sub).toMatchObject({ status: 'accepted', error: null });
    const rows = await h.database.db.select().from(samples).where(sql`${samples.id} = any(${sql.param(ids)}::text[])`);
    for (const s of rows) {
      expect(s.status).toBe('accepted');
      expect(s.biosampleAccession).toMatch(/^SAMEA\d+$/);
      expect(s.sraAccession).toMatch(/^ERS\d+$/);
      expect(s.submissionAccession).toMatch(/^ERA\d+$/);
      // whole organisms are the specimen itself
      expect(s.sampleSameAs ?? s.sampleDerivedFrom).toMatch(/^SAMEA\d+$/);
      const audit = await h.database.db.select().from(sampleUpdates).where(eq(sampleUpdates.sampleId, s.id));
      const system = audit.filter((a) => a.updateType === 'system');
      expect(system.find((a) => a.field === 'biosampleAccession')).toMatchObject({ oldValue: '', newValue: s.biosampleAccession });
      expect(system.find((a) => a.field === 'status')).toMatchObject({ oldValue: 'processing', newValue: 'accepted' });
      expect(addsOf(s.id)).toBe(1);
    }
    const specimen = await h.database.db.select().from(specimens).where(eq(specimens.specimenId, rows[0]!.specimenId!));
    expect(specimen[0]!.biosampleAccession).toMatch(/^SAMEA\d+$/);
    // the XML the server accepted used the ToL checklist
    expect(server.requests.some((r) => r.body.includes('ERC000053'))).toBe(true);
  });

  it('retries after two 500s and submits once', async () => {
    const ids = await acceptedSamples(1);
    const before = server.ena.submissions.length;
    server.faults.fail(2, { status: 500, service: 'ena' });
    const sub = await registerAndWait(ids);
    expect(sub.status).toBe('accepted');
    expect(addsOf(ids[0]!)).toBe(1);
    expect(server.ena.submissions.length - before).toBe(2); // the specimen, then the sample
  });

  it('rejects the samples with ENA’s message when the receipt is an error', async () => {
    const ids = await acceptedSamples(1);
    server.faults.errorReceipt(1, ['Sample attribute "collection date" is invalid.']);
    const sub = await registerAndWait(ids);
    expect(sub.status).toBe('rejected');
    expect(sub.error).toContain('collection date');
    const [s] = await h.database.db.select().from(samples).where(eq(samples.id, ids[0]!));
    expect(s).toMatchObject({ status: 'rejected', biosampleAccession: null });
    expect(s!.rejectionReason).toContain('collection date');
  });

  it('resumes after the worker dies between sending and recording, with exactly one set of accessions', async () => {
    const ids = await acceptedSamples(2);
    const [row] = await h.database.db
      .insert(submissions)
      .values({ kind: 'samples', repository: 'ena', profileId, sampleIds: ids, createdBy: manager.user.id })
      .returning();
    const real = createEnaClient(enaClientOptionsFromConfig(h.config, h.deps.logger));
    let killed = false;
    // ENA acts on the sample ADD, then the process dies before a single accession is written
    const dying: EnaClient = {
      ...real,
      async submit(doc, init) {
        const receipt = await real.submit(doc, init);
        if (typeof doc !== 'string' && doc.samples?.some((s) => ids.includes(s.alias))) {
          killed = true;
          throw new Error('worker killed');
        }
        return receipt;
      },
    };
    await expect(runSampleRegistration({ db: h.database.db, logger: h.deps.logger, ena: () => dying }, row!.id)).rejects.toThrow('worker killed');
    expect(killed).toBe(true);
    const halfway = await h.database.db.select().from(samples).where(sql`${samples.id} = any(${sql.param(ids)}::text[])`);
    expect(halfway.every((s) => s.biosampleAccession === null)).toBe(true);

    await runSampleRegistration({ db: h.database.db, logger: h.deps.logger, ena: () => real }, row!.id);
    const after = await h.database.db.select().from(samples).where(sql`${samples.id} = any(${sql.param(ids)}::text[])`);
    const stored = server.ena.objects().filter((o) => ids.includes(o.alias));
    expect(stored).toHaveLength(2);
    for (const s of after) {
      expect(s.status).toBe('accepted');
      expect(addsOf(s.id)).toBe(1);
      expect(s.sraAccession).toBe(stored.find((o) => o.alias === s.id)!.accession);
    }
    const [done] = await h.database.db.select().from(submissions).where(eq(submissions.id, row!.id));
    expect(done!.status).toBe('accepted');
  });

  it('answers 409 naming the missing setting when no Webin account is configured, queueing nothing', async () => {
    const bare = await createHarness({}, { taxonomy: fakeTaxonomy() });
    try {
      const u = await bare.user({ managerOf: ['dtol'], memberOf: ['dtol'] });
      const res = await bare.request('/api/sample/register', { method: 'POST', key: u.key, headers: json, body: JSON.stringify({ svc_ids: ['a'.repeat(24)] }) });
      expect(res.status).toBe(409);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/ENA_USERNAME/);
      expect(await bare.database.db.select().from(submissions)).toEqual([]);
    } finally {
      await bare.close();
    }
  });

  it('serves the registered samples to a client written like the reference system’s clients', async () => {
    const ids = await acceptedSamples(2);
    expect((await registerAndWait(ids)).status).toBe('accepted');
    const [first] = await h.database.db.select().from(samples).where(eq(samples.id, ids[0]!));
    const report = await runReferenceClient(h, { biosampleAccession: first!.biosampleAccession!, taxonId: first!.taxonId! });
    expect(report.manifestId).toBe(first!.manifestId);
    const mine = report.samples.find((s) => s.svc_id === first!.id);
    expect(mine).toMatchObject({ number_found: 1, TAXON_ID: first!.taxonId, tol_project: 'DTOL', status: 'accepted', biosampleAccession: first!.biosampleAccession });
    const crateIds = report.crate['@graph'].map((e) => e['@id']);
    expect(new Set(crateIds).size).toBe(crateIds.length);
  });
});
