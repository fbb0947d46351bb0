import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fieldInvalid, Invalid } from '@/lib/errors';
import { RepositoryError, RepositoryProtocolError, RepositoryRefused } from '../errors';
import { MANIFEST_FILE_FIELDS, manifestName, type WebinCliContext, type WebinCliManifests, writeManifestText } from './manifest';
import { execute } from './process';
import { accessionIn, errorsIn, errorsInFile, reportsIn, validationDir } from './reports';

/**
 * ENA's Webin-CLI, run as `java -jar webin-cli.jar`: the only way ENA accepts genome and transcriptome assemblies and
 * annotated sequences. One run validates or submits one manifest; Webin-CLI's exit code says how it ended
 * (0 success, 1 internal error, 2 user error, 3 validation error), its report files say why.
 */

export interface WebinCliOptions {
  /** the Java command; default `java`, found on PATH */
  java?: string;
  /** webin-cli-<version>.jar */
  jar: string;
  /** the Webin submission account (Webin-NNNNN) */
  username: string;
  password: string;
  /** a broker account's center name (Webin-CLI's -centerName), which ENA requires of brokers */
  centerName?: string;
  /** ENA's test service: what is submitted there is not kept */
  test: boolean;
  /**
   * The submission's own folder, for one run at a time: the manifest goes in it, Webin-CLI's output under `out/`.
   * Kept between runs, so that a -submit after a -validate of the same manifest reuses what the validation prepared.
   */
  workDir: string;
  /** by default long enough for a large genome, which takes long to validate and upload */
  timeoutMs?: number;
  /** more variables for Java's environment; the service's own environment is not passed on (it holds secrets) */
  env?: Readonly<Record<string, string>>;
}

/** What to run: the context and its manifest, whose file fields hold absolute paths. */
export type WebinCliRequest = {
  [C in WebinCliContext]: { context: C; manifest: WebinCliManifests[C] };
}[WebinCliContext] & {
  /** the submission's unique name: the manifest's ASSEMBLYNAME or NAME, which Webin-CLI names its folders after */
  name: string;
  action: 'validate' | 'submit';
};

export interface WebinCliResult {
  /** the analysis accession (ERZ…) a -submit was given; null after a -validate */
  accession: string | null;
  /** the end of what Webin-CLI printed, stdout and stderr together */
  output: string;
  /** whether this ran against ENA's test service */
  test: boolean;
}

/**
 * Webin-CLI did not finish: its internal error (exit 1: ENA or its FTP server unreachable, a crash), a timeout, a
 * signal, or Java that could not be started. Worth retrying later, as a job does with a transient error.
 */
export class WebinCliFailure extends RepositoryError {
  readonly transient = true;
  constructor(
    message: string,
    readonly exitCode: number | null,
    readonly signal: NodeJS.Signals | null,
    readonly timedOut: boolean,
    /** the end of Webin-CLI's stdout and stderr */
    readonly output: string,
    options?: { cause?: unknown },
  ) {
    super('ena', message, options);
    this.name = 'WebinCliFailure';
  }
}

const DEFAULT_TIMEOUT_MS = 30 * 60 * 1000;
const MAX_MESSAGES = 100;
/** how many of the messages the refusal's sentence quotes; all of them (up to MAX_MESSAGES) are in its list */
const MESSAGES_IN_SUMMARY = 10;
const PASSWORD_VARIABLE = 'WEBIN_CLI_PASSWORD';
const MANIFEST_FILE = 'manifest.txt';
/** Webin-CLI's log of the run, in its output folder */
const LOG_REPORT = 'webin-cli.report';
/** what Java needs from the service's environment to start and find its settings */
const PASSED_ENV = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ', 'TMPDIR', 'JAVA_HOME', 'JAVA_TOOL_OPTIONS', 'JDK_JAVA_OPTIONS'];

/** ENA's refusal of an object it holds, naming it: "… already exists in the submission account with accession: \"ERZ…\"" */
const EXISTING = /already exists in the submission account with accession: "?(ERZ\d+)/;

