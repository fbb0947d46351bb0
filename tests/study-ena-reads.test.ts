import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { studies, submissions } from '@/db/schema';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { fileStore } from '@/lib/files/files';
import {
  createEnaClient,
  createUploadArea,
  type EnaClient,
  enaClientOptionsFromConfig,
  uploadAreaOptionsFromConfig,
} from '@/lib/repositories/ena';
import { webinCliSettings } from '@/lib/repositories/webin-cli';
import { createZenodoClient, zenodoClientOptionsFromConfig } from '@/lib/repositories/zenodo';
import type { StudyComponents } from '@/lib/studies/validate';
import { runStudySubmission } from '@/lib/submissions/study/job';
import { bytesOf, createProfile, definition, studiesApi } from './fixtures/studies/api';
import { md5Of, withDataFiles } from './fixtures/studies/data-files';
import { fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { createHarness, type Harness } from './support/harness';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';

/**
 * A single-cell study at ENA with its reads (docs/studies-and-checklists.md §11.2–11.3): its BioSample held only by ENA,
 * its files uploaded to the profile, staged into the Webin upload area (FTP) and named by one RUN per file row.
 * Jobs are run by hand here, so that a worker can be made to die at a chosen point.
 */

const SCHEMA = 'svc_single_cell';
const CHECKLIST = 'version_dwc_sc_rnaseq';
const SAMPLE = { accession: 'SAMEA7524530', taxonId: '9606', scientificName: 'Homo sapiens' };
const ACCOUNT = 'Webin-00000';

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
    ENA_BROWSER_URL: server.browserUrl,
    ENA_FTP_URL: server.ftpUrl,
    ZENODO_URL: server.zenodoUrl,
    ZENODO_TOKEN: server.credentials.zenodo.token,
  });
  key = (await h.user()).key;
  profileId = await createProfile(h, key, 'Human PBMC single-cell atlas');
  api = studiesApi(h, key, profileId);
  def = await definition(h, SCHEMA, CHECKLIST);
}, 120_000);
afterAll(async () => {
  await h.close();
  await server.close();
});
beforeEach(() => {
  server.faults.clear();
  server.uploadArea.dropUploads(0, 0);
});

const realEna = () => createEnaClient(enaClientOptionsFromConfig(h.config, h.deps.logger, { retryDelayMs: 1, maxRetryDelayMs: 5 }));

/** The job's dependencies as the service builds them, with the ENA client replaceable. */
const jobDeps = (ena: () => EnaClient = realEna) => ({
  db: h.database.db,
  logger: h.deps.logger,
  baseUrl: h.config.baseUrl,
  jobs: h.deps.jobs,
  ena,
  zenodo: () => createZenodoClient(zenodoClientOptionsFromConfig(h.config, h.deps.logger)),
  files: fileStore({ db: h.database.db, config: h.config }),
  uploadArea: () => createUploadArea(uploadAreaOptionsFromConfig(h.config, h.deps.logger, { retryDelayMs: 1 })),
  webinCli: () => webinCliSettings(h.config),
});

/** Two file rows with paired reads on an Illumina instrument, files uploaded unless `upload` says otherwise. */
async function study(studyId: string, opts: { upload?: boolean; edit?: (c: StudyComponents) => void } = {}) {
  const base = fixtureComponents(def, { studyId, samples: [SAMPLE], rows: 2 });
  for (const r of base.sequencing!) Object.assign(r, { sequencing_instrument_model: 'Illumina NovaSeq 6000', lib_layout: 'Paired' });
  for (const r of base.file!) for (const t of ['read_1_file', 'read_2_file']) r[t] = `${studyId}/${r[t]}`;
  const { components, files } = await withDataFiles(h, key, profileId, def, base);
  if (opts.upload === false) {
    // the sheet names these files with these checksums, but nothing reached the profile's storage
    components.file![0]!.read_1_file = `${studyId}/never-uploaded_R1.fastq.gz`;
  }
  opts.edit?.(components);
  await uploadSheet(components);
  return { components, files };
}

async function uploadSheet(components: StudyComponents) {
  const tpl = await bytesOf(await api.template(SCHEMA, CHECKLIST));
  const res = await api.upload(SCHEMA, CHECKLIST, await workbookBytes(await fillTemplate(tpl, def, components)));
  expect(res.status, await res.clone().text()).toBe(200);
}

