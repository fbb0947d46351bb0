import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { deadLetters, samples, submissions } from '@/db/schema';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from '../fixtures/manifests/generate';
import { buildTaxonRecords, fakeTaxonomy } from '../fixtures/manifests/taxa';
import { toXlsx } from '../fixtures/manifests/workbook';
import { minimalPdf } from '../fixtures/pdf';
import { bytesOf, createProfile as createStudyProfile, definition, registerSamples, SAMPLES, studiesApi } from '../fixtures/studies/api';
import { withDataFiles } from '../fixtures/studies/data-files';
import { fillTemplate, fixtureComponents, workbookBytes } from '../fixtures/studies/fill';
import { createProfile, dtolRows, uploadManifest, waitFor } from '../support/flows';
import { createHarness, type Harness } from '../support/harness';
import { type RepositoryServer, startRepositoryServer } from '../support/repository-server';

/**
 * The world the contract test (tests/api-contract.test.ts) calls every operation in: users of each kind, a DTOL manifest
 * with registered and pending samples, an ERGA manifest with its permit, a biodata profile with data files and a
 * single-cell study, and a given-up job; the ids every case needs are in `World`.
 */

export type Case = {
  /** what the case shows */
  name: string;
  path: string;
  method?: string;
  key?: 'admin' | 'owner' | 'stranger' | 'none';
  json?: unknown;
  form?: () => FormData;
  body?: BodyInit;
  headers?: Record<string, string>;
  status: number;
};

export const keys = { admin: '', owner: '', stranger: '' };
export const w = {
  dtolProfile: '',
  ergaProfile: '',
  biodataProfile: '',
  manifestId: '',
  reportId: '',
  ergaReportId: '',
  svcId: '',
  pendingSvcId: '',
  ergaSvcId: '',
  biosample: '',
  taxonId: '',
  submissionId: '',
  ownerKeyId: 0,
  ownerUserId: 0,
  deadLetterId: '',
  retryableLetterId: '',
  permitName: '',
  uploadUrl: '',
  day: '',
};
export const STUDY = 'CONTRACT1';
export const SCHEMA = 'svc_single_cell';
export const CHECKLIST = 'version_dwc_sc_rnaseq';
export const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';
const json = { 'content-type': 'application/json' };

