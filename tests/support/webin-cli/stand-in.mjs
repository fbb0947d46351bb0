// Stands in for `java -jar webin-cli.jar` in the tests (started through `java` beside it): Webin-CLI's command line,
// manifest, report files, messages and exit codes (0 success, 1 internal error, 2 user error, 3 validation error),
// for the genome, transcriptome and sequence contexts, without Java or ENA.
//
// Checks, in Webin-CLI's order: the arguments and the jar; the password (unset, or `wrong`: refused as ENA refuses a
// bad one); the manifest's fields and files; the FASTA files' contents; a TAB file's template line, mandatory columns
// and values. It departs from Webin-CLI in two ways: the manifest's problems end with exit 3, written to
// webin-cli.report, where Webin-CLI gives exit 2 and a report beside the manifest; and a TAB file without a template
// line is passed unread, where Webin-CLI refuses it.
//
// For the tests: each call appends a JSON line { argv, manifest, passwordSet } to the file WEBIN_CLI_STANDIN_LOG
// names, and submissions are numbered in a file beside it (ERZ1000001, ERZ1000002, …); WEBIN_CLI_STANDIN_EXIT=1 makes
// it fail as Webin-CLI does when ENA cannot be reached. The password is never printed.
import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';

const SUCCESS = 0;
const SYSTEM_ERROR = 1;
const USER_ERROR = 2;
const VALIDATION_ERROR = 3;

const VALUED = new Set([
  '-jar',
  '-context',
  '-manifest',
  '-userName',
  '-username',
  '-password',
  '-passwordEnv',
  '-inputDir',
  '-outputDir',
  '-centerName',
]);
const FLAGS = new Set(['-test', '-validate', '-submit']);

const CONTEXTS = {
  genome: {
    required: ['STUDY', 'SAMPLE', 'NAME', 'COVERAGE', 'PROGRAM', 'PLATFORM'],
    optional: ['DESCRIPTION', 'RUN_REF', 'ANALYSIS_REF', 'ASSEMBLY_TYPE', 'MINGAPLENGTH', 'MOLECULETYPE', 'TPA', 'AUTHORS', 'ADDRESS'],
    files: ['FASTA', 'FLATFILE', 'AGP', 'CHROMOSOME_LIST', 'UNLOCALISED_LIST'],
    sequences: ['FASTA', 'FLATFILE'],
  },
  transcriptome: {
    required: ['STUDY', 'SAMPLE', 'NAME', 'PROGRAM', 'PLATFORM'],
    optional: ['DESCRIPTION', 'RUN_REF', 'ANALYSIS_REF', 'TPA', 'AUTHORS', 'ADDRESS'],
    files: ['FASTA', 'FLATFILE'],
    sequences: ['FASTA', 'FLATFILE'],
  },
  sequence: {
    required: ['STUDY', 'NAME'],
    optional: ['DESCRIPTION', 'RUN_REF', 'ANALYSIS_REF', 'AUTHORS', 'ADDRESS'],
    files: ['TAB', 'FLATFILE'],
    sequences: ['TAB', 'FLATFILE'],
  },
};

const IUPAC_NUCLEOTIDES = /^[ACGTURYSWKMBDHVN]+$/i;

/** The mandatory columns of a TAB file, by its template: Webin-CLI carries its checklists' templates itself. */
const TEMPLATE_MANDATORY = {
  ERT000020: [
    'ENTRYNUMBER',
    'ORGANISM_NAME',
    'ENV_SAM',
    '5_CDS',
    '3_CDS',
    '5_PARTIAL',
    '3_PARTIAL',
    'TRANSLATION_TABLE',
    'CODON_START',
    'SEQUENCE',
  ],
  ERT000002: ['ENTRYNUMBER', 'ORGANISM_NAME', 'ENV_SAM', 'GENE', 'PARTIAL', 'SEQUENCE'],
};
/** a file's report stops here, as Webin-CLI's does for a file that is wrong throughout */
const MAX_FILE_ERRORS = 100;

const out = (level, message) => process.stdout.write(`${level.padEnd(5)}: ${message}\n`);
const timestamp = () => new Date().toISOString().slice(0, 19);

