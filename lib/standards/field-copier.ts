import { FIELD_COPIER_WASM } from './field-copier.wasm';
import type { Shape } from './key-sequence';
import type { FieldSource } from './render';
import { stringOfJson } from './stored-fields';

/**
 * A row's stored fields written into its JSON record by WebAssembly (lib/standards/field-copier.wat): the text
 * PostgreSQL printed, as UTF-8, checked against a key sequence met before and its values copied, in the record's key
 * order, between the record's own key prefixes, in one call per row.
 *
 * Why: a list or an export of full records spent most of its CPU writing them (README, Benchmarks). In JavaScript each
 * value is a string cut out of the row's text (a regular expression's capture) and the record is those strings joined
 * (some 170 for a row of 69 fields), then encoded into the answer's bytes: a string per value, a join and an encoding
 * per row. Here the values are copied as bytes, and the record goes straight into the answer's chunks
 * (ByteChunks.writeBytes). The JavaScript path (lib/standards/writers.ts, compileJson) writes every row this does not:
 * the first rows of each key sequence, rows in another form, embargoed ones; both give the same bytes
 * (tests/field-copier.test.ts).
 */

/** What the record's fields part is made of for one key sequence of one layout, with where it lies in memory. */
export interface CopyPlan {
  /** the key sequence's section: per key its UTF-8 length (i32), then its bytes as printed */
  readonly keys: Uint8Array;
  readonly nkeys: number;
  /** what to write: per op an i32 n, then n bytes for n >= 0; for n < 0, the value of key -n-1 */
  readonly ops: Uint8Array;
  readonly nops: number;
  /** the bytes the ops write besides values: with the row's own, a bound on what a row writes */
  readonly constantBytes: number;
  /** the key of the sequence that is the embargo's field, or -1 */
  readonly embargoKey: number;
  /** placement in memory, renewed when the plans' memory is reused (FieldCopier.place) */
  generation: number;
  keysAt: number;
  opsAt: number;
}

const encoder = new TextEncoder();

const int32 = (n: number): Uint8Array => new Uint8Array(new Int32Array([n]).buffer);

function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * The plan of a layout's leading field values (`sources`, the values before the first of the service's own, and
 * `prefixes`, each key's `{"KEY":` or `,"KEY":`) for rows of the key sequence `shape`; `embargo` is the position of the
 * embargo's field among the names read, or -1.
 */
export function copyPlan(
  shape: Pick<Shape, 'keys' | 'positions'>,
  prefixes: readonly string[],
  sources: readonly FieldSource[],
  embargo: number,
): CopyPlan {
  const keyOf = new Map<number, number>();
  shape.positions.forEach((position, k) => {
    if (position >= 0 && !keyOf.has(position)) keyOf.set(position, k);
  });
  const keyParts: Uint8Array[] = [];
  for (const key of shape.keys) {
    const bytes = encoder.encode(key);
    keyParts.push(int32(bytes.length), bytes);
  }
  const opParts: Uint8Array[] = [];
  let nops = 0;
  let constant = '';
  let constantBytes = 0;
  const flush = () => {
    if (!constant) return;
    const bytes = encoder.encode(constant);
    opParts.push(int32(bytes.length), bytes);
    constantBytes += bytes.length;
    nops++;
    constant = '';
  };
  sources.forEach((source, i) => {
    constant += prefixes[i] as string;
    const k = keyOf.get(source.position) ?? (source.legacy < 0 ? undefined : keyOf.get(source.legacy));
    if (k === undefined) {
      constant += source.fallbackJson;
      return;
    }
    flush();
    opParts.push(int32(-k - 1));
    nops++;
  });
  flush();
  return {
    keys: concatBytes(keyParts),
    nkeys: shape.keys.length,
    ops: concatBytes(opParts),
    nops,
    constantBytes,
    embargoKey: embargo < 0 ? -1 : (keyOf.get(embargo) ?? -1),
    generation: -1,
    keysAt: 0,
    opsAt: 0,
  };
}

type Render = (src: number, len: number, keys: number, nkeys: number, spans: number, ops: number, nops: number, out: number) => number;

const PAGE = 65536;
// plans are placed from the start of memory, up to this; past it every plan is placed again from the start
const PLAN_BYTES = 1 << 20;
// each key's value's start and end, for the longest sequence a reader makes an expression for (SHAPE_MAX_KEYS)
const SPAN_BYTES = 2000 * 8;
const SPANS_AT = PLAN_BYTES;
const SOURCE_AT = SPANS_AT + SPAN_BYTES;

