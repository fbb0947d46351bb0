import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { studies, submissions } from '@/db/schema';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { fileStore } from '@/lib/files/files';
import { createEnaClient, createUploadArea, enaClientOptionsFromConfig, uploadAreaOptionsFromConfig } from '@/lib/repositories/ena';
import { webinCliSettings } from '@/lib/repositories/webin-cli';
import { createZenodoClient, zenodoClientOptionsFromConfig } from '@/lib/repositories/zenodo';
import type { StudyComponents } from '@/lib/studies/validate';
import { runStudySubmission } from '@/lib/submissions/study/job';
import { bytesOf, createProfile, definition, registerSamples, SAMPLES, studiesApi } from './fixtures/studies/api';
import { md5Of, uploadFiles, withDataFiles } from './fixtures/studies/data-files';
import { fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { createHarness, type Harness } from './support/harness';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';

/**
 * A study at Zenodo with its data (docs/studies-and-checklists.md §11.4): every file the sheet names goes into the
 * deposition beside the spreadsheet, checked against the sheet and against Zenodo's own MD5; publishing gives a
 * DOI; a study changed after publishing becomes a new version. Jobs are run by hand.
 */

const SCHEMA = 'svc_single_cell';
const CHECKLIST = 'version_dwc_sc_rnaseq';

let server: RepositoryServer;
let h: Harness;
let key: string;
let profileId: string;
let def: ChecklistDefinition;
let api: ReturnType<typeof studiesApi>;

beforeAll(async () => {
  server = await startRepositoryServer();
  h = await createHarness({
    ENA_WEBIN_URL: server.enaUrl,
    ENA_USERNAME: server.credentials.ena.username,
    ENA_PASSWORD: server.credentials.ena.password,
    ZENODO_URL: server.zenodoUrl,
    ZENODO_TOKEN: server.credentials.zenodo.token,
  });
  key = (await h.user()).key;
  profileId = await createProfile(h, key, 'Zebrafish retina atlas');
  await registerSamples(h, profileId);
  api = studiesApi(h, key, profileId);
  def = await definition(h, SCHEMA, CHECKLIST);
}, 120_000);
afterAll(async () => {
  await h.close();
  await server.close();
});
beforeEach(() => server.faults.clear());

const jobDeps = () => ({
  db: h.database.db,
  logger: h.deps.logger,
  baseUrl: h.config.baseUrl,
  jobs: h.deps.jobs,
  ena: () => createEnaClient(enaClientOptionsFromConfig(h.config, h.deps.logger)),
  zenodo: () => createZenodoClient(zenodoClientOptionsFromConfig(h.config, h.deps.logger, { retryDelayMs: 1, maxRetryDelayMs: 5 })),
  files: fileStore({ db: h.database.db, config: h.config }),
  uploadArea: () => createUploadArea(uploadAreaOptionsFromConfig(h.config, h.deps.logger)),
  webinCli: () => webinCliSettings(h.config),
});

async function uploadSheet(components: StudyComponents) {
  const tpl = await bytesOf(await api.template(SCHEMA, CHECKLIST));
  const res = await api.upload(SCHEMA, CHECKLIST, await workbookBytes(await fillTemplate(tpl, def, components)));
  expect(res.status, await res.clone().text()).toBe(200);
}

async function study(studyId: string) {
  const base = fixtureComponents(def, { studyId, samples: SAMPLES });
  for (const c of Object.values(base))
    for (const r of c) for (const [k, v] of Object.entries(r)) if (/\.(fastq\.gz|tsv)$/.test(v)) r[k] = `${studyId}/${v}`;
  const made = await withDataFiles(h, key, profileId, def, base);
  await uploadSheet(made.components);
  return made;
}

const action = (studyId: string, what: string, method = 'POST', query = '?repository=zenodo') =>
  h.request(`/api/profiles/${profileId}/schema/${SCHEMA}/studies/${studyId}/action/${what}${query}`, { method, key });

async function submit(studyId: string): Promise<string> {
  const res = await action(studyId, 'submit');
  expect(res.status, await res.clone().text()).toBe(202);
  const id = ((await res.json()) as { submission_id: string }).submission_id;
  await runStudySubmission(jobDeps(), id);
  return id;
}

const submissionRow = async (id: string) => (await h.database.db.select().from(submissions).where(eq(submissions.id, id)))[0]!;
const stored = async (studyId: string) =>
  (
    await h.database.db
      .select()
      .from(studies)
      .where(and(eq(studies.profileId, profileId), eq(studies.studyId, studyId)))
  )[0]!;
const zenodoIdOf = async (studyId: string) => Number(((await stored(studyId)).accessions as { zenodo: { study: string } }).zenodo.study);
const filesAt = (depositionId: number) =>
  new Map([...server.zenodo.depositions.get(depositionId)!.files.values()].map((f) => [f.key, f.checksum]));
const putsTo = (depositionId: number) => {
  const bucket = server.zenodo.depositions.get(depositionId)!.bucketId;
  return server.requests
    .filter((r) => r.service === 'zenodo' && r.method === 'PUT' && r.path.includes(`/files/${bucket}/`))
    .map((r) => decodeURIComponent(r.path.split(`/files/${bucket}/`)[1]!));
};

describe('a single-cell study at Zenodo', () => {
  let files: Map<string, Buffer>;
  let components: StudyComponents;
  let first: number;

  it('deposits every data file the study names, with its MD5, and the spreadsheet; every file shows sent', async () => {
    ({ files, components } = await study('ZEN1'));
    const id = await submit('ZEN1');
    const sub = await submissionRow(id);
    expect(sub.status, sub.error ?? '').toBe('accepted');
    first = await zenodoIdOf('ZEN1');
    const deposited = filesAt(first);
    for (const [name, bytes] of files) expect(deposited.get(name), name).toBe(md5Of(bytes));
    expect(deposited.has('ZEN1.xlsx')).toBe(true);
    expect(deposited.size).toBe(files.size + 1);
    // the data went as a stream with its length declared, not as a chunked body
    const [name, bytes] = [...files][0]!;
    const put = server.requests.find((r) => r.method === 'PUT' && r.path.endsWith(encodeURIComponent(name)));
    expect(put).toMatchObject({ status: 201, contentLength: String(bytes.length) });
    const shown = (await (await action('ZEN1', 'submit', 'GET')).json()) as { files: { file_name: string; state: string; size: number }[] };
    expect(shown.files.map((f) => f.file_name).sort()).toEqual([...files.keys()].sort());
    expect(new Set(shown.files.map((f) => f.state))).toEqual(new Set(['sent']));
  });

  it('publishes with a DOI, and a study changed afterwards becomes a new version holding exactly its files', async () => {
    const published = await action('ZEN1', 'publish');
    expect(published.status, await published.clone().text()).toBe(200);
    const { doi } = (await published.json()) as { doi: string };
    expect(doi).toMatch(/^10\.5072\/zenodo\.\d+$/);

    // one read file gets new bytes, one barcode list is replaced by another; the rest is unchanged
    const changed = structuredClone(components);
    const read = changed.file![0]!.read_1_file!;
    const oldBarcodes = changed.file![1]!.white_list_barcode_file!;
    const newBytes = randomBytes(2048);
    const barcodes = Buffer.from('AAACCTGAGAAACCAT\nAAACCTGAGAAACCGC\n');
    changed.file![0]!.read_1_file_checksum = md5Of(newBytes);
    changed.file![1]!.white_list_barcode_file = 'ZEN1/barcodes_v2.tsv';
    await uploadFiles(
      h,
      key,
      profileId,
      new Map([
        [read, newBytes],
        ['ZEN1/barcodes_v2.tsv', barcodes],
      ]),
    );
    await uploadSheet(changed);

    const id = await submit('ZEN1');
    expect((await submissionRow(id)).status).toBe('accepted');
    const second = await zenodoIdOf('ZEN1');
    expect(second).not.toBe(first);
    expect(server.zenodo.depositions.get(second)!.conceptrecid).toBe(server.zenodo.depositions.get(first)!.conceptrecid);
    const deposited = filesAt(second);
    expect(deposited.get(read)).toBe(md5Of(newBytes));
    expect(deposited.get('ZEN1/barcodes_v2.tsv')).toBe(md5Of(barcodes));
    expect(deposited.has(oldBarcodes)).toBe(false);
    // the unchanged files came with the new version and were not sent again
    expect(putsTo(second).sort()).toEqual([read, 'ZEN1.xlsx', 'ZEN1/barcodes_v2.tsv'].sort());

    const again = await action('ZEN1', 'publish');
    expect(again.status).toBe(200);
    const second_doi = ((await again.json()) as { doi: string }).doi;
    expect(second_doi).not.toBe(doi);
  });
});

describe('faults', () => {
  it('rejects the study naming a file missing from storage, and sends nothing to Zenodo', async () => {
    const { components } = await study('ZENMISS');
    const before = server.zenodo.depositions.size;
    components.file![0]!.read_1_file = 'ZENMISS/not-there.fastq.gz';
    await uploadSheet(components);
    const sub = await submissionRow(await submit('ZENMISS'));
    expect(sub).toMatchObject({
      status: 'rejected',
      error: "File ZENMISS/not-there.fastq.gz is not in the profile's storage: upload it, then submit again.",
    });
    expect(server.zenodo.depositions.size).toBe(before);
  });

  it('rejects the study naming the file whose bytes differ from the sheet’s checksum, and sends nothing', async () => {
    const { components } = await study('ZENSUM');
    const before = server.zenodo.depositions.size;
    components.file![1]!.read_2_file_checksum = 'f'.repeat(32);
    await uploadSheet(components);
    const sub = await submissionRow(await submit('ZENSUM'));
    expect(sub.status).toBe('rejected');
    expect(sub.error).toMatch(/^File ZENSUM\/file_read_2_file_2\.fastq\.gz does not match the sheet's checksum/);
    expect(server.zenodo.depositions.size).toBe(before);
  });

  it('sends a file again when Zenodo answers its PUT with 500, and completes', async () => {
    const { files } = await study('ZEN500');
    const name = [...files.keys()][0]!;
    server.faults.fail(1, { service: 'zenodo', method: 'PUT', path: encodeURIComponent(name), status: 500 });
    const sub = await submissionRow(await submit('ZEN500'));
    expect(sub.status, sub.error ?? '').toBe('accepted');
    expect(filesAt(await zenodoIdOf('ZEN500')).get(name)).toBe(md5Of(files.get(name)!));
    expect(server.requests.filter((r) => r.fault === 'fail' && r.path.endsWith(encodeURIComponent(name)))).toHaveLength(1);
  });

  it('resumes on the same deposition after dying half-way, without sending the files already there', async () => {
    const { files } = await study('ZENKILL');
    const res = await action('ZENKILL', 'submit');
    const id = ((await res.json()) as { submission_id: string }).submission_id;
    const names = [...files.keys()];
    const real = createZenodoClient(zenodoClientOptionsFromConfig(h.config, h.deps.logger));
    let sent = 0;
    // the worker dies after two files reached the bucket
    const dying = {
      ...real,
      async uploadFile(...args: Parameters<typeof real.uploadFile>) {
        if (sent === 2) throw new Error('worker killed');
        sent += 1;
        return real.uploadFile(...args);
      },
    };
    await runStudySubmission({ ...jobDeps(), zenodo: () => dying }, id).catch(() => undefined);
    const progress = (await submissionRow(id)).progress as { deposition_id: string };
    const depositionId = Number(progress.deposition_id);
    expect(filesAt(depositionId).size).toBe(2);
    const before = server.zenodo.depositions.size;

    await runStudySubmission(jobDeps(), id);
    expect((await submissionRow(id)).status).toBe('accepted');
    expect(server.zenodo.depositions.size).toBe(before);
    expect(await zenodoIdOf('ZENKILL')).toBe(depositionId);
    expect(filesAt(depositionId).size).toBe(names.length + 1);
    // each file reached the bucket once
    const puts = putsTo(depositionId);
    expect(puts.length).toBe(new Set(puts).size);
  });
});
