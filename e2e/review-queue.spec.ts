import { type APIRequestContext, expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import { validRow } from '../tests/fixtures/manifests/generate';
import { createUser, expectAccessible, expectNoSidewaysScroll, keyHeaders, screenshot, signIn, unique } from './helpers';
import { confirmedManifest } from './manifests';

/**
 * The review queue starts with the new (issue 61): the manifest confirmed last is the first group; a link to one
 * manifest (the home page's, the email's) shows its group alone, through a reload, with the way back to the whole
 * queue; a filter is kept in the URL; on a phone, ticking a sample brings a compact bar (how many, Accept, Reject)
 * into view at the bottom of the screen, which leaves the last card readable at the end of the list.
 */

const dtol = currentDefinition('dtol');
const shot = (page: Page, testInfo: TestInfo, name: string) => screenshot(page, testInfo, `review-queue-${name}`);

/** Two DTOL manifests of a new uploader, confirmed one after the other: the older of `older` rows, the newer of `newer`. */
async function twoManifests(request: APIRequestContext, testInfo: TestInfo, older: number, newer: number) {
  const uploader = await createUser(request, testInfo, { memberOf: ['dtol'] });
  const headers = await keyHeaders(request, uploader);
  const profile = await request.post('/api/profiles', {
    headers,
    data: { title: unique(testInfo, 'Queue moths'), description: 'Moths', type: 'dtol' },
  });
  expect(profile.status(), await profile.text()).toBe(201);
  const profileId = ((await profile.json()) as { id: string }).id;
  const base = 100_000 + Math.floor(Math.random() * 800_000);
  const rows = (from: number, n: number) => Array.from({ length: n }, (_, i) => validRow(dtol, base + from + i));
  const file = (name: string) => `${unique(testInfo, name).replace(/\W+/g, '-')}.xlsx`;
  const olderFile = file('older-moths');
  const { manifestId: olderId } = await confirmedManifest(request, { profileId, headers, fileName: olderFile, rows: rows(0, older) });
  const newerFile = file('newer-moths');
  const { manifestId: newerId } = await confirmedManifest(request, { profileId, headers, fileName: newerFile, rows: rows(older, newer) });
  return { uploader, older: { id: olderId, file: olderFile }, newer: { id: newerId, file: newerFile } };
}

/** The groups of the awaiting list, in the page's order. */
const awaitingGroups = (page: Page): Locator => page.getByRole('region', { name: 'Awaiting your decision' }).getByRole('region');
const loaded = (page: Page) => expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });

test('the newest manifest comes first; a link to one manifest keeps it through a reload, and the home page leads there', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  const { uploader, older, newer } = await twoManifests(page.request, testInfo, 2, 3);
  const manager = await createUser(page.request, testInfo, { memberOf: ['dtol'], managerOf: ['dtol'] });
  await signIn(page, manager);

  // newest first: what was confirmed last is the first group, whatever other tests left in the queue
  await page.goto('/manifests/review');
  await loaded(page);
  await expect(awaitingGroups(page).nth(0)).toHaveAccessibleName(newer.file);
  await expect(awaitingGroups(page).nth(1)).toHaveAccessibleName(older.file);
  await expect(page.getByText(/the manifest you were told about last first/)).toBeVisible();
  await expectAccessible(page, '/manifests/review');
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '01-newest-first');

  // ticks in two manifests' groups add up, and one taken back leaves the other: each group keeps only its own
  const bar = page.getByRole('group', { name: 'Decide on the selected samples' });
  const tick = (group: number) =>
    awaitingGroups(page)
      .nth(group)
      .getByRole('checkbox', { name: /^Select sample / })
      .first();
  await tick(0).check();
  await tick(1).check();
  await expect(bar).toContainText('2 samples ticked');
  await tick(0).uncheck();
  await expect(bar).toContainText('1 sample ticked');
  await expect(tick(1)).toBeChecked();
  await tick(1).uncheck();

  // the sort switch is kept in the URL
  await page.getByRole('link', { name: 'Oldest first' }).click();
  await expect(page).toHaveURL(/[?&]sort=oldest\b/);
  await expect(page.getByText('Oldest first', { exact: true })).toHaveAttribute('aria-current', 'true');
  await loaded(page);
  await page.getByRole('link', { name: 'Newest first' }).click();
  await expect(page).not.toHaveURL(/sort=/);

  // one manifest by its link: its group alone, through a reload, and the way back
  await page.goto(`/manifests/review?manifest=${older.id}`);
  await loaded(page);
  await expect(awaitingGroups(page)).toHaveCount(1);
  await expect(awaitingGroups(page).first()).toHaveAccessibleName(older.file);
  const only = page.getByText('Showing one manifest only');
  await expect(only).toContainText(older.file);
  await page.reload();
  await loaded(page);
  await expect(awaitingGroups(page)).toHaveCount(1);
  await expect(awaitingGroups(page).first()).toHaveAccessibleName(older.file);
  await expectAccessible(page, 'the review queue of one manifest');
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '02-one-manifest');
  await page.getByRole('link', { name: 'Show all manifests' }).click();
  await expect(page).not.toHaveURL(/manifest=/);
  await loaded(page);
  await expect(awaitingGroups(page).nth(0)).toHaveAccessibleName(newer.file);

  // a filter by uploader, set in the form (folded away on a phone), is kept in the URL through a reload
  const form = page.getByRole('form', { name: 'Filter the review queue' });
  if (testInfo.project.name === 'phone') await page.getByText(/^Filters/).click();
  await form.getByLabel('Uploaded by').selectOption(uploader.username);
  await form.getByRole('button', { name: 'Apply filter' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]uploader=${uploader.username}\\b`));
  await loaded(page);
  await expect(awaitingGroups(page)).toHaveCount(2);
  await page.reload();
  await loaded(page);
  await expect(awaitingGroups(page)).toHaveCount(2);
  await expect(awaitingGroups(page).nth(0)).toHaveAccessibleName(newer.file);

  // the home page names the waiting manifests, newest first, each a link to its group
  await page.goto('/');
  const waiting = page.getByRole('region', { name: 'Waiting for you' });
  const link = waiting.getByRole('link', { name: newer.file });
  await expect(link).toBeVisible();
  await expectAccessible(page, 'the home page');
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/manifests/review\\?manifest=${newer.id}$`));
  await loaded(page);
  await expect(awaitingGroups(page)).toHaveCount(1);
  await expect(awaitingGroups(page).first()).toHaveAccessibleName(newer.file);
  await expect(page.getByRole('link', { name: 'Show all manifests' })).toBeVisible();
});

