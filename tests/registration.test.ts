import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emails, samples, sampleUpdates, specimens, submissions } from '@/db/schema';
import { createEnaClient, type EnaClient, enaClientOptionsFromConfig } from '@/lib/repositories/ena';
import { registrationQueue } from '@/lib/samples/registration';
import { sweepRegistrations } from '@/lib/samples/registrations-sweep';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { runReferenceClient } from './query-client';
import { createProfile, dtolRows, uploadManifest, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import {
  decideSamples,
  type RegistrationWorld,
  repositorySettings,
  retryRegistration,
  runRegistrationHere,
  samplesOf,
  startRegistrationWorld,
  uploadPendingSamples,
} from './support/registration-world';
import type { RepositoryServer } from './support/repository-server';

/**
 * The Tree of Life lifecycle after validation (docs/tol-manifests.md §3.2–3.3): the manager's acceptance alone sends the
 * samples to ENA — their specimens' ToLIDs first — with nothing else to call; waits (a pending ToLID, an unreachable
 * ENA, no Webin account) are visible and end by themselves.
 */

let world: RegistrationWorld;
let server: RepositoryServer;
let h: Harness;
let manager: Awaited<ReturnType<Harness['user']>>;
let profileId: string;
let offset = 0;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  world = await startRegistrationWorld(['ena', 'tolid']);
  ({ server, h } = world);
  manager = await h.user({ username: 'dtol-lead', memberOf: ['dtol'], managerOf: ['dtol'] });
  profileId = await createProfile(h, manager.key, { title: 'Wytham registration', description: '', type: 'dtol' });
}, 120_000);
afterAll(() => world.close());
beforeEach(() => {
  server.faults.clear();
  server.tolid.approveAll();
});

const pick = (row: Record<string, string>, names: string[]) => Object.fromEntries(names.map((n) => [n, row[n] ?? '']));

const rowsOf = (ids: string[]) => samplesOf(h, ids);

/** n samples of a fresh manifest, uploaded and confirmed by the manager, still pending. */
async function pendingSamples(n: number, harness = h, key = manager.key, profile = profileId, validateHere = false): Promise<string[]> {
  offset += n;
  return uploadPendingSamples(harness, key, profile, dtolRows(n, offset - n), { validateHere });
}

async function accept(ids: string[], harness = h, key = manager.key) {
  const res = await decideSamples(harness, key, { svc_ids: ids, decision: 'accept' });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { accepted: string[]; registrations: { submission_id: string; samples: number; created: boolean }[] };
}

const settled = (ids: string[], done: (s: (typeof samples.$inferSelect)[]) => boolean, what: string) =>
  waitFor(() => rowsOf(ids), done, what, 600);

const finished = (ids: string[]) =>
  settled(ids, (rows) => rows.every((r) => ['accepted', 'rejected', 'refused', 'failed'].includes(r.status)), 'the registration');

/** ADD documents naming the alias (only those ENA applied, with `applied`) */
const addsOf = (alias: string, applied = false) =>
  server.ena.submissions.filter((s) => s.actions.includes('ADD') && (!applied || s.success) && s.objects.some((o) => o.alias === alias))
    .length;

