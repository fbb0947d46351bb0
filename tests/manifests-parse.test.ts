import { readFileSync } from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { currentDefinition, ManifestParseError, parseManifest, validateManifest } from '@/lib/manifests';
import { tolDataDir } from '@/lib/manifests/reference/source';
import { testContext } from './fixtures/manifests/context';
import { toCsv, toXlsx } from './fixtures/manifests/workbook';

/** A workbook with one `Metadata Entry` sheet built cell by cell. */
async function workbook(build: (sheet: ExcelJS.Worksheet, wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  build(wb.addWorksheet('Metadata Entry'), wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const parseError = async (buffer: Uint8Array, fileName: string): Promise<ManifestParseError> => {
  try {
    await parseManifest(buffer, fileName);
  } catch (err) {
    if (err instanceof ManifestParseError) return err;
    throw err;
  }
  throw new Error('parsed');
};

describe('parseManifest: xlsx', () => {
  it('reads the Metadata Entry sheet: trimmed headers, row numbers as in Excel, blank rows skipped', async () => {
    const buf = await workbook((ws) => {
      ws.getRow(1).values = [' SPECIMEN_ID', 'TAXON_ID ', '', 'HABITAT'];
      ws.getRow(2).values = ['SAN0000001', 171585, 'ignored: no header', '  woodland  '];
      ws.getRow(3).values = ['', '', '', '   '];
      ws.getRow(5).values = ['SAN0000002', 7116];
    });
    const parsed = await parseManifest(buf, 'manifest.XLSX');
    expect(parsed.headers).toEqual(['SPECIMEN_ID', 'TAXON_ID', 'HABITAT']);
    expect(parsed.columns).toEqual(['A', 'B', 'D']);
    expect(parsed.rows).toEqual([
      { rowNumber: 2, values: { SPECIMEN_ID: 'SAN0000001', TAXON_ID: '171585', HABITAT: 'woodland' } },
      { rowNumber: 5, values: { SPECIMEN_ID: 'SAN0000002', TAXON_ID: '7116' } },
    ]);
  });

  it('renders dates, times, numbers, booleans, formulas, rich text and links as the sheet shows them', async () => {
    const buf = await workbook((ws) => {
      ws.getRow(1).values = [
        'DATE',
        'TIME',
        'DATETIME',
        'INT',
        'DEC',
        'NOISE',
        'BIG',
        'BOOL',
        'F_STR',
        'F_NUM',
        'F_DATE',
        'RICH',
        'LINK',
        'ERR',
      ];
      const r = ws.getRow(2);
      r.getCell(1).value = new Date(Date.UTC(2023, 5, 15));
      r.getCell(1).numFmt = 'dd/mm/yyyy';
      r.getCell(2).value = new Date(Date.UTC(1899, 11, 30, 10, 30));
      r.getCell(2).numFmt = 'hh:mm';
      r.getCell(3).value = new Date(Date.UTC(2023, 5, 15, 8, 5, 9));
      r.getCell(3).numFmt = 'yyyy-mm-dd hh:mm:ss';
      r.getCell(4).value = 1;
      r.getCell(5).value = -1.3385;
      r.getCell(6).value = 0.1 + 0.2;
      r.getCell(7).value = 12345678901234;
      r.getCell(8).value = true;
      r.getCell(9).value = { formula: 'IF(A1="N","NOT_APPLICABLE","")', result: 'NOT_APPLICABLE' };
      r.getCell(10).value = { formula: 'A1*2', result: 42 };
      r.getCell(11).value = { formula: 'TODAY()', result: 45092 };
      r.getCell(11).numFmt = 'yyyy-mm-dd';
      r.getCell(12).value = { richText: [{ text: 'Aglais ', font: { italic: true } }, { text: 'io' }] };
      r.getCell(13).value = { text: 'NHM record', hyperlink: 'https://data.nhm.ac.uk' };
      r.getCell(14).value = { error: '#N/A' };
    });
    const [row] = (await parseManifest(buf, 'x.xlsx')).rows;
    expect(row?.values).toEqual({
      DATE: '2023-06-15',
      TIME: '10:30',
      DATETIME: '2023-06-15T08:05:09',
      INT: '1',
      DEC: '-1.3385',
      NOISE: '0.3',
      BIG: '12345678901234',
      BOOL: 'TRUE',
      F_STR: 'NOT_APPLICABLE',
      F_NUM: '42',
      F_DATE: '2023-06-15',
      RICH: 'Aglais io',
      LINK: 'NHM record',
      ERR: '#N/A',
    });
  });

  it('with a definition, reads date-formatted numbers in numeric fields as numbers (template artefacts)', async () => {
    // the official templates format ELEVATION as h:mm and ERGA's ORIGINAL_DECIMAL_LATITUDE as a time
    const buf = await workbook((ws) => {
      ws.getRow(1).values = ['ELEVATION', 'ORIGINAL_DECIMAL_LATITUDE', 'DATE_OF_COLLECTION', 'OTHER_INFORMATION'];
      const r = ws.getRow(2);
      r.values = [120, 51.1234567, 45092, 45092];
      for (const c of [1, 2]) r.getCell(c).numFmt = 'h:mm';
      for (const c of [3, 4]) r.getCell(c).numFmt = 'yyyy-mm-dd';
    });
    const definition = currentDefinition('erga');
    expect((await parseManifest(buf, 'x.xlsx', { definition })).rows[0]?.values).toEqual({
      ELEVATION: '120',
      ORIGINAL_DECIMAL_LATITUDE: '51.1234567',
      DATE_OF_COLLECTION: '2023-06-15',
      OTHER_INFORMATION: '2023-06-15',
    });
    expect((await parseManifest(buf, 'x.xlsx')).rows[0]?.values.ELEVATION).toBe('1900-04-29');
  });

  it('finds the sheet by name, whatever its position and spacing', async () => {
    const buf = await toXlsx(['SPECIMEN_ID'], [{ SPECIMEN_ID: 'SAN0000001' }], {
      otherSheets: ['Instructions'],
      sheetName: 'metadata  entry',
    });
    expect((await parseManifest(buf, 'x.xlsx')).rows).toHaveLength(1);
  });

  it('reads a blank official ERGA template (formula cells with empty results) as a header and no rows', async () => {
    const buf = readFileSync(path.join(tolDataDir(), 'erga_manifest_template_v2.5.1.xlsx'));
    const parsed = await parseManifest(buf, 'erga_manifest_template_v2.5.1.xlsx');
    expect(parsed.headers).toHaveLength(91);
    expect(parsed.rows).toEqual([]);
  });

  it('reads the pre-fill of a blank official DTOL template, which validation then ignores', async () => {
    const buf = readFileSync(path.join(tolDataDir(), 'dtol_manifest_template_v2.5.xlsx'));
    const definition = currentDefinition('dtol');
    const parsed = await parseManifest(buf, 'dtol.xlsx', { definition });
    expect(parsed.rows.length).toBeGreaterThan(900);
    const result = await validateManifest(parsed, definition, testContext());
    expect(result.errors.map((e) => e.rule)).toEqual(['empty']);
    expect(result.warnings.map((w) => w.rule)).toEqual(['template_prefill']);
  });
});

describe('parseManifest: CSV', () => {
  it('reads header row 1 and numbers records as a spreadsheet shows them', async () => {
    const csv = Buffer.from(
      '\uFEFFSPECIMEN_ID,HABITAT,COLLECTED_BY\nSAN0000001,"woodland, edge","A | B"\n,,\nSAN0000002,"multi\nline",\n',
      'utf8',
    );
    const parsed = await parseManifest(csv, 'm.csv');
    expect(parsed.headers).toEqual(['SPECIMEN_ID', 'HABITAT', 'COLLECTED_BY']);
    expect(parsed.rows).toEqual([
      { rowNumber: 2, values: { SPECIMEN_ID: 'SAN0000001', HABITAT: 'woodland, edge', COLLECTED_BY: 'A | B' } },
      { rowNumber: 4, values: { SPECIMEN_ID: 'SAN0000002', HABITAT: 'multi\nline' } },
    ]);
  });

  it('accepts the ; separator and Windows-1252 text that Excel writes in many locales', async () => {
    const csv = Buffer.from([
      ...Buffer.from('SAMPLE_COORDINATOR;HABITAT\nAna Garc', 'latin1'),
      0xed,
      ...Buffer.from('a;pr\u00e9-bois\n', 'latin1'),
    ]);
    expect((await parseManifest(csv, 'm.csv')).rows[0]?.values).toEqual({ SAMPLE_COORDINATOR: 'Ana García', HABITAT: 'pré-bois' });
    const semi = toCsv(['A', 'B'], [{ A: '1', B: 'x,y' }], ';');
    expect((await parseManifest(semi, 'm.csv')).rows[0]?.values).toEqual({ A: '1', B: 'x,y' });
  });
});

describe('parseManifest: errors', () => {
  it.each([
    ['notes.txt', Buffer.from('hello'), 'unsupported_format', 415],
    ['old.xls', Buffer.from('hello'), 'unsupported_format', 415],
    ['fake.xlsx', Buffer.from('this is not a zip'), 'not_a_spreadsheet', 422],
    ['truncated.xlsx', Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), 'not_a_spreadsheet', 422],
    ['binary.csv', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 1]), 'not_a_spreadsheet', 422],
    ['empty.xlsx', Buffer.alloc(0), 'empty', 422],
    ['empty.csv', Buffer.alloc(0), 'empty', 422],
    ['blank-header.csv', Buffer.from('\n\nA,B\n'), 'empty', 422],
  ] as const)('%s → %s', async (name, buffer, reason, status) => {
    const err = await parseError(buffer, name);
    expect(err.reason).toBe(reason);
    expect(err.code).toBe(status === 415 ? 'unsupported_media_type' : 'unprocessable');
    expect(err.message.length).toBeGreaterThan(20);
  });

  it('no Metadata Entry sheet', async () => {
    const wb = new ExcelJS.Workbook();
    wb.addWorksheet('Sheet1').getCell('A1').value = 'SPECIMEN_ID';
    const err = await parseError(Buffer.from(await wb.xlsx.writeBuffer()), 'x.xlsx');
    expect(err.reason).toBe('no_metadata_sheet');
    expect(err.message).toContain("'Sheet1'");
  });

  it('an empty Metadata Entry sheet', async () => {
    const err = await parseError(await workbook(() => {}), 'x.xlsx');
    expect(err.reason).toBe('empty');
  });

  it('duplicate headers, in xlsx and CSV', async () => {
    const xlsx = await parseError(await toXlsx(['SPECIMEN_ID', 'HABITAT', 'HABITAT '], []), 'x.xlsx');
    expect(xlsx.reason).toBe('duplicate_headers');
    expect(xlsx.message).toContain("'HABITAT' (columns B and C)");
    const csv = await parseError(Buffer.from('A,B,A\n1,2,3\n'), 'x.csv');
    expect(csv.reason).toBe('duplicate_headers');
  });
});
