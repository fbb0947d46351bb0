import { readFileSync } from 'node:fs';
import type { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { type Database, type Db, openDatabase } from '@/db/client';
import * as schema from '@/db/schema';

/**
 * Embedded databases a test worker hands from one file to the next. Starting PGlite from the suite's template
 * (tests/support/global-setup.ts) costs 1.0-1.5 s of CPU a harness, most of it PostgreSQL starting inside
 * WebAssembly; the suite opens some ninety. A worker keeps its modules, and so this pool, from one file to the next
 * (vitest.config.ts, isolate: false); a database given back is put back as the template left it, in about 0.1 s,
 * and the next harness gets that one.
 *
 * As the template left it: every table's rows (those it had are copied back from a snapshot taken when the database
 * was first opened, kept in temporary tables no test looks in), every sequence's position, no table it did not have
 * (a queue made by a test adds one), and the session's settings, prepared statements, listeners and advisory locks
 * dropped. A database that was closed, or that cannot be put back, is closed and not reused.
 */

interface Snapshot {
  /** every table and partition the template has, as `schema.name` quoted where it must be */
  tables: Set<string>;
  /** the tables that are not partitions, which TRUNCATE empties with their partitions */
  roots: string[];
  /** tables with rows in the template, and the temporary table holding a copy of them */
  copies: { table: string; copy: string }[];
  /** each sequence's position in the template */
  sequences: { name: string; value: string; called: boolean }[];
}

interface Pooled {
  pglite: PGlite;
  snapshot: Snapshot;
}

const idle: Pooled[] = [];
// harnesses a file opens at once are few, and a database kept idle keeps its memory
const IDLE_KEPT = 2;

// the temporary tables holding the template's rows
const COPY_PREFIX = 'rmb_template_rows_';

// names as SQL takes them, quoted by PostgreSQL (format's %I)
const TABLES = `
  select format('%I.%I', n.nspname, c.relname) as name, c.relispartition as partition
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema')
    and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp%'`;

type TableRow = { name: string; partition: boolean };

async function snapshotOf(pglite: PGlite): Promise<Snapshot> {
  const { rows } = await pglite.query<TableRow>(TABLES);
  const roots = rows.filter((r) => !r.partition).map((r) => r.name);
  const copies: Snapshot['copies'] = [];
  for (const table of roots) {
    const copy = `${COPY_PREFIX}${copies.length}`;
    const { rows: some } = await pglite.query(`select 1 from ${table} limit 1`);
    if (!some.length) continue;
    await pglite.exec(`create temporary table ${copy} as select * from ${table}`);
    copies.push({ table, copy });
  }
  const { rows: sequences } = await pglite.query<Snapshot['sequences'][number]>(`
    select format('%I.%I', schemaname, sequencename) as name, coalesce(last_value, start_value)::text as value,
           last_value is not null as called
    from pg_sequences`);
  return {
    tables: new Set(rows.map((r) => r.name)),
    roots,
    copies,
    sequences,
  };
}

/** Puts the database back as the template left it (see above). */
async function reset({ pglite, snapshot }: Pooled): Promise<void> {
  // a transaction a failed test left open is rolled back; none open is a warning PGlite keeps to itself
  await pglite.exec('rollback');
  await pglite.exec('reset all; deallocate all; unlisten *; select pg_advisory_unlock_all()');
  const { rows } = await pglite.query<TableRow>(TABLES);
  const added = rows.map((r) => r.name).filter((t) => !snapshot.tables.has(t));
  // temporary tables live as long as the session, which a reused database's is: those of a test go (a seed's fixtures)
  const { rows: temporary } = await pglite.query<{ name: string }>(`
    select format('pg_temp.%I', c.relname) as name from pg_class c
    where c.relnamespace = pg_my_temp_schema() and c.relkind = 'r' and not starts_with(c.relname, '${COPY_PREFIX}')`);
  const statements = [
    ...added.map((t) => `drop table if exists ${t} cascade`),
    ...temporary.map((t) => `drop table if exists ${t.name} cascade`),
    `truncate ${snapshot.roots.join(', ')} restart identity cascade`,
    // rows go back whatever the order of their foreign keys: the triggers that check them are off meanwhile
    'set session_replication_role = replica',
    ...snapshot.copies.map(({ table, copy }) => `insert into ${table} select * from ${copy}`),
    'set session_replication_role = origin',
    ...snapshot.sequences.map((s) => `select setval('${s.name.replace(/'/g, "''")}', ${s.value}, ${s.called})`),
  ];
  await pglite.exec(`begin; ${statements.join(';\n')}; commit`);
}

async function openPooled(template: string): Promise<Pooled> {
  const opened = await openDatabase({ pgliteFrom: new Blob([readFileSync(template)]) });
  const pglite = opened.pglite as PGlite;
  return { pglite, snapshot: await snapshotOf(pglite) };
}

/**
 * An in-memory database as the template left it: one a file before this gave back, or a new one from the template.
 * Its close() gives it back (or closes it when the pool is full or it cannot be put back).
 */
export async function pooledPglite(template: string): Promise<Database> {
  const pooled = idle.pop() ?? (await openPooled(template));
  const { pglite } = pooled;
  let given = false;
  return {
    // a Drizzle client of its own, so nothing the service keys by its database handle outlives the file
    db: drizzle(pglite, { schema }) as unknown as Db,
    kind: 'pglite',
    pglite,
    async close() {
      if (given) return;
      given = true;
      if (pglite.closed) return;
      if (idle.length >= IDLE_KEPT) return pglite.close();
      try {
        await reset(pooled);
        idle.push(pooled);
      } catch {
        await pglite.close();
      }
    },
  };
}