describe('acceptance sends the samples to ENA, ToLIDs first, with no other call', () => {
  it('ends with every sample accepted, with its BioSample accession, its ToLID as public name, and system audit records', async () => {
    const ids = await pendingSamples(2);
    const decided = await accept(ids);
    expect(decided.registrations).toEqual([]); // their specimens need ToLIDs first
    const rows = await finished(ids);
    for (const s of rows) {
      const specimen = (await h.database.db.select().from(specimens).where(eq(specimens.specimenId, s.specimenId!)))[0]!;
      expect(specimen).toMatchObject({ tolidStatus: 'approved', publicName: server.tolid.assigned.get(s.specimenId!) });
      expect(specimen.biosampleAccession).toMatch(/^SAMEA\d+$/);
      expect(s.status).toBe('accepted');
      expect(s.biosampleAccession).toMatch(/^SAMEA\d+$/);
      expect(s.sraAccession).toMatch(/^ERS\d+$/);
      expect(s.publicName).toBe(server.tolid.assigned.get(s.specimenId!));
      expect(s.sampleSameAs ?? s.sampleDerivedFrom).toBe(specimen.biosampleAccession);
      const audit = await h.database.db.select().from(sampleUpdates).where(eq(sampleUpdates.sampleId, s.id));
      const system = audit.filter((a) => a.updateType === 'system');
      expect(system.find((a) => a.field === 'public_name')).toMatchObject({ oldValue: '', newValue: s.publicName });
      expect(system.find((a) => a.field === 'biosampleAccession')).toMatchObject({ oldValue: '', newValue: s.biosampleAccession });
      expect(audit.find((a) => a.field === 'status' && a.updateType === 'user')).toMatchObject({
        oldValue: 'pending',
        newValue: 'processing',
      });
      expect(addsOf(s.id)).toBe(1);
    }
    // the ToLID went into the specimen's and the samples' XML, which used the ToL checklist
    const tolid = rows[0]!.publicName!;
    const sent = server.requests
      .filter((r) => r.service === 'ena' && r.body.includes(tolid))
      .map((r) => r.body)
      .join('');
    expect(sent).toContain('<TAG>tolid</TAG>');
    expect(sent).toContain('ERC000053');
    // the public sample_status shows where they are, as clients of the reference read it
    const status = (await (await h.request(`/api/manifest/${rows[0]!.manifestId}/sample_status`)).json()) as { data: { status: string }[] };
    expect(status.data.map((d) => d.status)).toEqual(['accepted', 'accepted']);
  });

  it('waits, visibly, while the ToLID service has a request pending, and finishes when it answers', async () => {
    const ids = await pendingSamples(1);
    const [sample] = await rowsOf(ids);
    server.tolid.setOutcome(sample!.specimenId!, { status: 'pending' });
    await accept(ids);
    const [waiting] = await settled(ids, (r) => r[0]!.statusDetail?.startsWith('Waiting for a curator') ?? false, 'the pending ToLID');
    expect(waiting).toMatchObject({ status: 'awaiting_tolid', publicName: null });
    expect(waiting!.statusDetail).toContain(sample!.specimenId!);
    expect(waiting!.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());
    const status = (await (await h.request(`/api/manifest/${sample!.manifestId}/sample_status`)).json()) as { data: { status: string }[] };
    expect(status.data[0]!.status).toBe('awaiting_tolid');

    // the curator approves; when the wait is over the sweep asks again
    server.tolid.approveAll();
    await h.database.db.update(samples).set({ nextAttemptAt: sql`now() - interval '1 second'` }).where(inArray(samples.id, ids));
    await sweepRegistrations(h.database.db, registrationQueue(h.config, h.deps.jobs));
    const [done] = await finished(ids);
    expect(done).toMatchObject({ status: 'accepted', publicName: server.tolid.assigned.get(sample!.specimenId!) });
  });

  it('rejects the samples with the reason when the ToLID service rejects the request', async () => {
    const ids = await pendingSamples(1);
    const [sample] = await rowsOf(ids);
    server.tolid.setOutcome(sample!.specimenId!, { status: 'rejected', reason: 'Taxon 9606 is not a species we assign ToLIDs to.' });
    await accept(ids);
    const [done] = await finished(ids);
    expect(done!.status).toBe('rejected');
    expect(done!.rejectionReason).toContain('Taxon 9606 is not a species we assign ToLIDs to.');
    expect(addsOf(done!.id)).toBe(0);
    // the uploader is told, with the reason (recorded as not sent: this harness has no SMTP server)
    const told = await h.database.db.select().from(emails).where(eq(emails.manifestId, done!.manifestId));
    const mail = told.find((e) => e.kind === 'registration_failed');
    expect(mail?.body).toContain('Taxon 9606 is not a species we assign ToLIDs to.');
    expect(mail?.body).toContain(done!.id);
  });

  it('names samples of a later manifest after their specimen’s ToLID without asking again', async () => {
    const first = dtolRows(1, offset);
    const ids = await pendingSamples(1);
    await accept(ids);
    const [named] = await finished(ids);
    const tolid = named!.publicName!;
    expect(tolid).toBeTruthy();
    const askedBefore = server.tolid.asked.length;

    // another tube of the same specimen, in a manifest of its own
    const [fresh] = dtolRows(1, offset);
    offset += 1;
    const sibling = {
      ...first[0]!,
      ...pick(fresh!, [
        'SERIES',
        'RACK_OR_PLATE_ID',
        'TUBE_OR_WELL_ID',
        'GAL_SAMPLE_ID',
        'PARTNER_SAMPLE_ID',
        'COLLECTOR_SAMPLE_ID',
        'TUBE_OR_WELL_ID_FOR_BARCODING',
      ]),
    };
    const { manifest_id } = await uploadManifest(h, manager.key, profileId, [sibling]);
    const siblingIds = (await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id))).map(
      (r) => r.id,
    );
    await accept(siblingIds);
    const [done] = await finished(siblingIds);
    expect(done).toMatchObject({ status: 'accepted', specimenId: named!.specimenId, publicName: tolid });
    expect(server.tolid.asked.length).toBe(askedBefore);
    const audit = await h.database.db.select().from(sampleUpdates).where(eq(sampleUpdates.sampleId, done!.id));
    expect(audit.find((a) => a.field === 'public_name')).toMatchObject({ updateType: 'system', oldValue: '', newValue: tolid });
    expect(server.requests.some((r) => r.service === 'ena' && r.body.includes(done!.id) && r.body.includes(tolid))).toBe(true);
  });

  it('asks for a new ToLID when a sample ENA refused comes back with another taxon for its specimen', async () => {
    const [row] = dtolRows(1, offset);
    const ids = await pendingSamples(1);
    server.faults.errorReceipt(10, ['Sample attribute "collection date" is invalid.']);
    await accept(ids);
    const [refused] = await finished(ids);
    expect(refused).toMatchObject({ status: 'refused', biosampleAccession: null });
    const oldTolid = refused!.publicName!;
    expect(oldTolid).toBeTruthy();

    // the researcher corrects the species; the re-upload clears the name the old taxon was given
    server.faults.clear();
    const [other] = dtolRows(1, offset + 1);
    const species = ['ORDER_OR_GROUP', 'FAMILY', 'GENUS', 'TAXON_ID', 'SCIENTIFIC_NAME', 'COMMON_NAME'];
    expect(other!.TAXON_ID).not.toBe(row!.TAXON_ID);
    await uploadManifest(h, manager.key, profileId, [{ ...row!, ...pick(other!, species) }]);
    const [cleared] = await rowsOf(ids);
    expect(cleared).toMatchObject({ status: 'pending', publicName: null, taxonId: other!.TAXON_ID });

    await accept(ids);
    const [done] = await finished(ids);
    expect(done!.status).toBe('accepted');
    expect(done!.publicName).toBeTruthy();
    expect(done!.publicName).not.toBe(oldTolid);
    expect(server.tolid.asked.at(-1)).toEqual({ specimenId: row!.SPECIMEN_ID, taxonId: other!.TAXON_ID });
  });

  it('waits while ENA is down, says so and when it tries next, and finishes once ENA is back', async () => {
    const ids = await pendingSamples(1);
    server.faults.fail(1000, { service: 'ena', status: 503 });
    await accept(ids);
    const [waiting] = await settled(ids, (r) => r[0]!.statusDetail?.startsWith('ENA could not be reached') ?? false, 'the outage to show');
    expect(waiting!.status).toBe('processing');
    expect(waiting!.statusDetail).toMatch(/next try at \d{4}-\d{2}-\d{2}T/);
    const [sub] = await h.database.db
      .select()
      .from(submissions)
      .where(sql`${submissions.sampleIds} @> ${sql.param([ids[0]!])}::text[]`);
    expect(sub).toMatchObject({ status: 'processing' });
    expect(sub!.error).toMatch(/^ENA could not be reached/);

    // ENA is back; the deferred run (queued with a delay) is what runs now
    server.faults.clear();
    await runRegistrationHere(h, sub!.id);
    const [done] = await rowsOf(ids);
    expect(done).toMatchObject({ status: 'accepted', statusDetail: null });
    expect(addsOf(done!.id)).toBe(1);
  });

  it('leaves the samples refused by ENA, its message in their history, when ENA refuses them, and lets the manager retry', async () => {
    const ids = await pendingSamples(1);
    server.faults.errorReceipt(10, ['Sample attribute "collection date" is invalid.']);
    await accept(ids);
    const [s] = await finished(ids);
    expect(s).toMatchObject({ status: 'refused', biosampleAccession: null, rejectionReason: null });
    const why = await h.database.db.select().from(sampleUpdates).where(eq(sampleUpdates.sampleId, ids[0]!));
    expect(why.find((u) => u.field === 'ena_refusal')?.newValue).toContain('collection date');

    server.faults.clear();
    const retry = await retryRegistration(h, manager.key, ids);
    expect(retry.status, await retry.clone().text()).toBe(202);
    const [again] = await finished(ids);
    expect(again).toMatchObject({ status: 'accepted', rejectionReason: null });
  });

  it('makes one registration of two identical retries sent at the same moment', async () => {
    const ids = await pendingSamples(2);
    // no Webin account for a moment: the samples wait in awaiting_ena, which a retry sends on
    const { ENA_USERNAME } = h.config;
    h.config.ENA_USERNAME = undefined;
    try {
      await accept(ids);
      // their ToLIDs come first, then they wait for the account
      await settled(ids, (rows) => rows.every((r) => r.status === 'awaiting_ena'), 'awaiting_ena');
    } finally {
      h.config.ENA_USERNAME = ENA_USERNAME;
    }
    const send = () =>
      h.request('/api/sample/register', { method: 'POST', key: manager.key, headers: json, body: JSON.stringify({ svc_ids: ids }) });
    const [a, b] = await Promise.all([send(), send()]);
    expect([a.status, b.status]).toEqual([202, 202]);
    const answers = [
      ...((await a.json()) as { submission_id: string; created: boolean }[]),
      ...((await b.json()) as { submission_id: string; created: boolean }[]),
    ];
    expect(new Set(answers.map((x) => x.submission_id)).size).toBe(1);
    // (the scheduled sweep may have sent them on a moment earlier: then neither request created it)
    expect(answers.filter((x) => x.created).length).toBeLessThanOrEqual(1);
    const holding = await h.database.db
      .select()
      .from(submissions)
      .where(sql`${submissions.sampleIds} && ${sql.param(ids)}::text[]`);
    expect(holding).toHaveLength(1);
    await finished(ids);
    for (const id of ids) expect(addsOf(id)).toBe(1);
  });
});