/** Validates (`action: 'validate'`) or submits one manifest with Webin-CLI; see WebinCliFailure and RepositoryRefused. */
export async function runWebinCli(options: WebinCliOptions, request: WebinCliRequest): Promise<WebinCliResult> {
  checkRequest(request);
  const text = writeManifestText(request.manifest);
  const workDir = path.resolve(options.workDir);
  const outputDir = path.join(workDir, 'out');
  const manifestFile = path.join(workDir, MANIFEST_FILE);
  await mkdir(outputDir, { recursive: true });
  await writeFile(manifestFile, text, 'utf8');
  // an earlier run's reports must not be read as this run's; the validation folder Webin-CLI empties itself
  await rm(path.join(outputDir, LOG_REPORT), { force: true });
  await rm(path.join(outputDir, `${MANIFEST_FILE}.report`), { force: true });

  const args = [
    '-jar',
    options.jar,
    '-context',
    request.context,
    '-manifest',
    manifestFile,
    '-userName',
    options.username,
    // the password goes in the environment: a command line is readable by every user of the machine (ps, /proc)
    '-passwordEnv',
    PASSWORD_VARIABLE,
    '-outputDir',
    outputDir,
    ...(options.centerName ? ['-centerName', options.centerName] : []),
    ...(options.test ? ['-test'] : []),
    request.action === 'submit' ? '-submit' : '-validate',
  ];
  const env: Record<string, string> = {};
  for (const name of PASSED_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  Object.assign(env, options.env, { [PASSWORD_VARIABLE]: options.password });

  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const run = await execute(options.java ?? 'java', args, { cwd: workDir, env, timeoutMs });
  const what = `the ${request.context} submission ${request.name}`;
  const fail = (message: string, cause?: unknown) =>
    new WebinCliFailure(`ena: Webin-CLI ${message}`, run.code, run.signal, run.timedOut, run.output, { cause });

  if (run.startError) throw fail(`could not be started for ${what}: ${run.startError.message}`, run.startError);
  if (run.timedOut) throw fail(`was stopped after ${Math.round(timeoutMs / 1000)} s on ${what}`);
  if (run.code === null) throw fail(`was ended by ${run.signal ?? 'a signal'} on ${what}`);

  if (run.code === 0) {
    if (request.action === 'validate') return { accession: null, output: run.output, test: options.test };
    const accession = accessionIn(run.output);
    if (!accession) {
      throw new RepositoryProtocolError('ena', `Webin-CLI reported ${what} submitted but named no analysis accession`, run.output);
    }
    return { accession, output: run.output, test: options.test };
  }

  if (run.code === 2 || run.code === 3) {
    const reports = [path.join(outputDir, `${MANIFEST_FILE}.report`)];
    // the per-file reports are of the validation, which a user error (exit 2) stops before
    if (run.code === 3) reports.unshift(...(await reportsIn(validationDir(outputDir, request.context, request.name))));
    const specific = (await Promise.all(reports.map(errorsInFile))).flat();
    const general = [...(await errorsInFile(path.join(outputDir, LOG_REPORT))), ...errorsIn(run.output)];
    const messages = [...new Set(specific.length ? specific : general)].slice(0, MAX_MESSAGES);
    // a -submit whose answer was lost (the process died, or Webin-CLI failed after ENA took it) is refused the second
    // time as existing, with the accession ENA gave it: that is the answer
    const existing = request.action === 'submit' ? [...messages, ...general].map((m) => EXISTING.exec(m)?.[1]).find(Boolean) : undefined;
    if (existing) return { accession: existing, output: run.output, test: options.test };
    const lead = run.code === 3 ? `Webin-CLI found errors in ${what}` : `Webin-CLI refused ${what}`;
    if (!messages.length) throw new RepositoryRefused('ena', `${lead} (exit ${run.code}) without saying why.`);
    throw new RepositoryRefused('ena', `${lead}: ${summary(messages)}`, messages);
  }

  const last = errorsIn(run.output).at(-1);
  throw fail(`failed on ${what} (exit ${run.code})${last ? `: ${last}` : ''}`);
}

/** The request's own consistency, which Webin-CLI would otherwise report in folders this client does not look in. */
function checkRequest(request: WebinCliRequest): void {
  if (!request.name.trim()) throw fieldInvalid('name', 'A Webin-CLI submission needs a name.');
  if (manifestName(request.manifest) !== request.name) {
    throw Invalid(`The manifest's name (${manifestName(request.manifest)}) is not the submission's name (${request.name}).`);
  }
  const fields: Partial<Record<(typeof MANIFEST_FILE_FIELDS)[number], unknown>> = request.manifest;
  for (const field of MANIFEST_FILE_FIELDS) {
    const file = fields[field];
    if (typeof file === 'string' && !path.isAbsolute(file)) {
      throw fieldInvalid(field, `The manifest's ${field} must be an absolute path, not ${file}.`);
    }
  }
}

function summary(messages: readonly string[]): string {
  const quoted = messages.slice(0, MESSAGES_IN_SUMMARY).join(' ');
  const more = messages.length - MESSAGES_IN_SUMMARY;
  return more > 0 ? `${quoted} (and ${more} more)` : quoted;
}
