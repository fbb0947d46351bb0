import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteChunks, releaseChunks } from '@/lib/query/byte-chunks';
import { bytesOfParts } from './support/written-parts';

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
        const bytes = bytesOfParts(parts);
        expect(bytes.equals(Buffer.from(rows.join(separator)))).toBe(true);
        // nothing empty is handed on, and short rows stay text
        for (const p of parts) expect(p.length).toBeGreaterThan(0);
        if (Buffer.byteLength(rows.join(separator)) < 16 * 1024) expect(parts.every((p) => typeof p === 'string')).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('given back, even twice, are taken again by one writer at a time', () => {
    const written = (text: string) => {
      const chunks = new ByteChunks(',');
      for (let i = 0; i < 40; i++) chunks.write(text.repeat(3_000));
      return chunks.parts().filter((p): p is Uint8Array => typeof p !== 'string');
    };
    const first = written('a');
    releaseChunks(first);
    releaseChunks(first);
    // a chunk not made by a writer is never taken
    releaseChunks([new Uint8Array(64 * 1024)]);
    const [b, c] = [written('b'), written('c')];
    const memory = [...b, ...c].map((p) => p.buffer);
    expect(new Set(memory).size).toBe(memory.length);
    expect(memory.filter((m) => first.some((p) => p.buffer === m)).length).toBeGreaterThan(0);
    expect(Buffer.concat(b).toString()).toBe(Array.from({ length: 40 }, () => 'b'.repeat(3_000)).join(','));
    expect(Buffer.concat(c).toString()).toBe(Array.from({ length: 40 }, () => 'c'.repeat(3_000)).join(','));
  });
});
