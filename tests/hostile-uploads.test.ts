import { count, eq } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { studies, validationReports } from '@/db/schema';
import { currentDefinition } from '@/lib/manifests';
import { rowsOfStored } from '@/lib/manifests/stored-rows';
import { filledAboveEmptyRowsXlsx, filledCellsXlsx, millionEmptyRowsXlsx, zipBombXlsx } from './fixtures/hostile-xlsx';
import { validRows } from './fixtures/manifests/generate';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { toXlsx } from './fixtures/manifests/workbook';
import { minimalPdf } from './fixtures/pdf';
import { createProfile as createStudyProfile, studiesApi } from './fixtures/studies/api';
import { createProfile } from './support/flows';
import { createHarness, type Harness } from './support/harness';

/**
 * Uploads meant to hurt: a truncated workbook, one that expands past a gigabyte (honestly declared, and lying about
 * it), a file over the size limit, a PDF renamed .xlsx, a million empty rows, formulas. Each is refused with a 4xx
 * (or, for a manifest whose problem only reading shows, a failed report), nothing is stored, and the process's memory
 * does not grow by more than 256 MB while it is handled.
 */

const MiB = 1024 * 1024;
const UPLOAD_MAX_BYTES = 8 * MiB;
let h: Harness;
let key: string;
let manifestProfile: string;
let studyProfile: string;
let valid: Buffer;
let bomb: Buffer;
let lyingBomb: Buffer;
let emptyRows: Buffer;
let filledCells: Buffer;

beforeAll(async () => {
  h = await createHarness({ UPLOAD_MAX_BYTES: String(UPLOAD_MAX_BYTES) }, { taxonomy: fakeTaxonomy() });
  key = (await h.user({ memberOf: ['dtol'] })).key;
  manifestProfile = await createProfile(h, key, { title: 'Hostile', description: '', type: 'dtol' });
  studyProfile = await createStudyProfile(h, key, 'Hostile studies');
  const dtol = currentDefinition('dtol');
  valid = await toXlsx(
    dtol.fields.map((f) => f.name),
    validRows(dtol, 3),
  );
  [bomb, lyingBomb, emptyRows, filledCells] = await Promise.all([
    zipBombXlsx(),
    zipBombXlsx({ bytes: 400 * MiB, lie: true }),
    millionEmptyRowsXlsx(),
    filledCellsXlsx(),
  ]);
}, 120_000);
afterAll(() => h.close());

/** Runs `work` while sampling the process's memory; returns its result and the growth over the starting point. */
async function withMemory<T>(work: () => Promise<T>): Promise<{ result: T; grewBy: number }> {
  globalThis.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, grewBy: peak - before };
  } finally {
    clearInterval(timer);
  }
}

const validateManifest = (bytes: Uint8Array, name = 'manifest.xlsx') => {
  const fd = new FormData();
  fd.set('profile_id', manifestProfile);
  fd.set('file', new File([Buffer.from(bytes)], name));
  return h.request('/api/manifest/validate', { method: 'POST', key, body: fd });
};

const reportCount = async () => (await h.database.db.select({ n: count() }).from(validationReports))[0]!.n;
const studyCount = async () => (await h.database.db.select({ n: count() }).from(studies))[0]!.n;

