import { createHash } from 'node:crypto';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { ANALYSIS_FILE_TYPES, type AnalysisFileType, type AnalysisSpec, type EnaClient, sendOnce } from '@/lib/repositories/ena';
import { RepositoryRefused } from '@/lib/repositories/errors';
import type { StudyRow } from '@/lib/studies';
import type { AnalysisAccessions, ReadAccessions } from '@/lib/studies/contract';
import type { SubmissionProgress } from '@/lib/submissions/contract';
import { enaLedger } from '../ledger';
import { saveAccessions } from './accessions';
import { linkedRowsOf } from './linked-rows';
import { areaPathOf } from './read-rows';
import { checkFiles, filesOf, type ReadsDeps, stagedFiles, stageFiles } from './staging';

/**
 * Sequence annotations at ENA (docs/studies-and-checklists.md §15): each sequencing_annotation row an ANALYSIS of
 * type SEQUENCE_ANNOTATION, its files staged into the Webin upload area like the reads' and referenced with their
 * MD5s, its read rows as RUN_REFs, its sample as SAMPLE_REF, sent exactly once (lib/repositories/ena/once.ts). A
 * changed row is sent again with MODIFY.
 */

interface AnnotationRow {
  id: string;
  alias: string;
  spec: Omit<AnalysisSpec, 'alias' | 'study' | 'runs'>;
  readRows: string[];
  files: { name: string; md5: string }[];
  digest: string;
  where: string;
}

export interface AnnotationsPlan {
  add: AnnotationRow[];
  modify: AnnotationRow[];
  unchanged: AnnotationRow[];
}

const refused = (message: string) => new RepositoryRefused('ena', message);

function fileType(type: string, name: string, where: string): AnalysisFileType {
  const t = type.trim().toLowerCase();
  // a GFF file named .gff3 is GFF3, which ENA reads as its own type
  const named = t === 'gff' && /\.gff3(\.gz)?$/i.test(name) ? 'gff3' : t;
  const found = ANALYSIS_FILE_TYPES.find((x) => x.toLowerCase() === named);
  if (!found) throw refused(`${where}: ${name} is of type '${type}', which ENA does not take for an analysis.`);
  return found;
}

function annotationRowsOf(def: ChecklistDefinition, study: StudyRow): AnnotationRow[] {
  return linkedRowsOf(def, study, 'sequencing_annotation').map((r) => {
    if (!r.files.length) throw refused(`${r.where}: the annotation names no file.`);
    const spec: AnnotationRow['spec'] = {
      title: r.values.sequencing_annotation_title || r.id,
      ...(r.values.sequencing_annotation_description && { description: r.values.sequencing_annotation_description }),
      samples: [{ accession: r.biosample }],
      analysisType: 'SEQUENCE_ANNOTATION',
      files: r.files.map((f) => ({
        filename: areaPathOf(study.profileId, f.name),
        filetype: fileType(f.type, f.name, r.where),
        checksum: f.md5,
        checksumMethod: 'MD5' as const,
      })),
    };
    const digest = createHash('sha256')
      .update(JSON.stringify({ spec, readRows: r.readRows }))
      .digest('hex');
    const alias = `${study.profileId}:${study.studyId}:${r.id}:analysis`;
    return { id: r.id, alias, spec, readRows: r.readRows, files: r.files, digest, where: r.where };
  });
}

const analysisAccessions = (study: StudyRow): Record<string, AnalysisAccessions> => study.accessions.ena?.analysis ?? {};

/** Which annotations go this time, their files checked against the sheet's MD5s before anything is sent. */
export async function planAnnotations(
  deps: ReadsDeps,
  submissionId: string,
  def: ChecklistDefinition,
  study: StudyRow,
  progress: SubmissionProgress,
): Promise<AnnotationsPlan> {
  const known = analysisAccessions(study);
  const plan: AnnotationsPlan = { add: [], modify: [], unchanged: [] };
  for (const r of annotationRowsOf(def, study)) {
    const at = known[r.id];
    if (!at) plan.add.push(r);
    else if (at.digest !== r.digest) plan.modify.push(r);
    else plan.unchanged.push(r);
  }
  await checkFiles(deps, submissionId, study.profileId, filesOf([...plan.add, ...plan.modify]), progress);
  return plan;
}

/** Stages the files, then ADDs the new analyses and MODIFYs the changed ones; returns every annotation's accession. */
export async function submitAnnotations(
  deps: ReadsDeps,
  client: EnaClient,
  submissionId: string,
  study: StudyRow,
  projectAccession: string,
  runs: Record<string, ReadAccessions>,
  plan: AnnotationsPlan,
  progress: SubmissionProgress,
): Promise<Record<string, AnalysisAccessions>> {
  const known = analysisAccessions(study);
  const done: Record<string, AnalysisAccessions> = {};
  for (const r of plan.unchanged) done[r.id] = known[r.id] as AnalysisAccessions;
  const sending = [...plan.add, ...plan.modify];
  if (!sending.length) return done;
  await stageFiles(deps, submissionId, study, filesOf(sending), stagedFiles(progress));

  const specOf = (r: AnnotationRow): AnalysisSpec => ({
    ...r.spec,
    alias: r.alias,
    study: { accession: projectAccession },
    runs: r.readRows.map((id) => {
      const run = runs[id]?.run_accession;
      if (!run) throw refused(`${r.where}: the read row ${id} it names has no run at ENA.`);
      return { accession: run };
    }),
  });
  const ledger = enaLedger(deps.db, submissionId, progress, 'analyses', 'analyses');
  for (const [action, rows] of [
    ['ADD', plan.add],
    ['MODIFY', plan.modify],
  ] as const) {
    if (!rows.length) continue;
    const byId = new Map(rows.map((r) => [r.id, r]));
    const sent = await sendOnce(client, ledger, {
      action,
      items: rows.map((r) => ({ key: r.id, objects: [{ type: 'ANALYSIS' as const, alias: r.alias }] })),
      document: (items) => ({ analyses: items.flatMap((it) => byId.get(it.key) ?? []).map(specOf) }),
      crashPoint: 'study-ena:analyses-added',
    }).catch((err: unknown) => {
      if (!(err instanceof RepositoryRefused)) throw err;
      throw refused(
        `Couldn't ${action === 'ADD' ? 'submit' : 'update'} the sequence annotations ${[...byId.keys()].join(', ')}: ${err.message}`,
      );
    });
    for (const r of rows) {
      const accession = sent.get(r.id)?.objects[r.alias]?.accession ?? known[r.id]?.analysis_accession;
      if (!accession) throw refused(`ENA returned no analysis accession for ${r.id}.`);
      done[r.id] = { analysis_accession: accession, digest: r.digest };
    }
    await saveAccessions(deps.db, study.id, (a) => ({ ...a, ena: { ...a.ena, analysis: { ...a.ena?.analysis, ...done } } }));
  }
  return done;
}
