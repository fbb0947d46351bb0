import { desc, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { idsOf } from '@/db/rows';
import { type SubmissionStatus, submissions } from '@/db/schema';
import type { Repository } from '@/lib/repositories/contract';
import { studyAccession } from './accessions';
import type { StudyAccessions, StudyStatus } from './contract';

export interface RepositoryState {
  status: StudyStatus;
  accession: string;
  error: string;
  /** while processing: what the submission waits for */
  detail?: string;
  doi?: string;
}

export interface StudyForStatus {
  id: string;
  updatedAt: Date;
  accessions: StudyAccessions;
}

const TERMINAL: ReadonlySet<SubmissionStatus> = new Set(['accepted', 'rejected', 'published', 'failed']);

/**
 * Each study's state at each repository it maps to, from its latest submission there (docs/studies-and-checklists.md
 * §11.1): `pending` when it was never submitted, or when the study changed after its last finished submission (the
 * repository holds older data); `processing` while a submission is queued or running, with `detail` saying what it
 * waits for (an unreachable repository and the next try); a submission that failed on our side (lost, or given up)
 * shows as `rejected` with its reason, the reference's word for "submit again". A publication that was interrupted
 * changed nothing and is not counted.
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
          action: submissions.action,
          status: submissions.status,
          accessions: submissions.accessions,
          error: submissions.error,
          createdAt: submissions.createdAt,
        })
        .from(submissions)
        .where(inArray(submissions.studyRowId, idsOf(list)))
        .orderBy(desc(submissions.createdAt))
    : [];
  const out = new Map<string, Map<Repository, RepositoryState>>();
  for (const study of list) {
    const states = new Map<Repository, RepositoryState>();
    const own = study.accessions;
    for (const repo of repositoriesOf(study)) {
      const subs = rows.filter(
        (r) => r.studyRowId === study.id && r.repository === repo && !(r.action === 'publish' && r.status === 'failed'),
      );
      const latest = subs[0];
      let status: RepositoryState['status'] = latest?.status === 'failed' ? 'rejected' : (latest?.status ?? 'pending');
      // a queued job (`pending` in submissions) is what the reference calls a study in `processing`
      if (latest?.status === 'pending') status = 'processing';
      if (latest && TERMINAL.has(latest.status) && study.updatedAt > latest.createdAt) status = 'pending';
      const returned = subs.map((s) => s.accessions);
      const accession = studyAccession(own, repo) ?? returned.map((a) => a.study || a.deposition_id).find(Boolean) ?? '';
      const doi = (repo === 'zenodo' && own.zenodo?.doi) || returned.map((a) => a.doi).find(Boolean);
      states.set(repo, {
        status,
        accession,
        error: latest?.status === 'rejected' || latest?.status === 'failed' ? (latest.error ?? '') : '',
        ...(status === 'processing' && latest?.error && { detail: latest.error }),
        ...(doi && { doi }),
      });
    }
    out.set(study.id, states);
  }
  return out;
}
