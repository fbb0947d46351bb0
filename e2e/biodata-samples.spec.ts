import { readFile } from 'node:fs/promises';
import { type Download, expect, type Page, test } from '@playwright/test';
import type { ChecklistField } from '@/lib/sample-checklists/contract';
import { fillSampleSheet, validSampleRows } from '../tests/fixtures/biodata/sheet';
import { createUser, expectAccessible, expectNoSidewaysScroll, navigateTo, screenshot, signIn, unique } from './helpers';

/**
 * A researcher outside the Tree of Life registers samples: a biodata profile's Samples, a checklist found by name,
 * its template filled (first with a mistake), the report, confirm, register held private until a day, the accessions
 * in the list and on the sample's page.
 */

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { download, bytes: await readFile((await download.path())!) };
}

/** Hands the file to the drop zone's input, as choosing it in the file dialog does. */
async function choose(page: Page, name: string, bytes: Uint8Array) {
  await page.getByTestId('sample-sheet-input').setInputFiles({ name, mimeType: 'application/octet-stream', buffer: Buffer.from(bytes) });
}

test('a biodata researcher registers samples of an ENA checklist, held private until a day they choose', async ({
  page,
  request,
}, testInfo) => {
  const researcher = await createUser(request, testInfo);
  const title = unique(testInfo, 'Soil microbes');
  await signIn(page, researcher);
  await navigateTo(page, 'Profiles');
  await page.getByRole('link', { name: 'New profile' }).click();
  const form = page.getByRole('form', { name: 'Create profile' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description').fill('Soil samples from Wytham Woods');
  await form.getByLabel('Type').selectOption('biodata');
  await form.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();

  const samples = page.getByRole('region', { name: 'Samples', exact: true });
  await expect(samples.getByText('No samples yet')).toBeVisible();
  const add = page.getByRole('region', { name: 'Add samples' });
  await add.getByLabel('Find a checklist').fill('default');
  await expect(add.getByText(/\d+ of \d+ checklists match/)).toBeVisible();
  await add.getByLabel('Checklist', { exact: true }).selectOption('ERC000011');
  await expect(add.getByText(/\d+ fields, \d+ of them mandatory/)).toBeVisible();
  await expectAccessible(page, 'a biodata profile’s page');
  await expectNoSidewaysScroll(page);

  const template = await downloaded(page, () => add.getByRole('link', { name: 'Download the ERC000011 template' }).click());
  expect(template.download.suggestedFilename()).toMatch(/^ERC000011_samples_\w+\.xlsx$/);
  const fields = ((await (await request.get('/api/sample/checklists/ERC000011')).json()) as { fields: ChecklistField[] }).fields;
  const rows = validSampleRows(fields, 2, 'soil-core-');
  // a mistake first: a date that does not exist
  const wrong = rows.map((r, i) => (i === 1 ? { ...r, 'collection date': '2024-02-30' } : r));
  await choose(page, 'soil-cores.xlsx', await fillSampleSheet(template.bytes, wrong));
  await expect(page.getByRole('heading', { name: /Validation report/ })).toBeVisible();
  const report = page.getByTestId('validation-report');
  await expect(report.getByText('1 error to fix')).toBeVisible({ timeout: 30_000 });
  await expect(report.getByText('ERC000011 sample sheet')).toBeVisible();
  await page.getByText('collection date · not a date in the expected format').click();
  await expect(page.getByText(/Invalid date: 2024-02-30 in column collection date at row 3\. This date does not exist/)).toBeVisible();
  await expect(page).toHaveTitle(/Validation report/);
  await expectAccessible(page, 'a sample sheet’s report');
  await screenshot(page, testInfo, 'biodata-report-errors');

  // the corrected sheet, from the profile's page with the checklist still picked
  await report.getByRole('link', { name: 'Upload the corrected ERC000011 sheet' }).click();
  await expect(page.getByRole('link', { name: 'Download the ERC000011 template' })).toBeVisible();
  await choose(page, 'soil-cores.xlsx', await fillSampleSheet(template.bytes, rows));
  await expect(page.getByTestId('validation-report').getByText('Ready to confirm')).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText('2 samples will be stored in the profile, not yet sent')).toBeVisible();
  const confirm = page.getByRole('button', { name: 'Confirm and store the samples' });
  await confirm.click();
  await expect(page.getByText('Confirmed: 2 samples created, 0 updated.')).toBeVisible();
  await page.getByRole('link', { name: 'Register the samples at ENA from the profile’s Samples' }).click();

  // back on the profile: both samples kept here, ticked and registered, held until a day
  const list = page.getByRole('table', { name: /Samples of this profile/ });
  await expect(list.getByText('Confirmed, not registered')).toHaveCount(2);
  await expectNoSidewaysScroll(page);
  await page.getByRole('checkbox', { name: /Select the 2 samples on this page/ }).check();
  const held = new Date(Date.now() + 180 * 24 * 3600 * 1000).toISOString().slice(0, 10);
  await page.getByLabel('Keep private until').check();
  await page.getByLabel('Release date').fill(held);
  await expectAccessible(page, 'the register form');
  await screenshot(page, testInfo, 'biodata-register');
  await page.getByRole('button', { name: 'Register 2 samples at ENA' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sent to ENA: 2 samples on the way' })).toBeVisible();
  await expect(list.getByText('Registered at ENA')).toHaveCount(2, { timeout: 30_000 });
  await expect(list.locator('.accession-id')).toHaveCount(2);
  await screenshot(page, testInfo, 'biodata-registered');
  await expect(list.getByText(`private at ENA until ${held}`)).toHaveCount(2);

  // a sample's page: its state, accession, history and fields; the search finds it by accession
  await list.getByRole('link', { name: 'soil-core-1' }).click();
  await expect(page.getByRole('heading', { name: /soil-core-1/, level: 1 })).toBeVisible();
  const accession = (await page.locator('.accession-id').first().textContent())!.trim();
  expect(accession).toMatch(/^SAMEA\d+$/);
  await expect(page.getByText('Registering at ENA → Registered at ENA')).toBeVisible();
  await expect(page.getByRole('button', { name: /Delete/ })).toBeDisabled();
  await expect(page).toHaveTitle(/Sample/);
  await expectAccessible(page, 'a biodata sample’s page');
  await screenshot(page, testInfo, 'biodata-sample');
  await expectNoSidewaysScroll(page);
  await page.getByRole('link', { name: /← Samples of/ }).click();
  await page.getByLabel('Find a sample').fill(accession);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('table', { name: /matching/ }).getByRole('link', { name: 'soil-core-1' })).toBeVisible();
  await expect(page.getByRole('table', { name: /matching/ }).getByRole('link', { name: 'soil-core-2' })).toHaveCount(0);
  // the address keeps the search: a reload shows the same
  await page.reload();
  await expect(page.getByRole('table', { name: /matching/ }).getByRole('link', { name: 'soil-core-1' })).toBeVisible();
});
