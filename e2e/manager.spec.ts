import { type APIRequestContext, expect, type Page, type TestInfo, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import { validRow } from '../tests/fixtures/manifests/generate';
import {
  createUser,
  type E2eUser,
  expectNoSidewaysScroll,
  keyHeaders,
  navigateTo,
  openMenu,
  reviewGroupOf,
  screenshot,
  signIn,
  unique,
} from './helpers';
import { confirmedManifest } from './manifests';

/**
 * The sample manager's journey: the Review queue's count in the menu → the samples grouped by the manifest that
 * brought them → one rejected with a reason (refused without one), the rest accepted at once after confirming → the
 * decided samples move on by themselves to a ToLID and an accession at ENA → the uploader sees the states on the
 * manifest's page, and the sample's page tells its history.
 */

const dtol = currentDefinition('dtol');
const shot = (page: Page, testInfo: TestInfo, name: string) => screenshot(page, testInfo, `manager-${name}`);

/** A confirmed manifest of `n` fresh rows, uploaded through the API the way a script would, as `user`. */
async function managedManifest(request: APIRequestContext, user: E2eUser, fileName: string, n: number) {
  const headers = await keyHeaders(request, user);
  const profile = await request.post('/api/profiles', {
    headers,
    data: { title: `${fileName} profile`, description: 'Moths from Wytham Woods', type: 'dtol' },
  });
  expect(profile.status(), await profile.text()).toBe(201);
  const profileId = ((await profile.json()) as { id: string }).id;
  const base = 100_000 + Math.floor(Math.random() * 8_000_000);
  const rows = Array.from({ length: n }, (_, i) => validRow(dtol, base + i));
  await confirmedManifest(request, { profileId, fileName, rows, headers });
  return { rows, profileId };
}

test('a sample manager reviews a manifest: rejects one with a reason, accepts the rest, and sees them registered', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const uploader = await createUser(page.request, testInfo, { memberOf: ['dtol'] });
  const manager = await createUser(page.request, testInfo, { memberOf: ['dtol'], managerOf: ['dtol'] });
  const fileName = `${unique(testInfo, 'wytham-moths').replace(/\W+/g, '-')}.xlsx`;
  const { rows } = await managedManifest(page.request, uploader, fileName, 3);
  const [first, second, third] = rows.map((r) => r.TUBE_OR_WELL_ID!);

  await signIn(page, manager);
  // the menu carries the number of samples waiting for this manager
  await openMenu(page);
  const entry = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Review queue/ });
  await expect(entry).toHaveAccessibleName(/^Review queue\s*, \d[\d,]* samples wait$/);
  await entry.click();
  await expect(page.getByRole('heading', { name: 'Review queue', level: 1 })).toBeVisible();
  const group = await reviewGroupOf(page, fileName);
  await expect(group).toContainText(`3 of 3 samples awaiting your decision`);
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '01-queue');

  // a rejection needs its reason: refused beside the field without one
  await page.getByLabel(`Select sample ${first}`).check();
  await page.getByRole('button', { name: 'Reject selected (1)' }).click();
  const reject = page.getByRole('form', { name: 'Reject the selected samples' });
  await reject.getByRole('button', { name: 'Reject 1 sample' }).click();
  await expect(reject.getByText(/reason/i).first()).toBeVisible();
  await reject.getByLabel('Reason for rejecting').fill('The tube was broken on arrival');
  await reject.getByRole('button', { name: 'Reject 1 sample' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Decision recorded: 1 rejected.' })).toBeVisible();
  await expect(page.getByLabel(`Select sample ${first}`)).toHaveCount(0);
  await shot(page, testInfo, '02-rejected');

  // the rest, all at once: the manifest's own select-all, then a confirmation that says what accepting does
  await page.getByLabel(`Select all 2 samples of ${fileName}`).check();
  await page.getByRole('button', { name: 'Accept selected (2)' }).click();
  await expect(page.getByText(/registered at ENA as a public BioSample, which cannot be undone/)).toBeVisible();
  await page.getByRole('button', { name: 'Accept 2 samples' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Decision recorded: 2 accepted.' })).toBeVisible();
  await expect(page.getByRole('region', { name: fileName }).filter({ hasText: 'awaiting your decision' })).toHaveCount(0);

  // decided lately: where each stands now, without reloading
  const decided = page.getByRole('table', { name: `Samples of ${fileName} decided lately` });
  await expect(decided.getByRole('row', { name: new RegExp(first!) })).toContainText('Rejected: The tube was broken on arrival');
  for (const tube of [second, third]) {
    await expect(decided.getByRole('row', { name: new RegExp(tube!) })).toContainText(/Registered at ENA as SAMEA\d+/, {
      timeout: 60_000,
    });
  }
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '03-decided');

  // leave the page after deciding, come back by the menu: the registration is still there to see
  await navigateTo(page, 'Samples');
  await expect(page.getByRole('heading', { name: 'Samples', level: 1 })).toBeVisible();
  await navigateTo(page, 'Review queue');
  await reviewGroupOf(page, fileName);
  await expect(decided.getByRole('row', { name: new RegExp(third!) })).toContainText(/Registered at ENA as SAMEA\d+/);
  await expect(decided.getByRole('row', { name: new RegExp(first!) })).toContainText('Rejected: The tube was broken on arrival');

  // the sample's page tells its history, step by step
  await decided.getByRole('link', { name: second! }).click();
  const changes = page.getByRole('list', { name: 'Changes, newest first' });
  await expect(changes).toContainText('Status: Awaiting review → Registering at ENA');
  await expect(changes).toContainText('Status: Registering at ENA → Registered at ENA');
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '04-sample');

  // the uploader sees the same states on the manifest's page
  const own = await browser.newPage({ viewport: page.viewportSize()! });
  await signIn(own, uploader);
  await navigateTo(own, 'Manifests');
  await own
    .getByRole('table', { name: /Confirmed manifests/ })
    .getByRole('link', { name: fileName, exact: true })
    .click();
  const samples = own.getByRole('table', { name: 'Samples of this manifest' });
  await expect(samples.getByRole('row', { name: new RegExp(first!) })).toContainText('Rejected');
  await expect(samples.getByRole('row', { name: new RegExp(second!) })).toContainText('Registered at ENA');
  await shot(own, testInfo, '05-uploader-manifest');
  await own.close();
});
