import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { describe, expect, inject, it } from 'vitest';
import { openDatabase } from '@/db/client';
import { createUser } from '@/lib/users/users';
import { pooledPglite } from './support/pglite-pool';

/**
 * The embedded databases the harness reuses from one file to the next (tests/support/pglite-pool.ts): one given back
 * and taken again is what a fresh copy of the template is, row for row, sequence for sequence, table for table.
 */

const template = inject('pgliteTemplate');

/** Every table's rows (as text, sorted), every sequence's position, the tables there are and a session setting. */
async function stateOf(pglite: PGlite): Promise<Record<string, string>> {
  const { rows: tables } = await pglite.query<{ name: string }>(`
    select format('%I.%I', n.nspname, c.relname) as name
    from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')
      and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'
    order by 1`);
  const state: Record<string, string> = {};
  for (const { name } of tables) {
    const { rows } = await pglite.query<{ n: number; digest: string }>(
      `select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${name} t`,
    );
    state[name] = `${rows[0]?.n} ${rows[0]?.digest}`;
  }
  const { rows: sequences } = await pglite.query<{ name: string; value: string | null }>(
    `select format('%I.%I', schemaname, sequencename) as name, last_value::text as value from pg_sequences order by 1`,
  );
  for (const s of sequences) state[`sequence ${s.name}`] = String(s.value);
  const { rows: setting } = await pglite.query<{ statement_timeout: string }>('show statement_timeout');
  state.statement_timeout = String(setting[0]?.statement_timeout);
  return state;
}

// the pool is the embedded database's: on PostgreSQL (TEST_DATABASE_URL) the harness copies a template database on the
// server instead, and the suite makes no PGlite template, so there is nothing here to test
describe.skipIf(!template)('the harness’s pool of embedded databases', () => {
  it('gives back a used database as a fresh copy of the template is', async () => {
    const fresh = await openDatabase({ pgliteFrom: new Blob([readFileSync(template)]) });
    const expected = await stateOf(fresh.pglite as PGlite);
    await fresh.close();

    const first = await pooledPglite(template);
    const pglite = first.pglite as PGlite;
    // what a test file leaves behind: rows in tables that were empty and in one that was not, a table of its own, a
    // temporary table, a setting, an open transaction
    await createUser(first.db, { username: 'pool-user', password: 'pool-password-1', memberOf: ['dtol'] });
    await pglite.exec(`update checklists set name = 'changed by a test'`);
    await pglite.exec('create table public.left_by_a_test (id serial primary key, note text)');
    await pglite.exec(`insert into public.left_by_a_test (note) values ('a'), ('b')`);
    await pglite.exec('create temporary table fixture_rows (k int)');
    await pglite.exec(`set statement_timeout = '1234ms'`);
    await pglite.exec('begin');
    await pglite.exec(`insert into public.left_by_a_test (note) values ('c')`);
    expect(await stateOf(pglite)).not.toEqual(expected);
    await first.close();

    const second = await pooledPglite(template);
    expect(second.pglite).toBe(pglite);
    expect(await stateOf(second.pglite as PGlite)).toEqual(expected);
    const { rows } = await pglite.query<{ left: string | null }>(`select to_regclass('pg_temp.fixture_rows')::text as left`);
    expect(rows[0]?.left).toBeNull();
    await second.close();
  });

  it('does not reuse a database a test closed', async () => {
    const first = await pooledPglite(template);
    const pglite = first.pglite as PGlite;
    await pglite.close();
    await first.close();
    const second = await pooledPglite(template);
    expect(second.pglite).not.toBe(pglite);
    expect(second.pglite?.closed).toBe(false);
    await second.close();
  });
});