describe('without a Webin account', () => {
  it('keeps accepted samples in awaiting_ena, and sends them on once an account is configured', async () => {
    const bare = await createHarness(repositorySettings(server, ['tolid']), { workers: true, taxonomy: fakeTaxonomy() });
    try {
      const m = await bare.user({ memberOf: ['dtol'], managerOf: ['dtol'] });
      const profile = await createProfile(bare, m.key, { title: 'No account yet', description: '', type: 'dtol' });
      const ids = await pendingSamples(1, bare, m.key, profile);
      await accept(ids, bare, m.key);
      const rows = () => bare.database.db.select().from(samples).where(inArray(samples.id, ids));
      const [waiting] = await waitFor(rows, (r) => r[0]!.status === 'awaiting_ena', 'awaiting_ena');
      expect(waiting!.statusDetail).toMatch(/ENA_USERNAME and ENA_PASSWORD/);
      // its ToLID was asked for meanwhile
      expect(waiting!.publicName).toBe(server.tolid.assigned.get(waiting!.specimenId!));
      const refused = await bare.request('/api/sample/register', {
        method: 'POST',
        key: m.key,
        headers: json,
        body: JSON.stringify({ svc_ids: ids }),
      });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/ENA_USERNAME/);

      Object.assign(bare.config, {
        ENA_WEBIN_URL: server.enaUrl,
        ENA_USERNAME: server.credentials.ena.username,
        ENA_PASSWORD: server.credentials.ena.password,
      });
      // the workers' own sweep (every minute) reads the same settings and may send it a moment earlier: then this one
      // finds nothing to send
      const sent = await sweepRegistrations(bare.database.db, registrationQueue(bare.config, bare.deps.jobs));
      expect(sent).toBeLessThanOrEqual(1);
      const [done] = await waitFor(rows, (r) => r[0]!.status === 'accepted', 'the registration');
      expect(done!.biosampleAccession).toMatch(/^SAMEA\d+$/);
      // sent once, whichever sweep took it
      expect(addsOf(ids[0]!)).toBe(1);
    } finally {
      await bare.close();
    }
  });
});

