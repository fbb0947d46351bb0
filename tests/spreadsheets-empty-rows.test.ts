import { describe, expect, it } from 'vitest';
import { rowElements } from '@/lib/spreadsheets/row-elements';

/** lib/spreadsheets/row-elements.ts: a worksheet's rows, whole, without those that hold nothing, wherever its chunks are cut. */

const HEAD = '<worksheet><cols><col min="1" max="3" style="1"/></cols><sheetData>';
const TAIL = '</sheetData><rowBreaks count="1"><brk id="5"/></rowBreaks><pageMargins left="0.7"/></worksheet>';
const FILLED = [
  '<row r="1"><c r="A1" t="inlineStr"><is><t>SPECIMEN_ID</t></is></c></row>',
  '<row r="3" spans="1:2"><c r="A3" s="1"/><c r="B3"><v>42</v></c></row>',
  '<row r="5"><c r="A5"><f>1+1</f></c></row>',
  '<row r="7"><c r="A7" t="s"><v>0</v></c><c r="B7" s="1"/></row>',
  '<row r="8"><c r="A8" t="inlineStr"><is><t>é ü 名</t></is></c></row>',
];
const EMPTY = [
  '<row r="2" s="1" customFormat="1"/>',
  '<row r="4" spans="1:3" s="1" customFormat="1"><c r="A4" s="1"/><c r="B4" s="1"/><c r="C4" s="1"/></row>',
  '<row r="6"></row>',
  '<row r="9" ht="20" customHeight="1"><c r="A9" s="1"/></row>',
];
const xml = HEAD + [FILLED[0], EMPTY[0], FILLED[1], EMPTY[1], FILLED[2], EMPTY[2], FILLED[3], FILLED[4], EMPTY[3]].join('') + TAIL;
const expected = FILLED.join('');

async function* chunksOf(bytes: Buffer, cuts: number[]) {
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    yield bytes.subarray(from, cut);
    from = cut;
  }
}

const filtered = async (bytes: Buffer, cuts: number[]) => {
  let out = '';
  for await (const row of rowElements(chunksOf(bytes, cuts), { skipEmpty: true })) out += row;
  return out;
};

describe('rowElements', () => {
  it('gives every row holding a value, an inline string or a formula, whole, and nothing else', async () => {
    expect(await filtered(Buffer.from(xml), [])).toBe(expected);
  });

  it('gives the same rows wherever the stream is cut, inside a tag or a character included', async () => {
    const bytes = Buffer.from(xml);
    for (let cut = 1; cut < bytes.length; cut++) expect(await filtered(bytes, [cut])).toBe(expected);
    expect(
      await filtered(
        bytes,
        Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
      ),
    ).toBe(expected);
  });
});
