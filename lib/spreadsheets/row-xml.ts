/**
 * One `<row>` element of a worksheet read by searching its text, for the shapes spreadsheet programs write: cells
 * with a value, a formula or an inline string, attributes in either quotes, the five named entities and character
 * references. Anything else (a comment, CDATA, an element it does not know, XML that is not well formed) gives null,
 * and the row is read by an XML parser instead (sheet-rows.ts): this reading is the fast path of the two, held to the
 * parser's cell for cell by tests/sheet-rows.test.ts. Through saxes, the parser's events for every tag were most of
 * a big sheet's reading time (docs/benchmarks.md, "Big sheets").
 */

/** A cell as its XML says it, before its value is made (sheet-rows.ts). */
export interface RawCell {
  ref: string | undefined;
  style: string | undefined;
  type: string | undefined;
  formula: string | undefined;
  text: string | undefined;
}

export interface RawRow {
  r: string | undefined;
  style: string | undefined;
  cells: RawCell[];
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const DECIMAL = /^#[0-9]{1,7}$/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML does not allow, which the parser refuses
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/;
const HEX = /^#x[0-9a-fA-F]{1,6}$/;

/** Whether a code point may stand in an XML document. */
const xmlChar = (c: number) =>
  c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || (c >= 0x10000 && c <= 0x10ffff);

/** Text with its entities replaced, or null for one an XML parser would refuse. */
export function decodeText(text: string): string | null {
  let amp = text.indexOf('&');
  if (amp < 0) return text;
  let out = '';
  let at = 0;
  for (; amp >= 0; amp = text.indexOf('&', at)) {
    const semi = text.indexOf(';', amp);
    if (semi < 0 || semi - amp > 10) return null;
    const name = text.slice(amp + 1, semi);
    let ch = NAMED[name];
    if (ch === undefined) {
      const code = DECIMAL.test(name) ? Number(name.slice(1)) : HEX.test(name) ? Number.parseInt(name.slice(2), 16) : Number.NaN;
      if (!xmlChar(code)) return null;
      ch = String.fromCodePoint(code);
    }
    out += text.slice(at, amp) + ch;
    at = semi + 1;
  }
  return out + text.slice(at);
}

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
/** Whether the text from `from` to `to` is only whitespace: other text between elements is left to the parser. */
function blank(xml: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(xml.charCodeAt(i))) return false;
  return true;
}
/** what may follow an element's name */
const endsName = (c: number) => isSpace(c) || c === 0x3e || c === 0x2f;

interface Tag {
  /** the index of the tag's `>` */
  end: number;
  selfClosing: boolean;
  r?: string;
  s?: string;
  t?: string;
}

/** A-Z, a-z, `_` and `:`: the first character of the names read here; other names are left to the parser. */
const startsName = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f || c === 0x3a;
/** and, after it, digits, `.` and `-` */
const inName = (c: number) => startsName(c) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d;

/** The attributes of the tag whose name ends at `at`, up to its end; null when it is not well formed. */
function tagAt(xml: string, at: number): Tag | null {
  let r: string | undefined;
  let s: string | undefined;
  let t: string | undefined;
  let i = at;
  for (;;) {
    const before = i;
    while (isSpace(xml.charCodeAt(i))) i++;
    const c = xml.charCodeAt(i);
    if (c === 0x3e) return { end: i, selfClosing: false, r, s, t };
    if (c === 0x2f) return xml.charCodeAt(i + 1) === 0x3e ? { end: i + 1, selfClosing: true, r, s, t } : null;
    // attributes are parted by whitespace
    if (i === before || !startsName(c)) return null;
    const nameStart = i;
    while (inName(xml.charCodeAt(++i)));
    const nameLength = i - nameStart;
    while (isSpace(xml.charCodeAt(i))) i++;
    if (xml.charCodeAt(i) !== 0x3d) return null;
    i++;
    while (isSpace(xml.charCodeAt(i))) i++;
    const quote = xml[i];
    if (quote !== '"' && quote !== "'") return null;
    const close = xml.indexOf(quote, i + 1);
    if (close < 0) return null;
    const raw = xml.slice(i + 1, close);
    if (raw.includes('<')) return null;
    const value = decodeText(raw);
    if (value === null) return null;
    if (nameLength === 1) {
      const name = xml.charCodeAt(nameStart);
      if (name === 0x72) r = value;
      else if (name === 0x73) s = value;
      else if (name === 0x74) t = value;
    }
    i = close + 1;
  }
}

/** The decoded text from `from` to the closing tag `close`, and the index past it; null when there is none. */
function textUntil(xml: string, from: number, close: string): [string, number] | null {
  const end = xml.indexOf(close, from);
  if (end < 0) return null;
  const raw = xml.slice(from, end);
  if (raw.includes('<')) return null;
  const text = decodeText(raw);
  return text === null ? null : [text, end + close.length];
}

