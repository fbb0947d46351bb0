import { createHash } from 'node:crypto';
import type { Db } from '@/db/client';
import type { ComponentDefinition } from '@/lib/checklists/contract';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { crashPoint } from '@/lib/crash-points';
import type { FileStore } from '@/lib/files/store';
import {
  type Attribute,
  type EnaClient,
  type EnaReceipt,
  type ExperimentSpec,
  platformOf,
  type RunSpec,
  type UploadArea,
} from '@/lib/repositories/ena';
import type { StudyRow } from '@/lib/studies';
import type { ReadAccessions } from '@/lib/studies/contract';
import type { SubmissionProgress } from '@/lib/submissions/contract';
import { addReceipt, recordProgress } from '../submissions';
import { saveAccessions } from './accessions';
import { checkStoredFile } from './data-files';
import { filesProgress, PROGRESS_INTERVAL_MS, recordFileProgress } from './file-progress';
import { Rejected } from './rejected';

/**
 * Reads at ENA (studies-and-checklists.md §11.2–11.3): each row of the component the checklist sends to ENA as
 * `read` (single cell: `file`) becomes one EXPERIMENT (library from the linked lib_prep, cell suspension and
 * dissociation rows, platform and layout from the sequencing row, the row's BioSample as SAMPLE_DESCRIPTOR) and one
 * RUN naming its read files, which are first staged into the Webin upload area. Every file is checked against the
 * sheet's MD5 before anything is sent. Like sample registration, a run that dies after sending resumes through
 * ENA's RECEIPT action (aliases are recorded before sending), never a second ADD; a row changed after it was
 * accessioned is sent again with MODIFY.
 */

export interface ReadsDeps {
  db: Db;
  files: FileStore;
  uploadArea: () => UploadArea;
}

interface ReadFile {
  /** the name in the profile's storage, as the sheet gives it */
  name: string;
  md5: string;
  filetype: 'fastq' | 'bam' | 'cram';
}

export interface ReadRow {
  fileId: string;
  /** aliases are unique per object type; distinct ones let a RECEIPT name exactly the object asked for */
  experimentAlias: string;
  runAlias: string;
  experiment: Omit<ExperimentSpec, 'alias' | 'study'>;
  files: ReadFile[];
  /** what is sent for the row, hashed: a changed row is sent again with MODIFY */
  digest: string;
}

// rows per Webin submission: the synchronous submit takes documents up to 15 MB and a minute of ENA's time
const ROWS_PER_SUBMISSION = 200;
// the sheets' read files, each with its checksum in the sibling `<term>_checksum`
const READ_TERMS = ['read_1_file', 'read_2_file'];
// columns that become elements of the EXPERIMENT rather than its attributes
const LIBRARY_TERMS = new Set([
  'library_strategy',
  'library_source',
  'library_selection',
  'design_description',
  'sequencing_instrument_model',
  'lib_layout',
]);

function fileType(name: string): ReadFile['filetype'] | undefined {
  if (/\.(fastq|fq)(\.(gz|bz2))?$/i.test(name)) return 'fastq';
  if (/\.bam$/i.test(name)) return 'bam';
  if (/\.cram$/i.test(name)) return 'cram';
  return undefined;
}

function layoutOf(value: string | undefined, where: string): ExperimentSpec['libraryLayout'] {
  const v = (value ?? '').trim().toUpperCase();
  if (v === 'PAIRED' || v === 'SINGLE') return { type: v };
  throw new Rejected(`${where}: library layout '${value ?? ''}' cannot be sent to ENA, which takes Single or Paired.`);
}

/** A row with the values of the rows it references (not the study, not the sample), its own values first. */
function flatten(
  def: ChecklistDefinition,
  components: StudyRow['components'],
  component: ComponentDefinition,
  row: Record<string, string>,
  seen = new Set<string>(),
): Record<string, string> {
  const out = { ...row };
  seen.add(component.key);
  for (const f of component.fields) {
    const target = f.referencedComponent ? def.components.find((c) => c.key === f.referencedComponent) : undefined;
    if (!target || target.key === 'study' || target.key === 'sample' || seen.has(target.key)) continue;
    const id = target.fields.find((x) => x.identifier);
    const ref = id && components[target.key]?.find((r) => r[id.termName] === row[f.termName]);
    if (!ref) continue;
    for (const [k, v] of Object.entries(flatten(def, components, target, ref, seen))) if (!(k in out)) out[k] = v;
  }
  return out;
}

