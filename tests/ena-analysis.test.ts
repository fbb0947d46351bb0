import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors';
import {
  type AnalysisSpec,
  buildAnalysisXml,
  buildWebinXml,
  createEnaClient,
  createUploadArea,
  type EnaClient,
  type ExperimentSpec,
  type ProjectSpec,
  parseReceipt,
  type RunSpec,
  tolSampleSpec,
  type WebinDocument,
} from '@/lib/repositories/ena';
import { archiveStateOf, parseFileReport } from '@/lib/repositories/ena/file-report';
import { RepositoryProtocolError } from '@/lib/repositories/errors';
import { enaSchemaErrors } from './support/ena-schemas';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';
import { DTOL_ENA_MAPPING, dtolRow } from './support/repository-server/fixtures';
import { captureLogger, FAST } from './support/repository-server/log';

/**
 * Sequence annotations as ENA ANALYSIS objects (docs/repositories.md §2.2, §4): the document is valid by ENA's own
 * XML Schemas, the Webin stand-in accessions it (ERZ…) and refuses it as Webin does, and the reports service says how
 * far the archiving of its files, and of a run's, has got.
 */

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const READ = Buffer.from('@r1\nACGT\n+\nIIII\n');
const GFF = Buffer.from('##gff-version 3\nctg1\tRMB\tgene\t1\t4\t.\t+\t.\tID=gene1\n');
let n = 0;
const unique = (p: string) => `${p}-${++n}-${Math.random().toString(16).slice(2, 8)}`;
const add = (doc: Omit<WebinDocument, 'submission'>): WebinDocument => ({ submission: { actions: [{ type: 'ADD' }] }, ...doc });

const annotation = (overrides: Partial<AnalysisSpec> = {}): AnalysisSpec => ({
  alias: unique('annotation'),
  title: 'Gene models of Aglais io',
  description: 'Genes predicted on the Aglais io assembly from RNA-Seq evidence',
  study: { accession: 'PRJEB70001' },
  samples: [{ accession: 'SAMEA12907823' }],
  runs: [{ accession: 'ERR70002' }],
  analysisType: 'SEQUENCE_ANNOTATION',
  files: [{ filename: 'sub/annotation/genes.gff', filetype: 'gff', checksum: md5(GFF), checksumMethod: 'MD5' }],
  attributes: [{ tag: 'annotation pipeline', value: 'BRAKER3' }],
  ...overrides,
});

