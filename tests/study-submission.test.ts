import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studies, submissions } from '@/db/schema';
import { bytesOf, createProfile, definition, registerSamples, SAMPLES, studiesApi } from './fixtures/studies/api';
import { withDataFiles } from './fixtures/studies/data-files';
import { fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';

let server: RepositoryServer;
let h: Harness;
let key: string;
let profileId: string;
let api: ReturnType<typeof studiesApi>;

beforeAll(async () => {
  server = await startRepositoryServer();
  h = await createHarness(
    {
      ENA_WEBIN_URL: server.enaUrl,
      ENA_USERNAME: server.credentials.ena.username,
      ENA_PASSWORD: server.credentials.ena.password,
      ENA_FTP_URL: server.ftpUrl,
      ZENODO_URL: server.zenodoUrl,
      ZENODO_TOKEN: server.credentials.zenodo.token,
    },
    { workers: true },
  );
  key = (await h.user()).key;
  profileId = await createProfile(h, key, 'Mouse brain single-cell atlas');
  await registerSamples(h, profileId);
  api = studiesApi(h, key, profileId);
}, 120_000);
afterAll(async () => {
  await h.close();
  await server.close();
});

async function uploadStudy(schema: string, checklistId: string, studyId: string) {
  const def = await definition(h, schema, checklistId);
  const tpl = await bytesOf(await api.template(schema, checklistId));
  // the data files the sheet names, uploaded to the profile as a researcher does first
  const { components } = await withDataFiles(h, key, profileId, def, fixtureComponents(def, { studyId, samples: SAMPLES }));
  const filled = await workbookBytes(await fillTemplate(tpl, def, components));
  const res = await api.upload(schema, checklistId, filled);
  expect(res.status).toBe(200);
}

const action = (schema: string, studyId: string, what: string, query: string, method = 'POST') =>
  h.request(`/api/profiles/${profileId}/schema/${schema}/studies/${studyId}/action/${what}${query}`, { method, key });

async function submitted(schema: string, studyId: string, repository: string) {
  const res = await action(schema, studyId, 'submit', `?repository=${repository}`);
  expect(res.status, await res.clone().text()).toBe(202);
  return waitFor(
    async () => (await (await action(schema, studyId, 'submit', `?repository=${repository}`, 'GET')).json()) as Record<string, string>,
    (s) => s.status === 'accepted' || s.status === 'rejected',
    `the ${repository} submission`,
  );
}

describe('submitting a single-cell study to ENA and Zenodo', () => {
  const schema = 'svc_single_cell';
  const studyId = 'SCATLAS1';

  it('registers the ENA project, deposits at Zenodo, returns accessions and DOI, then publishes', async () => {
    await uploadStudy(schema, 'version_dwc_sc_rnaseq', studyId);
    const ena = await submitted(schema, studyId, 'ena');
    expect(ena).toMatchObject({ study_id: studyId, repository: 'ena', status: 'accepted', error: '' });
    expect(ena.accession).toMatch(/^PRJEB\d+$/);
    expect(server.ena.objects().filter((o) => o.type === 'PROJECT' && o.alias === `${profileId}:${studyId}`)).toHaveLength(1);

    const zenodo = await submitted(schema, studyId, 'zenodo');
    expect(zenodo.status).toBe('accepted');
    expect(zenodo.accession).toMatch(/^\d+$/);

    // one ENA row per file row (its run), joined to the study's; one Zenodo row for the study
    const rows = (await (await action(schema, studyId, 'accession', '', 'GET')).json()) as Record<string, string>[];
    const enaStudy = { study_id: studyId, study_status_ena: 'accepted', study_accession_ena: ena.accession, state_ena: 'PRIVATE' };
    expect(rows).toEqual([
      expect.objectContaining({
        ...enaStudy,
        file_id: 'FILE001',
        file_status_ena: 'accepted',
        run_accession_ena: expect.stringMatching(/^ERR\d+$/),
      }),
      expect.objectContaining({
        ...enaStudy,
        file_id: 'FILE002',
        file_status_ena: 'accepted',
        experiment_accession_ena: expect.stringMatching(/^ERX\d+$/),
      }),
      expect.objectContaining({ study_id: studyId, study_status_zenodo: 'accepted', study_accession_zenodo: zenodo.accession }),
    ]);
    const postRows = await action(schema, studyId, 'accession', '?repository=ena');
    expect(((await postRows.json()) as unknown[]).length).toBe(2);
    const csv = await action(schema, studyId, 'accession', '?return_type=csv', 'GET');
    expect(csv.headers.get('content-disposition')).toContain(`${studyId}_accessions.csv`);
    expect(await csv.text()).toContain(ena.accession);

    // nothing changed: a second submit is refused and nothing is queued
    const before = (await h.database.db.select().from(submissions)).length;
    expect((await action(schema, studyId, 'submit', '?repository=ena')).status).toBe(409);
    expect((await h.database.db.select().from(submissions)).length).toBe(before);

    const released = await action(schema, studyId, 'publish', '?repository=ena');
    expect(released.status, await released.clone().text()).toBe(200);
    expect(await released.json()).toMatchObject({ status: 'success', state: 'PUBLIC' });
    expect(server.ena.objects().find((o) => o.accession === ena.accession)?.status).toBe('PUBLIC');
    expect((await action(schema, studyId, 'publish', '?repository=ena')).status).toBe(409);

    const published = await action(schema, studyId, 'publish', '?repository=zenodo');
    const body = (await published.json()) as { doi: string };
    expect(published.status).toBe(200);
    expect(body.doi).toMatch(/^10\.5072\/zenodo\.\d+$/);
    const after = (await (await action(schema, studyId, 'accession', '?repository=zenodo', 'GET')).json()) as Record<string, string>[];
    expect(after[0]).toMatchObject({ study_status_zenodo: 'published', doi_zenodo: body.doi });
    const [row] = await h.database.db.select().from(studies).where(eq(studies.studyId, studyId));
    expect(row!.accessions).toMatchObject({ ena: { study: ena.accession, state: 'PUBLIC' }, zenodo: { doi: body.doi } });
  });

  it('queues one submission when two submits of the same study race', async () => {
    await uploadStudy(schema, 'version_tol_sc_rnaseq', 'RACE1');
    const results = await Promise.all([1, 2].map(() => action(schema, 'RACE1', 'submit', '?repository=zenodo')));
    expect(results.map((r) => r.status).sort()).toEqual([202, 409]);
    const loser = results.find((r) => r.status === 409)!;
    expect(((await loser.json()) as { detail: string }).detail).toBe('Submission is in progress, please wait until it is completed!');
    const done = await waitFor(
      async () => (await (await action(schema, 'RACE1', 'submit', '?repository=zenodo', 'GET')).json()) as Record<string, string>,
      (s) => s.status === 'accepted' || s.status === 'rejected',
      'the raced submission',
    );
    expect(done.status).toBe('accepted');
  });

  it('refuses REMBI at ENA and unknown repositories, queueing nothing', async () => {
    await uploadStudy('svc_image_rembi', 'version_rembi', 'REMBI1');
    const before = (await h.database.db.select().from(submissions)).length;
    const rembi = await action('svc_image_rembi', 'REMBI1', 'submit', '?repository=ena');
    expect(rembi.status).toBe(409);
    expect(((await rembi.json()) as { detail: string }).detail).toBe('Repository ena is not supported for study submission!');
    expect((await action('svc_image_rembi', 'REMBI1', 'submit', '?repository=figshare')).status).toBe(400);
    expect((await action('svc_image_rembi', 'NOPE', 'submit', '?repository=zenodo')).status).toBe(404);
    expect((await h.database.db.select().from(submissions)).length).toBe(before);
  });

  it('answers 409 naming the missing setting when a repository has no credentials', async () => {
    const bare = await createHarness();
    try {
      const u = await bare.user();
      const p = await createProfile(bare, u.key, 'No credentials here');
      await registerSamples(bare, p);
      const def = await definition(bare, schema, 'version_dwc_sc_rnaseq');
      const bareApi = studiesApi(bare, u.key, p);
      const tpl = await bytesOf(await bareApi.template(schema, 'version_dwc_sc_rnaseq'));
      const filled = await workbookBytes(await fillTemplate(tpl, def, fixtureComponents(def, { studyId: 'NOCREDS', samples: SAMPLES })));
      expect((await bareApi.upload(schema, 'version_dwc_sc_rnaseq', filled)).status).toBe(200);
      const res = await bare.request(`/api/profiles/${p}/schema/${schema}/studies/NOCREDS/action/submit?repository=zenodo`, {
        method: 'POST',
        key: u.key,
      });
      expect(res.status).toBe(409);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/ZENODO_TOKEN/);
      const ena = await bare.request(`/api/profiles/${p}/schema/${schema}/studies/NOCREDS/action/submit`, { method: 'POST', key: u.key });
      expect(((await ena.json()) as { detail: string }).detail).toMatch(/ENA_USERNAME/);
      expect(await bare.database.db.select().from(submissions)).toEqual([]);
    } finally {
      await bare.close();
    }
  });
});