function parseArgs(argv) {
  const options = {};
  const errors = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (FLAGS.has(arg)) options[arg] = true;
    else if (VALUED.has(arg)) {
      if (i + 1 >= argv.length) errors.push(`Missing value for option '${arg}'`);
      else options[arg === '-username' ? '-userName' : arg] = argv[++i];
    } else if (options['-jar'] === undefined && /^-[XD]/.test(arg)) {
      // a JVM option before -jar
    } else errors.push(`Unknown option: '${arg}'`);
  }
  return { options, errors };
}

function readManifest(file) {
  const fields = {};
  for (const raw of readFileSync(file, 'utf8').split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const space = line.search(/\s/);
    const field = (space < 0 ? line : line.slice(0, space)).toUpperCase();
    const value = space < 0 ? '' : line.slice(space).trim();
    if (fields[field] === undefined) fields[field] = value;
    else fields[field] = [fields[field], value].flat();
  }
  return fields;
}

function log(entry) {
  const file = process.env.WEBIN_CLI_STANDIN_LOG;
  if (file) appendFileSync(file, `${JSON.stringify(entry)}\n`);
}

/** What this account was given for each context and name: ENA refuses a second submission of one (an ADD of its alias). */
function submittedFile(outputDir) {
  const log = process.env.WEBIN_CLI_STANDIN_LOG;
  return log ? `${log}.submitted.json` : path.join(outputDir, '.stand-in-submitted.json');
}

function nextAccession(outputDir) {
  const log = process.env.WEBIN_CLI_STANDIN_LOG;
  const counter = log ? `${log}.counter` : path.join(outputDir, '.stand-in-counter');
  const n = (existsSync(counter) ? Number(readFileSync(counter, 'utf8')) : 0) + 1;
  writeFileSync(counter, String(n));
  return `ERZ${1_000_000 + n}`;
}

/** Webin-CLI's folder name for a submission: unsafe characters become single underscores. */
function safeDirName(name) {
  let safe = name
    .trim()
    .replace(/[^a-zA-Z0-9_.-]/g, '_')
    .replace(/_+/g, '_');
  if (safe.length > 1 && safe.startsWith('_')) safe = safe.slice(1);
  if (safe.length > 1 && safe.endsWith('_')) safe = safe.slice(0, -1);
  return safe;
}

function fastaErrors(file) {
  const name = path.basename(file);
  let text;
  try {
    const bytes = readFileSync(file);
    text = (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  } catch (err) {
    return [`Invalid fasta file: the file could not be read (${err.code ?? err.message}). [${name}]`];
  }
  const errors = [];
  let seen = false;
  let sequences = 0;
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length && errors.length < MAX_FILE_ERRORS; i++) {
    const line = lines[i].trim();
    if (!line) continue;
    const at = `[${name}, line: ${i + 1}]`;
    if (!seen) {
      seen = true;
      if (!line.startsWith('>')) {
        errors.push(`Invalid fasta file: the first line does not start with ">". ${at}`);
        break;
      }
    }
    if (line.startsWith('>')) {
      sequences++;
      if (!line.slice(1).trim()) errors.push(`Invalid fasta header: the sequence has no name. ${at}`);
    } else if (!IUPAC_NUCLEOTIDES.test(line)) {
      errors.push(`Invalid sequence: the line holds characters that are not IUPAC nucleotide codes. ${at}`);
    }
  }
  if (!seen) errors.push(`Invalid fasta file: the file has no sequences. [${name}]`);
  else if (!sequences && !errors.length) errors.push(`Invalid fasta file: the file has no sequences. [${name}]`);
  return errors;
}

