/** A piece of a written result: text, or text already encoded as UTF-8 (ByteChunks). */
export type WrittenPart = string | Uint8Array;

/** What a chunk holds before the next is started: about what a response writes to its socket at a time. */
const CHUNK_BYTES = 64 * 1024;
// rows are joined into text of about this length before it is encoded: one encoding call per few records, and the
// text still dies young
const TEXT_CHARS = 16 * 1024;
const ROW_CHARS = 1024;

/**
 * Chunks of answers sent whole, given back once copied into the body (releaseChunks) and taken again by the next.
 * Why: V8 counts the memory of every buffer made, and past a threshold made since its last full collection starts
 * another ("external memory pressure"), marking the whole heap however little of it is garbage; lists made enough
 * chunks to cross it every few dozen answers. Reused, they make none (docs/benchmarks.md, "Chunks of answers are
 * reused").
 */
const freeChunks: Buffer[] = [];
const FREE_CHUNKS_KEPT = 64;
/** the memory of every chunk made here (only these are taken back), and of those given back and not taken again */
const madeHere = new WeakSet<ArrayBufferLike>();
const free = new WeakSet<ArrayBufferLike>();

function newChunk(bytes: number): Buffer {
  if (bytes <= CHUNK_BYTES) {
    const chunk = freeChunks.pop();
    if (chunk) {
      free.delete(chunk.buffer);
      return chunk;
    }
  }
  const chunk = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, bytes));
  madeHere.add(chunk.buffer);
  return chunk;
}

/**
 * Gives back the chunks among `parts`, which nothing may read afterwards (an answer copied into its body). A chunk
 * given back twice is kept once: two answers must never write into one.
 */
export function releaseChunks(parts: readonly WrittenPart[]): void {
  for (const part of parts) {
    if (freeChunks.length >= FREE_CHUNKS_KEPT) return;
    if (typeof part === 'string') continue;
    const memory = part.buffer;
    if (!madeHere.has(memory) || free.has(memory) || memory.byteLength !== CHUNK_BYTES) continue;
    free.add(memory);
    freeChunks.push(Buffer.from(memory, 0, CHUNK_BYTES));
  }
}

/**
 * Rows' text encoded into chunks of bytes as the rows are written, in order, with `separator` between two rows: what
 * the response sends, outside V8's heap.
 *
 * Why: a row's text held until its batch was complete (a thousand of them, megabytes of JSON) outlived the young
 * generation's collections and was copied by each of them, then joined with its neighbours into a string that was
 * copied flat again to be encoded. Encoded here a few rows at a time, the text dies young and the chunks wait for the
 * socket instead (docs/architecture.md, Decision 8). Rows that add up to less than TEXT_CHARS stay text: a look-up's
 * one record is not worth a buffer; past that, a long row is encoded on its own, short ones a few together.
 */
export class ByteChunks {
  private readonly done: Uint8Array[] = [];
  private chunk: Buffer | null = null;
  private at = 0;
  private text = '';
  private rows = 0;

  constructor(private readonly separator: string) {}

  /** Appends one row (after the separator when it is not the first). */
  write(row: string): void {
    if (this.rows++ > 0) this.text += this.separator;
    if (row.length < ROW_CHARS || !this.chunk) {
      this.text += row;
      if (this.text.length >= TEXT_CHARS) this.encode();
      return;
    }
    // once the rows are past a short answer, a long one (a sample's record) is encoded as it is, not copied into a
    // longer text first
    this.encode();
    this.text = row;
    this.encode();
  }

  /** Appends one row already encoded as UTF-8 (after the separator when it is not the first); `bytes` is copied. */
  writeBytes(bytes: Uint8Array): void {
    if (this.rows++ > 0) this.text += this.separator;
    this.encode();
    const chunk = this.roomFor(bytes.length);
    chunk.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** The chunk being filled, a new one when it has less than `bytes` left (the one before is then done). */
  private roomFor(bytes: number): Buffer {
    if (!this.chunk || this.at + bytes > this.chunk.length) {
      if (this.chunk && this.at > 0) this.done.push(this.chunk.subarray(0, this.at));
      this.chunk = newChunk(bytes);
      this.at = 0;
    }
    return this.chunk;
  }

  /** The rows written, as chunks of bytes, or as one text when they were short; nothing is written afterwards. */
  parts(): WrittenPart[] {
    if (!this.done.length && !this.chunk) return this.text ? [this.text] : [];
    this.encode();
    if (this.chunk && this.at > 0) this.done.push(this.chunk.subarray(0, this.at));
    this.chunk = null;
    return this.done;
  }

  private encode(): void {
    const text = this.text;
    this.text = '';
    if (!text) return;
    // UTF-8 takes at most 3 bytes for each UTF-16 unit: only a text that may not fit is measured
    const chunk = !this.chunk || this.at + text.length * 3 > this.chunk.length ? this.roomFor(Buffer.byteLength(text)) : this.chunk;
    this.at += chunk.write(text, this.at);
  }
}

// a whole answer of text only, up to this many characters, is sent as one string; any other as bytes (wholeBody)
const STRING_BODY_CHARS = 16 * 1024;

/**
 * A whole answer's parts as the body: a short text as a string, anything else copied into one buffer part by part.
 * Why: a long string made by concatenating parts is a tree of them, which @hono/node-server measures with
 * Buffer.byteLength (V8 copies the tree into one flat string, up to megabytes in the large-object space, then counts
 * its UTF-8 bytes) and Node then encodes again to write, a large part of a list's CPU in bench/http.ts's profile.
 * Each part is encoded once (rows as they were written: ByteChunks), into a buffer that is the body.
 */
export async function wholeBody(parts: AsyncIterable<WrittenPart>): Promise<string | Uint8Array<ArrayBuffer>> {
  const pieces: WrittenPart[] = [];
  for await (const part of parts) pieces.push(part);
  return bodyOf(pieces);
}

/** The body of a whole answer's parts (wholeBody): the parts' chunks are given back once copied into it. */
export function bodyOf(pieces: readonly WrittenPart[]): string | Uint8Array<ArrayBuffer> {
  let chars = 0;
  let encoded = false;
  for (const part of pieces) {
    if (typeof part === 'string') chars += part.length;
    else encoded = true;
  }
  if (!encoded && chars <= STRING_BODY_CHARS) return pieces.join('');
  let bytes = 0;
  for (const piece of pieces) bytes += typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
  // sized exactly, so each write returns the whole piece's byte length
  const body = Buffer.allocUnsafe(bytes);
  let at = 0;
  for (const piece of pieces) {
    if (typeof piece === 'string') {
      at += body.write(piece, at);
    } else {
      body.set(piece, at);
      at += piece.length;
    }
  }
  releaseChunks(pieces);
  return body;
}
