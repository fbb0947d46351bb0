import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { samples, studies } from '@/db/schema';
import { type ChecklistDefinition, getChecklistDefinition } from '@/lib/checklists/definitions';
import { getProfile } from '@/lib/profiles/profiles';
import { isEmbargoed } from '@/lib/standards/render';
import type { StudyRow } from '@/lib/studies';
import type { ArchiveFileStatus, ArchiveStatus } from '@/lib/studies/contract';
import { type RepositoryState, repositoryStates } from '@/lib/studies/status';
import type { UserRecord } from '@/lib/users/users';
import type { SequenceDataItem, SequenceDataKind } from './contract';

/**
 * What was made from a profile's samples, as its studies describe it and ENA answered (docs/studies-and-checklists.md
 * §15): each read row, assembly and sequence annotation with its state, its accessions and ENA's processing of its
 * files (kept by ./archive-status.ts). A row is accepted once ENA gave it an accession; before that it takes the
 * study's state at ENA; an assembly waits (for Webin-CLI's settings) or was refused on its own.
 */

const ENA_NAMES: Record<SequenceDataKind, string> = { read: 'read', assembly: 'assembly', annotation: 'sequencing_annotation' };

/** ENA's processing of a row's files taken together: failed or processing while any is, archived once all are. */
export function archiveOf(files: readonly ArchiveFileStatus[]): SequenceDataItem['archive'] {
  if (!files.length) return 'unknown';
  for (const state of ['failed', 'processing', 'received'] as const) if (files.some((f) => f.state === state)) return state;
  return 'archived';
}

function sampleOf(study: StudyRow, def: ChecklistDefinition, values: Record<string, string>): string {
  const accessionTerm = def.components.find((c) => c.key === 'sample')?.fields.find((f) => f.type === 'BIOSAMPLEACCESSION_FIELD')?.termName;
  // a read row names its sample itself (single cell) or through its library preparation (reads)
  const prep = values.library_prep_id ? study.components.lib_prep?.find((p) => p.library_prep_id === values.library_prep_id) : undefined;
  const sampleId = values.sample_id || prep?.sample_id;
  const sample = sampleId ? study.components.sample?.find((s) => s.sample_id === sampleId) : undefined;
  return (accessionTerm && sample?.[accessionTerm]) || '';
}

function itemsOf(study: StudyRow, def: ChecklistDefinition, ena: RepositoryState | undefined, kinds: readonly SequenceDataKind[]) {
  const items: SequenceDataItem[] = [];
  const at = study.accessions.ena ?? {};
  const archive = (accession: string | undefined): { files: ArchiveFileStatus[]; checked_at?: string } => {
    const kept: ArchiveStatus | undefined = accession ? at.archive?.[accession] : undefined;
    return kept ? { files: kept.files, checked_at: kept.checked_at } : { files: [] };
  };
  // before ENA gave a row its accession, the row stands where the study's latest submission stands
  const unsent = (): Pick<SequenceDataItem, 'state' | 'detail'> =>
    ena?.status === 'processing'
      ? { state: 'processing', detail: ena.detail ?? '' }
      : ena?.status === 'rejected'
        ? { state: 'rejected', detail: ena.error }
        : { state: 'pending', detail: '' };
  for (const kind of kinds) {
    const component = def.components.find((c) => c.repositories.ena === ENA_NAMES[kind]);
    if (!component) continue;
    const idTerm = component.fields.find((f) => f.identifier)?.termName ?? '';
    for (const row of study.components[component.key] ?? []) {
      const rowId = row[idTerm] ?? '';
      const base = { kind, study_id: study.studyId, schema_name: study.schemaName, row_id: rowId, sample: sampleOf(study, def, row) };
      if (kind === 'read') {
        const sent = at.file?.[rowId];
        const name = ['read_1_file', 'read_2_file']
          .map((t) => row[t])
          .filter(Boolean)
          .join(', ');
        const files = archive(sent?.run_accession);
        items.push({
          ...base,
          name,
          ...(sent ? { state: 'accepted', detail: '' } : unsent()),
          accessions: sent ? { experiment: sent.experiment_accession, run: sent.run_accession } : {},
          archive: archiveOf(files.files),
          ...files,
        });
      } else if (kind === 'annotation') {
        const sent = at.analysis?.[rowId];
        const files = archive(sent?.analysis_accession);
        items.push({
          ...base,
          name: row.sequencing_annotation_title || rowId,
          ...(sent ? { state: 'accepted', detail: '' } : unsent()),
          accessions: sent ? { analysis: sent.analysis_accession } : {},
          archive: archiveOf(files.files),
          ...files,
        });
      } else {
        const sent = at.assembly?.[rowId];
        const accession = sent?.assembly_accession;
        const files = archive(accession);
        const state: Pick<SequenceDataItem, 'state' | 'detail'> = accession
          ? { state: 'accepted', detail: '' }
          : sent?.waiting && ena?.status !== 'processing'
            ? { state: 'waiting', detail: sent.waiting }
            : sent?.error && ena?.status !== 'processing'
              ? { state: 'rejected', detail: sent.error }
              : unsent();
        items.push({
          ...base,
          name: row.assembly_name || rowId,
          ...state,
          accessions: accession ? { analysis: accession } : {},
          archive: archiveOf(files.files),
          ...files,
        });
      }
    }
  }
  return items;
}

