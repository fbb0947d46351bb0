import { expect, type Page, type TestInfo, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import { validRow } from '../tests/fixtures/manifests/generate';
import { createUser, expectAccessible, expectNoSidewaysScroll, FROM_PORTAL, screenshot, signIn, unique } from './helpers';
import { confirmedManifest, validatedManifest } from './manifests';

/**
 * Removing a mistaken upload, at both widths: a validation report that was never confirmed, deleted from its page
 * through the confirmation that names it, and a pending sample deleted from its page through the confirmation that
 * names its tube, specimen and profile; each lands on the profile with a notice, and is gone from the API; then the
 * profile itself, from the last section of its page. A confirmed report's page says why it cannot be deleted. The
 * pages and the open dialogs pass axe.
 */

const dtol = currentDefinition('dtol');

/** Uploads rows as a manifest of the profile through the API and waits for its report; confirms it if asked. */
async function manifest(page: Page, profileId: string, fileName: string, rows: Record<string, string>[], confirm: boolean) {
  const upload = { profileId, fileName, rows };
  if (!confirm) return { reportId: await validatedManifest(page.request, upload), manifestId: null };
  return confirmedManifest(page.request, upload);
}

const shot = (page: Page, testInfo: TestInfo, name: string) => screenshot(page, testInfo, `removal-${name}`);

test('a mistaken upload removed: a report and a sample, each through a confirmation that names it', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const researcher = await createUser(page.request, testInfo, { memberOf: ['dtol'] });
  await signIn(page, researcher);
  const title = unique(testInfo, 'Mistaken moths');
  const created = await page.request.post('/api/profiles', {
    headers: FROM_PORTAL,
    data: { title, description: 'an upload to undo', type: 'dtol' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const profileId = ((await created.json()) as { id: string }).id;

  // rows no other test uses: tubes and specimens follow the index
  const base = 100_000 + Math.floor(Math.random() * 800_000);
  const rows = Array.from({ length: 3 }, (_, i) => validRow(dtol, base + i));
  const confirmed = await manifest(page, profileId, 'moths.xlsx', rows.slice(0, 2), true);
  const mistake = await manifest(page, profileId, 'mistake.xlsx', rows.slice(2), false);

  // a confirmed report cannot be deleted, and its page says why
  await page.goto(`/manifests/reports/${confirmed.reportId}`);
  await expect(page.getByRole('button', { name: 'Delete validation report moths.xlsx' })).toBeDisabled({ timeout: 30_000 });
  await expect(page.getByText(`was confirmed into manifest ${confirmed.manifestId}`)).toBeVisible();

  // the unconfirmed report: deleted from its page
  await page.goto(`/manifests/reports/${mistake.reportId}`);
  await page.getByRole('button', { name: 'Delete validation report mistake.xlsx' }).click();
  const reportDialog = page.getByRole('dialog', { name: 'Delete validation report mistake.xlsx?' });
  await expect(reportDialog).toBeVisible();
  await expect(reportDialog).toContainText(`The validation report of mistake.xlsx will be deleted from profile ${title}`);
  await expect(reportDialog).toContainText('This cannot be undone.');
  await expectAccessible(page, 'the report’s confirmation');
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '01-report-confirmation');
  await reportDialog.getByRole('button', { name: 'Delete validation report' }).click();
  await expect(page).toHaveURL(new RegExp(`/profiles/${profileId}\\?deleted=`), { timeout: 30_000 });
  await expect(page.getByRole('status').filter({ hasText: 'Validation report mistake.xlsx was deleted.' })).toBeVisible();
  expect((await page.request.get(`/api/manifest/validate/report/${mistake.reportId}`)).status()).toBe(404);

  // a pending sample: deleted from its page
  const browse = await page.request.get(`/api/samples/browse?manifest_id=${confirmed.manifestId}&sort=tube&order=asc`);
  const listed = ((await browse.json()) as { data: { svc_id: string }[] }).data.map((r) => r.svc_id);
  expect(listed).toHaveLength(2);
  const tube = rows[0]!.TUBE_OR_WELL_ID!;
  const specimen = rows[0]!.SPECIMEN_ID!;
  const sample = listed[0]!;
  await page.goto(`/samples/${sample}`);
  await page.getByRole('button', { name: `Delete sample ${tube}` }).click();
  const sampleDialog = page.getByRole('dialog', { name: `Delete sample ${tube}?` });
  await expect(sampleDialog).toContainText(
    `Sample ${tube} (specimen ${specimen}) will be deleted from profile ${title}. Its history goes too`,
  );
  await expectAccessible(page, 'the sample’s confirmation');
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '02-sample-confirmation');
  // cancelling changes nothing
  await sampleDialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(sampleDialog).toBeHidden();
  await page.getByRole('button', { name: `Delete sample ${tube}` }).click();
  await sampleDialog.getByRole('button', { name: 'Delete sample' }).click();
  await expect(page).toHaveURL(new RegExp(`/profiles/${profileId}\\?deleted=`), { timeout: 30_000 });
  await expect(page.getByRole('status').filter({ hasText: `Sample ${tube} was deleted.` })).toBeVisible();
  await expectAccessible(page, 'the profile after a deletion');
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '03-profile-notice');
  const after = await page.request.get(`/api/samples/browse?manifest_id=${confirmed.manifestId}`);
  expect(((await after.json()) as { data: { svc_id: string }[] }).data.map((r) => r.svc_id)).toEqual([listed[1]]);

  // the profile itself, from the last section of its page: nothing is said of deleting it under its title
  await expect(page.getByText(`Profile ${title} cannot be deleted`)).toHaveCount(0);
  const deletion = page.getByRole('region', { name: 'Delete this profile' });
  await deletion.getByRole('button', { name: `Delete profile ${title}` }).click();
  const profileDialog = page.getByRole('dialog', { name: `Delete profile ${title}?` });
  await expect(profileDialog).toContainText(`Profile ${title} will be deleted with everything it holds`);
  await expectAccessible(page, 'the profile’s confirmation');
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '04-profile-confirmation');
  await profileDialog.getByRole('button', { name: 'Delete profile' }).click();
  await expect(page).toHaveURL(/\/profiles\?deleted=/, { timeout: 30_000 });
  await expect(page.getByRole('status').filter({ hasText: `Profile ${title} was deleted.` })).toBeVisible();
  expect((await page.request.get(`/api/profiles/${profileId}`)).status()).toBe(404);
});
