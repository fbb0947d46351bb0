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
  /**
   * `handled`'s outcome, or 'waited' once it has waited READ_WAIT_MS and the breaker has been open since it began: a
   * read waiting on a database that went away, which its caller answers 503 rather than keep the client waiting.
   */
  whileReading(handled: Promise<unknown>): Promise<'handled' | 'waited'>;
}

const PROBE_EVERY_MS = 250;
/** How long a read may wait for a database that has gone away before it is given up. */
export const READ_WAIT_MS = 4_000;
// how often the reads still waiting are looked at
const SWEEP_EVERY_MS = 250;

interface WaitingRead {
  started: number;
  giveUp: () => void;
}
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
  // the reads in progress, looked at together every SWEEP_EVERY_MS while there are any: a timer and a race of
  // promises of its own for every read were a few µs of each request's CPU (bench/http.ts)
  const reads = new Set<WaitingRead>();
  let armed = false;
  const sweep = () => {
    armed = false;
    const now = Date.now();
    for (const read of reads) {
      if (now - read.started >= READ_WAIT_MS && breaker.openedSince(read.started)) {
        reads.delete(read);
        read.giveUp();
      }
    }
    if (reads.size) arm();
  };
  // unref'd: a read in progress keeps the process alive by its own means
  const arm = () => {
    if (armed) return;
    armed = true;
    setTimeout(sweep, SWEEP_EVERY_MS).unref();
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
    whileReading(handled) {
      return new Promise((resolve, reject) => {
        const read: WaitingRead = { started: Date.now(), giveUp: () => resolve('waited') };
        reads.add(read);
        arm();
        handled.then(
          () => {
            reads.delete(read);
            resolve('handled');
          },
          (err: unknown) => {
            reads.delete(read);
            reject(err);
          },
        );
      });
    },
  };
  breakers.set(db, breaker);
  return breaker;
}
