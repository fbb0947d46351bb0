import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '@/db/rows';
import { autovacuumRuns, vacuumWhereNeeded } from '@/lib/maintenance/vacuum';
import { createHarness, type Harness } from './support/harness';

/**
 * The embedded database runs no autovacuum (PostgreSQL in single-user mode starts no background workers): the
 * service's `database.vacuum` job does its work there, by autovacuum's own rule, as on a PostgreSQL server whose
 * autovacuum is off (the test machines'); where the server's autovacuum runs, it leaves the work to it.
 */

let h: Harness;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h?.close());

const exec = async <T>(statement: ReturnType<typeof sql>) => rowsOf<T>(await h.database.db.execute(statement));

/** Rows written and deleted, as the job queue's and the service's own tables see all day. */
async function churn(): Promise<void> {
  await exec(sql`insert into service_checks (service, ok, detail)
    select 'churn-' || g, true, repeat('x', 500) from generate_series(1, 2000) g`);
  await exec(sql`delete from service_checks where service like 'churn-%'`);
  await flushStatistics();
}

/** The statistics the rule reads are sent by each statement at most once a second: the last ones are sent now. */
async function flushStatistics(): Promise<void> {
  await exec(sql`select pg_stat_force_next_flush()`);
  await exec(sql`select 1`);
}

const pages = async () => Number((await exec<{ n: string }>(sql`select pg_relation_size('service_checks') / 8192 as n`))[0]?.n);

describe('database.vacuum', () => {
  it('vacuums a table autovacuum would, where none runs, so that its deleted rows’ space is used again', async () => {
    if (await autovacuumRuns(h.database.db)) {
      await churn();
      expect(await vacuumWhereNeeded(h.database.db)).toEqual({ vacuumed: [], analysed: [] });
      return;
    }
    await churn();
    const grown = await pages();
    expect(grown).toBeGreaterThan(100);
    // unvacuumed, the same work again puts its rows after the dead ones
    await churn();
    expect(await pages()).toBeGreaterThan(grown * 1.8);

    const done = await vacuumWhereNeeded(h.database.db);
    expect(done.vacuumed).toContain('public.service_checks');
    expect(done.analysed).toContain('public.service_checks');
    const [stats] = await exec<{ dead: number; vacuumed: boolean }>(
      sql`select n_dead_tup::int as dead, last_vacuum is not null as vacuumed from pg_stat_user_tables where relname = 'service_checks'`,
    );
    expect(stats).toEqual({ dead: 0, vacuumed: true });

    // vacuumed between, the same work again takes no more room than it did once
    await churn();
    await h.jobs['database.vacuum']();
    await churn();
    expect(await pages()).toBeLessThanOrEqual(grown);

    // nothing is due until the table changes again: a second run leaves it alone
    await vacuumWhereNeeded(h.database.db);
    await flushStatistics();
    const again = await vacuumWhereNeeded(h.database.db);
    expect(again.vacuumed).not.toContain('public.service_checks');
  });
});