describe('an ANALYSIS document', () => {
  it("is valid by ENA's XML Schemas, referring to a project and a run by accession", async () => {
    const xml = buildWebinXml(add({ analyses: [annotation()] }), { centerName: 'EI', brokerName: 'RMB' });
    expect(await enaSchemaErrors(xml)).toEqual([]);
    expect(xml).toMatch(
      /<ANALYSIS alias="[^"]+" center_name="EI">\s*<TITLE>[^<]+<\/TITLE>\s*<DESCRIPTION>[^<]+<\/DESCRIPTION>\s*<STUDY_REF accession="PRJEB70001"\/>\s*<SAMPLE_REF accession="SAMEA12907823"\/>\s*<RUN_REF accession="ERR70002"\/>\s*<ANALYSIS_TYPE>\s*<SEQUENCE_ANNOTATION\/>\s*<\/ANALYSIS_TYPE>\s*<FILES>\s*<FILE filename="sub\/annotation\/genes.gff" filetype="gff" checksum_method="MD5" checksum="[0-9a-f]{32}"\/>\s*<\/FILES>\s*<ANALYSIS_ATTRIBUTES>/,
    );
  });

  it('is valid with the project, experiment and run it refers to in the same document, after RUN_SET', async () => {
    const project: ProjectSpec = { alias: 'p1', title: 'Genome annotation of Aglais io', description: 'Gene models and their evidence' };
    const experiment: ExperimentSpec = {
      alias: 'x1',
      study: { refname: 'p1' },
      sample: { accession: 'SAMEA12907823' },
      libraryStrategy: 'RNA-Seq',
      librarySource: 'TRANSCRIPTOMIC',
      librarySelection: 'cDNA',
      libraryLayout: { type: 'SINGLE' },
      platform: 'ILLUMINA',
      instrumentModel: 'Illumina NovaSeq 6000',
    };
    const run: RunSpec = {
      alias: 'r1',
      experiment: { refname: 'x1' },
      files: [{ filename: 'r.fastq.gz', filetype: 'fastq', checksum: md5(READ) }],
    };
    const xml = buildWebinXml(
      add({
        projects: [project],
        experiments: [experiment],
        runs: [run],
        analyses: [annotation({ study: { refname: 'p1' }, samples: [], runs: [{ refname: 'r1' }], attributes: undefined })],
      }),
    );
    expect(await enaSchemaErrors(xml)).toEqual([]);
    expect(xml.indexOf('<ANALYSIS_SET>')).toBeGreaterThan(xml.indexOf('</RUN_SET>'));
    expect(xml).not.toContain('<SAMPLE_REF');
    expect(await enaSchemaErrors(buildAnalysisXml([annotation()]))).toEqual([]);
  });

  it('is refused before sending without files, with a checksum other than MD5, or an unknown file type', () => {
    const refused = (spec: AnalysisSpec, message: RegExp) => {
      const err = (() => {
        try {
          buildAnalysisXml([spec]);
        } catch (e) {
          return e;
        }
      })();
      expect(err).toBeInstanceOf(AppError);
      expect(err).toMatchObject({ code: 'invalid', message: expect.stringMatching(message) });
    };
    const file = annotation().files[0]!;
    refused(annotation({ files: [] }), /needs at least one file/);
    // a caller outside TypeScript (a stored row, a JSON body) can pass what the type rules out
    refused(annotation({ files: [{ ...file, checksumMethod: 'SHA-256' as 'MD5' }] }), /needs an MD5 checksum, not SHA-256/);
    refused(annotation({ files: [{ ...file, checksum: 'abc' }] }), /is not the MD5/);
    refused(annotation({ files: [{ ...file, filetype: 'gtf' as 'gff' }] }), /not an ENA analysis file type/);
    refused(annotation({ title: ' ' }), /needs a title/);
  });

  it('comes back in a RECEIPT as an ANALYSIS element with its ERZ accession', () => {
    const receipt = parseReceipt(
      '<?xml version="1.0" encoding="UTF-8"?><RECEIPT receiptDate="2026-01-01T00:00:00.000+00:00" success="true">' +
        '<ANALYSIS accession="ERZ1234567" alias="annotation-1" status="PRIVATE"/><SUBMISSION accession="ERA1" alias="s"/>' +
        '<MESSAGES/><ACTIONS>ADD</ACTIONS></RECEIPT>',
    );
    expect(receipt.outcome).toBe('accepted');
    expect(receipt.byAlias.ANALYSIS['annotation-1']).toMatchObject({ type: 'ANALYSIS', accession: 'ERZ1234567', status: 'PRIVATE' });
    expect(receipt.objects.map((o) => o.type)).toEqual(['ANALYSIS']);
  });
});

