import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '@/db/client';
import { databaseBreaker, READ_WAIT_MS } from '@/lib/api/database-breaker';
import { waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';

/**
 * While the database is away, the API answers 503 with Retry-After at once instead of letting every request wait
 * out a connection attempt; health still answers, and the first answer of the database closes the breaker. (The
 * restart of a real PostgreSQL under load is `npm run bench:load`.)
 */

let h: Harness;
let key: string;
beforeAll(async () => {
  h = await createHarness();
  key = (await h.user()).key;
}, 60_000);
afterAll(() => h.close());

describe('the database breaker', () => {
  it('answers 503 with Retry-After while it is open, lets health through, and closes when the database answers', async () => {
    const breaker = databaseBreaker(h.database.db, h.deps.logger);
    breaker.trip();
    const refused = await h.request('/api/profiles', { key });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { detail: string }).detail).toMatch(/database is not answering/);
    expect((await h.request('/api/health')).status).toBe(200);
    // the probe finds the database answering and closes it
    await waitFor(
      async () => breaker.open,
      (open) => !open,
      'the breaker to close',
    );
    expect((await h.request('/api/profiles', { key })).status).toBe(200);
  });
});

describe('a read waiting on the database', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is given up once it has waited READ_WAIT_MS and the database went away meanwhile, never while the database answers', async () => {
    vi.useFakeTimers();
    let answering = true;
    const db = {
      execute: async () => {
        if (!answering) throw new Error('connection refused');
      },
    } as unknown as Db;
    const breaker = databaseBreaker(db, pino({ level: 'silent' }));
    const outcomeOf = (read: Promise<'handled' | 'waited'>) => {
      const seen: { outcome?: string } = {};
      read.then(
        (o) => {
          seen.outcome = o;
        },
        (err: Error) => {
          seen.outcome = `failed: ${err.message}`;
        },
      );
      return seen;
    };
    const never = new Promise<never>(() => {});

    // a slow read while the database answers is left to finish, however long it takes
    const slow = outcomeOf(breaker.whileReading(never));
    await vi.advanceTimersByTimeAsync(READ_WAIT_MS * 2);
    expect(slow.outcome).toBeUndefined();

    // the database goes away: the read that has waited since before is given up at the next look
    answering = false;
    breaker.trip();
    await vi.advanceTimersByTimeAsync(300);
    expect(slow.outcome).toBe('waited');

    // one that begins now is given up once it has waited READ_WAIT_MS, not before
    const stuck = outcomeOf(breaker.whileReading(never));
    await vi.advanceTimersByTimeAsync(READ_WAIT_MS - 500);
    expect(stuck.outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(800);
    expect(stuck.outcome).toBe('waited');

    // reads that end are answered with their own outcome, and the breaker closes on the database's first answer
    const done = outcomeOf(breaker.whileReading(Promise.resolve()));
    const failed = outcomeOf(breaker.whileReading(Promise.reject(new Error('no such table'))));
    await vi.advanceTimersByTimeAsync(0);
    expect(done.outcome).toBe('handled');
    expect(failed.outcome).toBe('failed: no such table');
    answering = true;
    await vi.advanceTimersByTimeAsync(300);
    expect(breaker.open).toBe(false);
  });
});
