import ExcelJS from 'exceljs';
import { expect, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from '../tests/fixtures/manifests/generate';
import { signIn } from './helpers';

const dtol = currentDefinition('dtol');
const headers = dtol.fields.map((f) => f.name);
const columnOf = (field: string) => dtol.fields.find((f) => f.name === field)!.column;

async function workbook(rows: Record<string, string>[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Metadata Entry');
  sheet.addRow(headers);
  for (const r of rows) sheet.addRow(headers.map((h) => r[h] ?? ''));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

test('upload a manifest with two errors, fix it, confirm, see the samples, approve one as a sample manager', async ({ page, browser }) => {
  await signIn(page);
  const profile = await page.request.post('/api/profiles', {
    data: { title: 'Wytham moths e2e', description: 'Lepidoptera from Wytham Woods', type: 'dtol' },
  });
  expect(profile.status()).toBe(201);
  const manager = await page.request.post('/api/admin/users', {
    data: { username: 'dtol-manager', password: 'dtol-manager-pw', member_of: ['dtol'], manager_of: ['dtol'] },
  });
  expect(manager.status()).toBe(201);

  const rows: Record<string, string>[] = validRows(dtol, 3).map((r, i) => ({ ...r, TUBE_OR_WELL_ID: `FD9${String(i).padStart(7, '0')}`, SPECIMEN_ID: `SAN9${String(i).padStart(6, "0")}` }));
  const broken = rows.map((r) => ({ ...r }));
  broken[0]!.DECIMAL_LATITUDE = '123.5';
  broken[2]!.COLLECTION_LOCATION = '';

  await page.getByRole('link', { name: 'Manifests' }).click();
  await page.getByLabel('Profile').selectOption({ label: 'Wytham moths e2e (DTOL)' });
  await page.getByTestId('manifest-input').setInputFiles({
    name: 'wytham-moths.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await workbook(broken),
  });
  const errors = page.getByRole('table', { name: /Errors: fix these cells/ });
  await expect(errors).toBeVisible({ timeout: 30_000 });
  await expect(errors.getByRole('row', { name: new RegExp(`${columnOf('DECIMAL_LATITUDE')}2 DECIMAL_LATITUDE 123\\.5`) })).toBeVisible();
  await expect(errors.getByRole('row', { name: new RegExp(`${columnOf('COLLECTION_LOCATION')}4 COLLECTION_LOCATION`) })).toBeVisible();
  await expect(page.getByRole('button', { name: /Confirm/ })).toHaveCount(0);

  await page.getByTestId('manifest-input').setInputFiles({
    name: 'wytham-moths-fixed.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await workbook(rows),
  });
  await expect(page.getByText(/3 rows, 0 errors/)).toBeVisible({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Confirm and create the samples' }).click();
  await expect(page.getByText('3 samples created, 0 updated.')).toBeVisible();
  await page.getByRole('link', { name: 'See the manifest’s samples' }).click();

  const samples = page.getByRole('table', { name: 'Samples of this manifest' });
  await expect(samples.getByRole('row')).toHaveCount(4);
  await expect(samples.getByRole('row', { name: /FD90000000/ })).toContainText('pending');

  const other = await browser.newPage();
  await signIn(other, { username: 'dtol-manager', password: 'dtol-manager-pw' });
  await other.goto('/manifests/review');
  await other.getByLabel('Select sample FD90000000').check();
  await other.getByRole('button', { name: 'Accept selected (1)' }).click();
  await expect(other.getByText('1 accepted.')).toBeVisible();
  await expect(other.getByLabel('Select sample FD90000000')).toHaveCount(0);
  await other.close();

  await page.reload();
  await expect(samples.getByRole('row', { name: /FD90000000/ })).toContainText('processing');
  await expect(samples.getByRole('row', { name: /FD90000001/ })).toContainText('pending');
  await samples.getByRole('row', { name: /FD90000000/ }).getByRole('link').click();
  await expect(page.getByRole('list', { name: 'Changes, newest first' })).toContainText('pending → processing');
});
