import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { samples, studies, submissions } from '@/db/schema';
import { currentDefinition } from '@/lib/manifests';
import { filesInUse } from '@/lib/removal/data-files';
import { toXlsx } from '../fixtures/manifests/workbook';
import { uploadFiles } from '../fixtures/studies/data-files';
import { createProfile, dtolRows, uploadManifest, waitFor } from '../support/flows';
import type { Harness } from '../support/harness';
import { type Case, CHECKLIST, keys, SCHEMA, UNKNOWN_UUID, w } from './world';

/**
 * Removals: things of the owner's made only to be deleted (so no other case loses what it reads), and the world's
 * registered sample, confirmed report, used file, submitted study and profile with registered samples to be refused.
 * These cases run after every other (they come last in the table).
 */
export const r = {
  profile: '',
  emptyProfile: '',
  sample: '',
  report: '',
  usedFile: '',
  sentStudy: 'SENT1',
  draftStudy: 'DRAFT1',
};
const SPARE_FILE = 'contract-removal/spare.bin';

export async function buildRemovalWorld(h: Harness): Promise<void> {
  const owner = keys.owner;
  r.profile = await createProfile(h, owner, { title: 'Contract removals', description: '', type: 'dtol' });
  const { manifest_id } = await uploadManifest(h, owner, r.profile, dtolRows(2, 200));
  const [first] = await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id));
  r.sample = first!.id;
  // a report validated and never confirmed
  const fd = new FormData();
  fd.set('profile_id', r.profile);
  const headers = currentDefinition('dtol').fields.map((f) => f.name);
  fd.set('file', new File([new Uint8Array(await toXlsx(headers, dtolRows(1, 210), { typed: true }))], 'mistake.xlsx'));
  const res = await h.request('/api/manifest/validate', { method: 'POST', key: owner, body: fd });
  r.report = ((await res.json()) as { report_id: string }).report_id;
  await waitFor(
    async () =>
      ((await (await h.request(`/api/manifest/validate/report/${r.report}/status`, { key: owner })).json()) as { status: string }).status,
    (s) => s === 'complete',
    'the report to delete',
  );
  r.emptyProfile = await createProfile(h, owner, { title: 'Contract empty', description: '', type: 'dtol' });

  await uploadFiles(h, owner, w.biodataProfile, new Map([[SPARE_FILE, Buffer.from('spare')]]));
  r.usedFile = [...(await filesInUse(h.database.db, w.biodataProfile)).keys()][0]!;
  expect(r.usedFile).toBeTruthy();
  const base = { profileId: w.biodataProfile, schemaName: SCHEMA, checklistId: CHECKLIST, components: {} } as const;
  const [sent] = await h.database.db
    .insert(studies)
    .values([
      { ...base, studyId: r.sentStudy },
      { ...base, studyId: r.draftStudy },
    ])
    .returning();
  await h.database.db
    .insert(submissions)
    .values({ kind: 'study', repository: 'zenodo', profileId: w.biodataProfile, studyRowId: sent!.id, status: 'accepted' });
}

export function removalCases(): Record<string, Case[]> {
  const studyPath = (id: string) => `/api/profiles/${w.biodataProfile}/schema/${SCHEMA}/studies/${id}`;
  const filePath = (name: string) => `/api/profiles/${w.biodataProfile}/files/${name}`;
  const del = (c: Omit<Case, 'method'>): Case => ({ ...c, method: 'DELETE' });
  return {
    'DELETE /api/sample/{svc_id}': [
      del({ name: 'another’s', path: `/api/sample/${r.sample}`, key: 'stranger', status: 404 }),
      del({ name: 'no key', path: `/api/sample/${r.sample}`, key: 'none', status: 401 }),
      del({ name: 'unknown', path: `/api/sample/${'0'.repeat(24)}`, key: 'owner', status: 404 }),
      del({ name: 'accepted at ENA', path: `/api/sample/${w.svcId}`, key: 'owner', status: 409 }),
      del({ name: 'pending', path: `/api/sample/${r.sample}`, key: 'owner', status: 204 }),
    ],
    'DELETE /api/manifest/validate/report/{report_id}': [
      del({ name: 'another’s', path: `/api/manifest/validate/report/${r.report}`, key: 'stranger', status: 404 }),
      del({ name: 'unknown', path: `/api/manifest/validate/report/${UNKNOWN_UUID}`, key: 'owner', status: 404 }),
      del({ name: 'confirmed', path: `/api/manifest/validate/report/${w.reportId}`, key: 'owner', status: 409 }),
      del({ name: 'unconfirmed', path: `/api/manifest/validate/report/${r.report}`, key: 'owner', status: 204 }),
    ],
    'DELETE /api/profiles/{profile_id}/files/{file_name}': [
      del({ name: 'another’s', path: filePath(SPARE_FILE), key: 'stranger', status: 404 }),
      del({ name: 'unknown file', path: filePath('no-such.bin'), key: 'owner', status: 404 }),
      del({ name: 'a bad name', path: filePath('a%5Cb'), key: 'owner', status: 400 }),
      del({ name: 'named by a study', path: filePath(r.usedFile), key: 'owner', status: 409 }),
      del({ name: 'unused', path: filePath(SPARE_FILE), key: 'owner', status: 204 }),
    ],
    'DELETE /api/profiles/{profile_id}/schema/{schema_name}/studies/{study_id}': [
      del({ name: 'another’s', path: studyPath(r.draftStudy), key: 'stranger', status: 404 }),
      del({ name: 'unknown', path: studyPath('NOSUCHSTUDY'), key: 'owner', status: 404 }),
      del({ name: 'accepted by Zenodo', path: studyPath(r.sentStudy), key: 'owner', status: 409 }),
      del({ name: 'never submitted', path: studyPath(r.draftStudy), key: 'admin', status: 204 }),
    ],
    'DELETE /api/profiles/{profile_id}': [
      del({ name: 'another’s', path: `/api/profiles/${r.profile}`, key: 'stranger', status: 404 }),
      del({ name: 'no key', path: `/api/profiles/${r.profile}`, key: 'none', status: 401 }),
      del({ name: 'registered samples', path: `/api/profiles/${w.dtolProfile}`, key: 'owner', status: 409 }),
      del({ name: 'with pending samples', path: `/api/profiles/${r.profile}`, key: 'owner', status: 204 }),
      del({ name: 'empty, by an admin', path: `/api/profiles/${r.emptyProfile}`, key: 'admin', status: 204 }),
    ],
  };
}
