import { lt } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '@/db/client';
import { rateLimits } from '@/db/schema';
import { AppError } from '@/lib/errors';
import { metrics } from '@/lib/metrics/registry';

/**
 * What the service's limits share (the guessing limits of ./limits.ts and the request limits of ./request-limits.ts):
 * counters in the database (rate-limiter-flexible's Drizzle store, table `rate_limits`), so every instance on it
 * shares them; one clean-up of expired rows per database handle; and the 429 a refusal answers, counted for the
 * operator (GET /api/metrics).
 */

export class RateLimited extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message, undefined, { retry_after: retryAfterSeconds });
  }
}

/** The 429 of one limit, counted under its name (the `limit` label of rmb_throttled_attempts_total). */
export function refused(limit: string, message: string, retryAfterSeconds: number): RateLimited {
  metrics().throttled.inc({ limit });
  return new RateLimited(message, retryAfterSeconds);
}

export interface LimitStore {
  /** a counter of `points` per `duration` seconds, blocked for `blockDuration` seconds once over (default: the rest of the window) */
  counter(keyPrefix: string, opts: { points: number; duration: number; blockDuration?: number }): RateLimiterDrizzle;
  /**
   * One use of `key`: the milliseconds until it may be used again when this use went over the limit, else 0. Expired
   * rows are cleaned as uses are counted, not on the library's timers: those were one per counter, outlived the
   * database they were made for (a closed one then logged "Failed to clear expired records"), and only uses add rows.
   */
  consume(counter: RateLimiterDrizzle, key: string): Promise<number>;
}

// rows whose count ended more than this long ago are deleted, at most once per CLEAN_EVERY_MS per database handle
// (rate-limiter-flexible's own clean-up, with its numbers)
const EXPIRED_KEPT_MS = 60 * 60 * 1000;
const CLEAN_EVERY_MS = 5 * 60 * 1000;

const stores = new WeakMap<Db, LimitStore>();

export function limitStore(db: Db): LimitStore {
  let store = stores.get(db);
  if (store) return store;
  let cleaned = 0;
  store = {
    counter: (keyPrefix, opts) =>
      new RateLimiterDrizzle({ storeClient: db, schema: rateLimits, keyPrefix, clearExpiredByTimeout: false, ...opts }),
    async consume(counter, key) {
      if (Date.now() - cleaned > CLEAN_EVERY_MS) {
        cleaned = Date.now();
        await db.delete(rateLimits).where(lt(rateLimits.expire, new Date(Date.now() - EXPIRED_KEPT_MS)));
      }
      try {
        await counter.consume(key);
        return 0;
      } catch (err) {
        // consume throws the RateLimiterRes when the point just used is over the limit
        if (err instanceof RateLimiterRes) return err.msBeforeNext;
        throw err;
      }
    },
  };
  stores.set(db, store);
  return store;
}
