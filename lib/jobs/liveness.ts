import { randomInt } from 'node:crypto';
import { hostname } from 'node:os';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import type { Database } from '@/db/client';
import { DATABASE_RESTART_GRACE_SECONDS, HEARTBEAT_SECONDS, LOCK_FREE_AND_QUIET_SECONDS, LOCK_FREE_CONFIRM_SECONDS } from './runs';

/**
 * Whether the process that wrote a job's run record is still alive. On PostgreSQL each instance holds a session
 * advisory lock on a connection of its own for as long as it lives: PostgreSQL drops the lock the moment the process
 * dies (its socket closes), so another instance can tell a dead one from a slow one without waiting out a timeout.
 * A live process can lose its lock too (its connection dropped, PostgreSQL restarted): it takes it again within
 * HEARTBEAT_SECONDS, so a lock counts as let go only when it is seen free on two looks LOCK_FREE_CONFIRM_SECONDS
 * apart with no heartbeat in between (or free and silent for LOCK_FREE_AND_QUIET_SECONDS), and never in the first
 * DATABASE_RESTART_GRACE_SECONDS of the database server (lib/jobs/runs.ts).
 * The embedded database belongs to one process, so there every other instance is dead.
 */
export interface Liveness {
  /** this process, as written in job_runs: host, pid and its lock key */
  readonly instance: string;
  /** no other process can use this database */
  readonly exclusive: boolean;
  /** of the instances running these jobs, the ones whose process is gone */
  deadAmong(runs: readonly RunOwner[]): Promise<Set<string>>;
  stop(): Promise<void>;
}

/** A job's run record as the sweep reads it: who runs it and when it last beat (lib/jobs/runs.ts). */
export interface RunOwner {
  instance: string;
  /** the heartbeat as the database wrote it, compared between looks */
  heartbeatAt: string;
  heartbeatSeconds: number;
}

const KEEP_ALIVE_MS = HEARTBEAT_SECONDS * 1000;
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
      deadAmong: async (runs) => new Set(runs.map((r) => r.instance).filter((i) => i !== instance)),
      stop: async () => {},
    };
  }

  let held: postgres.ReservedSql | null = null;
  // instances whose lock this process found free: since when, and their heartbeat then
  const suspects = new Map<string, { since: number; heartbeatAt: string }>();
  const hold = async () => {
    const conn = await sql.reserve();
    await conn`select pg_advisory_lock(${key})`;
    held = conn;
  };
  await hold();
  // a restart of PostgreSQL drops the connection and the lock with it: take both again
  let looking = false;
  const keeper = setInterval(() => {
    if (looking) return;
    looking = true;
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
    })().finally(() => {
      looking = false;
    });
  }, KEEP_ALIVE_MS);
  keeper.unref();

  return {
    instance,
    exclusive: false,
    async deadAmong(runs) {
      const dead = new Set<string>();
      // per instance, its latest heartbeat (each of its jobs beats on its own)
      const latest = new Map<string, RunOwner & { key: number }>();
      for (const run of runs) {
        const otherKey = lockKeyOf(run.instance);
        if (run.instance === instance || otherKey === null) continue;
        const seen = latest.get(run.instance);
        if (!seen || run.heartbeatSeconds < seen.heartbeatSeconds) latest.set(run.instance, { ...run, key: otherKey });
      }
      if (!latest.size) return dead;
      const [up] = await sql<{ seconds: number }[]>`select extract(epoch from now() - pg_postmaster_start_time())::int as seconds`;
      if (Number(up?.seconds ?? 0) < DATABASE_RESTART_GRACE_SECONDS) {
        suspects.clear();
        return dead;
      }
      for (const [other, run] of latest) {
        // a transaction-scoped try: taken only if nobody holds it, and let go when the transaction ends
        const [row] = await sql.begin((tx) => tx`select pg_try_advisory_xact_lock(${run.key}) as free`);
        if (!(row as { free?: boolean } | undefined)?.free) {
          suspects.delete(other);
          continue;
        }
        const first = suspects.get(other);
        if (!first || first.heartbeatAt !== run.heartbeatAt) {
          // first seen free, or it beat since: the window starts now
          suspects.set(other, { since: performance.now(), heartbeatAt: run.heartbeatAt });
          if (run.heartbeatSeconds > LOCK_FREE_AND_QUIET_SECONDS) dead.add(other);
        } else if (performance.now() - first.since >= LOCK_FREE_CONFIRM_SECONDS * 1000) {
          dead.add(other);
        }
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
