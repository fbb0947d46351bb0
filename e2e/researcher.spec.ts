import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { currentDefinition, type ManifestDefinition } from '@/lib/manifests';
import { validRow } from '../tests/fixtures/manifests/generate';
import { toXlsx } from '../tests/fixtures/manifests/workbook';
import { minimalPdf } from '../tests/fixtures/pdf';
import { createUser, E2E_ADMIN, expectNoSidewaysScroll, FROM_PORTAL, screenshot, signIn, unique } from './helpers';

/**
 * The researcher's journey with manifests: a manifest with errors → its report as a page (after a reload, and opened
 * by a colleague from its address; a stranger gets the 404) → the errors grouped with counts, a group opened and paged,
 * the severity filter → the corrected upload → an ERGA manifest naming a permit, confirmed only once its PDF has been
 * dropped in the permit step → a PDF dropped on the manifest upload refused beside the drop zone.
 */

const dtol = currentDefinition('dtol');
const erga = currentDefinition('erga');
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Rows no other test uses (tubes, racks and specimens follow the row's index). */
function rowsFor(definition: ManifestDefinition, n: number): Record<string, string>[] {
  // below 900,000: an ERGA specimen id takes the index's hundreds as four digits
  const base = 100_000 + Math.floor(Math.random() * 800_000);
  return Array.from({ length: n }, (_, i) => validRow(definition, base + i));
}

async function workbook(definition: ManifestDefinition, rows: Record<string, string>[]): Promise<Buffer> {
  return Buffer.from(
    await toXlsx(
      definition.fields.map((f) => f.name),
      rows,
      { typed: true },
    ),
  );
}

async function uploadManifest(page: Page, name: string, buffer: Buffer) {
  await page.getByTestId('manifest-input').setInputFiles({ name, mimeType: XLSX, buffer });
  await expect(page).toHaveURL(/\/manifests\/reports\/[0-9a-f-]{36}$/, { timeout: 30_000 });
}

const shot = (page: Page, testInfo: TestInfo, name: string) => screenshot(page, testInfo, `researcher-${name}`);

test('a researcher’s manifests: a report with errors as a page, a corrected upload, an ERGA permit, a wrong file', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const researcher = await createUser(page.request, testInfo, { memberOf: ['dtol', 'erga'] });
  const stranger = await createUser(page.request, testInfo, { memberOf: ['dtol'] });
  await signIn(page, researcher);
  const dtolTitle = unique(testInfo, 'Wytham moths');
  const ergaTitle = unique(testInfo, 'Pyrenean beetles');
  for (const data of [
    { title: dtolTitle, description: 'Lepidoptera from Wytham Woods', type: 'dtol' },
    { title: ergaTitle, description: 'Coleoptera', type: 'erga', associated_type: ['BGE'], sequencing_centre: ['CNAG'] },
  ]) {
    const res = await page.request.post('/api/profiles', { headers: FROM_PORTAL, data });
    expect(res.status(), await res.text()).toBe(201);
  }

  // 30 rows with a SEX no vocabulary holds, two latitudes out of range, and one lower-case life stage (a warning)
  const rows = rowsFor(dtol, 30);
  const broken: Record<string, string>[] = rows.map((r) => ({ ...r, SEX: 'sometimes' }));
  broken[3]!.DECIMAL_LATITUDE = '123.5';
  broken[7]!.DECIMAL_LATITUDE = '-95';
  broken[5]!.LIFESTAGE = broken[5]!.LIFESTAGE!.toLowerCase();

  await page.goto('/manifests');
  await expect(page.getByRole('heading', { name: 'Manifests', level: 1 })).toBeVisible();
  await page.getByLabel('Profile').selectOption({ label: `${dtolTitle} (DTOL)` });
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '01-manifests');

  await uploadManifest(page, 'wytham-moths.xlsx', await workbook(dtol, broken));
  const reportUrl = page.url();
  const summary = page.getByTestId('validation-report');
  await expect(summary.getByRole('heading', { name: /32 errors to fix/ })).toBeVisible({ timeout: 60_000 });
  await expect(summary).toContainText('30 rows, 32 errors, 1 warning');
  await expect(summary).toContainText(dtolTitle);
  await expect(page.getByRole('button', { name: /^Confirm/ })).toHaveCount(0);

  const groups = page.getByRole('list', { name: /groups? of issues/ });
  const sex = groups.getByRole('button', { name: /SEX · not one of the allowed values · 30 rows/ });
  const latitude = groups.getByRole('button', { name: /DECIMAL_LATITUDE · coordinate malformed or out of range · 2 rows/ });
  await expect(sex).toBeVisible();
  await expect(latitude).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '02-report-with-errors');

  // the report survives a reload, its groups coming with the page: the browser asks the API nothing for them
  const asked: string[] = [];
  page.on('request', (r) => {
    if (/^\/api\/manifest\/validate\/report\/.+\/groups$/.test(new URL(r.url()).pathname)) asked.push(r.url());
  });
  await page.reload();
  await expect(sex).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  expect(asked).toEqual([]);

  // a group opened: the vocabulary as a list, the cells a page at a time
  await sex.click();
  await expect(sex).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByText(/The \d+ values SEX allows/)).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: /^FEMALE$/ })).toBeVisible();
  const cells = page.getByRole('table', { name: /Errors: fix these cells — SEX/ });
  await expect(cells.getByRole('row')).toHaveCount(26);
  await expect(
    // each cell names its sample's tube; on a phone the card names each value by its column
    cells.getByRole('row', {
      name: new RegExp(`^${dtol.fields.find((f) => f.name === 'SEX')!.column}2 tube ${broken[0]!.TUBE_OR_WELL_ID} (Value )?sometimes`),
    }),
  ).toBeVisible();
  const sexPanel = page.locator(`#${await sex.getAttribute('aria-controls')}`);
  await expect(sexPanel.getByText('1–25 of 30 cells').first()).toBeVisible();
  await sexPanel.getByRole('link', { name: 'Next' }).first().click();
  await expect(sexPanel.getByText('26–30 of 30 cells').first()).toBeVisible();
  await expect(cells.getByRole('row')).toHaveCount(6);
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '03-group-opened');

  // the severity filter
  await page.getByRole('radio', { name: /^Warnings \(1\)/ }).check();
  await expect(groups.getByRole('button', { name: /LIFESTAGE · spelling replaced by the allowed value · 1 row/ })).toBeVisible();
  await expect(sex).toHaveCount(0);
  await page.getByRole('radio', { name: /^Errors \(32\)/ }).check();
  await expect(sex).toBeVisible();
  await expect(groups.getByRole('button', { name: /LIFESTAGE/ })).toHaveCount(0);
  await shot(page, testInfo, '04-errors-only');

  // a colleague who may see the profile (an admin) opens the report from its address; a stranger gets the 404
  const viewport = page.viewportSize()!;
  const colleague = await browser.newPage({ viewport });
  await signIn(colleague, E2E_ADMIN);
  await colleague.goto(reportUrl);
  await expect(colleague.getByRole('button', { name: /SEX · not one of the allowed values · 30 rows/ })).toBeVisible({ timeout: 30_000 });
  await expect(colleague.getByTestId('validation-report')).toContainText(researcher.username);
  await colleague.close();
  const other = await browser.newPage({ viewport });
  await signIn(other, stranger);
  await other.goto(reportUrl);
  await expect(other.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expectNoSidewaysScroll(other);
  await other.close();

  // the corrected file, uploaded from the report
  await expect(page.getByRole('heading', { name: 'Upload the corrected manifest' })).toBeVisible();
  await uploadManifest(page, 'wytham-moths-fixed.xlsx', await workbook(dtol, rows));
  expect(page.url()).not.toBe(reportUrl);
  await expect(summary.getByRole('heading', { name: /Ready to confirm/ })).toBeVisible({ timeout: 60_000 });
  await expect(summary).toContainText('30 rows, 0 errors');
  await shot(page, testInfo, '05-corrected');
  await page.getByRole('button', { name: 'Confirm and create the samples' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Confirmed: 30 samples created, 0 updated.' })).toBeVisible();
  await page.getByRole('link', { name: 'Open the manifest and its samples' }).click();
  const samples = page.getByRole('table', { name: 'Samples of this manifest' });
  await expect(samples.getByRole('row', { name: new RegExp(rows[0]!.TUBE_OR_WELL_ID!) })).toContainText('Awaiting review');
  await expect(page.getByText('1–30 of 30 samples').first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '06-manifest');

  // ERGA: the manifest names a sampling permit; Confirm waits for its PDF
  const permitName = `${unique(testInfo, 'sampling permit').replace(/\W+/g, '_')}.pdf`;
  const ergaRows = rowsFor(erga, 1).map((r) => ({ ...r, SAMPLING_PERMITS_REQUIRED: 'Y', SAMPLING_PERMITS_FILENAME: permitName }));
  await page.goto('/manifests');
  await page.getByLabel('Profile').selectOption({ label: `${ergaTitle} (ERGA)` });
  await uploadManifest(page, 'beetles.xlsx', await workbook(erga, ergaRows));
  // the badge says what the Confirm button waits for
  await expect(summary.getByRole('heading', { name: /1 permit to upload/ })).toBeVisible({ timeout: 60_000 });
  const permits = page.getByRole('region', { name: 'Permits: 0 of 1 received' });
  await expect(permits).toContainText(permitName);
  const confirm = page.getByRole('button', { name: 'Confirm and create the samples' });
  await expect(confirm).toBeDisabled();
  await expect(page.getByText(`Upload the permit above first (${permitName}).`)).toBeVisible();
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '07-permit-missing');
  // the scan is called something else on the researcher's disk: dropped on its line, it is stored under the manifest's name
  await page
    .getByTestId('permit-input')
    .setInputFiles({ name: 'scan-0001.pdf', mimeType: 'application/pdf', buffer: minimalPdf('Sampling permit') });
  await expect(page.getByRole('region', { name: 'Permits: 1 of 1 received' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: `scan-0001.pdf received as ${permitName}.` })).toBeVisible();
  await expect(confirm).toBeEnabled();
  await expect(summary.getByRole('heading', { name: /Ready to confirm/ })).toBeVisible();
  await shot(page, testInfo, '08-permit-received');
  await confirm.click();
  await expect(page.getByRole('status').filter({ hasText: 'Confirmed: 1 sample created, 0 updated.' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Find its samples in the samples browser' })).toHaveAttribute(
    'href',
    /\/samples\?manifest_id=/,
  );
  await shot(page, testInfo, '09-erga-confirmed');

  // the reports are listed on the Manifests page with their state, each linking to its page
  await page.goto('/manifests');
  const reports = page.getByRole('table', { name: 'Your validation reports' });
  await expect(reports.getByRole('row', { name: /beetles\.xlsx.*Confirmed/ })).toBeVisible();
  await expect(reports.getByRole('row', { name: /wytham-moths\.xlsx.*32 errors to fix/ })).toBeVisible();
  await expect(reports.getByRole('link', { name: 'wytham-moths.xlsx' })).toHaveAttribute('href', new URL(reportUrl).pathname);

  // a PDF dropped on the manifest upload is refused beside the drop zone, saying why
  await page.getByLabel('Profile').selectOption({ label: `${dtolTitle} (DTOL)` });
  await page
    .getByTestId('manifest-input')
    .setInputFiles({ name: 'permit.pdf', mimeType: 'application/pdf', buffer: minimalPdf('not a manifest') });
  const refusal = page.getByRole('alert').filter({ hasText: 'permit.pdf is a PDF, not a manifest' });
  await expect(refusal).toBeVisible();
  await expect(page.getByTestId('manifest-dropzone')).toHaveAttribute('aria-describedby', (await refusal.getAttribute('id'))!);
  await expect(page).toHaveURL(/\/manifests$/);
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '10-wrong-file-type');
});
