import { mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from '../tests/fixtures/manifests/generate';
import { signIn } from './helpers';

const SHOTS = 'e2e/screenshots';
mkdirSync(SHOTS, { recursive: true });
let step = 0;
const shot = (page: Page, name: string) => page.screenshot({ path: `${SHOTS}/journey-${String(++step).padStart(2, '0')}-${name}.png`, fullPage: true });

const erga = currentDefinition('erga');
// tubes and specimens no other browser test uses
const rows: Record<string, string>[] = validRows(erga, 202).slice(200).map((r, i) => ({ ...r, TUBE_OR_WELL_ID: `FDJ${String(i + 1).padStart(7, '0')}` }));

async function fillTemplate(template: Buffer, values: Record<string, string>[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template as unknown as ExcelJS.Buffer);
  const sheet = wb.getWorksheet('Metadata Entry')!;
  const headers: string[] = [];
  sheet.getRow(1).eachCell((cell, col) => (headers[col] = String(cell.value ?? '').trim()));
  values.forEach((v, i) => {
    const row = sheet.getRow(i + 2);
    headers.forEach((h, col) => {
      if (h && v[h]) row.getCell(col).value = v[h]!;
    });
    row.commit();
  });
  return Buffer.from(await wb.xlsx.writeBuffer());
}

const sampleCount = async (page: Page) => Number(await page.locator('dl.cards div', { hasText: 'Samples' }).locator('dd').first().textContent());

test('one journey: ERGA profile → manifest with an error → fixed → confirmed → approved → registered at ENA → seen in the browsers and the dashboard', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signIn(page);
  await page.goto('/admin/stats');
  await expect(page.getByRole('heading', { name: 'Totals' })).toBeVisible();
  const samplesBefore = await sampleCount(page);
  await shot(page, 'dashboard-before');

  // a profile of the ERGA project
  await page.goto('/profiles/new');
  const form = page.getByRole('form', { name: 'Create profile' });
  await form.getByLabel('Title').fill('ERGA Pyrenean beetles journey');
  await form.getByLabel('Description').fill('Coleoptera from the Pyrenees, sequenced at CNAG');
  await form.getByLabel('Type').selectOption('erga');
  await form.getByLabel('Biodiversity Genomics Europe (BGE)').check();
  await form.getByLabel('Sequencing centres').selectOption(['CNAG']);
  await form.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.getByRole('heading', { name: 'ERGA Pyrenean beetles journey' })).toBeVisible();
  await shot(page, 'profile');

  // the blank template, filled as a submitter would, with one mistake
  await page.goto('/manifests');
  await page.getByLabel('Profile').selectOption({ label: 'ERGA Pyrenean beetles journey (ERGA)' });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download the blank ERGA template' }).click()]);
  expect(download.suggestedFilename()).toBe(`ERGA_manifest_template_v${erga.version}.xlsx`);
  const template = await readFile((await download.path())!);
  const broken = rows.map((r) => ({ ...r }));
  broken[1]!.DECIMAL_LATITUDE = '123.5';
  await page.getByTestId('manifest-input').setInputFiles({ name: 'beetles.xlsx', mimeType: 'application/octet-stream', buffer: await fillTemplate(template, broken) });
  const errors = page.getByRole('table', { name: /Errors: fix these cells/ });
  const latColumn = erga.fields.find((f) => f.name === 'DECIMAL_LATITUDE')!.column;
  await expect(errors.getByRole('row', { name: new RegExp(`${latColumn}3 DECIMAL_LATITUDE 123\\.5`) })).toBeVisible({ timeout: 60_000 });
  await shot(page, 'report-with-error');

  await page.getByTestId('manifest-input').setInputFiles({ name: 'beetles-fixed.xlsx', mimeType: 'application/octet-stream', buffer: await fillTemplate(template, rows) });
  await expect(page.getByText(/2 rows, 0 errors/)).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Confirm and create the samples' }).click();
  await expect(page.getByText('2 samples created, 0 updated.')).toBeVisible();
  await shot(page, 'confirmed');

  // an ERGA sample manager approves and registers them at ENA (the local test server)
  const created = await page.request.post('/api/admin/users', {
    data: { username: 'erga-curator', password: 'erga-curator-pw', member_of: ['erga'], manager_of: ['erga'] },
  });
  expect(created.status()).toBe(201);
  const curator = await browser.newPage();
  await signIn(curator, { username: 'erga-curator', password: 'erga-curator-pw' });
  await curator.goto('/manifests/review');
  for (const r of rows) await curator.getByLabel(`Select sample ${r.TUBE_OR_WELL_ID}`).check();
  await curator.getByRole('button', { name: 'Accept selected (2)' }).click();
  await curator.getByRole('button', { name: 'Register the 2 accepted samples at ENA' }).click();
  await expect(curator.getByText('Registration queued.')).toBeVisible();
  await shot(curator, 'approved-and-queued');
  await curator.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Submissions' }).click();
  const submissions = curator.getByRole('table', { name: 'Submissions to public repositories' });
  await expect(submissions.getByRole('row', { name: /2 samples/ }).first()).toContainText('accepted', { timeout: 60_000 });
  await expect(submissions.getByRole('row', { name: /2 samples/ }).first()).toContainText(/SAMEA\d+/);
  await shot(curator, 'submission-accepted');
  await curator.close();

  // the accession in the samples browser
  await page.goto(`/samples?project=erga&scientific_name=${encodeURIComponent(rows[0]!.SCIENTIFIC_NAME!.split(' ')[0]!)}`);
  const table = page.getByRole('table', { name: /Samples matching the filter/ });
  await expect(table.getByRole('row', { name: new RegExp(rows[0]!.TUBE_OR_WELL_ID!) })).toContainText(/SAMEA\d+/, { timeout: 30_000 });
  await shot(page, 'samples-browser');

  // a system update in the audit browser
  await page.goto('/audit?update_type=system&project=erga&field=biosampleAccession');
  const audit = page.getByRole('table', { name: 'Changes to samples, newest first' });
  await expect(audit.getByRole('row').filter({ hasText: /SAMEA\d+/ }).first()).toBeVisible({ timeout: 30_000 });
  await shot(page, 'audit-browser');

  // the counts moved
  await page.goto('/admin/stats');
  await expect.poll(() => sampleCount(page), { timeout: 30_000 }).toBe(samplesBefore + 2);
  await shot(page, 'dashboard-after');
});