/** The read rows of a study, or [] when its checklist sends no reads to ENA. Rejected when a row cannot be sent. */
export function readRowsOf(def: ChecklistDefinition, study: StudyRow): ReadRow[] {
  const component = def.components.find((c) => c.repositories.ena === 'read');
  const rows = component ? (study.components[component.key] ?? []) : [];
  if (!component || !rows.length) return [];
  const idTerm = component.fields.find((f) => f.identifier)?.termName;
  const sampleRef = component.fields.find((f) => f.referencedComponent === 'sample');
  const samples = study.components.sample ?? [];
  const accessionTerm = def.components.find((c) => c.key === 'sample')?.fields.find((f) => f.type === 'BIOSAMPLEACCESSION_FIELD');
  const named = new Map(component.fields.map((f) => [f.termName, f]));
  const allFields = new Map(def.components.flatMap((c) => c.fields.map((f) => [f.termName, f] as const)));

  return rows.map((row) => {
    const fileId = (idTerm && row[idTerm]) || '';
    const where = `Sheet ${component.key}, ${fileId}`;
    const sample = sampleRef && samples.find((s) => s.sample_id === row[sampleRef.termName]);
    const biosample = sample && accessionTerm ? sample[accessionTerm.termName] : undefined;
    if (!biosample) throw new Rejected(`${where}: the row's sample has no BioSample accession to reference.`);
    const flat = flatten(def, study.components, component, row);
    const instrument = flat.sequencing_instrument_model ?? '';
    const platform = platformOf(instrument);
    if (!platform) throw new Rejected(`${where}: ENA lists no platform for the instrument '${instrument}'.`);
    const library = (term: string) => {
      const value = flat[term];
      if (!value) throw new Rejected(`${where}: the linked library preparation has no ${term}.`);
      return value;
    };
    const libraryStrategy = library('library_strategy');
    const librarySource = library('library_source');
    const librarySelection = library('library_selection');
    const files: ReadFile[] = READ_TERMS.flatMap((t) => {
      const name = row[t];
      if (!name) return [];
      const filetype = fileType(name);
      if (!filetype) throw new Rejected(`${where}: ${name} is not a FASTQ, BAM or CRAM file, which is what ENA takes as reads.`);
      const md5 = (row[`${t}_checksum`] ?? '').toLowerCase();
      if (!/^[0-9a-f]{32}$/.test(md5)) throw new Rejected(`${where}: ${name} has no MD5 checksum in the sheet.`);
      return [{ name, md5, filetype }];
    });
    if (!files.length) throw new Rejected(`${where}: the row names no read file.`);

    const consumed = new Set([...LIBRARY_TERMS, ...READ_TERMS, ...READ_TERMS.map((t) => `${t}_checksum`)]);
    const attributes: Attribute[] = Object.entries(flat)
      .filter(([term, value]) => {
        const f = named.get(term) ?? allFields.get(term);
        return value && !consumed.has(term) && !f?.identifier && !f?.referencedComponent && f?.type !== 'file';
      })
      .map(([term, value]) => ({ tag: allFields.get(term)?.enaName ?? term, value }));
    const experiment: ReadRow['experiment'] = {
      title: `${study.studyId} ${fileId}`,
      sample: { accession: biosample },
      designDescription: flat.design_description ?? '',
      ...(row.library_prep_id && { libraryName: row.library_prep_id }),
      libraryStrategy,
      librarySource,
      librarySelection,
      libraryLayout: layoutOf(flat.lib_layout, where),
      platform,
      instrumentModel: instrument,
      attributes,
    };
    const digest = createHash('sha256').update(JSON.stringify({ experiment, files })).digest('hex');
    const alias = `${study.profileId}:${study.studyId}:${fileId}`;
    return { fileId, experimentAlias: `${alias}:experiment`, runAlias: `${alias}:run`, experiment, files, digest };
  });
}

/** Where a profile's read file lies in the Webin upload area. */
export const areaPathOf = (profileId: string, name: string) => `${profileId}/${name}`;

const rowAccessions = (study: StudyRow): Record<string, ReadAccessions> => study.accessions.ena?.file ?? {};

export interface ReadsPlan {
  add: ReadRow[];
  modify: ReadRow[];
  /** rows already at ENA as they are */
  unchanged: ReadRow[];
}

/**
 * Which rows go to ENA this time, with every file they name checked against the sheet's MD5 (the store's own
 * checksum, or the bytes themselves), before anything is sent anywhere.
 */
