import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { rowsOf } from '@/db/rows';
import { jobSpec } from '@/lib/jobs/spec';

/** Whether the server's autovacuum launcher is running: then the server vacuums its tables itself. */
export async function autovacuumRuns(db: Db): Promise<boolean> {
  const [row] = rowsOf<{ running: boolean }>(
    await db.execute(sql`select exists (select 1 from pg_stat_activity where backend_type = 'autovacuum launcher') as running`),
  );
  return row?.running === true;
}

/**
 * PostgreSQL's autovacuum, done by the service where no autovacuum runs: the embedded database (PGlite) is PostgreSQL
 * in single-user mode, which starts no background workers. Unvacuumed, a table never reuses the space of the rows it
 * deleted or replaced (the job queue's own tables grow with every job), and the planner never learns what its tables
 * hold. Where the server's autovacuum launcher runs (a PostgreSQL server, as it is set up by default), this does
 * nothing.
 *
 * Each table is vacuumed or analysed by autovacuum's own rule, read from the server's settings (`autovacuum_vacuum_
 * threshold` and its scale factor for dead rows, the insert ones for rows added, the analyze ones for rows changed),
 * one statement per table: on the embedded database every other query waits for the one running.
 */
export async function vacuumWhereNeeded(db: Db): Promise<{ vacuumed: string[]; analysed: string[] }> {
  if (await autovacuumRuns(db)) return { vacuumed: [], analysed: [] };

  const due = rowsOf<{ name: string; vacuum: boolean; analyse: boolean }>(
    await db.execute(sql`
      select format('%I.%I', schemaname, relname) as name,
        n_dead_tup > current_setting('autovacuum_vacuum_threshold')::float8
            + current_setting('autovacuum_vacuum_scale_factor')::float8 * n_live_tup
          or n_ins_since_vacuum > current_setting('autovacuum_vacuum_insert_threshold')::float8
            + current_setting('autovacuum_vacuum_insert_scale_factor')::float8 * n_live_tup as vacuum,
        n_mod_since_analyze > current_setting('autovacuum_analyze_threshold')::float8
            + current_setting('autovacuum_analyze_scale_factor')::float8 * n_live_tup as analyse
      from pg_stat_user_tables
      order by schemaname, relname`),
  );
  const vacuumed: string[] = [];
  const analysed: string[] = [];
  for (const table of due) {
    if (!table.vacuum && !table.analyse) continue;
    // the name is the server's own, quoted by format('%I')
    const statement = table.vacuum ? `vacuum ${table.analyse ? '(analyze) ' : ''}${table.name}` : `analyze ${table.name}`;
    await db.execute(sql.raw(statement));
    if (table.vacuum) vacuumed.push(table.name);
    if (table.analyse) analysed.push(table.name);
  }
  return { vacuumed, analysed };
}

const VacuumData = z.strictObject({});

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'database.vacuum': z.infer<typeof VacuumData>;
  }
}

/** `database.vacuum`, every ten minutes: autovacuum's work where none runs (the embedded database). */
export const vacuumJob = jobSpec({
  name: 'database.vacuum',
  label: 'Tables vacuumed where the database does not do it itself',
  data: VacuumData,
  expireSeconds: 30 * 60,
  schedule: '*/10 * * * *',
  quiet: true,
  async run(deps: { db: Db; logger: Logger }) {
    const done = await vacuumWhereNeeded(deps.db);
    if (done.vacuumed.length || done.analysed.length) deps.logger.debug(done, 'tables vacuumed and analysed');
  },
});
