import type { WrittenPart } from '@/lib/query/byte-chunks';

/** An answer's written parts (text, or text already encoded) put together as the bytes a client receives. */
export const bytesOfParts = (parts: readonly WrittenPart[]): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : p)));