export async function planReads(
  deps: ReadsDeps,
  submissionId: string,
  def: ChecklistDefinition,
  study: StudyRow,
  progress: SubmissionProgress,
): Promise<ReadsPlan> {
  const rows = readRowsOf(def, study);
  const known = rowAccessions(study);
  const plan: ReadsPlan = { add: [], modify: [], unchanged: [] };
  for (const r of rows) {
    const at = known[r.fileId];
    if (!at) plan.add.push(r);
    else if (at.digest !== r.digest) plan.modify.push(r);
    else plan.unchanged.push(r);
  }
  const files = new Map([...plan.add, ...plan.modify].flatMap((r) => r.files.map((f) => [f.name, f] as const)));
  // files an earlier run of this submission staged, checked then, keep their state: they are not sent again
  const staged = stagedFiles(progress);
  for (const f of files.values()) {
    if (staged.get(f.name) === f.md5) continue;
    await recordFileProgress(deps.db, submissionId, f.name, { state: 'checking', sent: 0 });
    const stored = await checkStoredFile(deps.files, study.profileId, f.name, f.md5).catch(async (err: unknown) => {
      await recordFileProgress(deps.db, submissionId, f.name, { state: 'failed', error: (err as Error).message });
      throw err;
    });
    await recordFileProgress(deps.db, submissionId, f.name, { state: 'waiting', size: stored.sizeInBytes, md5: f.md5 });
  }
  return plan;
}

/** The files an earlier run of this submission sent whole into the upload area, with the MD5 they were sent with. */
function stagedFiles(progress: SubmissionProgress): Map<string, string> {
  const staged = new Map<string, string>();
  for (const [name, p] of Object.entries(filesProgress(progress))) {
    if (p.state === 'sent' && p.md5) staged.set(name, p.md5);
  }
  return staged;
}

/** Sends the plan's files into the upload area, skipping those an earlier run of this submission sent. */
async function stageFiles(deps: ReadsDeps, submissionId: string, study: StudyRow, plan: ReadsPlan, alreadySent: Map<string, string>) {
  const files = new Map([...plan.add, ...plan.modify].flatMap((r) => r.files.map((f) => [f.name, f] as const)));
  const waiting = [...files.values()].filter((f) => alreadySent.get(f.name) !== f.md5);
  if (!waiting.length) return;
  const area = deps.uploadArea();
  try {
    for (const f of waiting) {
      const stored = await deps.files.stat(study.profileId, f.name);
      if (!stored) throw new Rejected(`File ${f.name} is no longer in the profile's storage.`);
      await recordFileProgress(deps.db, submissionId, f.name, { state: 'sending', sent: 0, size: stored.sizeInBytes });
      let last = 0;
      const pending: Promise<void>[] = [];
      await area.send(
        areaPathOf(study.profileId, f.name),
        stored.sizeInBytes,
        () => deps.files.read(study.profileId, f.name),
        (p) => {
          if (Date.now() - last < PROGRESS_INTERVAL_MS) return;
          last = Date.now();
          pending.push(recordFileProgress(deps.db, submissionId, f.name, { sent: p.sent }));
        },
      );
      await Promise.all(pending);
      await recordFileProgress(deps.db, submissionId, f.name, { state: 'sent', sent: stored.sizeInBytes });
    }
  } finally {
    area.close();
  }
}

const specsOf = (profileId: string, project: string, rows: ReadRow[]): { experiments: ExperimentSpec[]; runs: RunSpec[] } => ({
  experiments: rows.map((r) => ({ ...r.experiment, alias: r.experimentAlias, study: { accession: project } })),
  runs: rows.map((r) => ({
    alias: r.runAlias,
    title: r.experiment.title,
    experiment: { refname: r.experimentAlias },
    files: r.files.map((f) => ({
      filename: areaPathOf(profileId, f.name),
      filetype: f.filetype,
      checksum: f.md5,
      checksumMethod: 'MD5' as const,
    })),
  })),
});

function fromReceipt(receipt: EnaReceipt, r: ReadRow): Partial<Omit<ReadAccessions, 'digest'>> {
  const run = receipt.byAlias.RUN?.[r.runAlias]?.accession;
  const experiment = receipt.byAlias.EXPERIMENT?.[r.experimentAlias]?.accession;
  return { ...(run && { run_accession: run }), ...(experiment && { experiment_accession: experiment }) };
}

async function saveRows(db: Db, study: StudyRow, rows: Map<string, ReadAccessions>) {
  if (!rows.size) return;
  await saveAccessions(db, study.id, (a) => {
    const byRow = { ...a.ena?.file };
    for (const [id, v] of rows) byRow[id] = v;
    return { ...a, ena: { ...a.ena, file: byRow } };
  });
}

/**
 * Stages the files, then ADDs an EXPERIMENT and a RUN for each new row and MODIFYs the changed ones. Returns the
 * accessions of every row now at ENA, by row identifier.
 */
