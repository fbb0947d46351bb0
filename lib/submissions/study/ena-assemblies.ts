import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { RepositoryRefused } from '@/lib/repositories/errors';
import { type GenomeManifest, runWebinCli, type WebinCliSettings } from '@/lib/repositories/webin-cli';
import type { StudyRow } from '@/lib/studies';
import type { AssemblyAccessions, ReadAccessions } from '@/lib/studies/contract';
import type { SubmissionProgress } from '@/lib/submissions/contract';
import { saveAccessions } from './accessions';
import { type LinkedFile, linkedRowsOf } from './linked-rows';
import { checkFiles, type ReadsDeps } from './staging';

/**
 * Genome assemblies at ENA (docs/studies-and-checklists.md §15), which ENA takes only through Webin-CLI: each assembly
 * row with its assembly_genome values, read rows and files becomes one Webin-CLI manifest (`-context genome`), its
 * files copied out of the profile's storage into the submission's own folder, run with `-validate` and then
 * `-submit`. The analysis accession (ERZ…) is kept on the row; a refusal is kept on the row and ends the submission
 * rejected with Webin-CLI's reports. An assembly already at ENA is not sent again: ENA changes assemblies through
 * its helpdesk, not by a second submission.
 */

export interface AssemblyDeps extends ReadsDeps {
  webinCli: () => WebinCliSettings;
}

interface AssemblyRow {
  id: string;
  name: string;
  manifest: Omit<GenomeManifest, 'STUDY' | 'RUN_REF' | 'FASTA' | 'FLATFILE' | 'AGP' | 'CHROMOSOME_LIST' | 'UNLOCALISED_LIST'>;
  files: LinkedFile[];
  readRows: string[];
  digest: string;
  where: string;
}

const refused = (message: string) => new RepositoryRefused('ena', message);

const FILE_FIELDS = ['FASTA', 'FLATFILE', 'AGP', 'CHROMOSOME_LIST', 'UNLOCALISED_LIST'] as const;
type FileField = (typeof FILE_FIELDS)[number];

// the sheet's clone and isolate are both ENA's one assembly type for a single organism
const ASSEMBLY_TYPES: Record<string, string> = { clone: 'clone or isolate', isolate: 'clone or isolate' };

function assemblyRowsOf(def: ChecklistDefinition, study: StudyRow): AssemblyRow[] {
  return linkedRowsOf(def, study, 'assembly').map((r) => {
    const v = r.values;
    const name = (v.assembly_name ?? '').trim();
    if (!name) throw refused(`${r.where}: the assembly has no name.`);
    if (!r.files.some((f) => f.type.toUpperCase() === 'FASTA' || f.type.toUpperCase() === 'FLATFILE')) {
      throw refused(`${r.where}: an assembly needs a FASTA or FLATFILE file.`);
    }
    for (const f of r.files) {
      if (!FILE_FIELDS.includes(f.type.toUpperCase() as FileField))
        throw refused(`${r.where}: ${f.name} is of type '${f.type}', which Webin-CLI does not take.`);
    }
    const manifest: AssemblyRow['manifest'] = {
      SAMPLE: r.biosample,
      ASSEMBLYNAME: name,
      ...(v.assembly_type && {
        ASSEMBLY_TYPE: (ASSEMBLY_TYPES[v.assembly_type.toLowerCase()] ?? v.assembly_type) as GenomeManifest['ASSEMBLY_TYPE'],
      }),
      COVERAGE: v.coverage ?? '',
      PROGRAM: v.program ?? '',
      PLATFORM: v.platform ?? '',
      ...(v.moleculetype && { MOLECULETYPE: v.moleculetype as GenomeManifest['MOLECULETYPE'] }),
      ...(v.mingaplength && { MINGAPLENGTH: Number(v.mingaplength) }),
      ...(v.assembly_description && { DESCRIPTION: v.assembly_description }),
    };
    const digest = createHash('sha256')
      .update(JSON.stringify({ manifest, files: r.files, readRows: r.readRows }))
      .digest('hex');
    return { id: r.id, name, manifest, files: r.files, readRows: r.readRows, digest, where: r.where };
  });
}

