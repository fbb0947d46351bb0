import { desc, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { submissions, type Repository, type SubmissionStatus } from '@/db/schema';
import { asAccessions, studyAccession } from './accessions';

export interface RepositoryState {
  status: SubmissionStatus;
  accession: string;
  error: string;
  doi?: string;
}

export interface StudyForStatus {
  id: string;
  updatedAt: Date;
  accessions: unknown;
}

const TERMINAL: ReadonlySet<SubmissionStatus> = new Set(['accepted', 'rejected', 'published']);
const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/**
 * Each study's state at each repository it maps to, from its latest submission there (studies-and-checklists.md
 * §11.1): `pending` when it was never submitted, or when the study changed after its last finished submission (the
 * repository holds older data); `processing` while a submission is queued or running.
 */
export async function repositoryStates<S extends StudyForStatus>(
  db: Db,
  list: readonly S[],
  repositoriesOf: (study: S) => readonly Repository[],
): Promise<Map<string, Map<Repository, RepositoryState>>> {
  const rows = list.length
    ? await db
        .select({
          studyRowId: submissions.studyRowId,
          repository: submissions.repository,
          status: submissions.status,
          accessions: submissions.accessions,
          error: submissions.error,
          createdAt: submissions.createdAt,
        })
        .from(submissions)
        .where(inArray(submissions.studyRowId, list.map((s) => s.id)))
        .orderBy(desc(submissions.createdAt))
    : [];
  const out = new Map<string, Map<Repository, RepositoryState>>();
  for (const study of list) {
    const states = new Map<Repository, RepositoryState>();
    const own = asAccessions(study.accessions);
    for (const repo of repositoriesOf(study)) {
      const subs = rows.filter((r) => r.studyRowId === study.id && r.repository === repo);
      const latest = subs[0];
      let status: SubmissionStatus = latest?.status ?? 'pending';
      // a queued job (`pending` in submissions) is what the reference calls a study in `processing`
      if (latest?.status === 'pending') status = 'processing';
      if (latest && TERMINAL.has(status) && study.updatedAt > latest.createdAt) status = 'pending';
      const returned = subs.map((s) => asRecord(s.accessions));
      const accession =
        studyAccession(own, repo) ??
        returned.map((a) => str(a.study) ?? str(a.deposition_id) ?? str(a.project)).find(Boolean) ??
        '';
      const doi = str(own[repo]?.doi) ?? returned.map((a) => str(a.doi)).find(Boolean);
      states.set(repo, {
        status,
        accession,
        error: latest?.status === 'rejected' ? (latest.error ?? '') : '',
        ...(doi && { doi }),
      });
    }
    out.set(study.id, states);
  }
  return out;
}

const asRecord = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
