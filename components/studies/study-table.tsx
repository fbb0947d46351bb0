import type { Column, TableDefinition } from '@/components/ui/data-table';
import { DeleteAction } from '@/components/ui/delete-action';
import { When } from '@/components/ui/when';
import type { FilledPath } from '@/lib/client/api';
import type { Study } from '@/lib/studies/contract';
import type { Repository } from '@/lib/submissions/contract';
import { RepositoryActions } from './repository-actions';
import type { StudyPath } from './study-path';
import { SubmissionProgress } from './submission-progress';

/** A profile's studies as a table: where each stands at each repository, its exports, and its deletion. */

const REPOSITORIES = [
  { key: 'ena', label: 'ENA' },
  { key: 'zenodo', label: 'Zenodo' },
] as const satisfies readonly { key: Repository; label: string }[];

const text = (v: unknown) => (typeof v === 'string' ? v : '');

/** Where a study stands at a repository, in words. */
function statusWords(repository: Repository, status: string, state: string, accession: string): { words: string; tone: string } {
  const at = repository === 'ena' ? 'ENA' : 'Zenodo';
  switch (status) {
    case 'pending':
      return { words: accession ? `Changed since it was sent to ${at}` : 'Not submitted yet', tone: '' };
    case 'processing':
      return { words: `Being sent to ${at}`, tone: '' };
    case 'rejected':
      return { words: `Rejected by ${at}`, tone: 'danger' };
    case 'published':
      return { words: repository === 'ena' ? 'Public at ENA' : 'Published at Zenodo', tone: 'ok' };
    case 'accepted':
      if (repository === 'ena') return { words: state === 'PUBLIC' ? 'Public at ENA' : 'Private at ENA', tone: 'ok' };
      return { words: 'Deposited at Zenodo, not yet published', tone: 'ok' };
    default:
      return { words: status, tone: '' };
  }
}

/**
 * Why the study may not be deleted, as the service would say it: it is on its way to a repository, or one accepted
 * it (an accession); what reached a public archive is never deleted.
 */
function studyRefusal(study: Study): string | null {
  for (const r of REPOSITORIES) {
    const status = text(study[`status_${r.key}`]);
    const accession = text(study[`accession_${r.key}`]);
    if (status === 'processing') return `Being submitted to ${r.label}: it cannot be deleted while it is on its way.`;
    if (accession || status === 'accepted' || status === 'published') {
      return `Sent to ${r.label}${accession ? ` (${accession})` : ''}: what reached a public archive is never deleted.`;
    }
  }
  return null;
}

export function studyTable(schema: Omit<StudyPath, 'study_id'>, onDeleted: (what: string) => void): TableDefinition<Study> {
  const at = (study: Study): StudyPath => ({ ...schema, study_id: study.study_id });
  const href = (study: Study): FilledPath<'/api/profiles/{profile_id}/schema/{schema_name}/studies/{study_id}'> =>
    `/api/profiles/${encodeURIComponent(schema.profile_id)}/schema/${encodeURIComponent(schema.schema_name)}/studies/${encodeURIComponent(study.study_id)}`;
  const columns: Column<Study>[] = [
    { id: 'study', header: 'Study', key: true, nowrap: true, cell: (st) => <span className="mono">{st.study_id}</span> },
    { id: 'title', header: 'Title', cell: (st) => text(st.title) || text(st.project_name) || <span className="muted">—</span> },
    ...REPOSITORIES.map(
      (r): Column<Study> => ({
        id: r.key,
        header: r.label,
        cell: (study) => {
          const status = text(study[`status_${r.key}`]);
          const accession = text(study[`accession_${r.key}`]);
          const error = text(study[`error_${r.key}`]);
          const state = text(study[`state_${r.key}`]);
          if (!status) return <span className="muted">Not submitted there</span>;
          const shown = statusWords(r.key, status, state, accession);
          return (
            <>
              <span className={`badge ${shown.tone}`}>{shown.words}</span>
              {error && <span className="field-error"> {error}</span>}
              <RepositoryActions
                at={at(study)}
                studyId={study.study_id}
                repository={r.key}
                label={r.label}
                status={status}
                accession={accession}
                doi={text(study[`doi_${r.key}`])}
                state={state}
              />
              <SubmissionProgress at={at(study)} repository={r.key} status={status} />
            </>
          );
        },
      }),
    ),
    { id: 'checklist', header: 'Checklist', cell: (st) => <span className="mono">{st.checklist_id}</span> },
    { id: 'updated', header: 'Updated', cell: (st) => <When value={st.date_modified} /> },
    {
      id: 'export',
      header: 'Export',
      nowrap: true,
      cell: (st) => (
        <span className="inline" style={{ gap: '0.5rem' }}>
          <a href={href(st)} download aria-label={`Download ${st.study_id} as xlsx`}>
            xlsx
          </a>
          <a href={`${href(st)}?return_type=jsonld`} download aria-label={`Download ${st.study_id} as JSON-LD`}>
            JSON-LD
          </a>
        </span>
      ),
    },
  ];
  columns.push({
    id: 'delete',
    header: 'Delete',
    cell: (st) => (
      <DeleteAction noun="study" name={st.study_id} url={href(st)} refusal={studyRefusal(st)} onDeleted={onDeleted}>
        Study {st.study_id}
        {text(st.title) && <> ({text(st.title)})</>} will be deleted from this profile, with every sheet of it. Its data files stay.
      </DeleteAction>
    ),
  });
  return { noun: 'studies', rowKey: (st) => st.study_id, columns };
}
