import { type Shape, shapeOf } from './key-sequence';

/**
 * A sample's `fields` (jsonb, every value a string) as the sample queries read it: the text PostgreSQL prints for
 * `fields::text`, left undecoded.
 *
 * Why: a list or an export writes each field's value back out as JSON. Parsing the column into an object (what
 * postgres.js does to jsonb) and then `JSON.stringify`-ing each value again was most of the CPU such an answer cost.
 * PostgreSQL prints jsonb in one canonical form, `{"KEY": "value", "KEY2": "value2"}`, escaping strings exactly as
 * `JSON.stringify` does (\" \\ \b \f \n \r \t, \u00XX in lower-case hex for other control characters, everything else
 * as is), so each value's JSON text can be cut out of the column and written as it is (tests/stored-fields.test.ts
 * checks this against the database). What is not in that form (a value that is not a string) is decoded as before.
 */

const QUOTE = 34;
const BACKSLASH = 92;
const COLON = 58;
const COMMA = 44;
const SPACE = 32;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;

/**
 * The stored `fields` of one row, as PostgreSQL printed them: the text, or its UTF-8 bytes as they arrived
 * (db/client.ts, RAW_TEXT_OID), made text when first read as text; decoded only when asked for every field at once.
 */
export class StoredFields {
  private decoded: Record<string, string> | undefined;
  private printed: string | undefined;
  /** the bytes as they arrived, or null when the fields came as text */
  readonly bytes: Uint8Array | null;

  constructor(source: string | Uint8Array) {
    if (typeof source === 'string') {
      this.printed = source;
      this.bytes = null;
    } else {
      this.bytes = source;
    }
  }

  /** The text PostgreSQL printed. */
  get text(): string {
    if (this.printed === undefined) {
      const bytes = this.bytes as Uint8Array;
      this.printed = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    }
    return this.printed;
  }

  /** Every field, decoded: what postgres.js would have made of the jsonb (parsed once, then kept). */
  record(): Record<string, string> {
    this.decoded ??= JSON.parse(this.text) as Record<string, string>;
    return this.decoded;
  }
}

/** The string a JSON string (as PostgreSQL prints one) stands for: its quotes dropped, or parsed when it holds an escape. */
export const stringOfJson = (json: string): string => (json.includes('\\') ? (JSON.parse(json) as string) : json.slice(1, -1));

/** A row's fields: as the sample queries read them, or an object built in memory (a sample just loaded, a test). */
export type SampleFields = StoredFields | Record<string, string>;

/** The fields as an object, whichever way they were read. */
export const decodedFields = (fields: SampleFields): Record<string, string> => (fields instanceof StoredFields ? fields.record() : fields);

/**
 * The quote closing the string that `from` is inside of, given the first backslash at or after `from` (-1: none). A
 * quote after an odd run of backslashes is escaped; without a backslash before it, it is the closing one.
 */
function closingQuote(text: string, from: number, backslash: number): number {
  let q = text.indexOf('"', from);
  if (backslash < 0 || backslash > q) return q;
  while (q !== -1) {
    let b = q - 1;
    while (text.charCodeAt(b) === BACKSLASH) b--;
    if ((q - 1 - b) % 2 === 0) return q;
    q = text.indexOf('"', q + 1);
  }
  return -1;
}

// expressions a reader keeps, the oldest made dropped for a new one: a layout's rows mostly have one key sequence, and
// the compiled expression of a manifest's keys is large (many of them swell the process's memory); readers are one
// per layout met
const SHAPES_KEPT = 4;
// a key sequence longer than this is walked: no expression is built for it
const SHAPE_MAX_KEYS = 2000;

/**
 * Reads a fixed list of fields (a record layout's) from one row after another, by their position in the list:
 * `read(row.fields)`, then `json(i)` and `text(i)` for `names[i]`. A row of the keys of one read before is matched by
 * that key sequence's expression (Shape); any other is walked once, keys compared still encoded (each name is looked
 * for in its JSON form, which is how PostgreSQL prints a key). No value is decoded until asked for. Not reentrant:
 * one row at a time.
 */
