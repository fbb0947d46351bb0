import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { samples, sampleUpdates, specimens } from '@/db/schema';
import { ENA_MODIFY_FIELD } from '@/lib/samples/contract';
import type { CorrectionsConfirmed, CorrectionsPreview } from '@/lib/samples/corrections-contract';
import { buildTaxonRecords, fakeTaxonomy } from './fixtures/manifests/taxa';
import { enaSchemaErrors } from './support/ena-schemas';
import { createProfile, dtolRows, uploadManifest, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { decideSamples, repositorySettings } from './support/registration-world';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';
import { reuploadErrors } from './support/reupload';

/**
 * Curators correct registered samples by BioSample accession (lib/samples/corrections.ts): a preview validated as a
 * re-upload would be, nothing changed until its link is confirmed, then a new ToLID where the taxon changed and one
 * MODIFY of the sample and of its specimen at the Webin stand-in, each change in the history as the curator's with
 * ENA's receipt. Against the real handlers, a real database and the local ENA, ToLID service and taxonomy.
 */

let server: RepositoryServer;
let h: Harness;
let manager: Awaited<ReturnType<Harness['user']>>;
let profileId: string;
let offset = 700;
type Sample = typeof samples.$inferSelect;
const json = { 'content-type': 'application/json' };
const SPECIES = ['ORDER_OR_GROUP', 'FAMILY', 'GENUS', 'TAXON_ID', 'SCIENTIFIC_NAME', 'COMMON_NAME'];

beforeAll(async () => {
  server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  h = await createHarness(
    { ...repositorySettings(server, ['ena', 'tolid']), ENA_TAXONOMY_URL: server.taxonomyUrl },
    { workers: true, taxonomy: fakeTaxonomy() },
  );
  manager = await h.user({ username: 'dtol-corrector', memberOf: ['dtol'], managerOf: ['dtol'] });
  profileId = await createProfile(h, manager.key, { title: 'Corrections by accession', description: '', type: 'dtol' });
}, 120_000);
afterAll(async () => {
  await h.close();
  await server.close();
});
beforeEach(() => {
  server.faults.clear();
  server.tolid.approveAll();
});

const rowsOf = (ids: string[]) => h.database.db.select().from(samples).where(inArray(samples.id, ids));
const settled = (ids: string[]) =>
  waitFor(
    () => rowsOf(ids),
    (rows) => rows.every((r) => ['accepted', 'rejected', 'refused'].includes(r.status)),
    'the registration',
    600,
  );

/** A DTOL manifest of `n` samples, approved and registered at ENA: its rows and samples in the same order. */
async function registered(n: number): Promise<{ rows: Record<string, string>[]; samples: Sample[] }> {
  const rows = dtolRows(n, offset);
  offset += 10;
  const { manifest_id } = await uploadManifest(h, manager.key, profileId, rows);
  const ids = (await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id))).map((r) => r.id);
  expect((await decideSamples(h, manager.key, { svc_ids: ids, decision: 'accept' })).status).toBe(200);
  const done = await settled(ids);
  expect(done.every((s) => s.status === 'accepted' && s.biosampleAccession)).toBe(true);
  const byTube = new Map(done.map((s) => [s.tubeOrWellId, s]));
  return { rows, samples: rows.map((r) => byTube.get(r.TUBE_OR_WELL_ID!)!) };
}

