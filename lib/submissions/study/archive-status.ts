import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { studies } from '@/db/schema';
import { jobSpec } from '@/lib/jobs/spec';
import { getProfile } from '@/lib/profiles/profiles';
import type { EnaClient } from '@/lib/repositories/ena';
import { isTransient } from '@/lib/repositories/errors';
import type { StudyRow } from '@/lib/studies';
import type { ArchiveStatus } from '@/lib/studies/contract';
import type { UserRecord } from '@/lib/users/users';
import { saveAccessions } from './accessions';
import { archiveOf } from './sequence-data';

/**
 * ENA's processing of what a study sent (docs/studies-and-checklists.md §15): after a submission, ENA validates and
 * archives each file of each RUN and ANALYSIS on its own time, and says how far it got in Webin's reports service
 * (`report/run-files/{run}`, `report/analysis-files/{analysis}`). Its answer is kept on the study by accession; it is
 * asked again by the `study.archive-status` job, and on request, until every file is archived or failed.
 */

interface Archived {
  kind: 'run' | 'analysis';
  accession: string;
}

/** The runs and analyses of a study whose files ENA may still be processing. */
function unsettledOf(study: Pick<StudyRow, 'accessions'>): Archived[] {
  const ena = study.accessions.ena ?? {};
  const all: Archived[] = [
    ...Object.values(ena.file ?? {}).map((r) => ({ kind: 'run' as const, accession: r.run_accession })),
    ...Object.values(ena.analysis ?? {}).map((a) => ({ kind: 'analysis' as const, accession: a.analysis_accession })),
    ...Object.values(ena.assembly ?? {}).flatMap((a) =>
      a.assembly_accession ? [{ kind: 'analysis' as const, accession: a.assembly_accession }] : [],
    ),
  ];
  return all.filter((a) => {
    const kept = ena.archive?.[a.accession];
    return !kept || !['archived', 'failed'].includes(archiveOf(kept.files));
  });
}

/** Asks ENA about each unsettled run and analysis of the study and keeps its answers; returns how many were asked. */
export async function refreshArchiveStatus(db: Db, client: EnaClient, study: StudyRow): Promise<number> {
  const asked = unsettledOf(study);
  if (!asked.length) return 0;
  const answers: Record<string, ArchiveStatus> = {};
  for (const a of asked) {
    const files = await client.filesOf(a.kind, a.accession);
    answers[a.accession] = {
      checked_at: new Date().toISOString(),
      files: files.map((f) => ({
        name: f.name,
        state: f.state,
        ...(f.size !== undefined && { size: f.size }),
        ...(f.md5 && { md5: f.md5 }),
        ...(f.error && { error: f.error }),
      })),
    };
  }
  await saveAccessions(db, study.id, (acc) => ({ ...acc, ena: { ...acc.ena, archive: { ...acc.ena?.archive, ...answers } } }));
  return asked.length;
}

/** On request: every study of the profile asked about at once, by who may add to the profile. */
export async function refreshProfileArchiveStatus(db: Db, client: EnaClient, user: UserRecord, profileId: string): Promise<void> {
  const profile = await getProfile(db, user, profileId, 'contribute');
  const rows = await db.select().from(studies).where(eq(studies.profileId, profile.id));
  for (const study of rows) await refreshArchiveStatus(db, client, study);
}

// a study's files are asked about at most this often by the job
const ASK_AGAIN_MINUTES = 25;
// studies one run asks about: ENA's reports service answers one accession a call
const STUDIES_PER_RUN = 200;

const ArchiveStatusData = z.object({});

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'study.archive-status': z.infer<typeof ArchiveStatusData>;
  }
}

type ArchiveJobDeps = { db: Db; logger: Logger; ena: () => EnaClient; config: { ENA_USERNAME?: string; ENA_PASSWORD?: string } };

/** The job: studies with runs or analyses not checked lately, oldest check first; ENA down is said and left for next time. */
async function runArchiveStatus(deps: ArchiveJobDeps): Promise<void> {
  if (!deps.config.ENA_USERNAME || !deps.config.ENA_PASSWORD) return;
  const rows = await deps.db
    .select()
    .from(studies)
    .where(sql`${studies.accessions} -> 'ena' ?| array['file', 'analysis', 'assembly']`)
    .limit(STUDIES_PER_RUN * 4);
  const due = rows
    .filter((s) => {
      const checked = unsettledOf(s).map((a) => s.accessions.ena?.archive?.[a.accession]?.checked_at ?? '');
      return checked.some((at) => !at || Date.parse(at) < Date.now() - ASK_AGAIN_MINUTES * 60_000);
    })
    .slice(0, STUDIES_PER_RUN);
  if (!due.length) return;
  const client = deps.ena();
  let asked = 0;
  for (const study of due) {
    try {
      asked += await refreshArchiveStatus(deps.db, client, study);
    } catch (err) {
      if (!isTransient(err)) throw err;
      deps.logger.warn({ err, study: study.studyId }, 'archive status: ENA’s reports service did not answer; asked again next time');
      return;
    }
  }
  deps.logger.info({ studies: due.length, asked }, 'archive status: ENA asked about the files of runs and analyses');
}

export const archiveStatusJob = jobSpec({
  name: 'study.archive-status',
  label: 'ENA’s processing of the files of runs and analyses read again',
  data: ArchiveStatusData,
  expireSeconds: 15 * 60,
  schedule: '*/30 * * * *',
  run: (deps: ArchiveJobDeps) => runArchiveStatus(deps),
});