/** Builds the world on a fresh harness with local stand-ins for ENA, the ToLID service and Zenodo. */
export async function buildWorld(): Promise<{ h: Harness; server: RepositoryServer }> {
  const server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  const h = await createHarness(
    {
      ENA_WEBIN_URL: server.enaUrl,
      ENA_USERNAME: server.credentials.ena.username,
      ENA_PASSWORD: server.credentials.ena.password,
      ENA_BROWSER_URL: server.browserUrl,
      ENA_FTP_URL: server.ftpUrl,
      TOLID_URL: server.tolidUrl,
      TOLID_TOKEN: server.credentials.tolid.token,
      ZENODO_URL: server.zenodoUrl,
      ZENODO_TOKEN: server.credentials.zenodo.token,
    },
    { workers: true, taxonomy: fakeTaxonomy() },
  );
  keys.admin = (await h.user({ isAdmin: true })).key;
  const owner = await h.user({ memberOf: ['dtol', 'erga'], managerOf: ['dtol', 'erga'], email: 'owner@example.org' });
  keys.owner = owner.key;
  w.ownerUserId = owner.user.id;
  keys.stranger = (await h.user({ memberOf: ['dtol'] })).key;

  // Tree of Life: a DTOL manifest of three samples, two accepted and registered, one left pending
  w.dtolProfile = await createProfile(h, owner.key, { title: 'Contract moths', description: '', type: 'dtol' });
  const confirmed = await uploadManifest(h, owner.key, w.dtolProfile, dtolRows(3));
  w.manifestId = confirmed.manifest_id;
  const rows = await h.database.db.select().from(samples).where(eq(samples.manifestId, w.manifestId)).orderBy(samples.tubeOrWellId);
  const [first, second, third] = rows;
  w.pendingSvcId = third!.id;
  const decided = await h.request('/api/sample/decision', {
    method: 'POST',
    key: owner.key,
    headers: json,
    body: JSON.stringify({ svc_ids: [first!.id, second!.id], decision: 'accept' }),
  });
  expect(decided.status).toBe(200);
  const registered = await waitFor(
    () => h.database.db.select().from(samples).where(eq(samples.id, first!.id)),
    (r) => r[0]?.status === 'accepted',
    'the registration',
    600,
  );
  w.svcId = registered[0]!.id;
  w.biosample = registered[0]!.biosampleAccession!;
  w.taxonId = registered[0]!.taxonId!;
  w.day = registered[0]!.timeCreated.toISOString().slice(0, 10);
  const reports = (await (await h.request('/api/manifest/validations', { key: owner.key })).json()) as { report_id: string }[];
  w.reportId = reports[0]!.report_id;
  const [sub] = await h.database.db.select().from(submissions).where(eq(submissions.profileId, w.dtolProfile));
  w.submissionId = sub!.id;

  // ERGA with a sampling permit, confirmed
  w.ergaProfile = await createProfile(h, owner.key, {
    title: 'Contract ERGA',
    description: '',
    type: 'erga',
    associated_type: ['BGE'],
    sequencing_centre: ['CNAG'],
  });
  const erga = currentDefinition('erga');
  const ergaRows = validRows(erga, 1).map((r) => ({
    ...r,
    SAMPLING_PERMITS_REQUIRED: 'Y',
    SAMPLING_PERMITS_FILENAME: 'contract_permit.pdf',
  }));
  const fd = new FormData();
  fd.set('profile_id', w.ergaProfile);
  fd.set(
    'file',
    new File(
      [
        new Uint8Array(
          await toXlsx(
            erga.fields.map((f) => f.name),
            ergaRows,
            { typed: true },
          ),
        ),
      ],
      'erga.xlsx',
    ),
  );
  const validated = (await (await h.request('/api/manifest/validate', { method: 'POST', key: owner.key, body: fd })).json()) as {
    report_id: string;
  };
  w.ergaReportId = validated.report_id;
  await waitFor(
    async () =>
      (await (await h.request(`/api/manifest/validate/report/${w.ergaReportId}/status`, { key: owner.key })).json()) as { status: string },
    (r) => r.status === 'complete',
    'the ERGA report',
  );
  const permits = new FormData();
  permits.set('validation_report_id', w.ergaReportId);
  permits.set('file', new File([new Uint8Array(minimalPdf('contract permit'))], 'contract_permit.pdf', { type: 'application/pdf' }));
  expect((await h.request('/api/manifest/validate/permits', { method: 'POST', key: owner.key, body: permits })).status).toBe(200);
  const ergaConfirmed = await h.request('/api/manifest/validate/confirm', {
    method: 'POST',
    key: owner.key,
    headers: json,
    body: JSON.stringify({ validation_report_id: w.ergaReportId }),
  });
  expect(ergaConfirmed.status).toBe(200);
  const [ergaSample] = await h.database.db
    .select()
    .from(samples)
    .where(eq(samples.manifestId, ((await ergaConfirmed.json()) as { manifest_id: string }).manifest_id));
  w.ergaSvcId = ergaSample!.id;
  const listed = (await (await h.request(`/api/sample/${w.ergaSvcId}/permits`, { key: owner.key })).json()) as { stored_name: string }[];
  w.permitName = listed[0]!.stored_name;

  // a biodata profile with its data files and a single-cell study referencing ENA-held samples
  w.biodataProfile = await createStudyProfile(h, owner.key, 'Contract atlas');
  await registerSamples(h, w.biodataProfile);
  const api = studiesApi(h, owner.key, w.biodataProfile);
  const def = await definition(h, SCHEMA, CHECKLIST);
  const made = await withDataFiles(h, owner.key, w.biodataProfile, def, fixtureComponents(def, { studyId: STUDY, samples: SAMPLES }));
  const uploaded = await api.upload(
    SCHEMA,
    CHECKLIST,
    await workbookBytes(await fillTemplate(await bytesOf(await api.template(SCHEMA, CHECKLIST)), def, made.components)),
  );
  expect(uploaded.status, await uploaded.clone().text()).toBe(200);
  const urls = (await (
    await h.request(`/api/profiles/${w.biodataProfile}/files/presignedurls`, {
      method: 'POST',
      key: owner.key,
      headers: json,
      body: JSON.stringify({ file_names: ['contract.bin'] }),
    })
  ).json()) as { url: string }[];
  const u = new URL(urls[0]!.url);
  w.uploadUrl = u.pathname + u.search;

  const keysOfOwner = (await (await h.request('/api/account/keys', { key: owner.key })).json()) as { id: number }[];
  w.ownerKeyId = keysOfOwner[0]!.id;
  const [letter] = await h.database.db
    .insert(deadLetters)
    .values({
      jobId: null,
      name: 'manifest.validate',
      data: { reportId: w.reportId },
      reason: 'Contract test: a given-up job.',
      attempts: 4,
    })
    .returning();
  w.deadLetterId = letter!.id;
  // a letter whose work can run again: a ToLID request for no samples
  const [retryable] = await h.database.db
    .insert(deadLetters)
    .values({
      jobId: null,
      name: 'tolids.request',
      data: { sampleIds: [] },
      reason: 'Contract test: a request that ran out of tries.',
      attempts: 4,
    })
    .returning();
  w.retryableLetterId = retryable!.id;

  return { h, server };
}