describe('a worker that dies', () => {
  it('resumes after dying between sending and recording: the samples sent again are refused by name and read back, one set of accessions', async () => {
    // a queue without workers: the registration runs here, by hand
    const manual = await createHarness(repositorySettings(server, ['ena']), { taxonomy: fakeTaxonomy() });
    try {
      const m = await manual.user({ memberOf: ['dtol'], managerOf: ['dtol'] });
      const profile = await createProfile(manual, m.key, { title: 'Killed worker', description: '', type: 'dtol' });
      const ids = await pendingSamples(2, manual, m.key, profile, true);
      const [registration] = (await accept(ids, manual, m.key)).registrations;
      const real = createEnaClient(enaClientOptionsFromConfig(manual.config, manual.deps.logger));
      // ENA acts on the sample ADD, then the process dies before a single accession is written
      const dying: EnaClient = {
        ...real,
        async submit(doc, init) {
          const receipt = await real.submit(doc, init);
          if (typeof doc !== 'string' && doc.samples?.some((s) => ids.includes(s.alias))) throw new Error('worker killed');
          return receipt;
        },
      };
      const run = (ena: EnaClient) => runRegistrationHere(manual, registration!.submission_id, ena);
      // the run fails as a killed one would: the queue runs it again
      await expect(run(dying)).rejects.toThrow('worker killed');
      const halfway = await manual.database.db.select().from(samples).where(inArray(samples.id, ids));
      expect(halfway.every((s) => s.biosampleAccession === null && s.status === 'sending')).toBe(true);

      const callsBefore = server.ena.submissions.length;
      const reportsBefore = server.ena.reports.length;
      await run(real);
      const after = await manual.database.db.select().from(samples).where(inArray(samples.id, ids));
      const stored = server.ena.objects().filter((o) => ids.includes(o.alias));
      expect(stored).toHaveLength(2);
      for (const s of after) {
        expect(s.status).toBe('accepted');
        // created once: the second ADD was refused whole, naming each sample with its accession
        expect(addsOf(s.id, true)).toBe(1);
        expect(addsOf(s.id)).toBe(2);
        expect(s.sraAccession).toBe(stored.find((o) => o.alias === s.id)!.accession);
        expect(s.biosampleAccession).toBe(stored.find((o) => o.alias === s.id)!.extId?.accession);
      }
      // one refused ADD and one report for both samples, not a RECEIPT each
      const resumed = server.ena.submissions.slice(callsBefore);
      expect(resumed.map((r) => [r.actions, r.success])).toEqual([[['ADD', 'RELEASE'], false]]);
      expect(server.ena.reports.slice(reportsBefore).map((r) => r.ids.length)).toEqual([2]);
      const [done] = await manual.database.db.select().from(submissions).where(eq(submissions.id, registration!.submission_id));
      expect(done!.status).toBe('accepted');
    } finally {
      await manual.close();
    }
  });
});

it('serves the registered samples to a client written like the reference system’s clients', async () => {
  const ids = await pendingSamples(2);
  await accept(ids);
  await finished(ids);
  const [first] = await rowsOf(ids);
  const report = await runReferenceClient(h, { biosampleAccession: first!.biosampleAccession!, taxonId: first!.taxonId! });
  expect(report.manifestId).toBe(first!.manifestId);
  const mine = report.samples.find((s) => s.svc_id === first!.id);
  expect(mine).toMatchObject({
    number_found: 1,
    TAXON_ID: first!.taxonId,
    tol_project: 'DTOL',
    status: 'accepted',
    biosampleAccession: first!.biosampleAccession,
  });
  const crateIds = report.crate['@graph'].map((e) => e['@id']);
  expect(new Set(crateIds).size).toBe(crateIds.length);
});