async function submit(studyId: string): Promise<string> {
  const res = await h.request(`/api/profiles/${profileId}/schema/${SCHEMA}/studies/${studyId}/action/submit?repository=ena`, {
    method: 'POST',
    key,
  });
  expect(res.status, await res.clone().text()).toBe(202);
  return ((await res.json()) as { submission_id: string }).submission_id;
}

const status = async (studyId: string) =>
  (await (
    await h.request(`/api/profiles/${profileId}/schema/${SCHEMA}/studies/${studyId}/action/submit?repository=ena`, { key })
  ).json()) as Record<string, unknown>;

const stored = async (studyId: string) =>
  (
    await h.database.db
      .select()
      .from(studies)
      .where(and(eq(studies.profileId, profileId), eq(studies.studyId, studyId)))
  )[0]!;

const submissionRow = async (id: string) => (await h.database.db.select().from(submissions).where(eq(submissions.id, id)))[0]!;

const objectsOf = (studyId: string, type: 'EXPERIMENT' | 'RUN' | 'PROJECT') =>
  server.ena.objects(ACCOUNT).filter((o) => o.type === type && o.alias.startsWith(`${profileId}:${studyId}`));

const addsWithRuns = (studyId: string) =>
  server.ena.submissions.filter(
    (s) =>
      s.success && s.actions.includes('ADD') && s.objects.some((o) => o.type === 'RUN' && o.alias.startsWith(`${profileId}:${studyId}`)),
  );