export class FieldReader {
  private readonly names: readonly string[];
  /** encoded name → position in `names` */
  private readonly index: Map<string, number>;
  /** the keys of the last row read, in its order, with their positions: rows of one manifest mostly have the same keys */
  private readonly lastKeys: string[] = [];
  private readonly lastPositions: number[] = [];
  /** per name: start and end of its value's JSON text in `source`, or -1 */
  private readonly spans: Int32Array;
  /** per name: 1 when its value holds an escape, so decoding it takes JSON.parse rather than dropping its quotes */
  private readonly escaped: Uint8Array;
  /** the stored text of the row read */
  private source = '';
  /** the row's fields decoded, when they were built in memory or not in PostgreSQL's canonical form */
  private record: Record<string, string> | null = null;
  /** the key sequences met, by their keys joined; the last row's, tried first on the next */
  private readonly shapes = new Map<string, Shape | null>();
  private shape: Shape | null = null;
  /** the keys of the last row walked for want of a shape, joined */
  private lastWalked = '';
  /** the last row's values as its shape's expression captured them, or null when it was walked */
  private match: RegExpExecArray | null = null;

  constructor(names: readonly string[]) {
    this.names = names;
    this.index = new Map(names.map((name, i) => [JSON.stringify(name).slice(1, -1), i]));
    this.spans = new Int32Array(names.length * 2);
    this.escaped = new Uint8Array(names.length);
  }

  read(fields: SampleFields): this {
    this.match = null;
    if (fields instanceof StoredFields) {
      const text = fields.text;
      this.match = this.shape ? this.matched(this.shape, text) : null;
      if (this.match || this.locate(text)) {
        this.record = null;
        if (!this.match) this.shape = this.shapeWalked();
        return this;
      }
    }
    this.record = decodedFields(fields);
    return this;
  }

  /**
   * The shape's match of the text, or null. V8 compiles an expression when it first runs it, and refuses one too large
   * (a key sequence whose keys run to many thousands of characters): that shape is dropped and its rows walked.
   */
  private matched(shape: Shape, text: string): RegExpExecArray | null {
    try {
      return shape.re.exec(text);
    } catch (err) {
      if (!(err instanceof SyntaxError || err instanceof RangeError)) throw err;
      for (const [signature, kept] of this.shapes) if (kept === shape) this.shapes.set(signature, null);
      this.shape = null;
      return null;
    }
  }

  /** The shape of the row just walked: kept, or made and kept. */
  private shapeWalked(): Shape | null {
    const { lastKeys, lastPositions } = this;
    if (lastKeys.length > SHAPE_MAX_KEYS) return null;
    // a key as printed holds no NUL (it is escaped), so NUL cannot join two sequences into one
    const signature = lastKeys.join('\u0000');
    let shape = this.shapes.get(signature);
    if (shape === undefined) {
      // made for a sequence two rows running have: rows of ever other keys are walked, never each compiled anew
      const repeated = signature === this.lastWalked;
      this.lastWalked = signature;
      if (!repeated) return null;
      if (this.shapes.size >= SHAPES_KEPT) this.shapes.delete(this.shapes.keys().next().value as string);
      shape = shapeOf(lastKeys, lastPositions, this.names.length);
      this.shapes.set(signature, shape);
    }
    return shape;
  }

  /**
   * The key sequence of the row just read, when it was read from its stored text and its keys are a sequence this
   * reader has an expression for (two rows running had them); else null.
   */
  get sequence(): Shape | null {
    return this.record === null ? this.shape : null;
  }

  /** Whether the row read was read from its stored text as it stands, without decoding it (for tests). */
  get undecoded(): boolean {
    return this.record === null;
  }

  /** The value of `names[i]` as JSON (a quoted string, escaped), or undefined when the row lacks it. */
  json(i: number): string | undefined {
    if (this.record) {
      const v: string | undefined | null = this.record[this.names[i] as string];
      return v === undefined || v === null ? undefined : JSON.stringify(v);
    }
    if (this.match) {
      const group = (this.shape as Shape).groups[i] as number;
      return group ? this.match[group] : undefined;
    }
    const start = this.spans[2 * i] as number;
    return start < 0 ? undefined : this.source.slice(start, this.spans[2 * i + 1]);
  }