/** A TAB file (annotated sequence spreadsheet): its template line, a header holding the template's mandatory columns, full rows. */
function tabErrors(file) {
  const name = path.basename(file);
  let text;
  try {
    const bytes = readFileSync(file);
    text = (file.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  } catch (err) {
    return [`Invalid TAB file: the file could not be read (${err.code ?? err.message}). [${name}]`];
  }
  const lines = text.split(/\r?\n/).filter((l) => l.trim());
  const template = /^#template_accession\s+(ERT\d+)\s*$/.exec(lines[0] ?? '')?.[1];
  if (!template) return [];
  const mandatory = TEMPLATE_MANDATORY[template];
  if (!mandatory) return [`Unknown template ${template}. [${name}]`];
  const header = (lines[1] ?? '').split('\t').map((h) => h.trim().toUpperCase());
  const errors = mandatory
    .filter((m) => !header.includes(m))
    .map((m) => `Mandatory column ${m} of template ${template} is missing. [${name}]`);
  if (errors.length) return errors;
  for (let i = 2; i < lines.length && errors.length < MAX_FILE_ERRORS; i++) {
    const cells = lines[i].split('\t');
    const at = `[${name}, line: ${i + 1}]`;
    if (cells.length !== header.length) errors.push(`The line has ${cells.length} values for ${header.length} columns. ${at}`);
    for (const m of mandatory) if (!cells[header.indexOf(m)]?.trim()) errors.push(`Mandatory field ${m} has no value. ${at}`);
  }
  if (lines.length < 3) errors.push(`Invalid TAB file: the file has no sequences. [${name}]`);
  return errors;
}

function main(argv) {
  const { options, errors: argErrors } = parseArgs(argv);
  const passwordVariable = options['-passwordEnv'];
  const password = passwordVariable ? process.env[passwordVariable] : options['-password'];
  let manifest = null;
  if (options['-manifest'] && existsSync(options['-manifest'])) {
    try {
      manifest = readManifest(options['-manifest']);
    } catch {
      manifest = null;
    }
  }
  log({ argv, manifest, passwordSet: Boolean(password) });

  const jar = options['-jar'];
  if (!jar || !existsSync(jar)) {
    // what Java itself says, with its own exit code
    process.stderr.write(`Error: Unable to access jarfile ${jar ?? ''}\n`);
    return SYSTEM_ERROR;
  }
  const userError = (message) => {
    out('ERROR', message);
    out('INFO', 'Please use -help option to see all command line options.');
    return USER_ERROR;
  };
  if (argErrors.length) return userError(argErrors.join('; '));
  for (const required of ['-context', '-manifest', '-userName']) {
    if (!options[required]) return userError(`Missing required option '${required}'`);
  }
  const context = CONTEXTS[options['-context']];
  if (!context)
    return userError(`Invalid value for option '-context': ${options['-context']} is not one of genome, transcriptome, sequence`);
  if (!manifest) return userError('Unable to read the manifest file.');
  const outputDir = path.resolve(options['-outputDir'] ?? path.dirname(options['-manifest']));
  if (!existsSync(outputDir) || !statSync(outputDir).isDirectory()) return userError(`The output directory '${outputDir}' does not exist.`);
  if (!options['-validate'] && !options['-submit']) return userError('Either -validate or -submit option must be provided.');
  if (!password || password === 'wrong') {
    return userError('Invalid submission account user name or password. Please try enclosing your password in single quotes.');
  }

  if (process.env.WEBIN_CLI_STANDIN_EXIT === '1') {
    out('ERROR', 'Internal error: the stand-in was asked to fail (WEBIN_CLI_STANDIN_EXIT=1).');
    return SYSTEM_ERROR;
  }

  const logLines = [];
  const report = (level, message) => logLines.push(`${timestamp()} ${level.padEnd(5)}: ${message}`);
  const writeLog = () => writeFileSync(path.join(outputDir, 'webin-cli.report'), logLines.length ? `${logLines.join('\n')}\n` : '');
  report('INFO', `Creating report file: ${path.join(outputDir, 'webin-cli.report')}`);

  // the manifest: its fields, then its files
  const inputDir = path.resolve(options['-inputDir'] ?? '.');
  const fields = { ...manifest };
  if (fields.ASSEMBLYNAME !== undefined && options['-context'] !== 'sequence') {
    fields.NAME ??= fields.ASSEMBLYNAME;
    delete fields.ASSEMBLYNAME;
  }
  const manifestErrors = [];
  const known = new Set([...context.required, ...context.optional, ...context.files]);
  for (const field of Object.keys(fields)) {
    if (!known.has(field)) manifestErrors.push(`Unknown manifest field: ${field}.`);
  }
  for (const field of context.required) {
    const value = fields[field];
    if (value === undefined || value === '') {
      manifestErrors.push(`Missing mandatory field: ${field === 'NAME' && options['-context'] !== 'sequence' ? 'ASSEMBLYNAME' : field}.`);
    }
  }
  if (fields.COVERAGE !== undefined && !(Number(fields.COVERAGE) > 0)) {
    manifestErrors.push(`Invalid COVERAGE field value: "${fields.COVERAGE}". The value must be a positive number.`);
  }
  if (!context.sequences.some((f) => fields[f] !== undefined)) {
    manifestErrors.push(`Invalid number of files: the manifest needs one of ${context.sequences.join(', ')}.`);
  }
  const files = [];
  for (const field of context.files) {
    for (const value of [fields[field] ?? []].flat()) {
      const file = path.resolve(inputDir, value);
      if (!existsSync(file) || !statSync(file).isFile()) manifestErrors.push(`Invalid ${field} file: ${value} does not exist.`);
      else files.push({ field, file });
    }
  }

  const name = typeof fields.NAME === 'string' ? fields.NAME : '';
  const validateDir = path.join(outputDir, options['-context'], safeDirName(name || 'unnamed'), 'validate');
  const failed = (byFile) => {
    for (const [file, messages] of byFile) {
      writeFileSync(path.join(validateDir, `${path.basename(file)}.report`), messages.map((m) => `ERROR: ${m}\n`).join(''));
    }
    const all = [...byFile.values()].flat();
    for (const message of all) {
      report('ERROR', message);
      out('ERROR', message);
    }
    const summary = `Submission validation failed because of a user error. Please check report directory for the errors: ${validateDir}`;
    report('ERROR', summary);
    out('ERROR', summary);
    writeLog();
    return VALIDATION_ERROR;
  };

  // Webin-CLI empties the validation folder before it writes its reports
  rmSync(validateDir, { recursive: true, force: true });
  mkdirSync(validateDir, { recursive: true });
  if (manifestErrors.length) return failed(new Map([[path.join(validateDir, 'webin-cli'), manifestErrors]]));

  const fileErrors = new Map();
  for (const { field, file } of files) {
    if (field !== 'FASTA' && field !== 'TAB') continue;
    const errors = field === 'TAB' ? tabErrors(file) : fastaErrors(file);
    if (errors.length) fileErrors.set(file, errors);
  }
  if (fileErrors.size) return failed(fileErrors);

  const validated = 'The submission has been validated successfully.';
  report('INFO', validated);
  out('INFO', validated);
  if (options['-submit']) {
    const registry = submittedFile(outputDir);
    const submitted = existsSync(registry) ? JSON.parse(readFileSync(registry, 'utf8')) : {};
    const alias = `webin-${options['-context']}-${name}`;
    if (submitted[alias]) {
      const message = `In analysis, alias: "${alias}". The object being added already exists in the submission account with accession: "${submitted[alias]}".`;
      report('ERROR', message);
      out('ERROR', message);
      out('ERROR', 'The submission has failed because of a user error.');
      writeLog();
      return USER_ERROR;
    }
    for (const { file } of files) out('INFO', `Uploading file: ${file}`);
    out('INFO', 'Files have been uploaded to webin2.ebi.ac.uk.');
    const accession = nextAccession(outputDir);
    writeFileSync(registry, JSON.stringify({ ...submitted, [alias]: accession }));
    const done = options['-test']
      ? `The TEST submission has been completed successfully. This was a TEST submission and no data was submitted. The following analysis accession was assigned to the submission: ${accession}`
      : `The submission has been completed successfully. The following analysis accession was assigned to the submission: ${accession}`;
    report('INFO', done);
    out('INFO', done);
  }
  writeLog();
  return SUCCESS;
}

process.exitCode = main(process.argv.slice(2));