test('ticking a sample brings the decision bar into view, without covering the last card', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const { newer } = await twoManifests(page.request, testInfo, 1, 6);
  const manager = await createUser(page.request, testInfo, { memberOf: ['dtol'], managerOf: ['dtol'] });
  await signIn(page, manager);
  await page.goto(`/manifests/review?manifest=${newer.id}`);
  await loaded(page);
  const bar = page.getByRole('group', { name: 'Decide on the selected samples' });
  const phone = testInfo.project.name === 'phone';
  // the bar waits after the list until something is ticked: on a phone, after six cards, out of view
  if (phone) await expect(bar).not.toBeInViewport();

  await page
    .getByRole('checkbox', { name: /^Select sample / })
    .first()
    .check();
  await expect(bar).toBeInViewport();
  await expect(bar).toContainText('1 sample ticked');
  await expect(bar.getByRole('button', { name: 'Accept selected (1)' })).toBeInViewport();
  await expect(bar.getByRole('button', { name: 'Reject selected (1)' })).toBeInViewport();
  await expectAccessible(page, 'the review queue with a sample ticked');
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '03-ticked');

  // at the end of the list the bar sits after the last card, not over it
  const rows = page.getByRole('table', { name: /awaiting your decision/ }).getByRole('row');
  const last = rows.last();
  await last.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, 400));
  const [lastBox, barBox] = [await last.boundingBox(), await bar.boundingBox()];
  expect(lastBox && barBox, 'the last card and the bar are drawn').toBeTruthy();
  expect(lastBox!.y + lastBox!.height, `last card ${JSON.stringify(lastBox)}, bar ${JSON.stringify(barBox)}`).toBeLessThanOrEqual(
    barBox!.y + 1,
  );

  // the decision is said in the bar, where it was made
  await bar.getByRole('button', { name: 'Accept selected (1)' }).click();
  await bar.getByRole('button', { name: 'Accept 1 sample' }).click();
  await expect(bar.getByText(/Decision recorded: 1 accepted/)).toBeInViewport();
  await shot(page, testInfo, '04-decided');
});

test('a long manifest shows its first ten rows, ticks all of them at once and shows the rest when asked', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  const { newer } = await twoManifests(page.request, testInfo, 1, 12);
  const manager = await createUser(page.request, testInfo, { memberOf: ['dtol'], managerOf: ['dtol'] });
  await signIn(page, manager);
  await page.goto(`/manifests/review?manifest=${newer.id}`);
  await loaded(page);
  const group = awaitingGroups(page).first();
  const rows = group.getByRole('checkbox', { name: /^Select sample / });
  await expect(group).toContainText('12 of 12 samples awaiting your decision');
  await expect(rows).toHaveCount(10);

  // the manifest's own box ticks the rows not shown too
  const bar = page.getByRole('group', { name: 'Decide on the selected samples' });
  await group.getByRole('checkbox', { name: `Select all 12 samples of ${newer.file}` }).check();
  await expect(bar).toContainText('12 samples ticked');
  await expect(bar.getByRole('button', { name: 'Accept selected (12)' })).toBeEnabled();

  const more = group.getByRole('button', { name: `Show all 12 samples of ${newer.file}` });
  await more.click();
  await expect(rows).toHaveCount(12);
  for (const box of await rows.all()) await expect(box).toBeChecked();
  await expectAccessible(page, 'a long manifest shown whole');
  await shot(page, testInfo, '05-shown-whole');
  await group.getByRole('button', { name: 'Show the first 10 only' }).click();
  await expect(rows).toHaveCount(10);
  await expect(bar).toContainText('12 samples ticked');
});