  /** The value of `names[i]`, or undefined when the row lacks it. */
  text(i: number): string | undefined {
    if (this.record) return this.record[this.names[i] as string];
    if (this.match) {
      const group = (this.shape as Shape).groups[i] as number;
      const json = group ? (this.match[group] as string) : undefined;
      return json === undefined ? undefined : stringOfJson(json);
    }
    const start = this.spans[2 * i] as number;
    if (start < 0) return undefined;
    const end = this.spans[2 * i + 1] as number;
    return this.escaped[i] ? (JSON.parse(this.source.slice(start, end)) as string) : this.source.slice(start + 1, end - 1);
  }

  /** Finds each name's value in stored text; false when the text is not in the canonical form (then it is decoded). */
  private locate(text: string): boolean {
    const { spans, escaped, lastKeys, lastPositions } = this;
    spans.fill(-1);
    this.source = text;
    const last = text.length - 1;
    if (text.charCodeAt(0) !== OPEN_BRACE || text.charCodeAt(last) !== CLOSE_BRACE) return false;
    // the next backslash at or after where the walk is, or -1: most stored text has none, and then no quote is escaped
    let backslash = text.indexOf('\\');
    let n = 0;
    let at = 1;
    while (at < last) {
      if (text.charCodeAt(at) !== QUOTE) return false;
      // the key the last row had here, compared where it stands: cutting each key out of the text was a good part of
      // what an export allocated per row, and looking for its closing quote a good part of this walk. A quote right
      // after the expected key closes it: a key as printed never ends in an odd run of backslashes, which would escape
      // it. The comparison is indexOf's, after the key's first and last characters: startsWith(key, at) was most of the
      // walk (see docs/benchmarks.md). A key of the same
      // length and ends but another middle makes indexOf look further on, and the key is then read as a new one
      // (tests/stored-fields.test.ts).
      const expected = lastKeys[n];
      let keyEnd: number;
      let position: number;
      if (
        expected !== undefined &&
        text.charCodeAt(at + 1 + expected.length) === QUOTE &&
        text.charCodeAt(at + 1) === expected.charCodeAt(0) &&
        text.charCodeAt(at + expected.length) === expected.charCodeAt(expected.length - 1) &&
        text.indexOf(expected, at + 1) === at + 1
      ) {
        keyEnd = at + 1 + expected.length;
        position = lastPositions[n] as number;
      } else {
        keyEnd = closingQuote(text, at + 1, backslash);
        if (keyEnd < 0) return false;
        const key = text.slice(at + 1, keyEnd);
        position = this.index.get(key) ?? -1;
        lastKeys[n] = key;
        lastPositions[n] = position;
      }
      if (text.charCodeAt(keyEnd + 1) !== COLON || text.charCodeAt(keyEnd + 2) !== SPACE) return false;
      const start = keyEnd + 3;
      // a value that is not a string: not the form this reads
      if (text.charCodeAt(start) !== QUOTE) return false;
      if (backslash >= 0 && backslash < start) backslash = text.indexOf('\\', start);
      const valueEnd = closingQuote(text, start + 1, backslash);
      if (valueEnd < 0) return false;
      n++;
      if (position >= 0) {
        spans[2 * position] = start;
        spans[2 * position + 1] = valueEnd + 1;
        escaped[position] = backslash >= 0 && backslash < valueEnd ? 1 : 0;
      }
      at = valueEnd + 1;
      if (backslash >= 0 && backslash < at) backslash = text.indexOf('\\', at);
      if (at === last) break;
      if (text.charCodeAt(at) !== COMMA || text.charCodeAt(at + 1) !== SPACE) return false;
      at += 2;
      if (at >= last) return false;
    }
    lastKeys.length = n;
    lastPositions.length = n;
    return true;
  }
}
