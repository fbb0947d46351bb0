import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachValueRow } from '@/db/rows';
import { createHarness, type Harness } from './support/harness';

/**
 * db/rows.ts forEachValueRow on the suite's engine: each row handed over as an array of values in order, and a row
 * the callback fails on ends the reading (the rows after it are not handed over), rejects with that failure and
 * leaves the connection usable.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 60_000);
afterAll(() => h?.close());

const numbers = (n: number) => ({ toSQL: () => ({ sql: 'select i, i * 2 from generate_series(1, $1::int) as i', params: [n] }) });

describe('forEachValueRow', () => {
  it('hands over every row, in order, as its values', async () => {
    const rows: unknown[][] = [];
    await forEachValueRow(h.deps.db, numbers(5), (values) => rows.push(values.map(Number)));
    expect(rows).toEqual([
      [1, 2],
      [2, 4],
      [3, 6],
      [4, 8],
      [5, 10],
    ]);
  });

  it('stops at the row the callback fails on, rejects with its error, and the next statement still runs', async () => {
    const seen: number[] = [];
    const failure = new Error('row 3 refused');
    await expect(
      forEachValueRow(h.deps.db, numbers(1_000), (values) => {
        const i = Number(values[0]);
        seen.push(i);
        if (i === 3) throw failure;
      }),
    ).rejects.toBe(failure);
    expect(seen).toEqual([1, 2, 3]);
    const after: number[] = [];
    await forEachValueRow(h.deps.db, numbers(2), (values) => after.push(Number(values[0])));
    expect(after).toEqual([1, 2]);
  });
});
