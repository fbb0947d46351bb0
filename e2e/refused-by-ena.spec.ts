import { type APIRequestContext, expect, type Page, type TestInfo, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import { validRow } from '../tests/fixtures/manifests/generate';
import { createUser, type E2eUser, expectAccessible, expectNoSidewaysScroll, keyHeaders, screenshot, signIn, unique } from './helpers';
import { confirmedManifest } from './manifests';

/**
 * ENA refuses a registration (issue 61): the refusal is said once for the batch, in plain words with ENA's message
 * folded underneath, naming who acts. The sample manager sees it above the review queue and retries from there; the
 * uploader's home says there is nothing to upload again; the admin's Jobs page lists it as failed work; the sample's
 * history keeps ENA's message; the retry registers the samples.
 */

const dtol = currentDefinition('dtol');
// the stand-ins' control port, the one after the service's (e2e/serve.ts)
const CONTROL = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3210) + 1}`;
const MESSAGE = 'Sample: refused; Attribute: collection date; Reason: must match format "date"';
const shot = (page: Page, testInfo: TestInfo, name: string) => screenshot(page, testInfo, `refused-by-ena-${name}`);

/** A confirmed manifest of `n` fresh rows in a profile of the uploader's, and its samples' svc_ids. */
async function confirmedSamples(request: APIRequestContext, uploader: E2eUser, title: string, fileName: string, n: number) {
  const headers = await keyHeaders(request, uploader);
  const profile = await request.post('/api/profiles', { headers, data: { title, description: 'Moths ENA refused once', type: 'dtol' } });
  expect(profile.status(), await profile.text()).toBe(201);
  const profileId = ((await profile.json()) as { id: string }).id;
  const base = 100_000 + Math.floor(Math.random() * 8_000_000);
  const rows = Array.from({ length: n }, (_, i) => validRow(dtol, base + i));
  const { manifestId } = await confirmedManifest(request, { profileId, fileName, rows, headers });
  const status = await request.get(`/api/manifest/${manifestId}/sample_status`, { headers });
  expect(status.status(), await status.text()).toBe(200);
  const svcIds = [...new Set(JSON.stringify(await status.json()).match(/\b[0-9a-f]{24}\b/g) ?? [])];
  expect(svcIds).toHaveLength(n);
  return { svcIds, tubes: rows.map((r) => r.TUBE_OR_WELL_ID!) };
}

test('ENA refuses a registration: said once, who acts named, and the manager’s retry registers the samples', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(240_000);
  const uploader = await createUser(page.request, testInfo, { memberOf: ['dtol'] });
  const manager = await createUser(page.request, testInfo, { memberOf: ['dtol'], managerOf: ['dtol'] });
  const title = unique(testInfo, 'Refused moths');
  const fileName = `${unique(testInfo, 'refused-moths').replace(/\W+/g, '-')}.xlsx`;
  const { svcIds, tubes } = await confirmedSamples(page.request, uploader, title, fileName, 2);

  // Webin refuses the next submission: the registration of these samples (their specimens come first)
  expect((await page.request.post(`${CONTROL}/ena/refuse?count=1&message=${encodeURIComponent(MESSAGE)}`)).status()).toBe(204);
  const managerHeaders = await keyHeaders(page.request, manager);
  const accepted = await page.request.post('/api/sample/decision', {
    headers: managerHeaders,
    data: { svc_ids: svcIds, decision: 'accept' },
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
  await expect
    .poll(
      async () => {
        const res = await page.request.get('/api/registrations/refused', { headers: managerHeaders });
        const body = (await res.json()) as { data: { profile_title: string; samples: unknown[] }[] };
        return body.data.find((r) => r.profile_title === title)?.samples.length ?? 0;
      },
      { timeout: 120_000, message: 'the registration to be refused' },
    )
    .toBe(2);
  await page.request.post(`${CONTROL}/ena/clear`);

  // the uploader: told once, nothing to upload again, no retry of theirs
  // a context of its own for each person: axe reads pages only from a context the test made
  const ownContext = await browser.newContext({ viewport: page.viewportSize()! });
  const own = await ownContext.newPage();
  await signIn(own, uploader);
  const told = own.getByRole('listitem').filter({ hasText: `ENA refused the registration of 2 samples of ${title}` });
  await expect(told).toHaveCount(1);
  await expect(told).toContainText('There is nothing for you to upload again');
  await expect(told).not.toContainText('Correct them in the manifest');
  await expect(told.getByRole('button', { name: /Retry registration/ })).toHaveCount(0);
  // ENA's message folded underneath
  const message = told.getByText(MESSAGE);
  await expect(message).toBeHidden();
  await told.getByText('ENA’s message').click();
  await expect(message).toBeVisible();
  await expectNoSidewaysScroll(own);
  await expectAccessible(own, 'the uploader’s home with a refusal');
  await shot(own, testInfo, '01-uploader-home');
  await ownContext.close();

  // the admin: the Jobs page counts it as failed work, and says so rather than "no job has failed"
  const adminContext = await browser.newContext({ viewport: page.viewportSize()! });
  const admin = await adminContext.newPage();
  await signIn(admin);
  const asked: string[] = [];
  admin.on('request', (r) => {
    if (['/api/admin/jobs', '/api/registrations/refused'].includes(new URL(r.url()).pathname)) asked.push(r.url());
  });
  await admin.goto('/admin/jobs');
  await expect(admin.getByRole('heading', { name: 'Registrations ENA refused' })).toBeVisible();
  await expect(admin.getByRole('listitem').filter({ hasText: `ENA refused the registration of 2 samples of ${title}` })).toHaveCount(1);
  await expect(admin.getByText('No job has failed for good')).toHaveCount(0);
  // the queue, the failed jobs and the refusals came with the page: the browser asked the API nothing for them
  await admin.waitForLoadState('networkidle');
  expect(asked).toEqual([]);
  await expectNoSidewaysScroll(admin);
  await expectAccessible(admin, 'the Jobs page with a refusal');
  await shot(admin, testInfo, '02-admin-jobs');
  await adminContext.close();

  // the manager: once above the review queue, with the retry
  await signIn(page, manager);
  await page.goto('/manifests/review');
  const refusals = page.getByRole('region', { name: 'Registrations ENA refused' });
  const batch = refusals.getByRole('listitem').filter({ hasText: `ENA refused the registration of 2 samples of ${title}` });
  await expect(batch).toHaveCount(1);
  await expect(batch).toContainText('Fix the cause ENA gives below');
  await expectNoSidewaysScroll(page);
  await expectAccessible(page, 'the review queue with a refusal');
  await shot(page, testInfo, '03-manager-queue');

  // the sample's history keeps ENA's message
  await page.goto(`/samples/${svcIds[0]}`);
  const changes = page.getByRole('list', { name: 'Changes, newest first' });
  await expect(changes).toContainText('Refused by ENA');
  await expect(changes).toContainText('ENA refused the registration');
  await changes.getByText('ENA’s message').click();
  await expect(changes.getByText(MESSAGE)).toBeVisible();
  await expectAccessible(page, 'a refused sample’s page');
  await shot(page, testInfo, '04-sample-history');

  // the retry sends them on: the refusal goes, and the samples are registered
  await page.goto('/manifests/review');
  await batch.getByRole('button', { name: /Retry registration/ }).click();
  await expect(refusals).toHaveCount(0, { timeout: 15_000 });
  await page.goto(`/samples/${svcIds[1]}`);
  await expect(async () => {
    await page.reload();
    await expect(page.getByText('Registered at ENA').first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 90_000 });
  // the ids come from the status answer in no set order: the sample is one of the manifest's two tubes
  await expect(page.getByRole('heading', { level: 1 })).toContainText(new RegExp(tubes.join('|')));
  await shot(page, testInfo, '05-registered');
});
