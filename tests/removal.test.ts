import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditEvents,
  manifests,
  permits,
  profileFiles,
  profiles,
  samples,
  sampleUpdates,
  specimens,
  studies,
  submissions,
  validationReports,
} from '@/db/schema';
import { currentDefinition } from '@/lib/manifests';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { toXlsx } from './fixtures/manifests/workbook';
import { minimalPdf } from './fixtures/pdf';
import { bytesOf, definition, registerSamples, SAMPLES, studiesApi } from './fixtures/studies/api';
import { uploadFiles, withDataFiles } from './fixtures/studies/data-files';
import { fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { createProfile, dtolRows, uploadManifest } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { expectProblem } from './support/http';

/**
 * Removal of what never went public: each DELETE removes what it names and writes its audit event in the same
 * transaction; whatever reached a public archive, is on its way there, or is in use is refused with 409 and left
 * exactly as it was; a stranger is answered as for an unknown id; an admin may delete what an owner may.
 */

let h: Harness;
let owner: Awaited<ReturnType<Harness['user']>>;
let stranger: Awaited<ReturnType<Harness['user']>>;
let admin: Awaited<ReturnType<Harness['user']>>;
const db = () => h.database.db;

beforeAll(async () => {
  h = await createHarness({}, { taxonomy: fakeTaxonomy() });
  owner = await h.user({ memberOf: ['dtol'] });
  stranger = await h.user({ memberOf: ['dtol'] });
  admin = await h.user({ isAdmin: true });
}, 120_000);
afterAll(() => h.close());

const del = (p: string, key?: string) => h.request(p, { method: 'DELETE', ...(key && { key }) });
const eventsOf = (objectType: string, objectId: string) =>
  db()
    .select()
    .from(auditEvents)
    .where(and(eq(auditEvents.objectType, objectType as 'sample'), eq(auditEvents.objectId, objectId)));
const eventCount = async () => Number((await db().select({ n: sql<number>`count(*)::int` }).from(auditEvents))[0]?.n ?? 0);

/** A DTOL profile of the owner's with a confirmed manifest of `n` samples (validated here: no workers). */
async function dtolProfile(title: string, n: number, offset = 0) {
  const profileId = await createProfile(h, owner.key, { title, description: '', type: 'dtol' });
  const { manifest_id } = await uploadManifest(h, owner.key, profileId, dtolRows(n, offset), { validateHere: true });
  const rows = await db().select().from(samples).where(eq(samples.manifestId, manifest_id)).orderBy(samples.tubeOrWellId);
  return { profileId, manifestId: manifest_id, rows };
}

/** Uploads a manifest for validation and leaves the report unconfirmed; validated here unless asked not to. */
async function unconfirmedReport(profileId: string, opts: { validate?: boolean; offset?: number } = {}): Promise<string> {
  const headers = currentDefinition('dtol').fields.map((f) => f.name);
  const fd = new FormData();
  fd.set('profile_id', profileId);
  fd.set('file', new File([new Uint8Array(await toXlsx(headers, dtolRows(2, opts.offset ?? 50), { typed: true }))], 'mistake.xlsx'));
  const res = await h.request('/api/manifest/validate', { method: 'POST', key: owner.key, body: fd });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  if (opts.validate ?? true) await h.jobs['manifest.validate']({ reportId: report_id });
  return report_id;
}

describe('DELETE /api/sample/{svc_id}', () => {
  let p: Awaited<ReturnType<typeof dtolProfile>>;
  beforeAll(async () => {
    p = await dtolProfile('Removal moths', 4);
  }, 60_000);

  it('answers 404 to a stranger, to an unknown or malformed id, and 401 without a key; nothing changes', async () => {
    const before = await eventCount();
    await expectProblem(await del(`/api/sample/${p.rows[0]!.id}`, stranger.key), 404);
    await expectProblem(await del(`/api/sample/${'0'.repeat(24)}`, owner.key), 404);
    await expectProblem(await del(`/api/sample/${p.rows[0]!.id}`), 401);
    expect(await db().select().from(samples).where(eq(samples.id, p.rows[0]!.id))).toHaveLength(1);
    expect(await eventCount()).toBe(before);
  });

  it('refuses 409 a sample that is accepted (naming its accession), being sent, queued, or in a registration under way, and changes nothing', async () => {
    const [a, b] = p.rows;
    await db().update(samples).set({ status: 'accepted', biosampleAccession: 'SAMEA990001' }).where(eq(samples.id, a!.id));
    const before = await eventCount();
    const accepted = await expectProblem(await del(`/api/sample/${a!.id}`, owner.key), 409);
    expect(accepted.detail).toBe(
      `Sample ${a!.tubeOrWellId} is accepted at ENA (SAMEA990001): what reached a public archive is never deleted.`,
    );
    // an admin is refused as well: the rule is about the archive, not the caller
    await expectProblem(await del(`/api/sample/${a!.id}`, admin.key), 409);
    for (const status of ['sending', 'processing'] as const) {
      await db().update(samples).set({ status }).where(eq(samples.id, b!.id));
      const refused = await expectProblem(await del(`/api/sample/${b!.id.toUpperCase()}`, owner.key), 409);
      expect(refused.detail).toContain(`Sample ${b!.tubeOrWellId}`);
      expect(refused.detail).toContain('never deleted');
    }
    // pending again, but held by a registration that has not finished
    await db().update(samples).set({ status: 'pending' }).where(eq(samples.id, b!.id));
    const [open] = await db()
      .insert(submissions)
      .values({ kind: 'samples', repository: 'ena', profileId: p.profileId, sampleIds: [b!.id], status: 'pending' })
      .returning();
    const held = await expectProblem(await del(`/api/sample/${b!.id}`, owner.key), 409);
    expect(held.detail).toContain(open!.id);
    await db().delete(submissions).where(eq(submissions.id, open!.id));

    expect(
      await db()
        .select({ id: samples.id })
        .from(samples)
        .where(inArray(samples.id, [a!.id, b!.id])),
    ).toHaveLength(2);
    expect(await eventCount()).toBe(before);
  });

  it('deletes a pending sample with its audit rows and writes its audit event; the specimen record stays while another sample comes from it', async () => {
    const [, , c, d] = p.rows;
    // two samples of one specimen, which has a record (a ToLID was asked for)
    await db().update(samples).set({ specimenId: c!.specimenId }).where(eq(samples.id, d!.id));
    const [specimen] = await db()
      .insert(specimens)
      .values({
        id: randomBytes(12).toString('hex'),
        project: 'dtol',
        specimenId: c!.specimenId!,
        profileId: p.profileId,
        publicName: 'ilTest1',
      })
      .returning();
    await db().insert(sampleUpdates).values({
      sampleId: c!.id,
      manifestId: p.manifestId,
      project: 'dtol',
      updateType: 'user',
      field: 'status',
      oldValue: 'pending',
      newValue: 'rejected',
    });

    const res = await del(`/api/sample/${c!.id}`, owner.key);
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect(await db().select().from(samples).where(eq(samples.id, c!.id))).toEqual([]);
    expect(await db().select().from(sampleUpdates).where(eq(sampleUpdates.sampleId, c!.id))).toEqual([]);
    const [event] = await eventsOf('sample', c!.id);
    expect(event).toMatchObject({
      action: 'delete',
      actorId: owner.user.id,
      profileId: p.profileId,
      detail: expect.objectContaining({ tube_or_well_id: c!.tubeOrWellId, specimen_id: c!.specimenId, manifest_id: p.manifestId }),
    });
    // d still comes from the specimen: its record stays, and so does the manifest
    expect(await db().select().from(specimens).where(eq(specimens.id, specimen!.id))).toHaveLength(1);
    expect(await eventsOf('specimen', specimen!.id)).toEqual([]);
    expect(await db().select().from(manifests).where(eq(manifests.id, p.manifestId))).toHaveLength(1);
  });

  it('lets an admin delete the last sample of a specimen, and the specimen record goes with it', async () => {
    const d = p.rows[3]!;
    const [specimen] = await db().select().from(specimens).where(eq(specimens.specimenId, p.rows[2]!.specimenId!));
    const res = await del(`/api/sample/${d.id}`, admin.key);
    expect(res.status).toBe(204);
    expect(await db().select().from(specimens).where(eq(specimens.id, specimen!.id))).toEqual([]);
    const [event] = await eventsOf('specimen', specimen!.id);
    expect(event).toMatchObject({
      actorId: admin.user.id,
      detail: { project: 'dtol', specimen_id: specimen!.specimenId, public_name: 'ilTest1' },
    });
    expect((await eventsOf('sample', d.id))[0]?.actorId).toBe(admin.user.id);
  });

  it('keeps a specimen record ENA holds even when its last sample goes', async () => {
    const q = await dtolProfile('Registered specimen', 1, 10);
    const s = q.rows[0]!;
    await db()
      .insert(specimens)
      .values({
        id: randomBytes(12).toString('hex'),
        project: 'dtol',
        specimenId: s.specimenId!,
        profileId: q.profileId,
        biosampleAccession: 'SAMEA990777',
      });
    expect((await del(`/api/sample/${s.id}`, owner.key)).status).toBe(204);
    expect(await db().select().from(specimens).where(eq(specimens.specimenId, s.specimenId!))).toHaveLength(1);
  });

  it('removes a manifest with its last sample, with its permits and the report confirmed into it', async () => {
    const q = await dtolProfile('One-sample manifest', 1, 20);
    const [report] = await db().select().from(validationReports).where(eq(validationReports.confirmedManifestId, q.manifestId));
    await db()
      .insert(permits)
      .values({
        profileId: q.profileId,
        reportId: report!.id,
        manifestId: q.manifestId,
        fileName: 'p.pdf',
        storedName: 'p_20260101.pdf',
        sizeInBytes: 10,
        sha256: 'x',
        content: Buffer.from(minimalPdf('p')),
      });
    expect((await del(`/api/sample/${q.rows[0]!.id}`, owner.key)).status).toBe(204);
    expect(await db().select().from(manifests).where(eq(manifests.id, q.manifestId))).toEqual([]);
    expect(await db().select().from(validationReports).where(eq(validationReports.id, report!.id))).toEqual([]);
    expect(await db().select().from(permits).where(eq(permits.manifestId, q.manifestId))).toEqual([]);
    expect((await eventsOf('sample', q.rows[0]!.id))[0]?.detail).toMatchObject({ manifest_removed: 'yes' });
    expect((await eventsOf('validation_report', report!.id))[0]?.detail).toMatchObject({ file_name: report!.fileName });
  });
});

describe('DELETE /api/manifest/validate/report/{report_id}', () => {
  let profileId: string;
  beforeAll(async () => {
    profileId = await createProfile(h, owner.key, { title: 'Reports', description: '', type: 'dtol' });
  });

  it('deletes an unconfirmed report with its permit uploads and writes its audit event; a stranger gets 404', async () => {
    const id = await unconfirmedReport(profileId);
    await db()
      .insert(permits)
      .values({
        profileId,
        reportId: id,
        fileName: 'p.pdf',
        storedName: 'p_20260101.pdf',
        sizeInBytes: 10,
        sha256: 'x',
        content: Buffer.from('x'),
      });
    await expectProblem(await del(`/api/manifest/validate/report/${id}`, stranger.key), 404);
    await expectProblem(await del(`/api/manifest/validate/report/${UUID0}`, owner.key), 404);
    await expectProblem(await del('/api/manifest/validate/report/not-a-uuid', owner.key), 404);
    expect((await del(`/api/manifest/validate/report/${id.toUpperCase()}`, owner.key)).status).toBe(204);
    await expectProblem(await h.request(`/api/manifest/validate/report/${id}`, { key: owner.key }), 404);
    expect(await db().select().from(permits).where(eq(permits.reportId, id))).toEqual([]);
    const [event] = await eventsOf('validation_report', id);
    expect(event).toMatchObject({
      profileId,
      actorId: owner.user.id,
      detail: { file_name: 'mistake.xlsx', status: 'complete', rows: 2, permits: 1 },
    });
  });

  it('deletes a report whose validation has not run; the job then finds nothing to write', async () => {
    const id = await unconfirmedReport(profileId, { validate: false, offset: 60 });
    expect((await del(`/api/manifest/validate/report/${id}`, admin.key)).status).toBe(204);
    await h.jobs['manifest.validate']({ reportId: id });
    expect(await db().select().from(validationReports).where(eq(validationReports.id, id))).toEqual([]);
  });

  it('refuses 409 a confirmed report and leaves it as it was', async () => {
    const q = await dtolProfile('Confirmed report', 1, 70);
    const [report] = await db().select().from(validationReports).where(eq(validationReports.confirmedManifestId, q.manifestId));
    const before = await eventCount();
    const refused = await expectProblem(await del(`/api/manifest/validate/report/${report!.id}`, owner.key), 409);
    expect(refused.detail).toContain(`confirmed into manifest ${q.manifestId}`);
    expect(await db().select().from(validationReports).where(eq(validationReports.id, report!.id))).toHaveLength(1);
    expect(await eventCount()).toBe(before);
  });
});

const UUID0 = '00000000-0000-4000-8000-000000000000';
const SCHEMA = 'svc_single_cell';
const CHECKLIST = 'version_dwc_sc_rnaseq';

describe('data files and studies', () => {
  let profileId: string;
  let studyFile: string;
  const STUDY = 'REMOVE1';
  beforeAll(async () => {
    profileId = await createProfile(h, owner.key, { title: 'Atlas', description: '', type: 'biodata' });
    await registerSamples(h, profileId);
    const api = studiesApi(h, owner.key, profileId);
    const def = await definition(h, SCHEMA, CHECKLIST);
    const made = await withDataFiles(h, owner.key, profileId, def, fixtureComponents(def, { studyId: STUDY, samples: SAMPLES }));
    studyFile = [...made.files.keys()][0]!;
    const res = await api.upload(
      SCHEMA,
      CHECKLIST,
      await workbookBytes(await fillTemplate(await bytesOf(await api.template(SCHEMA, CHECKLIST)), def, made.components)),
    );
    expect(res.status, await res.clone().text()).toBe(200);
    await uploadFiles(h, owner.key, profileId, new Map([['spare/extra.bin', Buffer.from('spare bytes')]]));
  }, 60_000);

  const fileUrl = (name: string) => `/api/profiles/${profileId}/files/${name}`;
  const listed = async () =>
    (await (await h.request(`/api/profiles/${profileId}/files?limit=1000`, { key: owner.key })).json()) as {
      file_name: string;
      used_by: string[];
    }[];

  it('lists which studies use each file', async () => {
    const files = await listed();
    expect(files.find((f) => f.file_name === studyFile)?.used_by).toEqual([STUDY]);
    expect(files.find((f) => f.file_name === 'spare/extra.bin')?.used_by).toEqual([]);
  });

  it('refuses 409 a file a study names, and 404 to a stranger or for an unknown file', async () => {
    const before = await eventCount();
    const refused = await expectProblem(await del(fileUrl(studyFile), owner.key), 409);
    expect(refused.detail).toBe(
      `File ${studyFile} is named by study ${STUDY}; change or delete the study first, since a study is sent with its files.`,
    );
    await expectProblem(await del(fileUrl('spare/extra.bin'), stranger.key), 404);
    await expectProblem(await del(fileUrl('nothing-here.bin'), owner.key), 404);
    await expectProblem(await del(fileUrl('a%5Cb'), owner.key), 400);
    expect((await listed()).map((f) => f.file_name)).toContain(studyFile);
    expect(await eventCount()).toBe(before);
  });

  it('deletes an unused file: its record, its stored bytes (and the folder it made) and an audit event', async () => {
    const dir = path.join(h.config.dataDir, 'files', profileId, 'spare');
    expect(existsSync(path.join(dir, 'extra.bin'))).toBe(true);
    expect((await del(fileUrl('spare/extra.bin'), owner.key)).status).toBe(204);
    expect((await listed()).map((f) => f.file_name)).not.toContain('spare/extra.bin');
    expect(existsSync(dir)).toBe(false);
    const [event] = await eventsOf('data_file', `${profileId}/spare/extra.bin`);
    expect(event).toMatchObject({ profileId, detail: { file_name: 'spare/extra.bin', size_in_bytes: 11 } });
  });

  it('refuses 409 a study with a submission accepted or running, and 404 a stranger', async () => {
    const [study] = await db()
      .select()
      .from(studies)
      .where(and(eq(studies.profileId, profileId), eq(studies.studyId, STUDY)));
    const url = `/api/profiles/${profileId}/schema/${SCHEMA}/studies/${STUDY}`;
    await expectProblem(await del(url, stranger.key), 404);
    await expectProblem(await del(`/api/profiles/${profileId}/schema/${SCHEMA}/studies/NOPE`, owner.key), 404);
    await expectProblem(await del(`/api/profiles/${profileId}/schema/svc_nothing/studies/${STUDY}`, owner.key), 404);
    const before = await eventCount();
    for (const status of ['processing', 'accepted', 'published'] as const) {
      const [sub] = await db()
        .insert(submissions)
        .values({ kind: 'study', repository: 'zenodo', profileId, studyRowId: study!.id, status })
        .returning();
      const refused = await expectProblem(await del(url, owner.key), 409);
      expect(refused.detail).toContain(`Study ${STUDY}`);
      await db().delete(submissions).where(eq(submissions.id, sub!.id));
    }
    await db()
      .update(studies)
      .set({ accessions: { ena: { study: 'PRJEB990001' } } })
      .where(eq(studies.id, study!.id));
    expect((await expectProblem(await del(url, owner.key), 409)).detail).toBe(
      `Study ${STUDY} was accepted by ENA (PRJEB990001): what reached a public archive is never deleted.`,
    );
    await db().update(studies).set({ accessions: {} }).where(eq(studies.id, study!.id));
    expect(await db().select().from(studies).where(eq(studies.id, study!.id))).toHaveLength(1);
    expect(await eventCount()).toBe(before);
  });

  it('deletes a study never sent (its rejected submission with it), after which its files may go', async () => {
    const [study] = await db()
      .select()
      .from(studies)
      .where(and(eq(studies.profileId, profileId), eq(studies.studyId, STUDY)));
    const [rejected] = await db()
      .insert(submissions)
      .values({ kind: 'study', repository: 'ena', profileId, studyRowId: study!.id, status: 'rejected' })
      .returning();
    expect((await del(`/api/profiles/${profileId}/schema/${SCHEMA.toUpperCase()}/studies/${STUDY}`, owner.key)).status).toBe(204);
    expect(await db().select().from(studies).where(eq(studies.id, study!.id))).toEqual([]);
    expect(await db().select().from(submissions).where(eq(submissions.id, rejected!.id))).toEqual([]);
    const [event] = await eventsOf('study', study!.id);
    expect(event).toMatchObject({ profileId, detail: { study_id: STUDY, schema_name: SCHEMA, checklist_id: CHECKLIST } });
    expect((await listed()).find((f) => f.file_name === studyFile)?.used_by).toEqual([]);
    expect((await del(fileUrl(studyFile), owner.key)).status).toBe(204);
  });
});

describe('DELETE /api/profiles/{profile_id}', () => {
  it('refuses 409 a profile with a registered sample, and changes nothing', async () => {
    const q = await dtolProfile('Registered', 2, 80);
    await db().update(samples).set({ status: 'accepted', biosampleAccession: 'SAMEA990002' }).where(eq(samples.id, q.rows[0]!.id));
    const before = await eventCount();
    const refused = await expectProblem(await del(`/api/profiles/${q.profileId}`, admin.key), 409);
    expect(refused.detail).toBe(
      `Profile Registered cannot be deleted: Sample ${q.rows[0]!.tubeOrWellId} is accepted at ENA (SAMEA990002): what reached a public archive is never deleted.`,
    );
    expect(await db().select().from(samples).where(eq(samples.profileId, q.profileId))).toHaveLength(2);
    expect(await db().select().from(profiles).where(eq(profiles.id, q.profileId))).toHaveLength(1);
    expect(await eventCount()).toBe(before);
  });

  it('refuses 409 a profile whose study was accepted, or with a specimen ENA holds', async () => {
    const bio = await createProfile(h, owner.key, { title: 'Published atlas', description: '', type: 'biodata' });
    const [study] = await db()
      .insert(studies)
      .values({ profileId: bio, schemaName: SCHEMA, checklistId: CHECKLIST, studyId: 'PUB1', components: {} })
      .returning();
    await db()
      .insert(submissions)
      .values({ kind: 'study', repository: 'zenodo', profileId: bio, studyRowId: study!.id, status: 'published' });
    expect((await expectProblem(await del(`/api/profiles/${bio}`, owner.key), 409)).detail).toContain('Study PUB1 was published by Zenodo');

    const q = await dtolProfile('Registered specimen profile', 1, 90);
    await db()
      .insert(specimens)
      .values({
        id: randomBytes(12).toString('hex'),
        project: 'dtol',
        specimenId: 'SPEC-REG-1',
        profileId: q.profileId,
        biosampleAccession: 'SAMEA990003',
      });
    expect((await expectProblem(await del(`/api/profiles/${q.profileId}`, owner.key), 409)).detail).toContain(
      'specimen SPEC-REG-1 is registered at ENA (SAMEA990003)',
    );
  });

  it('deletes a profile and everything it holds in one go, with an audit event for each; a stranger gets 404', async () => {
    const q = await dtolProfile('Mistaken upload', 3, 100);
    const reportId = await unconfirmedReport(q.profileId, { offset: 110 });
    const [failed] = await db()
      .insert(submissions)
      .values({ kind: 'samples', repository: 'ena', profileId: q.profileId, sampleIds: [q.rows[0]!.id], status: 'failed' })
      .returning();
    await db().insert(sampleUpdates).values({
      sampleId: q.rows[1]!.id,
      manifestId: q.manifestId,
      project: 'dtol',
      updateType: 'system',
      field: 'status',
      oldValue: 'pending',
      newValue: 'rejected',
    });
    await uploadFiles(h, owner.key, q.profileId, new Map([['notes.txt', Buffer.from('notes')]]));
    // its own specimen, and one whose record it holds but which another profile's sample also comes from
    const own = randomBytes(12).toString('hex');
    const shared = randomBytes(12).toString('hex');
    const other = await dtolProfile('Other moths', 1, 120);
    await db()
      .insert(specimens)
      .values([
        { id: own, project: 'dtol', specimenId: q.rows[0]!.specimenId!, profileId: q.profileId },
        { id: shared, project: 'dtol', specimenId: other.rows[0]!.specimenId!, profileId: q.profileId },
      ]);
    const ids = q.rows.map((r) => r.id);

    await expectProblem(await del(`/api/profiles/${q.profileId}`, stranger.key), 404);
    await expectProblem(await del(`/api/profiles/${'f'.repeat(24)}`, owner.key), 404);
    expect(await db().select().from(samples).where(inArray(samples.id, ids))).toHaveLength(3);

    const res = await del(`/api/profiles/${q.profileId}`, owner.key);
    expect(res.status, await res.clone().text()).toBe(204);
    expect(await db().select().from(profiles).where(eq(profiles.id, q.profileId))).toEqual([]);
    expect(await db().select().from(samples).where(inArray(samples.id, ids))).toEqual([]);
    expect(await db().select().from(sampleUpdates).where(inArray(sampleUpdates.sampleId, ids))).toEqual([]);
    expect(await db().select().from(manifests).where(eq(manifests.profileId, q.profileId))).toEqual([]);
    expect(await db().select().from(validationReports).where(eq(validationReports.profileId, q.profileId))).toEqual([]);
    expect(await db().select().from(submissions).where(eq(submissions.id, failed!.id))).toEqual([]);
    expect(await db().select().from(profileFiles).where(eq(profileFiles.profileId, q.profileId))).toEqual([]);
    expect(existsSync(path.join(h.config.dataDir, 'files', q.profileId))).toBe(false);
    expect(await db().select().from(specimens).where(eq(specimens.id, own))).toEqual([]);
    // the shared specimen's record moves to the profile whose sample still comes from it
    expect((await db().select().from(specimens).where(eq(specimens.id, shared)))[0]?.profileId).toBe(other.profileId);
    await expectProblem(await h.request(`/api/profiles/${q.profileId}`, { key: owner.key }), 404);

    const events = await db().select().from(auditEvents).where(eq(auditEvents.profileId, q.profileId));
    const byType = (t: string) =>
      events
        .filter((e) => e.objectType === t)
        .map((e) => e.objectId)
        .sort();
    expect(byType('profile')).toEqual([q.profileId]);
    expect(byType('sample')).toEqual([...ids].sort());
    expect(byType('specimen')).toEqual([own]);
    expect(byType('validation_report')).toContain(reportId);
    expect(byType('data_file')).toEqual([`${q.profileId}/notes.txt`]);
    expect(events.find((e) => e.objectType === 'profile')?.detail).toMatchObject({
      title: 'Mistaken upload',
      type: 'dtol',
      samples: 3,
      data_files: 1,
    });
    expect(events.every((e) => e.actorId === owner.user.id && e.action === 'delete')).toBe(true);
  });

  it('lets an admin delete someone else’s biodata profile with its studies and files', async () => {
    const bio = await createProfile(h, owner.key, { title: 'Draft atlas', description: '', type: 'biodata' });
    const [study] = await db()
      .insert(studies)
      .values({ profileId: bio, schemaName: SCHEMA, checklistId: CHECKLIST, studyId: 'DRAFT1', components: {} })
      .returning();
    await uploadFiles(h, owner.key, bio, new Map([['r1.fastq.gz', Buffer.from('reads')]]));
    expect((await del(`/api/profiles/${bio}`, admin.key)).status).toBe(204);
    expect(await db().select().from(studies).where(eq(studies.id, study!.id))).toEqual([]);
    expect((await eventsOf('study', study!.id))[0]?.actorId).toBe(admin.user.id);
    expect((await eventsOf('profile', bio))[0]?.detail).toMatchObject({ studies: 1, data_files: 1, samples: 0 });
  });
});
