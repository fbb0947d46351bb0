import { randomInt } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import type { Database } from '@/db/client';

/**
 * Whether the process that wrote a job's run record is still alive. On PostgreSQL each instance holds a session
 * advisory lock on a connection of its own for as long as it lives: PostgreSQL drops the lock the moment the process
 * dies (its socket closes), so another instance can tell a dead one from a slow one without waiting out a timeout.
 * The embedded database belongs to one process, so there every other instance is dead.
 */
export interface Liveness {
  /** this process, as written in job_runs: host, pid and its lock key */
  readonly instance: string;
  /** no other process can use this database */
  readonly exclusive: boolean;
  /** of these instances, the ones whose process is gone */
  deadAmong(instances: string[]): Promise<Set<string>>;
  stop(): Promise<void>;
}

const KEEP_ALIVE_MS = 15_000;
const lockKeyOf = (instance: string) => {
  const key = Number(instance.split(':').pop());
  return Number.isSafeInteger(key) && key > 0 ? key : null;
};

export async function startLiveness(database: Database, logger: Logger): Promise<Liveness> {
  const key = randomInt(1, 2 ** 47);
  const instance = `${hostname()}:${process.pid}:${key}`;
  const sql = database.sql;
  if (database.kind !== 'postgres' || !sql) {
    return {
      instance,
      exclusive: true,
      deadAmong: async (instances) => new Set(instances.filter((i) => i !== instance)),
      stop: async () => {},
    };
  }

  let held: postgres.ReservedSql | null = null;
  const hold = async () => {
    const conn = await sql.reserve();
    await conn`select pg_advisory_lock(${key})`;
    held = conn;
  };
  await hold();
  // a restart of PostgreSQL drops the connection and the lock with it: take both again
  const keeper = setInterval(() => {
    void (async () => {
      const conn = held;
      if (conn) {
        try {
          await conn`select 1`;
          return;
        } catch {
          conn.release();
          held = null;
        }
      }
      await hold().catch((err: unknown) => logger.warn({ err }, 'instance lock not taken again yet; trying again shortly'));
    })();
  }, KEEP_ALIVE_MS);
  keeper.unref();

  return {
    instance,
    exclusive: false,
    async deadAmong(instances) {
      const dead = new Set<string>();
      for (const other of instances) {
        const otherKey = lockKeyOf(other);
        if (other === instance || otherKey === null) continue;
        // a transaction-scoped try: taken only if nobody holds it, and let go when the transaction ends
        const [row] = await sql.begin((tx) => tx`select pg_try_advisory_xact_lock(${otherKey}) as free`);
        if ((row as { free?: boolean } | undefined)?.free) dead.add(other);
      }
      return dead;
    },
    async stop() {
      clearInterval(keeper);
      const conn = held;
      held = null;
      if (conn) {
        await conn`select pg_advisory_unlock(${key})`.catch(() => undefined);
        conn.release();
      }
    },
  };
}
