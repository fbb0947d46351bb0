import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samples } from '@/db/schema';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import type { StudyComponents } from '@/lib/studies/validate';
import { buildTaxonRecords, fakeTaxonomy } from './fixtures/manifests/taxa';
import { bytesOf, definition, studiesApi } from './fixtures/studies/api';
import { md5Of, withDataFiles } from './fixtures/studies/data-files';
import { type FixtureSample, fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { createProfile, dtolRows, uploadManifest, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { decideSamples, repositorySettings } from './support/registration-world';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';

/**
 * The reads schema (svc_read) on a Tree of Life profile (docs/studies-and-checklists.md §15): the profile's DTOL samples,
 * accepted and registered at ENA, named by their BioSample accessions in a reads study, whose read files go to ENA as
 * one PROJECT, an EXPERIMENT and a RUN per read row, the files staged once into the Webin upload area.
 */

const SCHEMA = 'svc_read';
const CHECKLIST = 'version_tol';
const ACCOUNT = 'Webin-00000';

let server: RepositoryServer;
let h: Harness;
let manager: Awaited<ReturnType<Harness['user']>>;
let profileId: string;
let def: ChecklistDefinition;
let api: ReturnType<typeof studiesApi>;
let registered: FixtureSample[];

beforeAll(async () => {
  server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  h = await createHarness(
    { ...repositorySettings(server, ['ena', 'tolid']), ENA_BROWSER_URL: server.browserUrl, ENA_FTP_URL: server.ftpUrl },
    { workers: true, taxonomy: fakeTaxonomy() },
  );
  server.tolid.approveAll();
  manager = await h.user({ username: 'erga-partner', memberOf: ['dtol'], managerOf: ['dtol'] });
  profileId = await createProfile(h, manager.key, { title: 'Wytham reads', description: '', type: 'dtol' });
  api = studiesApi(h, manager.key, profileId);
  def = await definition(h, SCHEMA, CHECKLIST);

  // two DTOL samples, accepted by the manager and registered at ENA as the service does
  const { manifest_id } = await uploadManifest(h, manager.key, profileId, dtolRows(2));
  const ids = (await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id))).map((r) => r.id);
  expect((await decideSamples(h, manager.key, { svc_ids: ids, decision: 'accept' })).status).toBe(200);
  const rows = await waitFor(
    () => h.database.db.select().from(samples).where(inArray(samples.id, ids)),
    (rs) => rs.every((r) => r.biosampleAccession),
    'the samples’ BioSample accessions',
    600,
  );
  registered = rows.map((r) => ({ accession: r.biosampleAccession!, taxonId: r.taxonId ?? '', scientificName: r.scientificName ?? '' }));
}, 180_000);
afterAll(async () => {
  await h.close();
  await server.close();
});

/** A reads study of the registered samples, its data files uploaded to the profile. */
async function readsStudy(studyId: string, edit?: (c: StudyComponents) => void) {
  const base = fixtureComponents(def, { studyId, samples: registered, rows: 2 });
  for (const r of base.sequencing!)
    Object.assign(r, { sequencing_platform_name: 'ILLUMINA', sequencing_instrument_model: 'Illumina NovaSeq 6000' });
  for (const r of base.lib_prep!) Object.assign(r, { lib_layout: 'Paired', library_strategy: 'WGS', library_source: 'GENOMIC' });
  for (const r of base.read_file!) Object.assign(r, { read_file_type: 'fastq' });
  edit?.(base);
  const { components, files } = await withDataFiles(h, manager.key, profileId, def, base);
  const template = await bytesOf(await api.template(SCHEMA, CHECKLIST));
  const res = await api.upload(SCHEMA, CHECKLIST, await workbookBytes(await fillTemplate(template, def, components)));
  expect(res.status, await res.clone().text()).toBe(200);
  return { components, files };
}

const submitUrl = (studyId: string) => `${api.base(SCHEMA)}/studies/${studyId}/action/submit?repository=ena`;

async function submitAndWait(studyId: string) {
  const res = await h.request(submitUrl(studyId), { method: 'POST', key: manager.key });
  expect(res.status, await res.clone().text()).toBe(202);
  return waitFor(
    async () => (await (await h.request(submitUrl(studyId), { key: manager.key })).json()) as Record<string, unknown>,
    (s) => s.status === 'accepted' || s.status === 'rejected',
    'the study at ENA',
    600,
  );
}

const objectsOf = (studyId: string, type: string) =>
  server.ena.objects(ACCOUNT).filter((o) => o.type === type && o.alias.startsWith(`${profileId}:${studyId}`));

describe('a reads study of a Tree of Life profile’s registered samples', () => {
  it('reaches ENA as a PROJECT, an EXPERIMENT and a RUN per read row, naming the samples, its files staged once', async () => {
    const { files } = await readsStudy('WYTHAMREADS');
    const done = await submitAndWait('WYTHAMREADS');
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'accepted' });

    expect(objectsOf('WYTHAMREADS', 'PROJECT')).toHaveLength(1);
    expect(objectsOf('WYTHAMREADS', 'EXPERIMENT')).toHaveLength(2);
    expect(objectsOf('WYTHAMREADS', 'RUN')).toHaveLength(2);
    const sent = server.requests.filter((r) => r.service === 'ena' && r.body.includes('<EXPERIMENT ')).map((r) => r.body);
    for (const s of registered) expect(sent.some((b) => b.includes(`<SAMPLE_DESCRIPTOR accession="${s.accession}"`))).toBe(true);
    expect(sent.join('\n')).toContain('filetype="fastq"');

    // each read file in the upload area once, with the bytes the sheet's MD5 names
    const readFiles = [...files.keys()].filter((n) => n.startsWith('read_file_'));
    expect(readFiles).toHaveLength(4);
    for (const name of readFiles) {
      expect(await server.uploadArea.fileOf(ACCOUNT, `${profileId}/${name}`), name).toEqual({
        size: files.get(name)!.length,
        md5: md5Of(files.get(name)!),
      });
    }
    const rows = (await (
      await h.request(`${api.base(SCHEMA)}/studies/WYTHAMREADS/action/accession?repository=ena`, { key: manager.key })
    ).json()) as Record<string, string>[];
    expect(rows.filter((r) => r.file_id).map((r) => r.run_accession_ena)).toEqual([
      expect.stringMatching(/^ERR\d+$/),
      expect.stringMatching(/^ERR\d+$/),
    ]);
  });

  it('refuses a sheet naming a sample that is neither the profile’s nor at ENA', async () => {
    const template = await bytesOf(await api.template(SCHEMA, CHECKLIST));
    const base = fixtureComponents(def, {
      studyId: 'UNKNOWN',
      samples: [{ accession: 'SAMEA99999999', taxonId: '9606', scientificName: 'Homo sapiens' }],
    });
    const res = await api.upload(SCHEMA, CHECKLIST, await workbookBytes(await fillTemplate(template, def, base)));
    expect(res.status).toBe(422);
    expect(await res.text()).toContain('SAMEA99999999');
  });
});
