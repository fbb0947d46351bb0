import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppError } from '@/lib/errors';
import { isTransient, RepositoryRefused } from '@/lib/repositories/errors';
import {
  type GenomeManifest,
  runWebinCli,
  type SequenceManifest,
  WebinCliFailure,
  type WebinCliOptions,
  writeManifestText,
} from '@/lib/repositories/webin-cli';

/** the stand-in for `java` (tests/support/webin-cli/stand-in.mjs): Webin-CLI's interface without Java or ENA */
const JAVA = path.resolve(import.meta.dirname, 'support/webin-cli/java');
const PASSWORD = 'pa55 w0rd!';

interface LoggedCall {
  argv: string[];
  manifest: Record<string, string | string[]> | null;
  passwordSet: boolean;
}

let root: string;
let jar: string;
let logFile: string;
let fasta: string;
let n = 0;

const options = async (over: Partial<WebinCliOptions> = {}): Promise<WebinCliOptions> => ({
  java: JAVA,
  jar,
  username: 'Webin-12345',
  password: PASSWORD,
  test: true,
  workDir: await mkdtemp(path.join(root, `work-${++n}-`)),
  env: { WEBIN_CLI_STANDIN_LOG: logFile },
  ...over,
});

const genome = (over: Partial<GenomeManifest> = {}): GenomeManifest => ({
  STUDY: 'PRJEB12345',
  SAMPLE: 'ERS1234567',
  ASSEMBLYNAME: 'ilAglIo1.1',
  ASSEMBLY_TYPE: 'clone or isolate',
  COVERAGE: 42.5,
  PROGRAM: 'hifiasm 0.19',
  PLATFORM: 'PacBio Sequel IIe',
  FASTA: fasta,
  ...over,
});

const calls = async (): Promise<LoggedCall[]> =>
  (await readFile(logFile, 'utf8'))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LoggedCall);

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'webin-cli-'));
  // the stand-in checks that the jar exists, as Java does, and reads nothing from it
  jar = path.join(root, 'webin-cli-9.0.0.jar');
  await writeFile(jar, '');
  fasta = path.join(root, 'assembly.fasta');
  await writeFile(fasta, '>contig_1\nACGTACGTNNNNACGT\nACGT\n>contig_2\nGGCCAATT\n');
});
afterAll(() => rm(root, { recursive: true, force: true }));
beforeEach(async () => {
  logFile = path.join(await mkdtemp(path.join(root, 'log-')), 'calls.jsonl');
});

