import { expect, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from '../tests/fixtures/manifests/generate';
import { createUser, expectAccessible, expectNoSidewaysScroll, keyHeaders, screenshot, signIn, unique } from './helpers';
import { confirmedManifest } from './manifests';

/**
 * A provider downloads a pre-filled template from their profile's page: the common columns offer the values the
 * profile's samples used before, a value a column refuses is named beside it, and the workbook downloads. At 1366 and
 * 375 px (the two projects of playwright.config.ts), with axe.
 */

const dtol = currentDefinition('dtol');

test('download a pre-filled template from the profile page, offered the values used before', async ({ page, request }, testInfo) => {
  test.setTimeout(120_000);
  const user = await createUser(request, testInfo, { memberOf: ['dtol'] });
  const headers = await keyHeaders(request, user);
  const title = unique(testInfo, 'Pre-filled moths');
  const created = await request.post('/api/profiles', { headers, data: { title, description: '', type: 'dtol' } });
  expect(created.status(), await created.text()).toBe(201);
  const profileId = ((await created.json()) as { id: string }).id;
  const seed = Math.floor(Math.random() * 1e6);
  const rows = validRows(dtol, 2).map((r, i) => ({
    ...r,
    COLLECTED_BY: 'Ada Collector',
    TUBE_OR_WELL_ID: `FD${String(70_000_000 + seed * 10 + i).padStart(8, '0')}`,
    SPECIMEN_ID: `SAN${String(7_000_000 + seed + i * 1_000_003).slice(-7)}`,
  }));
  await confirmedManifest(request, { profileId, fileName: 'prefill-source.xlsx', rows, headers });

  await signIn(page, user);
  await page.goto(`/profiles/${profileId}`);
  const form = page.getByRole('form', { name: 'Download a pre-filled template' });
  await expect(form).toBeVisible();
  const collector = form.getByLabel(/COLLECTED_BY/);
  await expect(collector).toBeVisible();
  // the value this profile's samples used is offered
  const listId = await collector.getAttribute('list');
  expect(listId).toBeTruthy();
  await expect(page.locator(`datalist[id="${listId}"] option[value="Ada Collector"]`)).toHaveCount(1);
  await expect(form.getByLabel(/^Rows to fill/)).toHaveValue('10');
  await expectAccessible(page, 'the profile page with the pre-fill form');
  await expectNoSidewaysScroll(page);

  // a value the column refuses is named beside it, and nothing downloads
  await form.getByLabel(/COLLECTION_LOCATION/).fill('Atlantis');
  await form.getByRole('button', { name: 'Download the pre-filled template' }).click();
  await expect(form.getByRole('alert').filter({ hasText: 'Atlantis' })).toBeVisible();
  await expect(form.getByText('Please correct the values marked above.')).toBeVisible();
  await expect(form.getByLabel(/COLLECTION_LOCATION/)).toHaveAttribute('aria-invalid', 'true');
  await screenshot(page, testInfo, 'prefilled-template-refused');
  await expectAccessible(page, 'the pre-fill form with a refused value');

  // corrected: the workbook downloads
  await form.getByLabel(/COLLECTION_LOCATION/).fill('United Kingdom');
  await collector.fill('Ada Collector');
  await form.getByLabel(/\bGAL$/).selectOption('SANGER INSTITUTE');
  await form.getByLabel(/^Rows to fill/).fill('2');
  const download = page.waitForEvent('download');
  await form.getByRole('button', { name: 'Download the pre-filled template' }).click();
  expect((await download).suggestedFilename()).toBe(`DTOL_manifest_template_v${dtol.version}_prefilled.xlsx`);
  await expect(form.getByRole('status')).toContainText('2 rows with 3 columns filled in');
  await expectAccessible(page, 'the pre-fill form after a download');
  await expectNoSidewaysScroll(page);
});
