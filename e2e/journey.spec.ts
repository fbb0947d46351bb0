import { readFile } from 'node:fs/promises';
import { expect, type Page, type TestInfo, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { currentDefinition } from '@/lib/manifests';
import { validRow } from '../tests/fixtures/manifests/generate';
import { minimalPdf } from '../tests/fixtures/pdf';
import { createUser, navigateTo, screenshot, signIn, unique } from './helpers';

let step = 0;
const shot = (page: Page, testInfo: TestInfo, name: string) =>
  screenshot(page, testInfo, `journey-${String(++step).padStart(2, '0')}-${name}`);

const erga = currentDefinition('erga');

/** Two rows no other browser test (nor this one in the other project) uses: tubes and specimens follow the index. */
function freshRows(): Record<string, string>[] {
  const base = 100_000 + Math.floor(Math.random() * 800_000);
  return [validRow(erga, base), validRow(erga, base + 1)];
}

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

const sampleCount = async (page: Page) =>
  Number(await page.locator('dl.cards div', { hasText: 'Samples' }).locator('dd').first().textContent());

test('one journey: ERGA profile → manifest with an error → fixed → confirmed → approved → registered at ENA → seen in the browsers and the dashboard', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  step = 0;
  const rows = freshRows();
  const title = unique(testInfo, 'ERGA Pyrenean beetles');
  await signIn(page);
  await navigateTo(page, 'Stats');
  await expect(page.getByRole('heading', { name: 'Totals' })).toBeVisible();
  const samplesBefore = await sampleCount(page);
  await shot(page, testInfo, 'dashboard-before');

  // a profile of the ERGA project
  await navigateTo(page, 'Profiles');
  await page.getByRole('link', { name: 'New profile' }).click();
  const form = page.getByRole('form', { name: 'Create profile' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description').fill('Coleoptera from the Pyrenees, sequenced at CNAG');
  await form.getByLabel('Type').selectOption('erga');
  await form.getByLabel('Biodiversity Genomics Europe (BGE)').check();
  await form
    .getByRole('group', { name: /Sequencing centres/ })
    .getByRole('checkbox', { name: 'CENTRO NACIONAL DE ANÁLISIS GENÓMICO' })
    .check();
  await form.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await shot(page, testInfo, 'profile');

  // the blank template, filled as a submitter would, with one mistake
  await navigateTo(page, 'Manifests');
  await page.getByLabel('Profile').selectOption({ label: `${title} (ERGA)` });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download the blank ERGA template' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`ERGA_manifest_template_v${erga.version}.xlsx`);
  const template = await readFile((await download.path())!);
  const broken = rows.map((r) => ({ ...r }));
  broken[1]!.DECIMAL_LATITUDE = '123.5';
  await page
    .getByTestId('manifest-input')
    .setInputFiles({ name: 'beetles.xlsx', mimeType: 'application/octet-stream', buffer: await fillTemplate(template, broken) });
  await expect(page).toHaveURL(/\/manifests\/reports\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  const summary = page.getByTestId('validation-report');
  await expect(summary.getByRole('heading', { name: /1 error to fix/ })).toBeVisible({ timeout: 60_000 });
  const latitude = page.getByRole('button', { name: /DECIMAL_LATITUDE · coordinate malformed or out of range · 1 row/ });
  await latitude.click();
  const latColumn = erga.fields.find((f) => f.name === 'DECIMAL_LATITUDE')!.column;
  await expect(
    page
      .getByRole('table', { name: /Errors: fix these cells — DECIMAL_LATITUDE/ })
      .getByRole('row', { name: new RegExp(`^${latColumn}3 tube ${broken[1]!.TUBE_OR_WELL_ID} (Value )?123\\.5`) }),
  ).toBeVisible();
  await shot(page, testInfo, 'report-with-error');

  // the corrected sheet, from the report's own upload
  const firstReport = page.url();
  await page
    .getByTestId('manifest-input')
    .setInputFiles({ name: 'beetles-fixed.xlsx', mimeType: 'application/octet-stream', buffer: await fillTemplate(template, rows) });
  await expect(page).not.toHaveURL(firstReport, { timeout: 30_000 });
  // its permit is still to come: the badge says so, as the Confirm button does
  await expect(summary.getByRole('heading', { name: /1 permit to upload/ })).toBeVisible({ timeout: 60_000 });
  await expect(summary).toContainText('2 rows, 0 errors');
  // ERGA: the sampling permit the rows name, as a real PDF, before confirming
  const permitName = rows[0]!.SAMPLING_PERMITS_FILENAME!;
  await expect(page.getByRole('region', { name: /Permits: 0 of 1 received/ })).toContainText(permitName);
  const confirm = page.getByRole('button', { name: 'Confirm and create the samples' });
  await expect(confirm).toBeDisabled();
  await page
    .getByTestId('permit-input')
    .setInputFiles({ name: permitName, mimeType: 'application/pdf', buffer: minimalPdf('Sampling permit') });
  await expect(page.getByRole('region', { name: /Permits: 1 of 1 received/ })).toBeVisible();
  await confirm.click();
  await expect(page.getByRole('status').filter({ hasText: 'Confirmed: 2 samples created, 0 updated.' })).toBeVisible();
  await shot(page, testInfo, 'confirmed');

  // an ERGA sample manager who approves BGE (the profile's one type that needs approval) sees them waiting, accepts
  // both after confirming, and follows them to ENA: no other step
  const curatorUser = await createUser(page.request, testInfo, { memberOf: ['erga'], managerOf: ['erga'], approverOf: ['BGE'] });
  const curator = await browser.newPage({ viewport: page.viewportSize()! });
  await signIn(curator, curatorUser);
  await navigateTo(curator, 'Review queue');
  await expect(curator.getByRole('heading', { name: 'Review queue', level: 1 })).toBeVisible();
  await curator.getByLabel('Select all 2 samples of beetles-fixed.xlsx').check();
  await curator.getByRole('button', { name: 'Accept selected (2)' }).click();
  await curator.getByRole('button', { name: 'Accept 2 samples' }).click();
  await expect(curator.getByRole('status').filter({ hasText: 'Decision recorded: 2 accepted.' })).toBeVisible();
  const decided = curator.getByRole('table', { name: 'Samples of beetles-fixed.xlsx decided lately' });
  for (const r of rows) {
    await expect(decided.getByRole('row', { name: new RegExp(r.TUBE_OR_WELL_ID!) })).toContainText(/Registered at ENA as SAMEA\d+/, {
      timeout: 60_000,
    });
  }
  await shot(curator, testInfo, 'approved-and-registered');
  await navigateTo(curator, 'Submissions');
  const submissions = curator.getByRole('table', { name: 'Submissions to public repositories' });
  await expect(submissions.getByRole('row', { name: new RegExp(`Registered 2 samples at ENA.*${title}`) })).toContainText('Done', {
    timeout: 30_000,
  });
  await expect(submissions).toContainText(new RegExp(`Specimen erga/${rows[0]!.SPECIMEN_ID}: BioSample SAMEA\\d+`));
  await shot(curator, testInfo, 'submission-accepted');
  await curator.close();

  // the accession in the samples browser
  await page.goto(`/samples?project=erga&scientific_name=${encodeURIComponent(rows[0]!.SCIENTIFIC_NAME!.split(' ')[0]!)}`);
  const table = page.getByRole('table', { name: /Samples matching the filter/ });
  await expect(table.getByRole('row', { name: new RegExp(rows[0]!.TUBE_OR_WELL_ID!) })).toContainText(/SAMEA\d+/, { timeout: 30_000 });
  await shot(page, testInfo, 'samples-browser');

  // a system update in the audit browser
  await page.goto('/audit?update_type=system&project=erga&field=biosampleAccession');
  const audit = page.getByRole('table', { name: 'Changes to samples, newest first' });
  await expect(
    audit
      .getByRole('row')
      .filter({ hasText: /SAMEA\d+/ })
      .first(),
  ).toBeVisible({ timeout: 30_000 });
  await shot(page, testInfo, 'audit-browser');

  // one sample's changes: from its page to the audit filtered to it, the filter kept in the address
  const tube = rows[0]!.TUBE_OR_WELL_ID!;
  await audit.getByRole('link', { name: tube, exact: true }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(tube);
  await page.getByRole('link', { name: 'All changes to this sample' }).click();
  await expect(page).toHaveURL(/\/audit\?svc_id=[0-9a-f]{24}$/);
  const svcId = new URL(page.url()).searchParams.get('svc_id')!;
  const oneSample = page.getByRole('table', { name: 'Changes to samples, newest first' });
  const sampleLinks = oneSample.getByRole('link');
  await expect(sampleLinks.first()).toBeVisible({ timeout: 30_000 });
  await expect(
    oneSample
      .getByRole('row')
      .filter({ hasText: /SAMEA\d+/ })
      .first(),
  ).toBeVisible();
  expect(new Set(await sampleLinks.allTextContents())).toEqual(new Set([tube]));
  await page.reload();
  await expect(page.getByText('Filters (1 set)')).toBeAttached();
  if ((page.viewportSize()?.width ?? 1366) <= 600) {
    // on a phone the fold is closed as the server sends it, whatever it holds
    await expect(page.locator('details.filter-fold')).not.toHaveAttribute('open');
    await expect(page.getByLabel('Sample (svc_id)')).toBeHidden();
    await page.getByText('Filters (1 set)').click();
  }
  await expect(page.getByLabel('Sample (svc_id)')).toBeVisible();
  await expect(page.getByLabel('Sample (svc_id)')).toHaveValue(svcId);
  // the same sample by its tube, through the form
  await page.getByLabel('Sample (svc_id)').fill('');
  await page.getByLabel('Tube or well (exactly)').fill(tube);
  await page.getByRole('button', { name: 'Apply filter' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]tube=${tube}(&|$)`));
  await expect(sampleLinks.first()).toBeVisible({ timeout: 30_000 });
  expect(new Set(await sampleLinks.allTextContents())).toEqual(new Set([tube]));
  await shot(page, testInfo, 'audit-one-sample');

  // the counts moved (by at least these two: the other project's tests may run alongside on the same server)
  await navigateTo(page, 'Stats');
  await expect.poll(() => sampleCount(page), { timeout: 30_000 }).toBeGreaterThanOrEqual(samplesBefore + 2);
  await shot(page, testInfo, 'dashboard-after');
});
