import { sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { DUE_JOB, QUEUED_JOB, UNRETRIED_DEAD_LETTER } from '@/lib/jobs/counts';
import { metrics } from './registry';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const JOB_STATES = ['waiting', 'delayed', 'active', 'failed'] as const;

/**
 * The Prometheus text of every metric, the queue's and the emails' gauges read from the database now (one query
 * each: a scrape every 15 s costs two small aggregate queries). `queues` are the service's queue names, so a queue
 * with nothing in it reads 0 rather than missing.
 */
export async function scrapeMetrics(db: Db, queues: readonly string[]): Promise<string> {
  const m = metrics();
  const [jobRows, emailRows] = await Promise.all([
    db.execute(sql`
      select name, state, count(*)::int as n, coalesce(extract(epoch from now() - min(start_after)), 0)::float8 as oldest
      from (
        select name, start_after,
          case when ${QUEUED_JOB} and not ${DUE_JOB} then 'delayed'
               when ${QUEUED_JOB} then 'waiting'
               else state::text end as state
        from pgboss.job where state in ('created', 'retry', 'active', 'failed')
      ) j
      group by name, state`),
    db.execute(sql`
      select
        (select count(*)::int from emails where status = 'queued') as waiting,
        (select coalesce(extract(epoch from now() - min(created_at)), 0)::float8 from emails where status = 'queued') as oldest,
        (select count(*)::int from dead_letters where ${UNRETRIED_DEAD_LETTER}) as dead`),
  ]);
  m.jobs.reset();
  m.jobOldestWait.reset();
  for (const queue of queues) {
    for (const state of JOB_STATES) m.jobs.set({ queue, state }, 0);
    m.jobOldestWait.set({ queue }, 0);
  }
  for (const row of rowsOf<{ name: string; state: string; n: number; oldest: number }>(jobRows)) {
    m.jobs.set({ queue: row.name, state: row.state }, Number(row.n));
    if (row.state === 'waiting') m.jobOldestWait.set({ queue: row.name }, Number(row.oldest));
  }
  const [email] = rowsOf<{ waiting: number; oldest: number; dead: number }>(emailRows);
  m.emailsWaiting.set(Number(email?.waiting ?? 0));
  m.emailOldestWait.set(Number(email?.oldest ?? 0));
  m.deadLetters.set(Number(email?.dead ?? 0));
  return m.registry.metrics();
}