/** The profile's reads, assemblies and sequence annotations, study by study, for who may see the profile. */
export async function profileSequenceData(
  db: Db,
  user: UserRecord,
  profileId: string,
  kind?: SequenceDataKind,
): Promise<{ number_found: number; data: SequenceDataItem[] }> {
  const profile = await getProfile(db, user, profileId, 'view');
  const rows = await db.select().from(studies).where(eq(studies.profileId, profile.id)).orderBy(studies.createdAt, studies.studyId);
  const states = await repositoryStates(db, rows, () => ['ena']);
  const defs = new Map<string, ChecklistDefinition>();
  const data: SequenceDataItem[] = [];
  for (const study of rows) {
    const key = `${study.schemaName}/${study.checklistId}`;
    let def = defs.get(key);
    if (!def) {
      def = await getChecklistDefinition(db, study.schemaName, study.checklistId);
      defs.set(key, def);
    }
    if (!def.components.find((c) => c.key === 'study')?.repositories.ena) continue;
    data.push(...itemsOf(study, def, states.get(study.id)?.get('ena'), kind ? [kind] : ['read', 'assembly', 'annotation']));
  }
  return { number_found: data.length, data };
}

/** A run or analysis made from a sample, as the public sees it: only what a study released at ENA holds. */
export interface ReleasedSequenceData {
  biosampleAccession: string;
  kind: SequenceDataKind;
  name: string;
  study_accession: string;
  experiment_accession?: string;
  run_accession?: string;
  analysis_accession?: string;
}

/**
 * The runs, assemblies and annotations made from these BioSamples, of studies ENA has made public (a held study's
 * objects stay private at ENA, and so here); within one profile when given. By BioSample accession.
 */
export async function releasedSequenceData(
  db: Db,
  biosamples: readonly string[],
  profileId?: string,
): Promise<Map<string, ReleasedSequenceData[]>> {
  const wanted = new Set(biosamples);
  const out = new Map<string, ReleasedSequenceData[]>();
  if (!wanted.size) return out;
  // a Tree of Life sample under traditional-knowledge rights is not named with what was made from it
  const held = await db
    .select({
      accession: samples.biosampleAccession,
      project: samples.project,
      fields: samples.fields,
      rightsClearedAt: samples.rightsClearedAt,
    })
    .from(samples)
    .where(inArray(samples.biosampleAccession, [...wanted]));
  for (const h of held) if (h.accession && isEmbargoed({ ...h, rightsCleared: h.rightsClearedAt !== null })) wanted.delete(h.accession);
  if (!wanted.size) return out;
  const rows = await db
    .select()
    .from(studies)
    .where(
      and(
        sql`${studies.accessions} #>> '{ena,state}' = 'PUBLIC'`,
        profileId ? eq(studies.profileId, profileId) : undefined,
        // a study names its samples in its own sheet: only those naming one of these are read
        sql`exists (select 1 from jsonb_array_elements(coalesce(${studies.components} -> 'sample', '[]'::jsonb)) s
                    where s ->> 'biosampleAccession' in (${sql.join(
                      [...wanted].map((a) => sql`${a}`),
                      sql`, `,
                    )}))`,
      ),
    );
  for (const study of rows) {
    const def = await getChecklistDefinition(db, study.schemaName, study.checklistId);
    for (const item of itemsOf(study, def, undefined, ['read', 'assembly', 'annotation'])) {
      if (item.state !== 'accepted' || !wanted.has(item.sample)) continue;
      const list = out.get(item.sample) ?? [];
      list.push({
        biosampleAccession: item.sample,
        kind: item.kind,
        name: item.name,
        study_accession: study.accessions.ena?.study ?? '',
        ...(item.accessions.experiment && { experiment_accession: item.accessions.experiment }),
        ...(item.accessions.run && { run_accession: item.accessions.run }),
        ...(item.accessions.analysis && { analysis_accession: item.accessions.analysis }),
      });
      out.set(item.sample, list);
    }
  }
  return out;
}
