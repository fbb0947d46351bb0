import { type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import type { PublicDashboard } from '@/lib/stats/contract';
import { validRows } from '../tests/fixtures/manifests/generate';
import { adminKey, expectAccessible, expectNoSidewaysScroll, navigateTo, screenshot, signIn, unique } from './helpers';
import { confirmedManifest } from './manifests';

/**
 * The public dashboard at a laptop's width and a phone's: reached from the sign-in page without signing in and from
 * the portal's menu, its charts and map drawn with nothing fetched from outside this machine, and nothing serious for
 * axe, the tables under the charts opened.
 */

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** A confirmed DTOL manifest of a few samples, uploaded as a script would, so that there is something to count. */
async function someSamples(request: APIRequestContext, title: string): Promise<void> {
  const headers = { authorization: `token ${await adminKey(request)}` };
  const profile = await request.post('/api/profiles', { headers, data: { title, description: '', type: 'dtol' } });
  expect(profile.status(), await profile.text()).toBe(201);
  const dtol = currentDefinition('dtol');
  const seed = Math.floor(Math.random() * 1e6);
  const rows = validRows(dtol, 4).map((r, i) => ({
    ...r,
    TUBE_OR_WELL_ID: `FD${String(60_000_000 + seed * 10 + i).padStart(8, '0')}`,
    SPECIMEN_ID: `SAN${String(6_000_000 + seed + i * 1_000_003).slice(-7)}`,
  }));
  const profileId = ((await profile.json()) as { id: string }).id;
  await confirmedManifest(request, { profileId, fileName: 'dashboard.xlsx', rows, headers });
}

/** Every request the page makes goes to this machine: anything else is refused and named at the end. */
function keepLocal(page: Page): string[] {
  const outside: string[] = [];
  void page.route('**/*', (route) => {
    const url = new URL(route.request().url());
    if (url.protocol === 'data:' || url.protocol === 'blob:' || LOCAL_HOSTS.has(url.hostname)) return route.continue();
    outside.push(url.href);
    return route.abort('blockedbyclient');
  });
  return outside;
}

test('the public dashboard draws its charts and map from this machine alone, for anyone, and passes axe', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  await someSamples(request, unique(testInfo, 'Dashboard moths'));
  // the figures are kept a minute: wait until they include samples with places
  await expect
    .poll(
      async () => {
        const d = (await (await request.get('/api/stats/dashboard')).json()) as PublicDashboard;
        return d.samples > 0 && d.places.length > 0 && d.top_taxa.length > 0;
      },
      { timeout: 75_000, intervals: [2_000] },
    )
    .toBe(true);

  const outside = keepLocal(page);
  await page.goto('/signin');
  await page.getByRole('link', { name: 'The Tree of Life dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tree of Life samples' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();

  // the registered samples' chart is drawn once ENA has accessioned some; until then it says so
  const { registered } = (await (await request.get('/api/stats/dashboard')).json()) as PublicDashboard;
  const perMonth = page.getByRole('region', { name: 'Samples registered at ENA, per month' });
  if (registered === 0) await expect(perMonth.getByText('No sample is registered at ENA yet.')).toBeVisible();
  const charted = [
    'Samples held, per project and state',
    ...(registered > 0 ? ['Samples registered at ENA, per month'] : []),
    'Most sampled taxa',
  ];
  for (const heading of charted) {
    const section = page.getByRole('region', { name: heading });
    await expect(section.getByRole('img').first()).toBeVisible();
    // drawn on the server with CSS: bars with a size, each with its numbers as a tooltip
    const bar = section.getByRole('img').first().locator('[title]').first();
    await expect(bar).toBeVisible();
    expect((await bar.boundingBox())?.height).toBeGreaterThan(0);
    await section.getByText(/as a table$/).click();
    await expect(section.getByRole('table')).toBeVisible();
  }
  const places = page.getByRole('region', { name: 'Where samples were collected' });
  const map = places.getByRole('img', { name: /Where samples were collected/ });
  await expect(map).toBeVisible();
  // the sea, the land, the borders, and the places' circles as one path
  expect(await map.locator('path').count()).toBe(4);
  expect(await map.locator('path').nth(3).getAttribute('d')).toMatch(/^M[\d.-]+ [\d.-]+a/);
  await places.getByText(/as a table$/).click();
  await expect(places.getByRole('table')).toContainText('51.5° N, 1.5° W');

  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, 'dashboard-01-public');
  expect(outside).toEqual([]);
});

test('the portal’s menu leads to the dashboard, which leads back', async ({ page }) => {
  const outside = keepLocal(page);
  await signIn(page);
  await navigateTo(page, 'Dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Tree of Life samples' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the portal' }).click();
  await expect(page.getByText('Signed in as')).toBeAttached();
  expect(outside).toEqual([]);
});

/** A number as the page writes it ("1,204"), or NaN. */
const count = (text: string | null | undefined) => Number((text ?? '').replace(/,/g, '').trim() || Number.NaN);
const sum = (ns: number[]) => ns.reduce((a, b) => a + b, 0);

/** The headline figures of a page's cards (`<dl class="cards">`), by their terms. */
async function cards(page: Page): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const card of await page.locator('dl.cards > div').all()) {
    out[(await card.getByRole('term').textContent())?.trim() ?? ''] = count(await card.getByRole('definition').textContent());
  }
  return out;
}