describe('a single-cell study with reads', () => {
  let reads1: StudyComponents;

  it('gets PRJEB, ERX and ERR accessions, its files in the upload area with their MD5s, and per-file status', async () => {
    const { files, components } = await study('READS1');
    reads1 = components;
    const id = await submit('READS1');
    await runStudySubmission(jobDeps(), id);

    const sub = await submissionRow(id);
    expect(sub.status, sub.error ?? '').toBe('accepted');
    const accessions = (await stored('READS1')).accessions as { ena: { study: string; file: Record<string, Record<string, string>> } };
    expect(accessions.ena.study).toMatch(/^PRJEB\d+$/);
    expect(Object.keys(accessions.ena.file).sort()).toEqual(['FILE001', 'FILE002']);
    for (const row of Object.values(accessions.ena.file)) {
      expect(row.experiment_accession).toMatch(/^ERX\d+$/);
      expect(row.run_accession).toMatch(/^ERR\d+$/);
    }
    expect(objectsOf('READS1', 'EXPERIMENT')).toHaveLength(2);
    expect(objectsOf('READS1', 'RUN')).toHaveLength(2);
    // the experiment points at the ENA-held BioSample and the project; the run at its staged files
    const sentXml = server.requests
      .filter((r) => r.body.includes('<EXPERIMENT ') && r.body.includes('READS1'))
      .map((r) => r.body)
      .join('\n');
    expect(sentXml).toContain(`<SAMPLE_DESCRIPTOR accession="${SAMPLE.accession}"`);
    expect(sentXml).toContain(`<STUDY_REF accession="${accessions.ena.study}"`);
    expect(sentXml).toContain('<ILLUMINA>');
    expect(sentXml).toContain('checksum_method="MD5"');
    for (const [name, bytes] of files) {
      if (!/_read_[12]_file_/.test(name)) continue;
      expect(await server.uploadArea.fileOf(ACCOUNT, `${profileId}/${name}`), name).toEqual({ size: bytes.length, md5: md5Of(bytes) });
    }
    const shown = (await status('READS1')) as { status: string; files: { file_name: string; state: string; size: number; sent: number }[] };
    expect(shown.status).toBe('accepted');
    const readFiles = [...files.keys()].filter((n) => /_read_[12]_file_/.test(n));
    expect(shown.files.filter((f) => readFiles.includes(f.file_name)).map((f) => f.state)).toEqual(readFiles.map(() => 'sent'));

    // the accession rows list every file row with its run and experiment
    const rows = (await (
      await h.request(`/api/profiles/${profileId}/schema/${SCHEMA}/studies/READS1/action/accession?repository=ena`, { key })
    ).json()) as Record<string, string>[];
    expect(rows.filter((r) => r.file_id)).toEqual([
      expect.objectContaining({
        file_id: 'FILE001',
        run_accession_ena: accessions.ena.file.FILE001!.run_accession,
        file_status_ena: 'accepted',
      }),
      expect.objectContaining({ file_id: 'FILE002', experiment_accession_ena: accessions.ena.file.FILE002!.experiment_accession }),
    ]);
  });

  it('goes to Zenodo too, with its data files; publishing gives a DOI, and a submit after publishing makes a new version', async () => {
    const zenodo = async () => {
      const res = await h.request(`/api/profiles/${profileId}/schema/${SCHEMA}/studies/READS1/action/submit?repository=zenodo`, {
        method: 'POST',
        key,
      });
      expect(res.status, await res.clone().text()).toBe(202);
      const id = ((await res.json()) as { submission_id: string }).submission_id;
      await runStudySubmission(jobDeps(), id);
      const sub = await submissionRow(id);
      expect(sub.status, sub.error ?? '').toBe('accepted');
      return Number(((await stored('READS1')).accessions as { zenodo: { study: string } }).zenodo.study);
    };
    const first = await zenodo();
    const deposition = server.zenodo.depositions.get(first)!;
    const names = [...deposition.files.values()].map((f) => f.key);
    expect(names).toContain('READS1.xlsx');
    const reads = names.filter((n) => /_read_[12]_file_/.test(n));
    expect(reads).toHaveLength(4);
    for (const f of deposition.files.values()) if (reads.includes(f.key)) expect(f.checksum).toMatch(/^[0-9a-f]{32}$/);

    const published = await h.request(`/api/profiles/${profileId}/schema/${SCHEMA}/studies/READS1/action/publish?repository=zenodo`, {
      method: 'POST',
      key,
    });
    expect(published.status, await published.clone().text()).toBe(200);
    expect(((await published.json()) as { doi: string }).doi).toMatch(/^10\.5072\/zenodo\.\d+$/);

    // the researcher corrects the study's description and submits again
    const changed = structuredClone(reads1);
    changed.study![0]!.description = `${changed.study![0]!.description ?? ''} Corrected after publication.`;
    await uploadSheet(changed);
    const second = await zenodo();
    expect(second).not.toBe(first);
    expect(server.zenodo.depositions.get(second)!.conceptrecid).toBe(deposition.conceptrecid);
    expect(server.requests.some((r) => r.service === 'zenodo' && r.path.endsWith(`/deposit/depositions/${first}/actions/newversion`))).toBe(
      true,
    );
  });

  it('sends a changed row again with MODIFY, keeping its accessions, and leaves an unchanged one alone', async () => {
    const { components } = await study('READS2');
    await runStudySubmission(jobDeps(), await submit('READS2'));
    const first = ((await stored('READS2')).accessions as { ena: { file: Record<string, Record<string, string>> } }).ena.file;
    const before = server.ena.submissions.length;

    // the library of the first file row only
    components.lib_prep![0]!.design_description = 'Libraries made from sorted CD14+ monocytes';
    await uploadSheet(components);
    const id = await submit('READS2');
    await runStudySubmission(jobDeps(), id);
    expect((await submissionRow(id)).status).toBe('accepted');
    const modifies = server.ena.submissions
      .slice(before)
      .filter((s) => s.actions.includes('MODIFY') && s.objects.some((o) => o.type === 'RUN'));
    expect(modifies).toHaveLength(1);
    expect(modifies[0]!.objects.filter((o) => o.type === 'RUN').map((o) => o.alias)).toEqual([`${profileId}:READS2:FILE001:run`]);
    const after = ((await stored('READS2')).accessions as { ena: { file: Record<string, Record<string, string>> } }).ena.file;
    expect(after.FILE001!.run_accession).toBe(first.FILE001!.run_accession);
    expect(after.FILE002).toEqual(first.FILE002);
  });
});

