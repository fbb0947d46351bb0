import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';

/**
 * While the database is known to be away (PostgreSQL restarting), requests are answered 503 at once rather than
 * each waiting out a connection attempt of its own behind the others: the first request that finds the database
 * gone trips the breaker, a probe asks the database every quarter second, and its first answer closes it again.
 */
export interface DatabaseBreaker {
  /** the database was found away and has not answered since */
  readonly open: boolean;
  /** it was open at some moment since `time` (ms since the epoch) */
  openedSince(time: number): boolean;
  trip(): void;
}

const PROBE_EVERY_MS = 250;
const breakers = new WeakMap<Db, DatabaseBreaker>();

export function databaseBreaker(db: Db, logger: Logger): DatabaseBreaker {
  const known = breakers.get(db);
  if (known) return known;
  let downSince: number | null = null;
  let lastUp = 0;
  const probe = async () => {
    while (downSince !== null) {
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
      try {
        await db.execute(sql`select 1`);
        logger.info({ down_ms: Date.now() - downSince }, 'the database answers again');
        downSince = null;
        lastUp = Date.now();
      } catch {
        // still away: the next probe asks again
      }
    }
  };
  const breaker: DatabaseBreaker = {
    get open() {
      return downSince !== null;
    },
    openedSince(time) {
      return downSince !== null || lastUp >= time;
    },
    trip() {
      if (downSince !== null) return;
      downSince = Date.now();
      logger.warn('the database is not answering: requests are answered 503 until it does');
      void probe();
    },
  };
  breakers.set(db, breaker);
  return breaker;
}