describe('writeManifestText', () => {
  it('writes a line per field in a fixed order, skipping fields without a value', () => {
    const manifest: GenomeManifest = {
      FASTA: '/data/asm.fasta.gz',
      PLATFORM: 'PacBio',
      PROGRAM: 'hifiasm',
      COVERAGE: 30,
      ASSEMBLYNAME: 'asm1',
      SAMPLE: 'ERS1',
      STUDY: 'PRJEB1',
      RUN_REF: ['ERR1', 'ERR2'],
      TPA: false,
      MINGAPLENGTH: 10,
      DESCRIPTION: '  a genome  ',
      AGP: undefined,
    };
    expect(writeManifestText(manifest)).toBe(
      [
        'STUDY\tPRJEB1',
        'SAMPLE\tERS1',
        'ASSEMBLYNAME\tasm1',
        'DESCRIPTION\ta genome',
        'COVERAGE\t30',
        'PROGRAM\thifiasm',
        'PLATFORM\tPacBio',
        'MINGAPLENGTH\t10',
        'RUN_REF\tERR1,ERR2',
        'TPA\tfalse',
        'FASTA\t/data/asm.fasta.gz',
        '',
      ].join('\n'),
    );
  });

  it('writes a sequence manifest', () => {
    const manifest: SequenceManifest = {
      STUDY: 'PRJEB1',
      NAME: 'barcodes-1',
      TAB: '/data/coi.tsv.gz',
      AUTHORS: 'Doe J.,',
      ADDRESS: 'Norwich',
    };
    expect(writeManifestText(manifest)).toBe(
      'STUDY\tPRJEB1\nNAME\tbarcodes-1\nAUTHORS\tDoe J.,\nADDRESS\tNorwich\nTAB\t/data/coi.tsv.gz\n',
    );
  });

  it.each([
    ['a line break', { DESCRIPTION: 'one\nFASTA\t/etc/passwd' }, 'DESCRIPTION'],
    ['a tab', { PROGRAM: 'hifi\tasm' }, 'PROGRAM'],
    ['a carriage return', { STUDY: 'PRJEB1\r' }, 'STUDY'],
    ['a comma inside a list item', { RUN_REF: ['ERR1,ERR2'] }, 'RUN_REF'],
    ['a number that is not finite', { COVERAGE: Number.NaN }, 'COVERAGE'],
  ] as const)('refuses a value with %s, naming the field', (_, over, field) => {
    let caught: unknown;
    try {
      writeManifestText(genome(over));
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe('invalid');
    expect((caught as AppError).errors?.[0]?.path).toBe(field);
  });
});

describe('runWebinCli', () => {
  it('validates and then submits a genome assembly, and returns the analysis accession', async () => {
    const opts = await options();
    const validated = await runWebinCli(opts, { context: 'genome', name: 'ilAglIo1.1', manifest: genome(), action: 'validate' });
    expect(validated.accession).toBeNull();
    expect(validated.output).toContain('The submission has been validated successfully.');

    const submitted = await runWebinCli(opts, { context: 'genome', name: 'ilAglIo1.1', manifest: genome(), action: 'submit' });
    expect(submitted.accession).toMatch(/^ERZ\d+$/);
    expect(submitted.test).toBe(true);
    expect(submitted.output).toContain(`The following analysis accession was assigned to the submission: ${submitted.accession}`);

    const [validateCall, submitCall] = await calls();
    expect(validateCall!.argv).toContain('-validate');
    expect(submitCall!.argv).toContain('-submit');
    expect(submitCall!.manifest).toMatchObject({ STUDY: 'PRJEB12345', ASSEMBLYNAME: 'ilAglIo1.1', COVERAGE: '42.5', FASTA: fasta });
  });

  it('takes the accession ENA names when a submission sent again is refused as existing (an answer lost)', async () => {
    const opts = await options();
    const request = { context: 'genome', name: 'ilAglIo1.2', manifest: genome({ ASSEMBLYNAME: 'ilAglIo1.2' }), action: 'submit' } as const;
    const first = await runWebinCli(opts, request);
    const again = await runWebinCli(opts, request);
    expect(again.accession).toBe(first.accession);
    expect(again.output).toContain('already exists in the submission account');
  });

  it('gives the password only in the environment', async () => {
    const opts = await options({ test: false, centerName: 'EARLHAM INSTITUTE' });
    const result = await runWebinCli(opts, { context: 'genome', name: 'ilAglIo1.1', manifest: genome(), action: 'submit' });
    expect(result.test).toBe(false);
    expect(result.output).not.toContain(PASSWORD);

    const [call] = await calls();
    expect(call!.passwordSet).toBe(true);
    expect(call!.argv.join(' ')).not.toContain(PASSWORD);
    expect(call!.argv).not.toContain('-password');
    expect(call!.argv).toEqual([
      '-jar',
      jar,
      '-context',
      'genome',
      '-manifest',
      path.join(opts.workDir, 'manifest.txt'),
      '-userName',
      'Webin-12345',
      '-passwordEnv',
      'WEBIN_CLI_PASSWORD',
      '-outputDir',
      path.join(opts.workDir, 'out'),
      '-centerName',
      'EARLHAM INSTITUTE',
      '-submit',
    ]);
  });

  it("refuses a file that is not FASTA with the line of Webin-CLI's report", async () => {
    const notFasta = path.join(root, 'notes.fasta');
    await writeFile(notFasta, 'This is not a FASTA file\nACGT\n');
    const opts = await options();
    const err = await runWebinCli(opts, {
      context: 'genome',
      name: 'ilAglIo1.1',
      manifest: genome({ FASTA: notFasta }),
      action: 'validate',
    }).catch((e: unknown) => e);

    expect(err).toBeInstanceOf(RepositoryRefused);
    expect(isTransient(err)).toBe(false);
    const report = await readFile(path.join(opts.workDir, 'out/genome/ilAglIo1.1/validate/notes.fasta.report'), 'utf8');
    const line = report.split('\n')[0]!;
    expect(line).toMatch(/^ERROR: /);
    expect((err as RepositoryRefused).message).toContain(line.slice('ERROR: '.length));
    expect((err as RepositoryRefused).messages).toEqual([line.slice('ERROR: '.length)]);
  });

  it('refuses a sequence that is not nucleotides, naming the file and line', async () => {
    const bad = path.join(root, 'protein.fasta');
    await writeFile(bad, '>p1\nACGT\nMKVLQE\n');
    const err = await runWebinCli(await options(), {
      context: 'genome',
      name: 'ilAglIo1.1',
      manifest: genome({ FASTA: bad }),
      action: 'validate',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RepositoryRefused);
    expect((err as RepositoryRefused).message).toContain('[protein.fasta, line: 3]');
  });

  it('refuses a manifest without a mandatory field, naming the field (exit 3)', async () => {
    const { COVERAGE: _omitted, ...manifest } = genome();
    const err = await runWebinCli(await options(), {
      context: 'genome',
      name: 'ilAglIo1.1',
      // a caller whose data lacks the value at run time, which the type would not let through
      manifest: manifest as GenomeManifest,
      action: 'validate',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RepositoryRefused);
    expect((err as RepositoryRefused).message).toContain('Missing mandatory field: COVERAGE');
  });

  it("refuses a wrong password with Webin-CLI's message (exit 2)", async () => {
    const err = await runWebinCli(await options({ password: 'wrong' }), {
      context: 'genome',
      name: 'ilAglIo1.1',
      manifest: genome(),
      action: 'submit',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RepositoryRefused);
    expect(isTransient(err)).toBe(false);
    expect((err as RepositoryRefused).message).toContain('Invalid submission account user name or password');
    expect((err as RepositoryRefused).message).not.toContain('wrong');
  });

  it("makes Webin-CLI's internal error (exit 1) a transient failure", async () => {
    const err = await runWebinCli(await options({ env: { WEBIN_CLI_STANDIN_LOG: logFile, WEBIN_CLI_STANDIN_EXIT: '1' } }), {
      context: 'genome',
      name: 'ilAglIo1.1',
      manifest: genome(),
      action: 'submit',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebinCliFailure);
    expect(isTransient(err)).toBe(true);
    expect((err as WebinCliFailure).exitCode).toBe(1);
    expect((err as WebinCliFailure).message).toContain('Internal error');
  });

  it('makes a run past its time a transient failure', async () => {
    // a Java that never ends
    const sleeper = path.join(root, 'sleeper');
    await writeFile(sleeper, '#!/bin/sh\nexec sleep 60\n', { mode: 0o755 });
    const err = await runWebinCli(await options({ java: sleeper, timeoutMs: 300 }), {
      context: 'genome',
      name: 'ilAglIo1.1',
      manifest: genome(),
      action: 'validate',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebinCliFailure);
    expect((err as WebinCliFailure).timedOut).toBe(true);
    expect(isTransient(err)).toBe(true);
  });

  it('makes a Java that cannot be started a transient failure', async () => {
    const err = await runWebinCli(await options({ java: path.join(root, 'no-such-java') }), {
      context: 'genome',
      name: 'ilAglIo1.1',
      manifest: genome(),
      action: 'validate',
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WebinCliFailure);
    expect(isTransient(err)).toBe(true);
  });

  it('submits annotated sequences in the sequence context', async () => {
    const tab = path.join(root, 'barcodes.tsv');
    await writeFile(tab, 'ENTRYNUMBER\tORGANISM\tSEQUENCE\n1\tAglais io\tACGT\n');
    const result = await runWebinCli(await options(), {
      context: 'sequence',
      name: 'barcodes 2024',
      manifest: { STUDY: 'PRJEB12345', NAME: 'barcodes 2024', TAB: tab },
      action: 'submit',
    });
    expect(result.accession).toMatch(/^ERZ\d+$/);
  });

  it('refuses, before running anything, a relative file path or a name the manifest does not carry', async () => {
    const opts = await options();
    const relative = await runWebinCli(opts, {
      context: 'genome',
      name: 'ilAglIo1.1',
      manifest: genome({ FASTA: 'assembly.fasta' }),
      action: 'validate',
    }).catch((e: unknown) => e);
    expect(relative).toBeInstanceOf(AppError);
    expect((relative as AppError).errors?.[0]?.path).toBe('FASTA');

    const renamed = await runWebinCli(opts, { context: 'genome', name: 'other', manifest: genome(), action: 'validate' }).catch(
      (e: unknown) => e,
    );
    expect(renamed).toBeInstanceOf(AppError);
    await expect(readFile(logFile, 'utf8')).rejects.toThrow();
  });
});
