import { expect, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from '../tests/fixtures/manifests/generate';
import { createUser, expectAccessible, expectNoSidewaysScroll, keyHeaders, screenshot, signIn, unique } from './helpers';
import { confirmedManifest } from './manifests';

/**
 * The sample browser as a researcher meets it (issue 61): their own profiles' samples first, each led by its tube,
 * specimen and species; a phone's cards short; every sample a choice away; a sample's fields in its sheet's order.
 */
test('a researcher browses their own samples first, by tube, and reads a sample’s fields in sheet order', async ({
  page,
  request,
}, testInfo) => {
  const researcher = await createUser(request, testInfo, { memberOf: ['dtol'] });
  const headers = await keyHeaders(request, researcher);
  const profile = await request.post('/api/profiles', {
    headers,
    data: { title: unique(testInfo, 'Hedgerow moths'), description: 'Moths of one hedgerow', type: 'dtol' },
  });
  expect(profile.status(), await profile.text()).toBe(201);
  const profileId = ((await profile.json()) as { id: string }).id;
  const seed = Math.floor(Math.random() * 1e6);
  const rows = validRows(currentDefinition('dtol'), 2).map(
    (r, i): Record<string, string> => ({
      ...r,
      TUBE_OR_WELL_ID: `FD${String(50_000_000 + seed * 2 + i).padStart(8, '0')}`,
      SPECIMEN_ID: `SAN${String(5_000_000 + seed + i).slice(-7)}`,
    }),
  );
  await confirmedManifest(request, { profileId, fileName: 'hedgerow-moths.xlsx', rows, headers });

  await signIn(page, researcher);
  const asked: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/samples/browse') asked.push(r.url());
  });
  await page.goto('/samples');
  // a researcher starts with their own profiles' samples: two here, whatever else the broker holds
  await expect(page).toHaveURL(/\/samples\?profiles=mine$/);
  await expect(page.getByRole('status').filter({ hasText: /^2 samples, sorted by creation time/ })).toBeVisible();
  const table = page.getByRole('table', { name: 'Samples matching the filter; open a sample by its tube or well' });
  const first = table.getByRole('row', { name: new RegExp(rows[1]!.TUBE_OR_WELL_ID!) });
  await expect(first.getByRole('rowheader')).toHaveText(rows[1]!.TUBE_OR_WELL_ID!);
  // the first page came with the page: the browser asked the API nothing for it
  await page.waitForLoadState('networkidle');
  expect(asked).toEqual([]);
  await expect(first).toContainText(rows[1]!.SPECIMEN_ID!);
  await expect(first).toContainText(rows[1]!.SCIENTIFIC_NAME!);
  if (testInfo.project.name === 'phone') {
    // the card: tube, specimen, species, state and accession; the rest is on the sample's page
    await expect(first.locator('td[data-label="GAL"]')).toBeHidden();
    await expect(first.locator('td[data-label="svc_id"]')).toBeHidden();
  } else {
    await expect(first.locator('td[data-label="GAL"]')).toBeVisible();
  }
  await expectAccessible(page, 'the sample browser, my profiles');
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, 'sample-browser-mine');

  // every sample the broker shows is one choice away, and the choice is kept in the address
  if (testInfo.project.name === 'phone') await page.getByText(/^Filters/).click();
  const filters = page.getByRole('form', { name: 'Filter samples' });
  await filters.getByLabel('Whose samples').selectOption('all');
  await filters.getByRole('button', { name: 'Apply filter' }).click();
  await expect(page).toHaveURL(/profiles=all/);
  await page.reload();
  await expect(page.getByLabel('Whose samples')).toHaveValue('all');

  // a sample's fields as its sheet had them: the manifest's columns in order, not by the length of their names
  await page.goto('/samples?profiles=mine');
  await table.getByRole('link', { name: rows[0]!.TUBE_OR_WELL_ID! }).click();
  await expect(page.getByRole('heading', { level: 1 })).toContainText(rows[0]!.TUBE_OR_WELL_ID!);
  const names = await page.getByRole('table', { name: 'All fields of the sample' }).getByRole('rowheader').allTextContents();
  const manifestOrder = currentDefinition('dtol')
    .fields.map((f) => f.name)
    .filter((n) => names.includes(n));
  expect(names.filter((n) => manifestOrder.includes(n))).toEqual(manifestOrder);
  expect(names.indexOf('SERIES')).toBeLessThan(names.indexOf('ORGANISM_PART'));
  await expectAccessible(page, 'a sample’s page');
  await expectNoSidewaysScroll(page);
});

test('a filter is checked by the API’s rule: a wrong link says so beside its field, a wrong value typed changes nothing', async ({
  page,
  request,
}, testInfo) => {
  const manager = await createUser(request, testInfo, { managerOf: ['dtol'] });
  await signIn(page, manager);
  const asked: string[] = [];
  const zod: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/samples/browse') asked.push(r.url());
  });
  page.on('response', async (r) => {
    if (r.request().resourceType() === 'script' && (await r.text().catch(() => '')).includes('$ZodType')) zod.push(r.url());
  });

  // a link whose filter the API would refuse: the page's server checked it, the field says why, nothing is asked
  await page.goto('/samples?taxon_id=moth&limit=20');
  const filters = page.getByRole('form', { name: 'Filter samples' });
  await expect(filters.getByLabel('Taxon id')).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('This link’s filter is not valid; correct the fields marked above.')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(asked).toEqual([]);
  // nor was the schema sent with the page: the browser fetches it once a field is entered
  expect(zod).toEqual([]);
  await expectAccessible(page, 'the sample browser with a wrong link');

  // a wrong value typed is said beside its field, and the address keeps the filter it had
  await filters.getByLabel('Taxon id').fill('7227');
  await filters.getByRole('button', { name: 'Apply filter' }).click();
  await expect(page).toHaveURL(/taxon_id=7227/);
  // a valid filter folds away on a phone, as it was before the wrong link opened it
  if (testInfo.project.name === 'phone') await page.getByText(/^Filters/).click();
  await expect(filters.getByLabel('Taxon id')).not.toHaveAttribute('aria-invalid', 'true');
  const url = page.url();
  await filters.getByLabel('Manifest id').fill('not-a-uuid');
  await filters.getByRole('button', { name: 'Apply filter' }).click();
  await expect(filters.getByLabel('Manifest id')).toHaveAttribute('aria-invalid', 'true');
  expect(page.url()).toBe(url);
  expect(zod).toHaveLength(1);
});
