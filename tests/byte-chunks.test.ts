import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteChunks } from '@/lib/query/byte-chunks';

/**
 * Rows written as bytes (lib/query/byte-chunks.ts) are what the answers send: their chunks, put together, must be
 * exactly the rows joined by the separator in UTF-8, whatever the rows' lengths (a chunk is filled up to its last
 * byte, and text longer than a chunk gets one of its own) and characters (up to four bytes, which a chunk's end must
 * not split).
 */

const row = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  // long enough to cross the first chunk's end and to need a chunk of its own
  fc.string({ unit: 'binary', minLength: 3_000, maxLength: 30_000 }),
  fc.integer({ min: 1, max: 70_000 }).map((n) => 'x'.repeat(n)),
  fc.integer({ min: 1, max: 25_000 }).map((n) => 'é😀'.repeat(n)),
);

describe('rows written as bytes', () => {
  it('put together, are the rows joined by the separator, in UTF-8', () => {
    fc.assert(
      fc.property(fc.array(row, { maxLength: 30 }), fc.constantFrom('', ',', '\n', 'é'), (rows, separator) => {
        const chunks = new ByteChunks(separator);
        for (const r of rows) chunks.write(r);
        const parts = chunks.parts();
        const bytes = Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
        expect(bytes.equals(Buffer.from(rows.join(separator)))).toBe(true);
        // nothing empty is handed on, and short rows stay text
        for (const p of parts) expect(p.length).toBeGreaterThan(0);
        if (Buffer.byteLength(rows.join(separator)) < 16 * 1024) expect(parts.every((p) => typeof p === 'string')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
