import { expect, type Locator, type Page, type TestInfo, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from '../tests/fixtures/manifests/generate';
import { expectAccessible, expectNoSidewaysScroll, FROM_PORTAL, openMenu, screenshot, signIn, unique } from './helpers';
import { confirmedManifest } from './manifests';

/**
 * The cross-page check, at both widths: every page of the navigation — read from the menu itself, so a new entry is
 * checked without a word here — and the pages reached from them (a profile, a manifest, a validation report, a
 * sample), each with content in it, passes axe (WCAG 2 A and AA) with no serious or critical violation and is no
 * wider than the window. Unknown pages get the styled 404 inside the portal. The data is made through the API with
 * the signed-in admin's session first.
 */

const dtol = currentDefinition('dtol');

interface Fixture {
  title: string;
  dtolProfile: string;
  biodataProfile: string;
  biodataTitle: string;
  manifestId: string;
  reportId: string;
  svcId: string;
}

/** A DTOL profile with a confirmed manifest (one sample accepted, so it has history), and a biodata profile. */
async function createData(page: Page, testInfo: TestInfo): Promise<Fixture> {
  const api = page.request;
  const title = unique(testInfo, 'Accessible moths');
  const biodataTitle = unique(testInfo, 'Accessible single cells');
  const profile = await api.post('/api/profiles', {
    headers: FROM_PORTAL,
    data: { title, description: 'Lepidoptera for the accessibility checks', type: 'dtol' },
  });
  expect(profile.status(), await profile.text()).toBe(201);
  const dtolProfile = ((await profile.json()) as { id: string }).id;
  const biodata = await api.post('/api/profiles', {
    headers: FROM_PORTAL,
    data: { title: biodataTitle, description: 'Studies tab', type: 'biodata' },
  });
  expect(biodata.status(), await biodata.text()).toBe(201);
  const biodataProfile = ((await biodata.json()) as { id: string }).id;

  const seed = Math.floor(Math.random() * 1e6);
  const rows = validRows(dtol, 4).map((r, i) => ({
    ...r,
    TUBE_OR_WELL_ID: `FD${String(40_000_000 + seed * 10 + i).padStart(8, '0')}`,
    SPECIMEN_ID: `SAN${String(4_000_000 + seed + i * 1_000_003).slice(-7)}`,
  }));
  const { reportId, manifestId } = await confirmedManifest(api, { profileId: dtolProfile, fileName: 'accessible-moths.xlsx', rows });

  const browse = await api.get(`/api/samples/browse?manifest_id=${manifestId}&sort=tube&order=asc`);
  expect(browse.status()).toBe(200);
  const svcIds = ((await browse.json()) as { data: { svc_id: string }[] }).data.map((r) => r.svc_id);
  expect(svcIds).toHaveLength(4);
  const svcId = svcIds[0]!;
  // accept one (a system update in its history) and leave the others waiting in the review queue
  const decided = await api.post('/api/sample/decision', { headers: FROM_PORTAL, data: { svc_ids: [svcId], decision: 'accept' } });
  expect(decided.status(), await decided.text()).toBe(200);
  return { title, dtolProfile, biodataProfile, biodataTitle, manifestId, reportId, svcId };
}

/** The page, once its heading is there: axe, and no sideways scroll at this width. */
async function checkPage(page: Page, testInfo: TestInfo, path: string, heading: string | RegExp, shot?: string) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expectAccessible(page, path, { report: true });
  await expectNoSidewaysScroll(page);
  if (shot) await screenshot(page, testInfo, shot);
}

/** The element is laid out within the window's width (not cut off by a table that scrolls sideways). */
async function expectAcross(page: Page, target: Locator, what: string) {
  // visible, not only attached: a review group streamed after the page is in it, hidden, until React reveals it
  await expect(target, what).toBeVisible();
  const box = await target.boundingBox();
  const width = page.viewportSize()!.width;
  expect(box, `${what} is shown`).not.toBeNull();
  expect(box!.x, `${what}: left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${what}: right edge in a window ${width} px wide`).toBeLessThanOrEqual(width);
}

