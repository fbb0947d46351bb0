import { lt } from 'drizzle-orm';
import { RateLimiterDrizzle, RateLimiterRes } from 'rate-limiter-flexible';
import type { Db } from '@/db/client';
import { rateLimits } from '@/db/schema';
import { metrics } from '@/lib/metrics/registry';
import { RateLimited } from './limits';

/**
 * Requests counted per caller (a user, or a client address for anyone), for the operations that start costly work:
 * each upload is read, checked and kept, and most start a job. Counted in the database (`rate_limits`, as the
 * guessing limits in ./limits.ts), so every instance shares the count. The limit is far above what a person or a
 * pipeline uploading one sheet after another reaches; it stops a loop that would fill the queue for everyone.
 * Routes name the limit they use (lib/api/policy.ts), and the API's document shows it.
 */
export const REQUEST_LIMITS = {
  uploads: { points: 600, duration: 10 * 60 },
} as const;

export type RequestLimitName = keyof typeof REQUEST_LIMITS;

export interface RequestLimits {
  /** one request of `name` by `caller`: 429 with Retry-After once over the limit */
  consume(name: RequestLimitName, caller: string): Promise<void>;
}

const handles = new WeakMap<Db, RequestLimits>();
// rows whose count ended this long ago are deleted, at most once per CLEAN_EVERY_MS per database handle
const EXPIRED_KEPT_MS = 60 * 60 * 1000;
const CLEAN_EVERY_MS = 5 * 60 * 1000;

export function requestLimits(db: Db): RequestLimits {
  let limits = handles.get(db);
  if (limits) return limits;
  const limiters = new Map<RequestLimitName, RateLimiterDrizzle>();
  const limiterOf = (name: RequestLimitName) => {
    let limiter = limiters.get(name);
    if (!limiter) {
      const { points, duration } = REQUEST_LIMITS[name];
      limiter = new RateLimiterDrizzle({
        storeClient: db,
        schema: rateLimits,
        keyPrefix: `requests_${name}`,
        clearExpiredByTimeout: false,
        points,
        duration,
      });
      limiters.set(name, limiter);
    }
    return limiter;
  };
  let cleaned = 0;
  limits = {
    async consume(name, caller) {
      if (Date.now() - cleaned > CLEAN_EVERY_MS) {
        cleaned = Date.now();
        await db.delete(rateLimits).where(lt(rateLimits.expire, new Date(Date.now() - EXPIRED_KEPT_MS)));
      }
      try {
        await limiterOf(name).consume(caller);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        metrics().throttled.inc({ limit: `requests_${name}` });
        const seconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        const { points, duration } = REQUEST_LIMITS[name];
        throw new RateLimited(`More than ${points} such requests in ${duration / 60} minutes: try again in ${seconds} seconds.`, seconds);
      }
    },
  };
  handles.set(db, limits);
  return limits;
}
