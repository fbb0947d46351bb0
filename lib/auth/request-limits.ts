import type { RateLimiterDrizzle } from 'rate-limiter-flexible';
import type { Db } from '@/db/client';
import { limitStore, refused } from './limit-store';

/**
 * Requests counted per caller (a user, or a client address for anyone), for the operations that start costly work:
 * each upload is read, checked and kept, and most start a job. Counted in the database as the guessing limits of
 * ./limits.ts are (./limit-store.ts), so every instance shares the count. The limit is far above what a person or a
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

export function requestLimits(db: Db): RequestLimits {
  let limits = handles.get(db);
  if (limits) return limits;
  const store = limitStore(db);
  const counters = new Map<RequestLimitName, RateLimiterDrizzle>();
  const counterOf = (name: RequestLimitName) => {
    let counter = counters.get(name);
    if (!counter) {
      counter = store.counter(`requests_${name}`, REQUEST_LIMITS[name]);
      counters.set(name, counter);
    }
    return counter;
  };
  limits = {
    async consume(name, caller) {
      const wait = await store.consume(counterOf(name), caller);
      if (!wait) return;
      const seconds = Math.max(1, Math.ceil(wait / 1000));
      const { points, duration } = REQUEST_LIMITS[name];
      throw refused(
        `requests_${name}`,
        `More than ${points} such requests in ${duration / 60} minutes: try again in ${seconds} seconds.`,
        seconds,
      );
    },
  };
  handles.set(db, limits);
  return limits;
}
