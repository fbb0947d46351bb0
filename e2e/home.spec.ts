import { type APIRequestContext, expect, type Page, type TestInfo, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import { validRow } from '../tests/fixtures/manifests/generate';
import { createUser, type E2eUser, expectAccessible, expectNoSidewaysScroll, keyHeaders, screenshot, signIn, unique } from './helpers';
import { validatedManifest } from './manifests';

/**
 * The researcher's home page as a to-do list (issue 26): an unfinished report discarded where it is listed, with no
 * dialog and the outcome said beside it; a sample's page says its state in the portal's words; on a phone the review
 * queue's decision bar does not sit over the first sample.
 */

const dtol = currentDefinition('dtol');
const shot = (page: Page, testInfo: TestInfo, name: string) => screenshot(page, testInfo, `home-${name}`);

/** A DTOL manifest of `n` rows validated on a new profile of `user` (with errors when `broken`); its report's id. */
async function validated(request: APIRequestContext, user: E2eUser, fileName: string, n: number, broken = false) {
  const headers = await keyHeaders(request, user);
  const profile = await request.post('/api/profiles', {
    headers,
    data: { title: `${fileName} profile`, description: 'Moths', type: 'dtol' },
  });
  expect(profile.status(), await profile.text()).toBe(201);
  const profileId = ((await profile.json()) as { id: string }).id;
  const base = 100_000 + Math.floor(Math.random() * 800_000);
  const rows = Array.from({ length: n }, (_, i) => ({ ...validRow(dtol, base + i), ...(broken ? { ORGANISM_PART: 'ELBOW' } : {}) }));
  const reportId = await validatedManifest(request, { profileId, fileName, rows, headers });
  return { headers, reportId };
}

test('a researcher discards an unfinished report from the home page, and reads it said beside the button', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const user = await createUser(page.request, testInfo, { memberOf: ['dtol'] });
  const fileName = `${unique(testInfo, 'abandoned-moths').replace(/\W+/g, '-')}.xlsx`;
  const { headers, reportId } = await validated(page.request, user, fileName, 2, true);

  await signIn(page, user);
  await page.goto('/');
  // the report's own item, not the notice around it
  const item = page
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: new RegExp(fileName.replace(/\./g, '\\.')) }) })
    .filter({ hasNot: page.getByRole('list') });
  await expect(item).toContainText('2 errors');
  const discard = item.getByRole('button', { name: `Discard the report of ${fileName}` });
  await expect(discard).toBeInViewport();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  const where = await discard.boundingBox();
  await discard.click();
  // no dialog: the outcome is said where the button was, in place of the report's link (which would now be a 404)
  const said = page.getByRole('status').filter({ hasText: `Discarded the report of ${fileName}.` });
  await expect(said).toBeVisible();
  await expect(said).toBeInViewport();
  const at = await said.boundingBox();
  expect(Math.abs((at?.y ?? 0) - (where?.y ?? 0)), 'the outcome sits where the button was').toBeLessThan(120);
  await expect(page.getByRole('button', { name: `Discard the report of ${fileName}` })).toHaveCount(0);
  await expect(page.getByRole('link', { name: new RegExp(fileName.replace(/\./g, '\\.')) })).toHaveCount(0);
  await shot(page, testInfo, '01-discarded');
  // gone from the service, and from the page on its next reading
  expect((await page.request.get(`/api/manifest/validate/report/${reportId}`, { headers })).status()).toBe(404);
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Waiting for you' })).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(fileName.replace(/\./g, '\\.')) })).toHaveCount(0);
});

test('a sample’s page says its state in the portal’s words, not the API’s name', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const user = await createUser(page.request, testInfo, { memberOf: ['dtol'] });
  const fileName = `${unique(testInfo, 'moths-in-words').replace(/\W+/g, '-')}.xlsx`;
  const { headers, reportId } = await validated(page.request, user, fileName, 1);
  const confirm = await page.request.post('/api/manifest/validate/confirm', { headers, data: { validation_report_id: reportId } });
  expect(confirm.status(), await confirm.text()).toBe(200);
  const manifestId = ((await confirm.json()) as { manifest_id: string }).manifest_id;
  const status = await page.request.get(`/api/manifest/${manifestId}/sample_status`, { headers });
  expect(status.status(), await status.text()).toBe(200);
  const svcId = JSON.stringify(await status.json()).match(/[0-9a-f]{24}/)?.[0];
  expect(svcId, 'a svc_id in the manifest’s sample status').toBeTruthy();

  await signIn(page, user);
  await page.goto(`/samples/${svcId}`);
  const standing = page
    .locator('p')
    .filter({ hasText: /· profile/ })
    .first();
  await expect(standing).toContainText('Awaiting review');
  await expect(standing).not.toContainText(/\bpending\b/);
  await expect(standing.getByText('Awaiting review')).toBeInViewport();
  // the record's status field says it in words too, beside the API's name
  await expect(page.getByRole('row', { name: /^status\b/ })).toContainText('Awaiting review (pending)');
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '02-sample');
});

test('the review queue’s decision bar leaves the first sample readable', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const user = await createUser(page.request, testInfo, { memberOf: ['dtol'] });
  const manager = await createUser(page.request, testInfo, { memberOf: ['dtol'], managerOf: ['dtol'] });
  const fileName = `${unique(testInfo, 'moths-to-review').replace(/\W+/g, '-')}.xlsx`;
  const { headers, reportId } = await validated(page.request, user, fileName, 3);
  expect((await page.request.post('/api/manifest/validate/confirm', { headers, data: { validation_report_id: reportId } })).status()).toBe(
    200,
  );

  await signIn(page, manager);
  await page.goto('/manifests/review');
  const bar = page.getByRole('group', { name: 'Decide on the selected samples' });
  await expect(bar).toBeVisible();
  const firstRow = page
    .getByRole('table', { name: /awaiting your decision/ })
    .first()
    .getByRole('row')
    .nth(1);
  await firstRow.scrollIntoViewIfNeeded();
  const [row, barBox] = [await firstRow.boundingBox(), await bar.boundingBox()];
  expect(row && barBox, 'the first sample and the bar are drawn').toBeTruthy();
  // the bar does not cover the first sample where it is read
  const overlaps = row!.y < barBox!.y + barBox!.height && barBox!.y < row!.y + row!.height;
  expect(overlaps, `row ${JSON.stringify(row)} under bar ${JSON.stringify(barBox)}`).toBe(false);
  await shot(page, testInfo, '03-review');
});
