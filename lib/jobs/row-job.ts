import { and, eq, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, PgUpdateSetSource } from 'drizzle-orm/pg-core';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { Conflict } from '@/lib/errors';
import { UuidSchema } from '../identifiers/contract';
import type { JobData, JobName } from './contract';
import { type JobQueue, type JobRun, type JobSpec, jobSpec } from './spec';

/** What a row job carries: the id of its row (a report, an email, a submission) under `K`. */
export type RowJobData<K extends string> = { [P in K]: string };

// zod types an object of a computed key as one of any string key
const rowData = <K extends string>(key: K) => z.object({ [key]: UuidSchema }) as z.ZodType as z.ZodType<RowJobData<K>>;

/** The jobs declared (lib/jobs/contract.ts) as carrying exactly a row's id under `K`. */
type RowJobName<K extends string> = {
  [N in JobName]: JobData[N] extends RowJobData<K> ? (RowJobData<K> extends JobData[N] ? N : never) : never;
}[JobName];

/**
 * A job whose work is one row, named by its id under `key`: the run, the give-up and the admin's retry each act on
 * that row, and the sweep finds the rows still waiting for it with `open` (their `id` column).
 */
export interface RowJobSpec<N extends JobName, K extends string, Deps> {
  name: N;
  key: K;
  label: string;
  expireSeconds: number;
  open: SQL;
  run: (deps: Deps, id: string, run: JobRun) => Promise<void>;
  giveUp: (deps: Deps, id: string, reason: string) => Promise<void>;
  /** an admin's retry that does more than reopen the row (./spec.ts, JobSpec.reopen) */
  reopen?: (tx: Db, deps: Deps, id: string) => Promise<string>;
  /**
   * An admin's retry of the row alone: `reopen` sets it waiting again in `tx`, and false when it cannot be (`refused`
   * says why); the job is then queued again for it there, and the retry answers `<noun> <id>`.
   */
  requeue?: { noun: string; refused: string; reopen: (tx: Db, id: string) => Promise<boolean> };
  recover?: (deps: Deps) => Promise<void>;
}

/** Declares a row job: its data, its open work and its retry follow from the key. */
export function rowJobSpec<K extends string, N extends RowJobName<K>, Deps extends { jobs: JobQueue }>(
  spec: RowJobSpec<N, K, Deps>,
): JobSpec<N, Deps> {
  const { key, open, run, giveUp, reopen, requeue, ...rest } = spec;
  // N's data is exactly the row's id under K (RowJobName), which TypeScript does not see through the generic
  const dataOf = (id: string) => ({ [key]: id }) as JobData[N];
  const idOf = (data: JobData[N]) => (data as RowJobData<K>)[key];
  const retry =
    requeue &&
    (async (tx: Db, deps: Deps, id: string) => {
      if (!(await requeue.reopen(tx, id))) throw Conflict(requeue.refused);
      await deps.jobs.send(spec.name, dataOf(id), { tx });
      return `${requeue.noun} ${id}`;
    });
  const reopenRow = reopen ?? retry;
  return jobSpec({
    ...rest,
    data: rowData(key) as z.ZodType<JobData[N]>,
    run: (deps, data, r) => run(deps, idOf(data), r),
    giveUp: (deps, data, reason) => giveUp(deps, idOf(data), reason),
    openWork: { key: key as keyof JobData[N] & string, open },
    reopen: reopenRow && ((tx, deps, data) => reopenRow(tx, deps, idOf(data))),
  });
}

/**
 * A `requeue.reopen` of a row whose status is `failed` (and `also` holds): `set` makes it wait again. False when it is
 * not failed (any more), or `also` does not hold.
 */
export async function reopenFailed<T extends PgTable & { id: PgColumn; status: PgColumn }>(
  tx: Db,
  table: T,
  id: string,
  set: PgUpdateSetSource<T>,
  also?: SQL,
): Promise<boolean> {
  const rows = await tx
    .update(table)
    .set(set)
    .where(and(eq(table.id, id), eq(table.status, 'failed'), also))
    .returning({ id: table.id });
  return rows.length > 0;
}
