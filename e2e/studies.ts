import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { type Download, expect, type Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { FROM_PORTAL } from './helpers';

/**
 * What the browser tests of studies share: dropping files as a browser's drag and drop does, a template downloaded
 * and filled (its example row copied below the line, a cell set by its header), and a biodata profile to put it in.
 */

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Drops a file on an element the way a browser's drag and drop does. */
export async function dropFile(page: Page, selector: string, file: { name: string; bytes: Buffer }) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, b64, type }) => {
      const bin = atob(b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name, { type }));
      return dt;
    },
    { name: file.name, b64: file.bytes.toString('base64'), type: XLSX },
  );
  await page.dispatchEvent(selector, 'dragenter', { dataTransfer });
  await page.dispatchEvent(selector, 'dragover', { dataTransfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer });
}

/** What the click downloads, with its bytes. */
export async function downloaded(page: Page, click: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { download, bytes: await readFile((await download.path())!) };
}

/** Copies row 3 (the example) onto row 5 of every sheet, values and number formats, as copy and paste does. */
export async function exampleCopied(template: Buffer): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ExcelJS.Buffer);
  for (const ws of wb.worksheets) {
    if (ws.name === 'data_values') continue;
    ws.getRow(3).eachCell({ includeEmpty: false }, (cell, col) => {
      const target = ws.getRow(5).getCell(col);
      target.value = cell.value;
      target.numFmt = cell.numFmt;
    });
  }
  return wb;
}

/** A biodata profile made through the API with the page's session, opened in the page. */
export async function newBiodataProfile(page: Page, title: string): Promise<string> {
  const res = await page.request.post('/api/profiles', {
    headers: FROM_PORTAL,
    data: { title, description: 'browser test', type: 'biodata' },
  });
  expect(res.status()).toBe(201);
  const { id } = (await res.json()) as { id: string };
  await page.goto(`/profiles/${id}`);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  return id;
}

/** Drops several files on an element, as dragging a selection from a file manager does. */
export async function dropFiles(page: Page, selector: string, files: { name: string; bytes: Buffer }[]) {
  const dataTransfer = await page.evaluateHandle(
    (list) => {
      const dt = new DataTransfer();
      for (const { name, b64 } of list) {
        const bin = atob(b64);
        const bytes = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
        dt.items.add(new File([bytes], name, { type: 'application/octet-stream' }));
      }
      return dt;
    },
    files.map((f) => ({ name: f.name, b64: f.bytes.toString('base64') })),
  );
  await page.dispatchEvent(selector, 'dragenter', { dataTransfer });
  await page.dispatchEvent(selector, 'dragover', { dataTransfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer });
}

/** Sets a cell of row 5 under the header with this label (with or without " (optional)"). */
export function setCell(wb: ExcelJS.Workbook, sheet: string, label: string, value: string) {
  const ws = wb.getWorksheet(sheet)!;
  let found = false;
  ws.getRow(1).eachCell((cell, col) => {
    if (String(cell.value).replace(/ \(optional\)$/, '') === label) {
      ws.getRow(5).getCell(col).value = value;
      found = true;
    }
  });
  if (!found) throw new Error(`${sheet} has no column ${label}`);
}

/** A data file's checksum, as a study sheet gives it. */
export const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
