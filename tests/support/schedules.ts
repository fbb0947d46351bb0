import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';

/**
 * Takes a scheduled job off the workers' clock, as pg-boss's own `unschedule` does, and drops a run the clock already
 * sent: a file that runs the job by hand and asserts what it changed must not meet the scheduled run at its minute
 * (`study.archive-status` at :00 and :30, `rights.check` at :23) halfway through.
 */
export async function unschedule(db: Db, name: string): Promise<void> {
  await db.execute(sql`delete from pgboss.schedule where name = ${name}`);
  await db.execute(
    sql`delete from pgboss.job where state = 'created'
      and (name = ${name} or (name = '__pgboss__send-it' and data ->> 'name' = ${name}))`,
  );
}