describe('faults', () => {
  it('rejects the study naming the file whose bytes do not match the sheet’s checksum, sending nothing', async () => {
    await study('BADSUM', { edit: (c) => (c.file![1]!.read_2_file_checksum = '0'.repeat(32)) });
    const uploadsBefore = server.uploadArea.stored.length;
    const id = await submit('BADSUM');
    await runStudySubmission(jobDeps(), id);
    const sub = await submissionRow(id);
    expect(sub.status).toBe('rejected');
    expect(sub.error).toMatch(
      /^File BADSUM\/file_read_2_file_2\.fastq\.gz does not match the sheet's checksum: its MD5 is [0-9a-f]{32}, the sheet says 0{32}\.$/,
    );
    expect(objectsOf('BADSUM', 'PROJECT')).toEqual([]);
    expect(server.uploadArea.stored.length).toBe(uploadsBefore);
    expect((await status('BADSUM')).status).toBe('rejected');
  });

  it('rejects the study naming a file that is not in the profile’s storage', async () => {
    await study('NOFILE', { upload: false });
    const id = await submit('NOFILE');
    await runStudySubmission(jobDeps(), id);
    const sub = await submissionRow(id);
    expect(sub).toMatchObject({
      status: 'rejected',
      error: "File NOFILE/never-uploaded_R1.fastq.gz is not in the profile's storage: upload it, then submit again.",
    });
    expect(objectsOf('NOFILE', 'PROJECT')).toEqual([]);
  });

  it('sends a file again when the FTP connection drops part-way, and completes', async () => {
    const { files } = await study('DROPPED');
    server.uploadArea.dropUploads(1, 300);
    const id = await submit('DROPPED');
    await runStudySubmission(jobDeps(), id);
    expect((await submissionRow(id)).status).toBe('accepted');
    for (const [name, bytes] of files) {
      if (!/_read_[12]_file_/.test(name)) continue;
      expect((await server.uploadArea.fileOf(ACCOUNT, `${profileId}/${name}`))?.md5, name).toBe(md5Of(bytes));
    }
    expect(objectsOf('DROPPED', 'RUN')).toHaveLength(2);
  });

  it('resumes after the worker dies between staging the files and submitting the runs: one set of runs, files not sent twice', async () => {
    await study('KILLED1');
    const id = await submit('KILLED1');
    let killed = false;
    const dying = (): EnaClient => {
      const real = realEna();
      return {
        ...real,
        async submit(doc, init) {
          if (typeof doc !== 'string' && doc.runs?.length) {
            killed = true;
            throw new Error('worker killed');
          }
          return real.submit(doc, init);
        },
      };
    };
    await expect(runStudySubmission(jobDeps(dying), id)).rejects.toThrow('worker killed');
    expect(killed).toBe(true);
    const staged = server.uploadArea.stored.filter((s) => s.path.includes('KILLED1')).length;
    expect(staged).toBe(4);

    await runStudySubmission(jobDeps(), id);
    expect((await submissionRow(id)).status).toBe('accepted');
    expect(objectsOf('KILLED1', 'RUN')).toHaveLength(2);
    expect(addsWithRuns('KILLED1')).toHaveLength(1);
    expect(server.uploadArea.stored.filter((s) => s.path.includes('KILLED1')).length).toBe(staged);
  });

  it('resumes through RECEIPT when the worker dies after ENA took the runs but before their accessions were written', async () => {
    await study('KILLED2');
    const id = await submit('KILLED2');
    const dying = (): EnaClient => {
      const real = realEna();
      return {
        ...real,
        async submit(doc, init) {
          const receipt = await real.submit(doc, init);
          if (typeof doc !== 'string' && doc.runs?.length) throw new Error('worker killed');
          return receipt;
        },
      };
    };
    await expect(runStudySubmission(jobDeps(dying), id)).rejects.toThrow('worker killed');
    expect(objectsOf('KILLED2', 'RUN')).toHaveLength(2);

    await runStudySubmission(jobDeps(), id);
    const sub = await submissionRow(id);
    expect(sub.status, sub.error ?? '').toBe('accepted');
    expect(objectsOf('KILLED2', 'RUN')).toHaveLength(2);
    expect(addsWithRuns('KILLED2')).toHaveLength(1);
    const rows = ((await stored('KILLED2')).accessions as { ena: { file: Record<string, Record<string, string>> } }).ena.file;
    expect(
      Object.values(rows)
        .map((r) => r.run_accession)
        .sort(),
    ).toEqual(
      objectsOf('KILLED2', 'RUN')
        .map((o) => o.accession)
        .sort(),
    );
  });
});
