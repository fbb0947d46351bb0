import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { samples, sampleUpdates, specimens, submissionReceipts, submissions } from '@/db/schema';
import { createEnaClient, type EnaClient, enaClientOptionsFromConfig } from '@/lib/repositories/ena';
import { ENA_MODIFY_FIELD } from '@/lib/samples/contract';
import { specimenIdFor } from './fixtures/manifests/generate';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { createProfile, dtolRows, uploadManifest, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import {
  decideSamples,
  type RegistrationWorld,
  repositorySettings,
  retryRegistration,
  runRegistrationHere,
  startRegistrationWorld,
} from './support/registration-world';
import type { RepositoryServer } from './support/repository-server';

/**
 * A sample's life after registration (docs/tol-manifests.md §2.6, §3.3): a correction approved again reaches ENA as a
 * MODIFY of the sample and of its specimen record, keeping their accessions; a re-identification (new TAXON_ID) asks
 * for a new ToLID first; a MODIFY is sent once whatever crashes, and one ENA refuses leaves the public record as it was.
 */

let world: RegistrationWorld;
let server: RepositoryServer;
let h: Harness;
let manager: Awaited<ReturnType<Harness['user']>>;
let profileId: string;
let offset = 500;
type Sample = typeof samples.$inferSelect;

beforeAll(async () => {
  world = await startRegistrationWorld(['ena', 'tolid']);
  ({ server, h } = world);
  manager = await h.user({ username: 'dtol-curator', memberOf: ['dtol'], managerOf: ['dtol'] });
  profileId = await createProfile(h, manager.key, { title: 'Wytham corrections', description: '', type: 'dtol' });
}, 120_000);
afterAll(() => world.close());
beforeEach(() => {
  server.faults.clear();
  server.tolid.approveAll();
});

const pick = (row: Record<string, string>, names: string[]) => Object.fromEntries(names.map((n) => [n, row[n] ?? '']));
const SPECIES = ['ORDER_OR_GROUP', 'FAMILY', 'GENUS', 'TAXON_ID', 'SCIENTIFIC_NAME', 'COMMON_NAME'];

const rowsOf = (harness: Harness, ids: string[]) => harness.database.db.select().from(samples).where(inArray(samples.id, ids));

async function decide(harness: Harness, key: string, ids: string[]) {
  const res = await decideSamples(harness, key, { svc_ids: ids, decision: 'accept' });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { registrations: { submission_id: string; created: boolean }[] };
}

const settled = (ids: string[], done: (rows: Sample[]) => boolean, what: string) => waitFor(() => rowsOf(h, ids), done, what, 600);
const finished = (ids: string[]) =>
  settled(ids, (rows) => rows.every((r) => ['accepted', 'rejected', 'refused', 'failed'].includes(r.status)), 'the registration');

/** ENA documents with this action that carried this alias. */
const sentWith = (action: string, alias: string) =>
  server.ena.submissions.filter((s) => s.success && s.actions.includes(action) && s.objects.some((o) => o.alias === alias));

const specimenOf = async (harness: Harness, s: Sample) =>
  (
    await harness.database.db
      .select()
      .from(specimens)
      .where(and(eq(specimens.project, s.project), eq(specimens.specimenId, s.specimenId!)))
  )[0]!;

const historyOf = (harness: Harness, id: string) => harness.database.db.select().from(sampleUpdates).where(eq(sampleUpdates.sampleId, id));

/** What the Webin stand-in holds for an alias: the XML it was last given. */
const heldAtEna = (alias: string) => JSON.stringify(server.ena.objects().find((o) => o.alias === alias)?.node ?? null);

describe('a correction to a registered sample reaches ENA', () => {
  it('sends one MODIFY per changed sample and specimen, with a new ToLID for a new taxon, and lists the receipt in the history', async () => {
    const rows = dtolRows(2, offset);
    offset += 10;
    const { manifest_id } = await uploadManifest(h, manager.key, profileId, rows);
    const ids = (await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id))).map((r) => r.id);
    await decide(h, manager.key, ids);
    const registered = await finished(ids);
    expect(registered.every((s) => s.status === 'accepted' && s.biosampleAccession)).toBe(true);
    const byTube = new Map(registered.map((s) => [s.tubeOrWellId, s]));
    const corrected = byTube.get(rows[0]!.TUBE_OR_WELL_ID!)!;
    const reidentified = byTube.get(rows[1]!.TUBE_OR_WELL_ID!)!;
    const before = new Map(registered.map((s) => [s.id, s]));
    const specimensBefore = new Map([
      [corrected.id, await specimenOf(h, corrected)],
      [reidentified.id, await specimenOf(h, reidentified)],
    ]);

    // the sample manager corrects a field of one sample and the species of the other, in the same sheet
    const [other] = dtolRows(1, offset + 200);
    expect(other!.TAXON_ID).not.toBe(rows[1]!.TAXON_ID);
    const edited = [
      { ...rows[0]!, DESCRIPTION_OF_COLLECTION_METHOD: 'Hand-picked from a hazel hedge' },
      { ...rows[1]!, ...pick(other!, SPECIES) },
    ];
    await uploadManifest(h, manager.key, profileId, edited);
    const pending = await rowsOf(h, ids);
    expect(pending.map((s) => s.status)).toEqual(['pending', 'pending']);
    expect(pending.find((s) => s.id === reidentified.id)).toMatchObject({ publicName: null, taxonId: other!.TAXON_ID });

    await decide(h, manager.key, ids);
    const after = new Map((await finished(ids)).map((s) => [s.id, s]));
    for (const id of ids) {
      const s = after.get(id)!;
      const was = before.get(id)!;
      expect(s.status).toBe('accepted');
      // the same records at ENA, changed in place
      expect(s.biosampleAccession).toBe(was.biosampleAccession);
      expect(s.sraAccession).toBe(was.sraAccession);
      expect(sentWith('ADD', id)).toHaveLength(1);
      const modifies = sentWith('MODIFY', id);
      expect(modifies).toHaveLength(1);
      // the history lists the MODIFY with the receipt's submission accession
      const history = await historyOf(h, id);
      expect(history.find((u) => u.field === ENA_MODIFY_FIELD)).toMatchObject({
        updateType: 'system',
        oldValue: was.submissionAccession,
        newValue: modifies[0]!.submissionAccession,
      });
      expect(s.submissionAccession).toBe(modifies[0]!.submissionAccession);

      const specimen = await specimenOf(h, s);
      const specimenBefore = specimensBefore.get(id)!;
      expect(specimen.biosampleAccession).toBe(specimenBefore.biosampleAccession);
      expect(sentWith('ADD', specimen.id)).toHaveLength(1);
      expect(sentWith('MODIFY', specimen.id)).toHaveLength(1);
      expect(s.sampleSameAs ?? s.sampleDerivedFrom).toBe(specimen.biosampleAccession);
    }
    expect(heldAtEna(corrected.id)).toContain('Hand-picked from a hazel hedge');

    // the new species has its own ToLID, asked for the new taxon, and ENA holds both for sample and specimen
    const renamed = after.get(reidentified.id)!;
    expect(renamed.publicName).toBeTruthy();
    expect(renamed.publicName).not.toBe(reidentified.publicName);
    expect(server.tolid.asked.at(-1)).toEqual({ specimenId: rows[1]!.SPECIMEN_ID, taxonId: other!.TAXON_ID });
    const renamedSpecimen = await specimenOf(h, renamed);
    expect(renamedSpecimen).toMatchObject({ taxonId: other!.TAXON_ID, publicName: renamed.publicName });
    for (const alias of [renamed.id, renamedSpecimen.id]) {
      expect(heldAtEna(alias)).toContain(`"TAXON_ID":"${other!.TAXON_ID}"`);
      expect(heldAtEna(alias)).toContain(renamed.publicName!);
    }
  });

  it('moves a sample to another specimen: the new specimen is added with its own ToLID and the sample re-pointed at it', async () => {
    const rows = dtolRows(1, offset);
    offset += 10;
    const { manifest_id } = await uploadManifest(h, manager.key, profileId, rows);
    const ids = (await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id))).map((r) => r.id);
    await decide(h, manager.key, ids);
    const [registered] = await finished(ids);
    expect(registered!.status).toBe('accepted');
    const oldSpecimen = await specimenOf(h, registered!);

    const newSpecimenId = specimenIdFor('dtol', 90_000 + offset);
    await uploadManifest(h, manager.key, profileId, [{ ...rows[0]!, SPECIMEN_ID: newSpecimenId }]);
    expect((await rowsOf(h, ids))[0]).toMatchObject({ status: 'pending', publicName: null, specimenId: newSpecimenId });
    await decide(h, manager.key, ids);
    const [moved] = await finished(ids);
    const newSpecimen = await specimenOf(h, moved!);
    expect(moved).toMatchObject({ status: 'accepted', biosampleAccession: registered!.biosampleAccession });
    expect(newSpecimen.id).not.toBe(oldSpecimen.id);
    expect(newSpecimen.biosampleAccession).toMatch(/^SAMEA\d+$/);
    expect(newSpecimen.biosampleAccession).not.toBe(oldSpecimen.biosampleAccession);
    expect(moved!.sampleSameAs ?? moved!.sampleDerivedFrom).toBe(newSpecimen.biosampleAccession);
    expect(moved!.publicName).toBe(server.tolid.assigned.get(newSpecimenId));
    expect(server.tolid.asked.at(-1)).toEqual({ specimenId: newSpecimenId, taxonId: rows[0]!.TAXON_ID });
    expect(sentWith('ADD', newSpecimen.id)).toHaveLength(1);
    expect(sentWith('MODIFY', oldSpecimen.id)).toHaveLength(0);
    expect(sentWith('MODIFY', moved!.id)).toHaveLength(1);
    expect(heldAtEna(moved!.id)).toContain(newSpecimen.biosampleAccession!);
  });

  it('leaves the sample refused by ENA, its message in the history, and the public record as it was when ENA refuses the MODIFY', async () => {
    const rows = dtolRows(1, offset);
    offset += 10;
    const { manifest_id } = await uploadManifest(h, manager.key, profileId, rows);
    const ids = (await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id))).map((r) => r.id);
    await decide(h, manager.key, ids);
    const [registered] = await finished(ids);
    expect(registered!.status).toBe('accepted');

    await uploadManifest(h, manager.key, profileId, [{ ...rows[0]!, DESCRIPTION_OF_COLLECTION_METHOD: 'Sieved from leaf litter' }]);
    server.faults.errorReceipt(10, ['Sample attribute "collection date" is invalid.']);
    await decide(h, manager.key, ids);
    const [refused] = await finished(ids);
    expect(refused).toMatchObject({
      status: 'refused',
      biosampleAccession: registered!.biosampleAccession,
      sraAccession: registered!.sraAccession,
      submissionAccession: registered!.submissionAccession,
    });
    // ENA's message is the submission's and the sample's history's, not repeated on the sample
    expect(refused!.rejectionReason).toBeNull();
    expect(heldAtEna(registered!.id)).not.toContain('Sieved from leaf litter');

    // the manager sends it again once ENA takes it
    server.faults.clear();
    const retry = await retryRegistration(h, manager.key, ids);
    expect(retry.status, await retry.clone().text()).toBe(202);
    const [done] = await settled(ids, (r) => r[0]!.status === 'accepted', 'the MODIFY sent again');
    expect(done!.biosampleAccession).toBe(registered!.biosampleAccession);
    expect(heldAtEna(registered!.id)).toContain('Sieved from leaf litter');
    expect(sentWith('ADD', registered!.id)).toHaveLength(1);
  });
});