export async function submitReads(
  deps: ReadsDeps,
  client: EnaClient,
  submissionId: string,
  study: StudyRow,
  projectAccession: string,
  plan: ReadsPlan,
  progress: SubmissionProgress,
): Promise<Record<string, ReadAccessions>> {
  await stageFiles(deps, submissionId, study, plan, stagedFiles(progress));
  await crashPoint('study-ena:files-staged');

  const done = new Map<string, ReadAccessions>();
  // the accessions recorded so far of those of `rows` that have them
  const doneOf = (rows: readonly ReadRow[]) => {
    const out = new Map<string, ReadAccessions>();
    for (const r of rows) {
      const accessions = done.get(r.fileId);
      if (accessions !== undefined) out.set(r.fileId, accessions);
    }
    return out;
  };
  const sentBefore = new Set(progress.reads_sent ?? []);
  const record = (r: ReadRow, found: Partial<Omit<ReadAccessions, 'digest'>>) => {
    if (found.run_accession && found.experiment_accession) {
      done.set(r.fileId, { run_accession: found.run_accession, experiment_accession: found.experiment_accession, digest: r.digest });
    }
  };
  const lookUp = async (r: ReadRow) => {
    const found: Partial<Omit<ReadAccessions, 'digest'>> = {};
    for (const alias of [r.runAlias, r.experimentAlias]) {
      if ((alias === r.runAlias ? found.run_accession : found.experiment_accession) !== undefined) continue;
      const receipt = await client.fetchReceipt(alias);
      await recordProgress(deps.db, submissionId, {
        receipt: { kind: 'RECEIPT', alias, success: receipt.success, errors: receipt.errors, xml: receipt.xml },
      });
      Object.assign(found, fromReceipt(receipt, r));
    }
    record(r, found);
  };

  // an earlier attempt sent these and died before recording ENA's answer: ask for it rather than ADD again
  const resent = plan.add.filter((x) => sentBefore.has(x.fileId));
  for (const r of resent) await lookUp(r);
  await saveRows(deps.db, study, doneOf(resent));
  const toAdd = plan.add.filter((r) => !done.has(r.fileId));
  for (let i = 0; i < toAdd.length; i += ROWS_PER_SUBMISSION) {
    const chunk = toAdd.slice(i, i + ROWS_PER_SUBMISSION);
    for (const r of chunk) sentBefore.add(r.fileId);
    // written before sending: a crash after this point resumes through RECEIPT
    await recordProgress(deps.db, submissionId, { progress: { reads_sent: [...sentBefore] } });
    const receipt = await client.submit({
      submission: { actions: [{ type: 'ADD' }] },
      ...specsOf(study.profileId, projectAccession, chunk),
    });
    await crashPoint('study-ena:runs-added');
    await recordProgress(deps.db, submissionId, {
      receipt: addReceipt(receipt, { objects: 'reads' }),
    });
    if (receipt.outcome === 'rejected') {
      throw new Rejected(
        `Submission error for datafiles: ${chunk.map((r) => r.fileId).join(', ')} due to the following errors: ${receipt.errors.join(' ')}`,
      );
    }
    for (const r of chunk) {
      record(r, fromReceipt(receipt, r));
      if (!done.has(r.fileId) && receipt.existing.some((e) => e.alias === r.runAlias || e.alias === r.experimentAlias)) await lookUp(r);
    }
    const missing = chunk.filter((r) => !done.has(r.fileId));
    if (missing.length) throw new Rejected(`ENA returned no run accession for ${missing.map((r) => r.fileId).join(', ')}.`);
    // every row of the chunk has its accessions: the check just above
    await saveRows(deps.db, study, doneOf(chunk));
  }

  const known = rowAccessions(study);
  // the plan took a row as changed or unchanged because it found these
  const knownOf = (r: ReadRow) => {
    const accessions = known[r.fileId];
    if (!accessions) throw new Error(`expected the ENA accessions of row ${r.fileId}`);
    return accessions;
  };
  for (let i = 0; i < plan.modify.length; i += ROWS_PER_SUBMISSION) {
    const chunk = plan.modify.slice(i, i + ROWS_PER_SUBMISSION);
    const receipt = await client.submit({
      submission: { actions: [{ type: 'MODIFY' }] },
      ...specsOf(study.profileId, projectAccession, chunk),
    });
    await recordProgress(deps.db, submissionId, {
      receipt: { kind: 'MODIFY', objects: 'reads', success: receipt.success, errors: receipt.errors, xml: receipt.xml },
    });
    if (!receipt.success) {
      throw new Rejected(`Couldn't update the runs ${chunk.map((r) => r.fileId).join(', ')} at ENA: ${receipt.errors.join(' ')}`);
    }
    const updated = new Map(chunk.map((r) => [r.fileId, { ...knownOf(r), digest: r.digest }]));
    for (const [id, v] of updated) done.set(id, v);
    await saveRows(deps.db, study, updated);
  }
  for (const r of plan.unchanged) done.set(r.fileId, knownOf(r));
  return Object.fromEntries(done);
}
