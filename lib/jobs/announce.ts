import { sql } from 'drizzle-orm';
import type { Database, Db } from '@/db/client';
import type { JobName } from './contract';

/**
 * Jobs are announced on this channel as they become due (a job sent, a dead run handed back), by name. PostgreSQL
 * delivers a notification when its transaction commits, and not at all when it rolls back, so a worker never looks for
 * a job it cannot see yet: every instance with workers listens and looks at once, instead of at its next poll (up to a
 * second later, after every step of a registration, a submission or a user's upload).
 */
const JOB_DUE_CHANNEL = 'rmb_job_due';

/** Announces on the connection of `tx` (or at once, on `db`) that a job of `name` is due: see JOB_DUE_CHANNEL. */
export async function announceJob(tx: Db, name: JobName): Promise<void> {
  await tx.execute(sql`select pg_notify(${JOB_DUE_CHANNEL}, ${name})`);
}

/** Calls `wake` with the name of each job announced from now on, on either engine; resolves to the way to stop. */
export async function listenForJobs(database: Database, wake: (name: string) => void): Promise<() => Promise<void>> {
  if (database.sql) {
    const { unlisten } = await database.sql.listen(JOB_DUE_CHANNEL, wake);
    return unlisten;
  }
  if (database.pglite) return database.pglite.listen(JOB_DUE_CHANNEL, wake);
  throw new Error('a database with neither a PostgreSQL client nor a PGlite instance');
}
