import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseBreaker } from '@/lib/api/database-breaker';
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