describe('the Webin stand-in with analyses, and the files reports', () => {
  let server: RepositoryServer;
  let ena: EnaClient;
  let studyAccession: string;
  let biosample: string;
  let runAccession: string;
  const readNames = ['sub/reads/a_R1.fastq.gz', 'sub/reads/a_R2.fastq.gz'];

  beforeAll(async () => {
    server = await startRepositoryServer();
    ena = createEnaClient({
      baseUrl: server.enaUrl,
      username: server.credentials.ena.username,
      password: server.credentials.ena.password,
      logger: captureLogger().logger,
      centerName: 'EI',
      ...FAST,
    });
    const area = createUploadArea({ url: server.ftpUrl, ...server.credentials.ena, logger: captureLogger().logger });
    for (const name of readNames) await area.send(name, READ.length, async () => Readable.from([READ]));
    await area.send('sub/annotation/genes.gff', GFF.length, async () => Readable.from([GFF]));
    area.close();

    const project: ProjectSpec = {
      alias: unique('study'),
      title: 'Genome annotation of Aglais io',
      description: 'Gene models of Aglais io and the reads behind them',
    };
    const sample = tolSampleSpec({ alias: unique('svc'), project: 'DTOL', fields: dtolRow(), tolid: 'ilAglIo1' }, DTOL_ENA_MAPPING);
    const first = await ena.submit(add({ projects: [project], samples: [sample] }));
    studyAccession = first.byAlias.PROJECT[project.alias]!.accession!;
    biosample = first.byAlias.SAMPLE[sample.alias]!.biosampleAccession!;
    const x = unique('exp');
    const r = unique('run');
    const reads = await ena.submit(
      add({
        experiments: [
          {
            alias: x,
            study: { accession: studyAccession },
            sample: { accession: biosample },
            libraryStrategy: 'RNA-Seq',
            librarySource: 'TRANSCRIPTOMIC',
            librarySelection: 'cDNA',
            libraryLayout: { type: 'PAIRED' },
            platform: 'ILLUMINA',
            instrumentModel: 'Illumina NovaSeq 6000',
          },
        ],
        runs: [
          {
            alias: r,
            experiment: { refname: x },
            files: readNames.map((filename) => ({ filename, filetype: 'fastq', checksum: md5(READ) })),
          },
        ],
      }),
    );
    expect(reads.outcome).toBe('accepted');
    runAccession = reads.byAlias.RUN[r]!.accession!;
  });
  afterAll(() => server.close());

  const ourAnnotation = (overrides: Partial<AnalysisSpec> = {}) =>
    annotation({
      study: { accession: studyAccession },
      samples: [{ accession: biosample }],
      runs: [{ accession: runAccession }],
      ...overrides,
    });

  it('accessions an ANALYSIS (ERZ), finds it again by RECEIPT, and refuses a second ADD of its alias', async () => {
    const a = ourAnnotation();
    const receipt = await ena.submit(add({ analyses: [a] }));
    expect(receipt).toMatchObject({ success: true, outcome: 'accepted' });
    const erz = receipt.byAlias.ANALYSIS[a.alias]?.accession;
    expect(erz).toMatch(/^ERZ\d+$/);
    expect(receipt.byAlias.ANALYSIS[a.alias]?.status).toBe('PRIVATE');

    const again = await ena.fetchReceipt(a.alias);
    expect(again.outcome).toBe('accepted');
    expect(again.byAlias.ANALYSIS[a.alias]?.accession).toBe(erz);
    expect(again.submission?.accession).toBe(receipt.submission?.accession);

    const twice = await ena.submit(add({ analyses: [a] }));
    expect(twice).toMatchObject({ success: false, outcome: 'alias_exists' });
    expect(twice.existing).toEqual([{ type: 'ANALYSIS', alias: a.alias, accession: erz }]);
    expect(twice.errors[0]).toBe(
      `In analysis, alias: "${a.alias}". The object being added already exists in the submission account with accession: "${erz}".`,
    );
    expect(server.ena.objects().filter((o) => o.alias === a.alias)).toHaveLength(1);

    // MODIFY changes what describes the analysis and keeps its accession
    const modified = await ena.submit({
      submission: { actions: [{ type: 'MODIFY' }] },
      analyses: [{ ...a, title: 'Gene models of Aglais io, v2' }],
    });
    expect(modified.outcome).toBe('accepted');
    expect(modified.byAlias.ANALYSIS[a.alias]?.accession).toBe(erz);
  });

  it('refuses, as Webin does, references it does not hold and files that are not in the upload area as named', async () => {
    const orphan = ourAnnotation({ study: { accession: 'PRJEB1' }, runs: [{ accession: 'ERR1' }, { refname: 'no-such-run' }] });
    const missing = ourAnnotation({
      files: [{ filename: 'sub/annotation/absent.gff', filetype: 'gff', checksum: md5(GFF), checksumMethod: 'MD5' }],
    });
    const changed = ourAnnotation({
      files: [{ filename: 'sub/annotation/genes.gff', filetype: 'gff', checksum: md5(READ), checksumMethod: 'MD5' }],
    });
    const receipt = await ena.submit(add({ analyses: [orphan, missing, changed] }));
    expect(receipt.outcome).toBe('rejected');
    expect(receipt.errors).toEqual(
      expect.arrayContaining([
        `In analysis, alias: "${orphan.alias}". The referenced study does not exist in the submission account.`,
        `In analysis, alias: "${orphan.alias}". The referenced run "ERR1" does not exist in the submission account.`,
        `In analysis, alias: "${orphan.alias}". The referenced run "no-such-run" does not exist in the submission account.`,
        `In analysis, alias: "${missing.alias}". Failed to find file "sub/annotation/absent.gff" in the Webin upload area.`,
        `In analysis, alias: "${changed.alias}". Invalid MD5 checksum "${md5(READ)}" for file "sub/annotation/genes.gff": the uploaded file has ${md5(GFF)}.`,
      ]),
    );
    expect(receipt.errors).toHaveLength(5);
    expect(server.ena.objects().some((o) => [orphan, missing, changed].some((a) => a.alias === o.alias))).toBe(false);
  });

  it("reports an analysis's files as processing, then archived once the archive has them", async () => {
    const a = ourAnnotation();
    const erz = (await ena.submit(add({ analyses: [a] }))).byAlias.ANALYSIS[a.alias]!.accession!;
    expect(await ena.filesOf('analysis', erz)).toEqual([
      { name: 'sub/annotation/genes.gff', size: GFF.length, md5: md5(GFF), state: 'processing' },
    ]);
    server.ena.files.archive(erz);
    expect(await ena.filesOf('analysis', erz)).toEqual([
      { name: 'sub/annotation/genes.gff', size: GFF.length, md5: md5(GFF), state: 'archived' },
    ]);
    const asked = server.requests.filter((r) => r.path.includes('/report/analysis-files/')).at(-1);
    expect(asked).toMatchObject({ method: 'GET', path: `/ena/submit/report/analysis-files/${erz}`, auth: 'basic', status: 200 });
  });

  it("reports a run's files the same way, and a failed file with ENA's reason", async () => {
    const before = await ena.filesOf('run', runAccession);
    expect(before.map((f) => [f.name, f.state])).toEqual(readNames.map((name) => [name, 'processing']));
    expect(before[0]).toMatchObject({ size: READ.length, md5: md5(READ) });

    server.ena.files.fail(runAccession, 'gzip: unexpected end of file', readNames[0]).archive(runAccession, readNames[1]);
    expect(await ena.filesOf('run', runAccession)).toEqual([
      { name: readNames[0], size: READ.length, md5: md5(READ), state: 'failed', error: 'gzip: unexpected end of file' },
      { name: readNames[1], size: READ.length, md5: md5(READ), state: 'archived' },
    ]);
  });

  it('answers no files for a run the account does not hold, and asks nothing for an accession of the wrong kind', async () => {
    expect(await ena.filesOf('run', 'ERR1')).toEqual([]);
    const requests = server.requests.length;
    await expect(ena.filesOf('run', 'ERZ1')).rejects.toThrow(RangeError);
    await expect(ena.filesOf('analysis', '../samples/xml/ERS1')).rejects.toThrow(RangeError);
    expect(server.requests.length).toBe(requests);
    // a test control naming what the stand-in never accepted fails in the test
    expect(() => server.ena.files.archive('ERZ1')).toThrow(/holds no files for ERZ1/);
  });
});

