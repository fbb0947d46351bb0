import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validationReports } from '@/db/schema';
import { CELL_MAX_CHARS } from '@/lib/values/cell-bound';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { toCsv, toXlsx } from './fixtures/manifests/workbook';
import { createProfile } from './support/flows';
import { createHarness, type Harness, serveOverHttp } from './support/harness';

/**
 * Cells no field needs, as an attacker sends them: a digit run ending in a letter made the coordinate patterns
 * backtrack in time growing with the square of its length, and an xlsx can repeat one such string in every row. The
 * report says so, cell by cell, and the service answers others while it reads the sheet.
 */

type Issue = { row: number | null; column: string | null; field: string | null; value: string | null; rule: string; message: string };
type Report = { status: string; summary: { rows: number; errors: number; warnings: number }; errors: Issue[]; warnings: Issue[] };

const LONG = `${'7'.repeat(30_000)}x`;
const HEADERS = ['SPECIMEN_ID', 'DECIMAL_LATITUDE', 'DECIMAL_LONGITUDE'];

let h: Harness;
let owner: Awaited<ReturnType<Harness['user']>>;
let profileId: string;
let served: { url: string; close(): Promise<void> };

beforeAll(async () => {
  h = await createHarness({}, { workers: true, taxonomy: fakeTaxonomy() });
  owner = await h.user({ memberOf: ['erga'] });
  served = await serveOverHttp(h.api);
  profileId = await createProfile(h, owner.key, {
    title: 'Long cells',
    description: 'coordinates of 30,000 digits',
    type: 'erga',
    associated_type: ['ERGA_COMMUNITY'],
    sequencing_centre: ['CNAG'],
  });
}, 120_000);
afterAll(async () => {
  await served?.close();
  await h?.close();
});

async function upload(file: Buffer, name: string): Promise<string> {
  const fd = new FormData();
  fd.set('profile_id', profileId);
  fd.set('file', new File([new Uint8Array(file)], name));
  const res = await h.request('/api/manifest/validate', { method: 'POST', key: owner.key, body: fd });
  expect(res.status).toBe(202);
  return ((await res.json()) as { report_id: string }).report_id;
}

const statusOf = async (id: string) =>
  (await h.database.db.select({ status: validationReports.status }).from(validationReports).where(eq(validationReports.id, id)))[0]?.status;

describe('a sheet whose cells are longer than any field allows', () => {
  it('is answered with an error on each such cell while /api/health keeps answering', async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({
      SPECIMEN_ID: `ERGA_LC_${i}`,
      DECIMAL_LATITUDE: LONG,
      DECIMAL_LONGITUDE: LONG,
    }));
    const id = await upload(await toXlsx(HEADERS, rows), 'long-cells.xlsx');

    // health asked over HTTP, as a client does, one request after another for as long as the report is not done;
    // each answer noted with the report's state at that moment
    const seenWhile: string[] = [];
    for (;;) {
      const health = await fetch(`${served.url}/api/health`);
      expect(health.status).toBe(200);
      const status = await statusOf(id);
      seenWhile.push(status ?? 'gone');
      if (status === 'complete' || status === 'failed') break;
    }
    expect(seenWhile).toContain('running');

    const report = (await (await h.request(`/api/manifest/validate/report/${id}`, { key: owner.key })).json()) as Report;
    expect(report.status).toBe('complete');
    // the sheet's missing columns, then 20,000 such cells: the first 10,000 issues listed, the rest counted in one warning
    const missingColumns = report.errors.filter((e) => e.rule === 'missing_column').length;
    const tooLong = report.errors.filter((e) => e.rule === 'cell_too_long');
    expect(report.errors).toHaveLength(10_000);
    expect(tooLong).toHaveLength(10_000 - missingColumns);
    expect(tooLong[0]).toMatchObject({ row: 2, column: 'B', field: 'DECIMAL_LATITUDE' });
    expect(tooLong[0]!.message).toBe(
      'The cell in column DECIMAL_LATITUDE at row 2 holds 30,001 characters; a cell may hold at most 4,096. Shorten it and upload the sheet again.',
    );
    // the value is quoted by its start, not stored 20,000 times
    expect(tooLong[0]!.value).toBe(`${'7'.repeat(100)}… (30,001 characters)`);
    expect(report.warnings.find((w) => w.rule === 'issues_not_listed')?.message).toContain(
      `${(10_000 + missingColumns).toLocaleString('en')} more errors were found`,
    );
  }, 120_000);

  it('is refused cell by cell in a CSV, and a cell at the bound is judged by the rules', async () => {
    const atBound = `${'1'.repeat(CELL_MAX_CHARS - 1)}x`;
    const id = await upload(
      toCsv(HEADERS, [
        { SPECIMEN_ID: 'ERGA_LC_A', DECIMAL_LATITUDE: LONG, DECIMAL_LONGITUDE: '12.5' },
        { SPECIMEN_ID: 'ERGA_LC_B', DECIMAL_LATITUDE: '51.7', DECIMAL_LONGITUDE: atBound },
      ]),
      'long-cells.csv',
    );
    for (let i = 0; i < 300 && !['complete', 'failed'].includes((await statusOf(id)) ?? ''); i++)
      await new Promise((r) => setTimeout(r, 100));
    const report = (await (await h.request(`/api/manifest/validate/report/${id}`, { key: owner.key })).json()) as Report;
    const cells = report.errors.filter((e) => e.rule !== 'missing_column');
    expect(cells.map((e) => [e.rule, e.row, e.field])).toEqual([['cell_too_long', 2, 'DECIMAL_LATITUDE']]);

    // the sheet without the over-long cell: the 4,096-character coordinate is an ordinary invalid coordinate
    const id2 = await upload(
      toCsv(HEADERS, [{ SPECIMEN_ID: 'ERGA_LC_B', DECIMAL_LATITUDE: '51.7', DECIMAL_LONGITUDE: atBound }]),
      'bound.csv',
    );
    for (let i = 0; i < 300 && !['complete', 'failed'].includes((await statusOf(id2)) ?? ''); i++)
      await new Promise((r) => setTimeout(r, 100));
    const report2 = (await (await h.request(`/api/manifest/validate/report/${id2}`, { key: owner.key })).json()) as Report;
    const coordinate = report2.errors.find((e) => e.field === 'DECIMAL_LONGITUDE');
    expect(coordinate?.rule).toBe('coordinates');
    expect(coordinate?.message).toContain('… (4,096 characters) in column DECIMAL_LONGITUDE at row 2');
  }, 120_000);
});
