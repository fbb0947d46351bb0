import type { Db } from '@/db/client';
import type { UserRecord } from '@/lib/users/users';
import { listSubmissions } from './submissions';

/** The recent submissions the home page looks through; the Submissions page lists them all. */
const RECENT_SUBMISSIONS = 50;

/** How many of the user's recent submissions are under way, and how many were refused or failed since a time. */
export interface SubmissionsWaiting {
  running: number;
  stopped: number;
}

/** The home page's submissions: those under way, and those refused or given up since `since`. */
export async function submissionsWaiting(db: Db, user: UserRecord, since: Date): Promise<SubmissionsWaiting> {
  const { rows } = await listSubmissions(db, user, { limit: RECENT_SUBMISSIONS, offset: 0 });
  const submissions = rows.map((r) => r.submission);
  return {
    running: submissions.filter((s) => s.status === 'pending' || s.status === 'processing').length,
    stopped: submissions.filter(
      (s) => (s.status === 'rejected' || s.status === 'failed') && (s.finishedAt ?? s.updatedAt).getTime() > since.getTime(),
    ).length,
  };
}