const slug = (path: string) => (path === '/' ? 'home' : path.replace(/^\//, '').replace(/[^\w]+/g, '-'));

test('every page of the navigation, and the pages reached from them, pass axe and fit the window', async ({ page }, testInfo) => {
  test.setTimeout(300_000);
  await page.goto('/signin');
  await expectAccessible(page, '/signin');
  await expectNoSidewaysScroll(page);
  await signIn(page);
  const f = await createData(page, testInfo);

  // the menu's own entries: whatever it lists is checked
  await openMenu(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  const entries = await nav
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => ({ href: a.getAttribute('href') ?? '', name: (a.firstChild?.textContent ?? '').trim() })));
  const portal = entries.filter((e) => e.href.startsWith('/') && !e.href.startsWith('/api/'));
  expect(portal.map((e) => e.href)).toEqual(
    expect.arrayContaining([
      '/',
      '/profiles',
      '/manifests',
      '/manifests/review',
      '/samples',
      '/submissions',
      '/admin/users',
      '/admin/jobs',
    ]),
  );
  const HEADINGS: Record<string, string | RegExp> = {
    '/': /Welcome/,
    '/manifests/review': /awaiting review|review/i,
    '/account/keys': 'API keys',
    '/admin/stats': 'Statistics',
    '/dashboard': 'Tree of Life samples',
  };
  for (const e of portal) await checkPage(page, testInfo, e.href, HEADINGS[e.href] ?? e.name, `page-${slug(e.href)}`);

  // reached from them
  await checkPage(page, testInfo, `/profiles/${f.dtolProfile}`, f.title, 'page-profile-dtol');
  await checkPage(page, testInfo, `/profiles/${f.biodataProfile}`, f.biodataTitle, 'page-profile-biodata');
  await checkPage(page, testInfo, '/profiles/new', /profile/i);
  await checkPage(page, testInfo, `/profiles/${f.dtolProfile}/edit`, /Edit/i);
  await checkPage(page, testInfo, `/manifests/${f.manifestId}`, /.+/, 'page-manifest');
  await checkPage(page, testInfo, `/manifests/reports/${f.reportId}`, /.+/, 'page-report');
  await checkPage(page, testInfo, `/samples/${f.svcId}`, /.+/, 'page-sample');

  // what a person reads in the tables is across the window, not off to its right (on a phone the rows are cards)
  await page.goto(`/samples/${f.svcId}`);
  await expectAcross(
    page,
    page.getByRole('table', { name: 'All fields of the sample' }).getByRole('cell').first(),
    'a sample field’s value',
  );
  await page.goto('/admin/users');
  await expectAcross(page, page.getByRole('button', { name: 'Deactivate e2e-admin' }), 'the Deactivate button');
  await page.goto('/audit');
  await expect(page.getByRole('status').filter({ hasText: /changes?, newest first/ })).toBeInViewport();
  await expectAcross(
    page,
    page
      .getByRole('table', { name: /Changes to samples/ })
      .locator('ins')
      .first(),
    'a change’s new value',
  );
  await page.goto('/manifests/review');
  await expectAcross(page, page.locator('td[data-label="Approval"]').first(), 'a sample’s approvals');
  await expectAcross(page, page.locator('td[data-label="ToLID"]').first(), 'a decided sample’s ToLID');
  // the samples' results are near the top: on a phone the filters fold away above them
  await page.goto('/samples');
  await expect(page.getByRole('status').filter({ hasText: /samples?, sorted by/ })).toBeInViewport();
  const filters = page.getByRole('form', { name: 'Filter samples' });
  if (testInfo.project.name === 'phone') {
    await expect(filters).toBeHidden();
    await page.getByText(/^Filters/).click();
  }
  await expect(filters).toBeVisible();
  await screenshot(page, testInfo, 'page-samples-filters');

  // the error and empty states of the browsers are pages too
  await page.goto('/samples?limit=9999&project=plants');
  await expect(page.getByText('Unknown project: plants', { exact: false })).toBeVisible();
  await expectAccessible(page, '/samples (invalid filter)');
  await expectNoSidewaysScroll(page);
  await page.goto('/audit?update_type=system&from=2000-01-01&to=2000-01-02');
  await expect(page.getByText('No change matches this filter.')).toBeVisible();
  await expectAccessible(page, '/audit (nothing found)');
});

test('an unknown page, and a page that is not there for its id, show the styled 404 inside the portal', async ({ page }, testInfo) => {
  await signIn(page);
  for (const path of ['/no-such-page/at-all', '/profiles/not-a-profile', '/samples/not-a-sample']) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { level: 1, name: 'Page not found' })).toBeVisible();
    // inside the layout: the menu and the way home are there
    await expect(page.getByRole('banner')).toContainText('Research Metadata Broker');
    await expect(page.getByRole('main').getByRole('link', { name: 'Home' })).toBeVisible();
    await expectAccessible(page, path, { report: true });
    await expectNoSidewaysScroll(page);
  }
  await screenshot(page, testInfo, 'page-404');
});

test('the menu: a disclosure on a phone that closes on Escape and on navigation; the full list on a laptop', async ({ page }, testInfo) => {
  await signIn(page);
  const toggle = page.getByRole('button', { name: 'Menu' });
  const nav = page.getByRole('navigation', { name: 'Main' });
  if (testInfo.project.name !== 'phone') {
    await expect(toggle).toBeHidden();
    await expect(nav).toBeVisible();
    await expect(page.getByText('Signed in as')).toBeVisible();
    return;
  }
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).toBeHidden();
  // by keyboard: the skip link first, then the brand, then the menu
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to the content' })).toBeFocused();
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(toggle).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  await expect(nav).toBeVisible();
  await expect(page.getByText(`Signed in as`)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, 'menu-open');
  await page.keyboard.press('Escape');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toBeFocused();
  await toggle.click();
  await nav.getByRole('link', { name: /^Submissions/ }).click();
  await expect(page).toHaveURL(/\/submissions$/);
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(nav).toBeHidden();
  await toggle.click();
  await expect(nav.getByRole('link', { name: /^Submissions/ })).toHaveAttribute('aria-current', 'page');
});