const preview = async (key: string, corrections: { biosampleAccession: string; field: string; value: string }[]) => {
  const res = await h.request('/api/admin/samples/corrections', {
    method: 'POST',
    key,
    headers: json,
    body: JSON.stringify({ corrections }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as CorrectionsPreview;
};
const confirm = (key: string, url: string) => h.request(new URL(url).pathname, { method: 'POST', key });

/** Successful ENA documents with this action that carried this alias. */
const sentWith = (action: string, alias: string) =>
  server.ena.submissions.filter((s) => s.success && s.actions.includes(action) && s.objects.some((o) => o.alias === alias));
const historyOf = (id: string) => h.database.db.select().from(sampleUpdates).where(eq(sampleUpdates.sampleId, id));
const specimenOf = async (s: Sample) => (await h.database.db.select().from(specimens).where(eq(specimens.specimenId, s.specimenId!)))[0]!;

describe('corrections by BioSample accession', () => {
  it('corrects TAXON_ID: previewed, then a new ToLID and one MODIFY of sample and specimen, valid by ENA’s XSDs, in the history', async () => {
    const {
      samples: [sample],
    } = await registered(1);
    const s = sample!;
    const specimenBefore = await specimenOf(s);
    const [other] = dtolRows(1, offset + 300);
    expect(other!.TAXON_ID).not.toBe(s.taxonId);
    const corrections = SPECIES.filter((f) => (other![f] ?? '') !== (s.fields[f] ?? '')).map((field) => ({
      biosampleAccession: s.biosampleAccession!,
      field,
      value: other![field] ?? '',
    }));
    const submissionsBefore = server.ena.submissions.length;

    const diff = await preview(manager.key, corrections);
    expect(diff.errors, JSON.stringify(diff.rows)).toBe(0);
    expect(diff.samples).toHaveLength(1);
    expect(diff.samples[0]).toMatchObject({ svc_id: s.id, sample_action: 'MODIFY', specimen_action: 'MODIFY', new_tolid: true });
    expect(diff.samples[0]!.changes).toContainEqual({ field: 'TAXON_ID', old_value: s.taxonId, new_value: other!.TAXON_ID });
    expect(diff.confirm_url).toMatch(/\/api\/admin\/samples\/corrections\/[\w-]+\.[\w-]+$/);
    // nothing changes before the confirmation
    expect((await rowsOf([s.id]))[0]).toMatchObject({ status: 'accepted', taxonId: s.taxonId, publicName: s.publicName });
    expect(server.ena.submissions.length).toBe(submissionsBefore);

    const res = await confirm(manager.key, diff.confirm_url!);
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as CorrectionsConfirmed).already_applied).toBe(false);
    const [after] = await settled([s.id]);
    expect(after).toMatchObject({ status: 'accepted', taxonId: other!.TAXON_ID, biosampleAccession: s.biosampleAccession });
    // a new ToLID, asked for the new taxon, before the MODIFY
    expect(server.tolid.asked.at(-1)).toEqual({ specimenId: s.specimenId, taxonId: other!.TAXON_ID });
    expect(after!.publicName).toBeTruthy();
    expect(after!.publicName).not.toBe(s.publicName);
    const modifies = sentWith('MODIFY', s.id);
    expect(modifies).toHaveLength(1);
    expect(sentWith('MODIFY', specimenBefore.id)).toHaveLength(1);
    expect((await specimenOf(after!)).biosampleAccession).toBe(specimenBefore.biosampleAccession);

    // the documents sent are valid by ENA's own schemas
    const documents = server.requests
      .filter((r) => r.service === 'ena' && r.body.includes('<MODIFY') && (r.body.includes(s.id) || r.body.includes(specimenBefore.id)))
      .map((r) => /<WEBIN\b[\s\S]*<\/WEBIN>/.exec(r.body)?.[0] ?? '');
    expect(documents.length).toBeGreaterThanOrEqual(2);
    for (const xml of documents) {
      expect(xml).toContain(other!.TAXON_ID);
      expect(await enaSchemaErrors(xml)).toEqual([]);
    }

    // the history: the curator's changes, then ENA's receipt of the MODIFY
    const history = await historyOf(s.id);
    expect(history.find((u) => u.field === 'TAXON_ID')).toMatchObject({
      updateType: 'user',
      actorId: manager.user.id,
      oldValue: s.taxonId,
      newValue: other!.TAXON_ID,
    });
    expect(history.find((u) => u.field === ENA_MODIFY_FIELD)).toMatchObject({
      updateType: 'system',
      oldValue: s.submissionAccession,
      newValue: modifies[0]!.submissionAccession,
    });
  }, 120_000);

  it('refuses a correction a re-upload would refuse, with the same message, and changes nothing', async () => {
    const {
      rows,
      samples: [s],
    } = await registered(1);
    const reupload = await reuploadErrors(h, manager.key, profileId, [{ ...rows[0]!, TAXON_ID: 'seven', SEX: 'SOMETIMES' }]);
    expect(reupload.length).toBeGreaterThan(0);
    const csv = `biosampleAccession,field,value\n${s!.biosampleAccession},TAXON_ID,seven\n${s!.biosampleAccession},SEX,SOMETIMES\n`;
    const res = await h.request('/api/admin/samples/corrections', {
      method: 'POST',
      key: manager.key,
      headers: { 'content-type': 'text/csv' },
      body: csv,
    });
    expect(res.status).toBe(200);
    const diff = (await res.json()) as CorrectionsPreview;
    expect(diff.confirm_url).toBeNull();
    expect(diff.rows.flatMap((r) => r.errors.map((e) => e.message)).sort()).toEqual(reupload.map((e) => e.message).sort());
    expect(diff.rows.find((r) => r.field === 'TAXON_ID')!.errors.map((e) => e.rule)).toContain('taxon_id_integer');
    expect((await rowsOf([s!.id]))[0]).toMatchObject({ status: 'accepted', taxonId: s!.taxonId, timeUpdated: s!.timeUpdated });

    // unknown accessions and fields, and fields the service owns, are errors of their rows
    const refused = await preview(manager.key, [
      { biosampleAccession: 'SAMEA999999999', field: 'SEX', value: 'FEMALE' },
      { biosampleAccession: s!.biosampleAccession!, field: 'FAVOURITE_COLOUR', value: 'blue' },
      { biosampleAccession: s!.biosampleAccession!, field: 'public_name', value: 'ilNew1' },
      { biosampleAccession: s!.biosampleAccession!, field: 'TUBE_OR_WELL_ID', value: 'FD99999999' },
    ]);
    expect(refused.rows.map((r) => [r.row, r.errors.map((e) => e.rule)])).toEqual([
      [2, ['unknown_accession']],
      [3, ['unknown_field']],
      [4, ['not_correctable']],
      [5, ['not_correctable']],
    ]);
    expect(refused.confirm_url).toBeNull();
  }, 120_000);

  it('takes the corrections as a CSV, as a body or a file, and applies them once', async () => {
    const {
      samples: [s],
    } = await registered(1);
    const csv = `biosampleAccession,field,value\n${s!.biosampleAccession},DESCRIPTION_OF_COLLECTION_METHOD,Beaten from an oak\n`;
    const form = new FormData();
    form.set('file', new File([csv], 'corrections.csv', { type: 'text/csv' }));
    const fromFile = await h.request('/api/admin/samples/corrections', { method: 'POST', key: manager.key, body: form });
    expect(fromFile.status, await fromFile.clone().text()).toBe(200);
    const fromBody = await h.request('/api/admin/samples/corrections', {
      method: 'POST',
      key: manager.key,
      headers: { 'content-type': 'text/csv' },
      body: csv,
    });
    const [a, b] = [(await fromFile.json()) as CorrectionsPreview, (await fromBody.json()) as CorrectionsPreview];
    expect(a.samples).toEqual(b.samples);
    expect(a.samples[0]).toMatchObject({ sample_action: 'MODIFY', specimen_action: 'MODIFY', new_tolid: false });
    expect(a.samples[0]!.changes).toEqual([
      {
        field: 'DESCRIPTION_OF_COLLECTION_METHOD',
        old_value: s!.fields.DESCRIPTION_OF_COLLECTION_METHOD ?? '',
        new_value: 'Beaten from an oak',
      },
    ]);

    expect((await confirm(manager.key, b.confirm_url!)).status).toBe(200);
    const [after] = await settled([s!.id]);
    expect(after!.fields.DESCRIPTION_OF_COLLECTION_METHOD).toBe('Beaten from an oak');
    expect(after!.publicName).toBe(s!.publicName);
    expect(sentWith('MODIFY', s!.id)).toHaveLength(1);
  }, 120_000);

  it('gives a sample manager of another project nothing: the sample is not found, and nothing changes', async () => {
    const {
      samples: [s],
    } = await registered(1);
    const asg = await h.user({ memberOf: ['asg'], managerOf: ['asg'] });
    const change = { biosampleAccession: s!.biosampleAccession!, field: 'DESCRIPTION_OF_COLLECTION_METHOD', value: 'Light trap' };
    const theirs = await preview(asg.key, [change]);
    const unknown = await preview(asg.key, [{ ...change, biosampleAccession: 'SAMEA999999998' }]);
    expect(theirs.rows[0]!.errors).toEqual([
      { rule: 'unknown_accession', message: `No sample with BioSample accession ${s!.biosampleAccession}.` },
    ]);
    expect(unknown.rows[0]!.errors.map((e) => e.rule)).toEqual(['unknown_accession']);
    expect(theirs.samples).toEqual([]);
    expect(theirs.confirm_url).toBeNull();

    // the dtol manager's link is theirs alone; one who approves nothing is not answered at all
    const mine = await preview(manager.key, [change]);
    expect(mine.confirm_url).toBeTruthy();
    expect((await confirm(asg.key, mine.confirm_url!)).status).toBe(404);
    const member = await h.user({ memberOf: ['dtol'] });
    const refused = await h.request('/api/admin/samples/corrections', {
      method: 'POST',
      key: member.key,
      headers: json,
      body: JSON.stringify({ corrections: [change] }),
    });
    expect(refused.status).toBe(404);
    expect((await confirm(member.key, mine.confirm_url!)).status).toBe(404);
    expect((await rowsOf([s!.id]))[0]).toMatchObject({ status: 'accepted', fields: s!.fields, timeUpdated: s!.timeUpdated });
  }, 120_000);

  it('sends one MODIFY when the link is confirmed twice, at once and again later', async () => {
    const {
      samples: [s],
    } = await registered(1);
    const diff = await preview(manager.key, [
      { biosampleAccession: s!.biosampleAccession!, field: 'COLLECTOR_AFFILIATION', value: 'Wytham Woods | Natural History Museum' },
    ]);
    const answers = await Promise.all([confirm(manager.key, diff.confirm_url!), confirm(manager.key, diff.confirm_url!)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const applied = await Promise.all(answers.map(async (r) => ((await r.json()) as CorrectionsConfirmed).already_applied));
    expect(applied.sort()).toEqual([false, true]);
    await settled([s!.id]);
    const again = await confirm(manager.key, diff.confirm_url!);
    expect(((await again.json()) as CorrectionsConfirmed).already_applied).toBe(true);
    expect(sentWith('MODIFY', s!.id)).toHaveLength(1);
    expect((await historyOf(s!.id)).filter((u) => u.field === 'COLLECTOR_AFFILIATION')).toHaveLength(1);
  }, 120_000);

  it('refuses a stale link with 409: the sample changed after the preview', async () => {
    const {
      samples: [s],
    } = await registered(1);
    const stale = await preview(manager.key, [
      {
        biosampleAccession: s!.biosampleAccession!,
        field: 'COLLECTOR_AFFILIATION',
        value: 'University of Cambridge | Natural History Museum',
      },
    ]);
    const first = await preview(manager.key, [
      { biosampleAccession: s!.biosampleAccession!, field: 'COLLECTED_BY', value: 'Anna Smith | John Doe' },
    ]);
    expect((await confirm(manager.key, first.confirm_url!)).status).toBe(200);
    await settled([s!.id]);
    const res = await confirm(manager.key, stale.confirm_url!);
    expect(res.status).toBe(409);
    expect((await res.json()).detail).toMatch(/changed since/);
    expect((await rowsOf([s!.id]))[0]!.fields.COLLECTOR_AFFILIATION).toBe(s!.fields.COLLECTOR_AFFILIATION);
    expect(sentWith('MODIFY', s!.id)).toHaveLength(1);
  }, 120_000);
});