/** The `t` runs of an inline string joined, its phonetic runs (`rPh`) left out, from just after `<is>` to past `</is>`. */
function inlineString(xml: string, from: number): [string, number] | null {
  let text = '';
  const open: string[] = [];
  let i = from;
  for (;;) {
    const lt = xml.indexOf('<', i);
    if (lt < 0 || !blank(xml, i, lt)) return null;
    if (xml.startsWith('</is>', lt)) return open.length ? null : [text, lt + 5];
    if (xml.startsWith('<rPh', lt) && endsName(xml.charCodeAt(lt + 4))) {
      // a phonetic run: its text is not the string's
      const tag = tagAt(xml, lt + 4);
      if (!tag) return null;
      if (!tag.selfClosing) open.push('rPh');
      i = tag.end + 1;
    } else if (xml.startsWith('<t', lt) && endsName(xml.charCodeAt(lt + 2))) {
      const tag = tagAt(xml, lt + 2);
      if (!tag) return null;
      if (tag.selfClosing) {
        i = tag.end + 1;
        continue;
      }
      const run = textUntil(xml, tag.end + 1, '</t>');
      if (!run) return null;
      if (!open.includes('rPh')) text += run[0];
      i = run[1];
    } else if (xml.charCodeAt(lt + 1) === 0x2f) {
      // the end of a run or of its properties, which must be the last one opened
      const end = xml.indexOf('>', lt);
      if (end < 0 || open.pop() !== xml.slice(lt + 2, end).trimEnd()) return null;
      i = end + 1;
    } else {
      // a run (`r`), its properties (`rPr`) and each property (`<b/>`, `<sz val="11"/>`…): no text of the string
      let n = lt + 1;
      if (!startsName(xml.charCodeAt(n))) return null;
      while (inName(xml.charCodeAt(++n)));
      const name = xml.slice(lt + 1, n);
      const tag = endsName(xml.charCodeAt(n)) ? tagAt(xml, n) : null;
      if (!tag) return null;
      if (!tag.selfClosing) {
        if (name !== 'r' && name !== 'rPr') return null;
        open.push(name);
      }
      i = tag.end + 1;
    }
  }
}

/** The contents of a `<c>` from just after its start tag into `cell`, and the index past `</c>`; -1 to read it by parser. */
function cellContent(xml: string, from: number, cell: RawCell): number {
  let i = from;
  for (;;) {
    const lt = xml.indexOf('<', i);
    if (lt < 0 || !blank(xml, i, lt)) return -1;
    if (xml.startsWith('</c>', lt)) return lt + 4;
    const name = xml.charCodeAt(lt + 1);
    const short = endsName(xml.charCodeAt(lt + 2));
    if ((name === 0x76 || name === 0x66) && short) {
      // <v> or <f>
      const tag = tagAt(xml, lt + 2);
      if (!tag) return -1;
      let text = '';
      i = tag.end + 1;
      if (!tag.selfClosing) {
        const read = textUntil(xml, i, name === 0x76 ? '</v>' : '</f>');
        if (!read) return -1;
        [text, i] = read;
      }
      if (name === 0x76) cell.text = text;
      else cell.formula = text;
    } else if (xml.startsWith('<is', lt) && endsName(xml.charCodeAt(lt + 3))) {
      const tag = tagAt(xml, lt + 3);
      if (!tag) return -1;
      cell.text = '';
      i = tag.end + 1;
      if (tag.selfClosing) continue;
      const read = inlineString(xml, i);
      if (!read) return -1;
      [cell.text, i] = read;
    } else return -1;
  }
}

/** The row element `xml` (from `<row` to its end) as cells, or null when it must be read by an XML parser. */
export function scanRow(xml: string): RawRow | null {
  if (xml.includes('<!') || xml.includes('<?') || !xml.startsWith('<row') || NOT_XML.test(xml)) return null;
  const head = tagAt(xml, 4);
  if (!head) return null;
  const row: RawRow = { r: head.r, style: head.s, cells: [] };
  if (head.selfClosing) return head.end === xml.length - 1 ? row : null;
  for (let i = head.end + 1; ; ) {
    const lt = xml.indexOf('<', i);
    if (lt < 0 || !blank(xml, i, lt)) return null;
    if (xml.startsWith('</row>', lt)) return lt + 6 === xml.length ? row : null;
    if (xml.charCodeAt(lt + 1) !== 0x63 || !endsName(xml.charCodeAt(lt + 2))) return null;
    const tag = tagAt(xml, lt + 2);
    if (!tag) return null;
    const cell: RawCell = { ref: tag.r, style: tag.s, type: tag.t, formula: undefined, text: undefined };
    row.cells.push(cell);
    i = tag.selfClosing ? tag.end + 1 : cellContent(xml, tag.end + 1, cell);
    if (i < 0) return null;
  }
}
