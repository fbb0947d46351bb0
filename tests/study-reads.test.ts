import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samples, studies } from '@/db/schema';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import type { StudyAccessions } from '@/lib/studies/contract';
import type { SequenceDataList } from '@/lib/submissions/study/contract';
import { buildTaxonRecords, fakeTaxonomy } from './fixtures/manifests/taxa';
import { bytesOf, definition, studiesApi } from './fixtures/studies/api';
import { md5Of, uploadFiles, withDataFiles } from './fixtures/studies/data-files';
import { type FixtureSample, fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { createProfile, dtolRows, uploadManifest, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { decideSamples, repositorySettings } from './support/registration-world';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';
import { unschedule } from './support/schedules';

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
let manifestId: string;

// Webin-CLI's stand-in (tests/support/webin-cli), behind a `java` that tells it where to log each call
const cliDir = mkdtempSync(path.join(os.tmpdir(), 'rmb-webin-cli-'));
const cliLog = path.join(cliDir, 'calls.jsonl');
const java = path.join(cliDir, 'java');
const jar = path.join(cliDir, 'webin-cli-9.0.0.jar');
writeFileSync(jar, '');
writeFileSync(java, `#!/bin/sh\nWEBIN_CLI_STANDIN_LOG='${cliLog}' exec '${path.resolve('tests/support/webin-cli/java')}' "$@"\n`, {
  mode: 0o755,
});

interface CliCall {
  argv: string[];
  manifest: Record<string, string>;
  passwordSet: boolean;
}
const cliCalls = (): CliCall[] =>
  existsSync(cliLog)
    ? readFileSync(cliLog, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as CliCall)
    : [];

beforeAll(async () => {
  server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  h = await createHarness(
    {
      ...repositorySettings(server, ['ena', 'tolid']),
      ENA_BROWSER_URL: server.browserUrl,
      ENA_FTP_URL: server.ftpUrl,
      WEBIN_CLI_JAR: jar,
      JAVA: java,
    },
    { workers: true, taxonomy: fakeTaxonomy() },
  );
  // the file asks ENA about the files itself and says what it answered: the workers' clock must not ask between
  await unschedule(h.database.db, 'study.archive-status');
  server.tolid.approveAll();
  manager = await h.user({ username: 'erga-partner', memberOf: ['dtol'], managerOf: ['dtol'] });
  profileId = await createProfile(h, manager.key, { title: 'Wytham reads', description: '', type: 'dtol' });
  api = studiesApi(h, manager.key, profileId);
  def = await definition(h, SCHEMA, CHECKLIST);

  // two DTOL samples, accepted by the manager and registered at ENA as the service does
  const { manifest_id } = await uploadManifest(h, manager.key, profileId, dtolRows(2));
  manifestId = manifest_id;
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
  rmSync(cliDir, { recursive: true, force: true });
});

/** A reads study of the registered samples, its data files uploaded to the profile. */
async function readsStudy(studyId: string, opts: { rows?: number; fasta?: boolean } = {}) {
  const { rows = 2, fasta = true } = opts;
  const base = fixtureComponents(def, { studyId, samples: registered, rows });
  for (const r of base.sequencing!)
    Object.assign(r, { sequencing_platform_name: 'ILLUMINA', sequencing_instrument_model: 'Illumina NovaSeq 6000' });
  for (const r of base.lib_prep!) Object.assign(r, { lib_layout: 'Paired', library_strategy: 'WGS', library_source: 'GENOMIC' });
  for (const r of base.read_file!) Object.assign(r, { read_file_type: 'fastq' });
  const { components, files } = await withDataFiles(h, manager.key, profileId, def, base);
  // an assembly's FASTA file holds sequences, as Webin-CLI checks
  for (const r of components.assembly_file ?? []) {
    if (r.assembly_file_type !== 'FASTA' || !fasta) continue;
    const bytes = Buffer.from(`>contig_1 ${studyId}\nACGTACGTNNACGTTGCA\nGGCCTTAA\n>contig_2\nACGTTTGGCCAA\n`);
    r.assembly_file = `${studyId}_assembly.fasta`;
    r.assembly_file_checksum = md5Of(bytes);
    files.set(r.assembly_file, bytes);
    await uploadFiles(h, manager.key, profileId, new Map([[r.assembly_file, bytes]]));
  }
  const template = await bytesOf(await api.template(SCHEMA, CHECKLIST));
  const res = await api.upload(SCHEMA, CHECKLIST, await workbookBytes(await fillTemplate(template, def, components)));
  expect(res.status, await res.clone().text()).toBe(200);
  return { components, files };
}

const storedAccessions = async (studyId: string) =>
  (
    await h.database.db
      .select()
      .from(studies)
      .where(and(eq(studies.profileId, profileId), eq(studies.studyId, studyId)))
  )[0]!.accessions as StudyAccessions;

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
    // the profile's locus-tag prefix goes on the project, for the genomes annotated under it
    const tagged = await h.request(`/api/profiles/${profileId}`, {
      method: 'PUT',
      key: manager.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'dtol', ena_locus_tags: 'WYTHA' }),
    });
    expect(tagged.status, await tagged.clone().text()).toBe(200);
    const { files } = await readsStudy('WYTHAMREADS');
    const done = await submitAndWait('WYTHAMREADS');
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'accepted' });

    expect(objectsOf('WYTHAMREADS', 'PROJECT')).toHaveLength(1);
    const project = server.requests.find((r) => r.service === 'ena' && r.body.includes('<PROJECT ') && r.body.includes('WYTHAMREADS'));
    expect(project?.body).toContain('<LOCUS_TAG_PREFIX>WYTHA</LOCUS_TAG_PREFIX>');
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

  it('sends a sequence annotation as one ANALYSIS with its files and runs, and an assembly through Webin-CLI', async () => {
    const before = cliCalls().length;
    const { files } = await readsStudy('WYTHAMASM', { rows: 1 });
    const done = await submitAndWait('WYTHAMASM');
    expect(done, JSON.stringify(done)).toMatchObject({ status: 'accepted' });
    const accessions = await storedAccessions('WYTHAMASM');
    const run = accessions.ena!.file!.FILE001?.run_accession ?? Object.values(accessions.ena!.file!)[0]!.run_accession;

    // the annotation: one ANALYSIS naming the project, the sample, the run and its staged GFF file
    expect(objectsOf('WYTHAMASM', 'ANALYSIS')).toHaveLength(1);
    const [analysis] = Object.values(accessions.ena!.analysis!);
    expect(analysis!.analysis_accession).toMatch(/^ERZ\d+$/);
    const sent = server.requests
      .filter((r) => r.service === 'ena' && r.body.includes('<ANALYSIS '))
      .map((r) => r.body)
      .join('\n');
    expect(sent).toContain('<SEQUENCE_ANNOTATION/>');
    expect(sent).toContain(`<RUN_REF accession="${run}"`);
    expect(sent).toContain(`<STUDY_REF accession="${accessions.ena!.study}"`);
    const annotationFile = [...files.keys()].find((n) => n.startsWith('sequencing_annotation_file_'))!;
    expect(await server.uploadArea.fileOf(ACCOUNT, `${profileId}/${annotationFile}`)).toEqual({
      size: files.get(annotationFile)!.length,
      md5: md5Of(files.get(annotationFile)!),
    });

    // the assembly: Webin-CLI validated then submitted the manifest the rows make, the password never on a command line
    const calls = cliCalls().slice(before);
    expect(calls.map((c) => c.argv.find((a) => a === '-validate' || a === '-submit'))).toEqual(['-validate', '-submit']);
    for (const c of calls) {
      expect(c.argv.slice(c.argv.indexOf('-context'), c.argv.indexOf('-context') + 2)).toEqual(['-context', 'genome']);
      expect(c.argv).toContain('-passwordEnv');
      expect(c.argv.join(' ')).not.toContain(server.credentials.ena.password);
      expect(c.passwordSet).toBe(true);
    }
    expect(calls[1]!.manifest).toMatchObject({
      STUDY: accessions.ena!.study,
      SAMPLE: registered[0]!.accession,
      ASSEMBLY_TYPE: 'clone or isolate',
      COVERAGE: '12',
      RUN_REF: run,
      FASTA: expect.stringMatching(/WYTHAMASM_assembly\.fasta$/),
    });
    expect(calls[1]!.manifest.ASSEMBLYNAME).toBeTruthy();
    expect(calls[1]!.manifest.PROGRAM).toBeTruthy();
    expect(calls[1]!.manifest.PLATFORM).toBeTruthy();
    const [assembly] = Object.values(accessions.ena!.assembly!);
    expect(assembly).toMatchObject({ assembly_accession: expect.stringMatching(/^ERZ\d+$/) });
  });

  it('keeps Webin-CLI’s report on an assembly whose file is not FASTA, and rejects the submission with it', async () => {
    await readsStudy('WYTHAMBAD', { rows: 1, fasta: false });
    // the file uploaded for the row (FASTA by the sheet) holds random bytes, not sequences
    const bad = await storedAccessions('WYTHAMBAD');
    expect(bad.ena?.assembly).toBeUndefined();
    const done = await submitAndWait('WYTHAMBAD');
    expect(done.status).toBe('rejected');
    const error = String(done.error_ena ?? done.error ?? JSON.stringify(done));
    expect(error).toMatch(/Assembly ASSEM\w+ .*refused by Webin-CLI/);
    const [assembly] = Object.values((await storedAccessions('WYTHAMBAD')).ena!.assembly!);
    expect(assembly!.error).toMatch(/ERROR|FASTA|sequence/i);
    expect(assembly!.assembly_accession).toBeUndefined();
  });

  it('shows each read, assembly and annotation with its accessions, and ENA’s processing of their files as it moves', async () => {
    const list = async (path = 'sequence-data', method = 'GET') => {
      const res = await h.request(`/api/profiles/${profileId}/${path}`, { method, key: manager.key });
      expect(res.status, await res.clone().text()).toBe(200);
      return (await res.json()) as SequenceDataList;
    };
    const mine = (l: SequenceDataList) => l.data.filter((d) => d.study_id === 'WYTHAMASM');
    const forgetArchive = () =>
      h.database.db.execute(
        sql`update studies set accessions = jsonb_set(accessions, '{ena,archive}', '{}'::jsonb) where study_id = 'WYTHAMASM'`,
      );
    const shown = mine(await list());
    expect(shown.map((d) => [d.kind, d.state]).sort()).toEqual([
      ['annotation', 'accepted'],
      ['assembly', 'accepted'],
      ['read', 'accepted'],
    ]);
    const read = shown.find((d) => d.kind === 'read')!;
    expect(read).toMatchObject({
      accessions: { run: expect.stringMatching(/^ERR/), experiment: expect.stringMatching(/^ERX/) },
      archive: 'unknown',
    });
    expect(read.sample).toBe(registered[0]!.accession);
    expect(shown.find((d) => d.kind === 'annotation')!.accessions.analysis).toMatch(/^ERZ/);

    // asked on request: ENA has the run's files, still processing
    const asked = mine(await list('sequence-data/action/refresh', 'POST'));
    const run = read.accessions.run!;
    const askedRead = asked.find((d) => d.kind === 'read')!;
    expect(askedRead.archive).toBe('processing');
    expect(askedRead.files.map((f) => f.state)).toEqual(['processing', 'processing']);

    // the job asks again once ENA has archived them; an annotation whose file ENA could not read says why
    server.ena.files.archive(run);
    const analysis = asked.find((d) => d.kind === 'annotation')!.accessions.analysis!;
    server.ena.files.fail(analysis, 'Invalid GFF3 file: line 1 is not a GFF3 header.');
    await forgetArchive();
    await h.jobs['study.archive-status']({});
    const after = mine(await list());
    const archived = after.find((d) => d.kind === 'read')!;
    expect(archived.archive).toBe('archived');
    expect(archived.files.map((f) => f.state)).toEqual(['archived', 'archived']);
    expect(after.find((d) => d.kind === 'annotation')).toMatchObject({
      archive: 'failed',
      files: [expect.objectContaining({ state: 'failed', error: expect.stringContaining('Invalid GFF3') })],
    });
    // each kind alone
    expect(mine(await list('sequence-data?kind=assembly')).map((d) => d.kind)).toEqual(['assembly']);
  });

  it('names the public runs and analyses of a sample in the query API and the manifest’s RO-Crate, once ENA made them public', async () => {
    const accession = registered[0]!.accession;
    const publicData = async () =>
      (await (await h.request(`/api/sample/biosampleAccessions/${accession}/sequence_data`)).json()) as {
        number_found: number;
        data: { kind: string; run_accession?: string; analysis_accession?: string; study_accession: string }[];
      };
    // held at ENA: nothing is said of it
    expect((await publicData()).data.filter((d) => d.study_accession)).toEqual([]);

    const released = await h.request(`${api.base(SCHEMA)}/studies/WYTHAMASM/action/publish?repository=ena`, {
      method: 'POST',
      key: manager.key,
    });
    expect(released.status, await released.clone().text()).toBe(200);
    const project = (await storedAccessions('WYTHAMASM')).ena!.study!;
    const shown = (await publicData()).data.filter((d) => d.study_accession === project);
    expect(shown.map((d) => d.kind).sort()).toEqual(['annotation', 'assembly', 'read']);
    expect(shown.find((d) => d.kind === 'read')!.run_accession).toMatch(/^ERR\d+$/);
    expect(shown.find((d) => d.kind === 'assembly')!.analysis_accession).toMatch(/^ERZ\d+$/);

    const crate = (await (await h.request(`/api/manifest/${manifestId}?return_type=rocrate`)).json()) as {
      '@graph': {
        '@id': string;
        '@type': string;
        identifier?: string;
        additionalType?: string;
        about?: { '@id': string };
        subjectOf?: { '@id': string }[];
      }[];
    };
    const made = crate['@graph'].filter((e) => e.additionalType?.startsWith('ENA '));
    const run = shown.find((d) => d.kind === 'read')!.run_accession!;
    expect(made.map((e) => e.identifier)).toEqual(
      expect.arrayContaining([run, shown.find((d) => d.kind === 'assembly')!.analysis_accession]),
    );
    const sample = crate['@graph'].find((e) => e['@type'] === 'BioSample' && e.subjectOf?.some((r) => r['@id'].endsWith(run)));
    expect(sample).toBeDefined();
    expect(made.find((e) => e.identifier === run)!.about).toEqual({ '@id': sample!['@id'] });
  });
});