const assemblyAccessions = (study: StudyRow): Record<string, AssemblyAccessions> => study.accessions.ena?.assembly ?? {};

/** The assemblies not yet at ENA, their files checked against the sheet's MD5s before anything is sent. */
export async function planAssemblies(
  deps: ReadsDeps,
  submissionId: string,
  def: ChecklistDefinition,
  study: StudyRow,
  progress: SubmissionProgress,
): Promise<AssemblyRow[]> {
  const known = assemblyAccessions(study);
  const rows = assemblyRowsOf(def, study).filter((r) => !known[r.id]?.assembly_accession);
  await checkFiles(
    deps,
    submissionId,
    study.profileId,
    rows.flatMap((r) => r.files),
    progress,
  );
  return rows;
}

async function save(deps: ReadsDeps, study: StudyRow, rows: Record<string, AssemblyAccessions>) {
  await saveAccessions(deps.db, study.id, (a) => ({ ...a, ena: { ...a.ena, assembly: { ...a.ena?.assembly, ...rows } } }));
}

/** Copies the assembly's files out of storage into its folder; returns the manifest's file fields. */
async function copyFiles(deps: ReadsDeps, study: StudyRow, row: AssemblyRow, dir: string): Promise<Partial<Record<FileField, string>>> {
  await mkdir(dir, { recursive: true });
  const out: Partial<Record<FileField, string>> = {};
  for (const f of row.files) {
    const target = path.join(dir, path.basename(f.name));
    await pipeline(await deps.files.read(study.profileId, f.name), createWriteStream(target));
    out[f.type.toUpperCase() as FileField] = target;
  }
  return out;
}

/**
 * Each assembly not yet at ENA through Webin-CLI, `-validate` then `-submit`. Without Webin-CLI's settings each
 * waits, saying which setting is missing. Returns every assembly's state.
 */
export async function submitAssemblies(
  deps: AssemblyDeps,
  submissionId: string,
  study: StudyRow,
  projectAccession: string,
  runs: Record<string, ReadAccessions>,
  rows: AssemblyRow[],
): Promise<Record<string, AssemblyAccessions>> {
  const done: Record<string, AssemblyAccessions> = { ...assemblyAccessions(study) };
  if (!rows.length) return done;
  const cli = deps.webinCli();
  if (!cli.ready) {
    for (const r of rows) {
      done[r.id] = { digest: r.digest, waiting: `${cli.missing} is not set: ENA takes assemblies only through Webin-CLI.` };
    }
    await save(deps, study, done);
    return done;
  }
  for (const r of rows) {
    const runRefs = r.readRows.map((id) => {
      const run = runs[id]?.run_accession;
      if (!run) throw refused(`${r.where}: the read row ${id} it names has no run at ENA.`);
      return run;
    });
    const workDir = path.join(cli.workRoot, 'assemblies', submissionId, r.id.replace(/[^\w.-]/g, '_'));
    try {
      const files = await copyFiles(deps, study, r, path.join(workDir, 'files'));
      const manifest: GenomeManifest = { STUDY: projectAccession, ...r.manifest, ...(runRefs.length && { RUN_REF: runRefs }), ...files };
      const options = { ...cli.options, workDir };
      await runWebinCli(options, { context: 'genome', name: r.name, manifest, action: 'validate' });
      const { accession } = await runWebinCli(options, { context: 'genome', name: r.name, manifest, action: 'submit' });
      done[r.id] = { assembly_accession: accession ?? '', digest: r.digest };
      await save(deps, study, { [r.id]: done[r.id] as AssemblyAccessions });
    } catch (err) {
      if (!(err instanceof RepositoryRefused)) throw err;
      await save(deps, study, { [r.id]: { digest: r.digest, error: err.message } });
      throw refused(`Assembly ${r.id} (${r.name}) was refused by Webin-CLI: ${err.message}`);
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }
  return done;
}