describe('the files report', () => {
  it("maps ENA's statuses onto received, processing, archived and failed, and anything unknown onto processing", () => {
    expect(
      ['ARCHIVED', 'completed', 'FAILED', 'archive_error', 'RECEIVED', 'PROCESSING', 'active', 'SOMETHING NEW', undefined].map(
        archiveStateOf,
      ),
    ).toEqual(['archived', 'archived', 'failed', 'failed', 'received', 'processing', 'processing', 'processing', 'processing']);
  });

  it('reads rows with members missing or null, and refuses what is not the report', () => {
    expect(
      parseFileReport(
        JSON.stringify([
          {
            report: { id: 'ERR1', fileName: 'a.fastq.gz', fileSize: '12', md5Checksum: 'ABC', archiveStatus: null, error: null, other: 1 },
          },
          { report: { fileName: 'b.fastq.gz', archiveStatus: 'FAILED', error: ' bad gzip ' } },
        ]),
      ),
    ).toEqual([
      { name: 'a.fastq.gz', size: 12, md5: 'abc', state: 'processing' },
      { name: 'b.fastq.gz', state: 'failed', error: 'bad gzip' },
    ]);
    expect(parseFileReport('')).toEqual([]);
    expect(() => parseFileReport('<html>Service unavailable</html>')).toThrow(RepositoryProtocolError);
    expect(() => parseFileReport('[{"fileName": "a"}]')).toThrow(RepositoryProtocolError);
  });
});