/**
 * The module's one instance and its memory: plans first (placed as they are first used, all placed again once they
 * fill PLAN_BYTES), then the spans, the row's text and the record written, reused by every row. One row at a time:
 * nothing here awaits.
 */
class FieldCopier {
  private readonly render: Render;
  private readonly memory: WebAssembly.Memory;
  private bytes: Buffer;
  private spans: Int32Array;
  private generation = 0;
  private planTop = 0;
  /** where the last record written starts */
  private out = 0;

  constructor() {
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(Buffer.from(FIELD_COPIER_WASM, 'base64')));
    this.render = exports.render as Render;
    this.memory = exports.memory as WebAssembly.Memory;
    this.bytes = Buffer.alloc(0);
    this.spans = new Int32Array(0);
    this.reserve(SOURCE_AT + PAGE);
  }

  /** Memory of at least `end` bytes (views made again once it grows). */
  private reserve(end: number): void {
    const size = this.memory.buffer.byteLength;
    if (end > size) this.memory.grow(Math.ceil((end - size) / PAGE));
    if (this.bytes.buffer !== this.memory.buffer) {
      this.bytes = Buffer.from(this.memory.buffer);
      this.spans = new Int32Array(this.memory.buffer, SPANS_AT, SPAN_BYTES / 4);
    }
  }

  /** Places a plan in memory unless it is there; false for one larger than the plans' memory. */
  private place(plan: CopyPlan): boolean {
    if (plan.generation === this.generation) return true;
    const size = plan.keys.length + plan.ops.length;
    if (size > PLAN_BYTES) return false;
    if (this.planTop + size > PLAN_BYTES) {
      // every plan placed so far is placed again when next used
      this.generation++;
      this.planTop = 0;
    }
    plan.keysAt = this.planTop;
    this.bytes.set(plan.keys, plan.keysAt);
    plan.opsAt = plan.keysAt + plan.keys.length;
    this.bytes.set(plan.ops, plan.opsAt);
    this.planTop = plan.opsAt + plan.ops.length;
    plan.generation = this.generation;
    return true;
  }

  /**
   * Writes the fields part of the record of `source` (a row's stored fields as printed: the text, or its UTF-8 bytes) by
   * `plan`: its length in bytes, or -1 when the text is not of the plan's key sequence in PostgreSQL's form.
   */
  fields(source: string | Uint8Array, plan: CopyPlan): number {
    if (plan.nkeys * 8 > SPAN_BYTES || !this.place(plan)) return -1;
    // UTF-8 takes at most three bytes for each UTF-16 unit, and the record at most the values and the plan's own
    const room = typeof source === 'string' ? source.length * 3 : source.length;
    this.out = SOURCE_AT + room;
    // and sixteen bytes after the text, which the scan of its last value may read
    this.reserve(this.out + room + plan.constantBytes + 16);
    let len = room;
    if (typeof source === 'string') len = this.bytes.write(source, SOURCE_AT, room, 'utf8');
    else this.bytes.set(source, SOURCE_AT);
    const end = this.render(SOURCE_AT, len, plan.keysAt, plan.nkeys, SPANS_AT, plan.opsAt, plan.nops, this.out);
    return end === 0 ? -1 : end - this.out;
  }

  /** The text of key `k`'s value in the row just written by `fields`. */
  valueOf(k: number): string {
    const start = this.spans[2 * k] as number;
    const end = this.spans[2 * k + 1] as number;
    return stringOfJson(this.bytes.toString('utf8', start, end));
  }

  /** Appends `text` to the record being written, `at` bytes long: its new length. */
  append(at: number, text: string): number {
    const room = text.length * 3;
    this.reserve(this.out + at + room);
    return at + this.bytes.write(text, this.out + at, room, 'utf8');
  }

  /** The record written: `length` bytes, valid until the next row is written. */
  record(length: number): Uint8Array {
    return this.bytes.subarray(this.out, this.out + length);
  }
}

let copier: FieldCopier | undefined;

/** The process's field copier, instantiated when first used. */
export const fieldCopier = (): FieldCopier => {
  copier ??= new FieldCopier();
  return copier;
};