describe('a MODIFY is sent once', () => {
  it('resumes after dying between sending and recording, through RECEIPT, without a second MODIFY', async () => {
    // a queue without workers and no ToLID service: the registration runs here, by hand
    const manual = await createHarness(repositorySettings(server, ['ena']), { taxonomy: fakeTaxonomy() });
    try {
      const m = await manual.user({ memberOf: ['dtol'], managerOf: ['dtol'] });
      const profile = await createProfile(manual, m.key, { title: 'Killed worker, corrections', description: '', type: 'dtol' });
      const rows = dtolRows(1, offset);
      offset += 10;
      const real = createEnaClient(enaClientOptionsFromConfig(manual.config, manual.deps.logger));
      const run = (ena: EnaClient, submissionId: string) => runRegistrationHere(manual, submissionId, ena);
      const { manifest_id } = await uploadManifest(manual, m.key, profile, rows, { validateHere: true });
      const ids = (await manual.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id))).map(
        (r) => r.id,
      );
      const id = ids[0]!;
      await run(real, (await decide(manual, m.key, ids)).registrations[0]!.submission_id);
      const [registered] = await rowsOf(manual, ids);
      expect(registered!.status).toBe('accepted');

      await uploadManifest(manual, m.key, profile, [{ ...rows[0]!, DESCRIPTION_OF_COLLECTION_METHOD: 'Netted at dusk' }], {
        validateHere: true,
      });
      const submissionId = (await decide(manual, m.key, ids)).registrations[0]!.submission_id;
      // ENA applies the sample's MODIFY, then the process dies before anything of it is written
      const dying: EnaClient = {
        ...real,
        async submit(doc, init) {
          const receipt = await real.submit(doc, init);
          if (typeof doc !== 'string' && doc.samples?.some((s) => s.alias === id)) throw new Error('worker killed');
          return receipt;
        },
      };
      await expect(run(dying, submissionId)).rejects.toThrow('worker killed');
      const [halfway] = await rowsOf(manual, ids);
      expect(halfway).toMatchObject({ status: 'sending', submissionAccession: registered!.submissionAccession });
      expect(sentWith('MODIFY', id)).toHaveLength(1);

      await run(real, submissionId);
      const [done] = await rowsOf(manual, ids);
      const modifies = sentWith('MODIFY', id);
      expect(modifies).toHaveLength(1);
      expect(done).toMatchObject({
        status: 'accepted',
        biosampleAccession: registered!.biosampleAccession,
        submissionAccession: modifies[0]!.submissionAccession,
      });
      expect(heldAtEna(id)).toContain('Netted at dusk');
      const [sub] = await manual.database.db.select().from(submissions).where(eq(submissions.id, submissionId));
      expect(sub!.status).toBe('accepted');
      const answers = await manual.database.db.select().from(submissionReceipts).where(eq(submissionReceipts.submissionId, submissionId));
      expect(answers.map((r) => r.kind)).toContain('RECEIPT');
      const history = await historyOf(manual, id);
      expect(history.filter((u) => u.field === ENA_MODIFY_FIELD)).toHaveLength(1);
    } finally {
      await manual.close();
    }
  });
});