describe('hostile manifest uploads', () => {
  it.each([
    ['a truncated workbook', () => valid.subarray(0, Math.floor(valid.length / 2)), 422, /not a readable Excel workbook/],
    ['a sheet that expands to 1.1 GB', () => bomb, 422, /expands to 1049 MB; the limit is 160 MB/],
    ['a sheet that expands to 400 MB while its zip claims 4 kB', () => lyingBomb, 422, /expands to more than 200 MB|not a readable/],
    ['a PDF renamed .xlsx', () => minimalPdf('not a manifest'), 422, /not an Excel workbook/],
    ['a file over the size limit', () => Buffer.concat([valid, Buffer.alloc(UPLOAD_MAX_BYTES)]), 413, /larger than the limit/],
  ])('refuses %s at once, stores nothing, and stays within its memory', async (_what, bytes, status, message) => {
    const before = await reportCount();
    const { result: res, grewBy } = await withMemory(() => validateManifest(bytes()));
    expect(res.status).toBe(status);
    expect(((await res.json()) as { detail: string }).detail).toMatch(message);
    expect(await reportCount()).toBe(before);
    expect(grewBy).toBeLessThan(256 * MiB);
  });

  it('reads a million empty rows as a stream in the job, ending the report with no rows, within its memory', async () => {
    const res = await validateManifest(emptyRows);
    expect(res.status).toBe(202);
    const { report_id } = (await res.json()) as { report_id: string };
    const { grewBy } = await withMemory(() => h.jobs['manifest.validate']({ reportId: report_id }));
    const [report] = await h.database.db.select().from(validationReports).where(eq(validationReports.id, report_id));
    // the report ends, with no sample rows and the header's missing columns as errors
    expect(report).toMatchObject({ status: 'complete', upload: null, summary: { rows: 0 } });
    expect((report!.summary as { errors: number }).errors).toBeGreaterThan(0);
    expect(grewBy).toBeLessThan(256 * MiB);
  }, 120_000);

  it('validates the filled rows of a workbook whose million rows below them are formatted but empty', async () => {
    const dtol = currentDefinition('dtol');
    const rows = validRows(dtol, 3);
    const res = await validateManifest(
      await filledAboveEmptyRowsXlsx(
        dtol.fields.map((f) => f.name),
        rows,
        // one styled cell a row: 5 MB, within this file's upload limit
        { styledCells: 1 },
      ),
    );
    expect(res.status).toBe(202);
    const { report_id } = (await res.json()) as { report_id: string };
    await h.jobs['manifest.validate']({ reportId: report_id });
    const [report] = await h.database.db.select().from(validationReports).where(eq(validationReports.id, report_id));
    expect(report).toMatchObject({ status: 'complete', upload: null, summary: { rows: 3, errors: 0 } });
    // the filled rows, under the numbers the researcher sees, and nothing of the empty ones
    const { normalised } = rowsOfStored(report!.rows!);
    expect(normalised.map((r) => [r.rowNumber, r.values.SPECIMEN_ID])).toEqual(rows.map((r, i) => [i + 2, r.SPECIMEN_ID]));
  }, 120_000);

  it('reads formulas by their cached results and never evaluates them', async () => {
    const dtol = currentDefinition('dtol');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(valid as unknown as ExcelJS.Buffer);
    const sheet = wb.getWorksheet('Metadata Entry')!;
    const col = dtol.fields.findIndex((f) => f.name === 'SPECIMEN_ID') + 1;
    const original = String(sheet.getRow(2).getCell(col).value);
    sheet.getRow(2).getCell(col).value = { formula: 'WEBSERVICE("http://127.0.0.1:9/")&"x"', result: original };
    sheet.getRow(3).getCell(col).value = { formula: 'CONCAT("A","B")', result: undefined as unknown as string };
    const res = await validateManifest(new Uint8Array(await wb.xlsx.writeBuffer()));
    expect(res.status).toBe(202);
    const { report_id } = (await res.json()) as { report_id: string };
    await h.jobs['manifest.validate']({ reportId: report_id });
    const report = (await (await h.request(`/api/manifest/validate/report/${report_id}`, { key })).json()) as {
      errors: { row: number; field: string; value: string }[];
    };

    // the cached result stands in for the formula; a formula without one is an empty cell
    expect(report.errors.some((e) => e.row === 2 && e.field === 'SPECIMEN_ID')).toBe(false);
    expect(report.errors.some((e) => e.row === 3 && e.field === 'SPECIMEN_ID')).toBe(true);
  });
});

describe('hostile study uploads', () => {
  const upload = (bytes: Uint8Array) => studiesApi(h, key, studyProfile).upload('svc_single_cell', 'version_dwc_sc_rnaseq', bytes);

  it.each([
    ['a truncated workbook', () => valid.subarray(0, Math.floor(valid.length / 2)), 400, /Spreadsheet is not valid/],
    ['a sheet that expands to 1.1 GB', () => bomb, 422, /too large to read: .*expands to 1049 MB/],
    ['a sheet that expands to 400 MB while its zip claims 4 kB', () => lyingBomb, [400, 422], /expands to more than 200 MB|not valid/],
    ['a PDF renamed .xlsx', () => minimalPdf('not a study'), 400, /not an Excel workbook/],
    ['a file over the size limit', () => Buffer.concat([valid, Buffer.alloc(UPLOAD_MAX_BYTES)]), 413, /larger than the limit/],
    ['a million empty rows', () => emptyRows, 422, /./],
    ['a sheet of 640,000 filled cells', () => filledCells, 422, /more than 500000 filled cells/],
  ])(
    'refuses %s, stores nothing, and stays within its memory',
    async (_what, bytes, status, message) => {
      const before = await studyCount();
      const { result: res, grewBy } = await withMemory(() => upload(bytes()));
      expect(Array.isArray(status) ? status : [status]).toContain(res.status);
      expect(((await res.json()) as { detail: string }).detail).toMatch(message);
      expect(await studyCount()).toBe(before);
      expect(grewBy).toBeLessThan(256 * MiB);
    },
    120_000,
  );
});

describe('bodies of the other endpoints', () => {
  it('are bounded before they are read: 413 for a JSON body over 2 MB, with or without a Content-Length', async () => {
    const huge = JSON.stringify({ title: 'x'.repeat(3 * MiB), description: '', type: 'biodata' });
    const declared = await h.request('/api/profiles', { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: huge });
    expect(declared.status).toBe(413);
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(huge));
        controller.close();
      },
    });
    const streamed = await h.request('/api/profiles', {
      method: 'POST',
      key,
      headers: { 'content-type': 'application/json' },
      body: chunked,
      duplex: 'half',
    } as RequestInit);
    expect(streamed.status).toBe(413);
  });
});