/** The last column of a table's body rows (its total, or its only series), as numbers: what a screen reader reads. */
async function lastColumn(table: Locator): Promise<number[]> {
  return (await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.lastElementChild?.textContent ?? ''))).map(count);
}

/** A chart's table under it, opened as a person would. */
async function chartTable(page: Page, heading: string) {
  const section = page.getByRole('region', { name: heading });
  await section
    .getByText(/as a table$/)
    .first()
    .click();
  const table = section.getByRole('table').first();
  await expect(table).toBeVisible();
  return table;
}

test('the public dashboard’s charts add up to the samples held and registered, what they leave out said beside them', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  await someSamples(request, unique(testInfo, 'Dashboard sums'));
  await expect
    .poll(async () => ((await (await request.get('/api/stats/dashboard')).json()) as PublicDashboard).top_taxa.length > 0, {
      timeout: 75_000,
      intervals: [2_000],
    })
    .toBe(true);
  await page.goto('/dashboard');
  const figures = await cards(page);
  const total = figures['Samples held'] ?? Number.NaN;
  const registered = figures['Registered at ENA'] ?? Number.NaN;
  expect(total).toBeGreaterThan(0);
  // the samples were only uploaded: held, none registered at ENA
  expect(registered).toBeLessThan(total);
  const api = (await (await request.get('/api/stats/dashboard')).json()) as PublicDashboard;
  expect(registered).toBe(api.registered);

  expect(sum(await lastColumn(await chartTable(page, 'Samples held, per project and state'))), 'samples per project').toBe(total);
  if (registered > 0)
    expect(sum(await lastColumn(await chartTable(page, 'Samples registered at ENA, per month'))), 'registered per month').toBe(registered);

  const taxa = page.getByRole('region', { name: 'Most sampled taxa' });
  const shown = sum(await lastColumn(await chartTable(page, 'Most sampled taxa')));
  const said = /have ([\d,]+) of the ([\d,]+) samples held; ([\d,]+) are of other taxa and ([\d,]+) name none/.exec(
    (await taxa.getByText(/samples held; .* are of other taxa/).textContent()) ?? '',
  );
  expect(said, 'the sentence beside the taxa').not.toBeNull();
  const [inChart, of, others, none] = said!.slice(1).map(count) as [number, number, number, number];
  expect([inChart, of]).toEqual([shown, total]);
  expect(inChart + others + none).toBe(total);

  const places = page.getByRole('region', { name: 'Where samples were collected' });
  const located = /([\d,]+) of the ([\d,]+) samples held give their collection place; ([\d,]+) give no/.exec(
    (await places.getByText(/give their collection place/).textContent()) ?? '',
  );
  expect(located, 'the sentence beside the map').not.toBeNull();
  const [onMap, ofAll, nowhere] = located!.slice(1).map(count) as [number, number, number];
  expect([ofAll, onMap + nowhere]).toEqual([total, total]);
  const squares = await chartTable(page, 'Where samples were collected');
  // the table lists the first hundred squares only
  if (!/squares with the most/.test((await squares.locator('caption').textContent()) ?? ''))
    expect(sum(await lastColumn(squares))).toBe(onMap);
  await expectNoSidewaysScroll(page);
});

test('the admin statistics’ bars add up to the totals above them, with manifests naming no centre as “None given”', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  // a DTOL manifest names no sequencing centre
  await someSamples(request, unique(testInfo, 'Stats sums'));
  await signIn(page);
  await page.goto('/admin/stats');
  await expect(page.getByRole('heading', { level: 1, name: 'Statistics' })).toBeVisible();
  const manifests = page.getByRole('region', { name: 'Manifests per sequencing centre' });
  await expect(manifests.getByRole('listitem').filter({ hasText: 'None given' })).toBeVisible();
  await expect(manifests.getByText(/Each manifest is counted once/)).toBeVisible();

  const perMonth = await chartTable(page, 'Samples created per month');
  // the page refreshes its figures every ten seconds: each reading is of one drawing, retried if one came between
  await expect(async () => {
    const totals = await cards(page);
    const bars = async (heading: string) =>
      (await page.getByRole('region', { name: heading }).locator('.hbars-value').allTextContents()).map((t) =>
        count(t.replace(/[^\d,]/g, '')),
      );
    expect(totals.Samples).toBeGreaterThan(0);
    expect(sum(await bars('Samples by status')), 'samples by status').toBe(totals.Samples);
    expect(sum(await bars('Submissions by state')), 'submissions by state').toBe(totals.Submissions);
    expect(sum(await bars('Manifests per sequencing centre')), 'manifests per centre').toBe(totals.Manifests);
    const byProject = page.getByRole('table', { name: 'Samples by project and status' });
    expect(sum(await lastColumn(byProject)), 'samples by project').toBe(totals.Samples);
    expect(sum(await lastColumn(perMonth)), 'samples per month').toBe(totals.Samples);
  }).toPass({ timeout: 30_000 });
  await expectNoSidewaysScroll(page);
  await expectAccessible(page, 'the statistics page');
});
