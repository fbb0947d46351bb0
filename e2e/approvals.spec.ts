import { type APIRequestContext, expect, type Page, type TestInfo, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import type { PendingSamples } from '@/lib/samples/contract';
import { validRow } from '../tests/fixtures/manifests/generate';
import {
  createUser,
  type E2eUser,
  expectAccessible,
  expectNoSidewaysScroll,
  keyHeaders,
  navigateTo,
  screenshot,
  signIn,
  unique,
} from './helpers';
import { validatedManifest } from './manifests';

/**
 * Approval by associated type: an admin names a user approver of BGE on the Users page; an ERGA sample of a BGE and
 * ERGA_COMMUNITY profile approved by the ERGA_COMMUNITY approver waits in the BGE approver's review queue saying who
 * approved what and what it still awaits, theirs marked, and their accept sends it on.
 */

const erga = currentDefinition('erga');
const shot = (page: Page, testInfo: TestInfo, name: string) => screenshot(page, testInfo, `approvals-${name}`);

/** A confirmed ERGA manifest of `n` rows naming no permit, on a BGE and ERGA_COMMUNITY profile of `user`. */
async function ergaManifest(request: APIRequestContext, user: E2eUser, fileName: string, n: number): Promise<string[]> {
  const headers = await keyHeaders(request, user);
  const profile = await request.post('/api/profiles', {
    headers,
    data: {
      title: `${fileName} profile`,
      description: 'Beetles of the Pyrenees',
      type: 'erga',
      associated_type: ['BGE', 'ERGA_COMMUNITY'],
      sequencing_centre: ['CNAG'],
    },
  });
  expect(profile.status(), await profile.text()).toBe(201);
  const profileId = ((await profile.json()) as { id: string }).id;
  // tubes and specimens follow the index: a range no other browser test draws from as often (ERGA ids stay in their format)
  const base = 100_000 + Math.floor(Math.random() * 800_000);
  const rows: Record<string, string>[] = Array.from({ length: n }, (_, i) => ({
    ...validRow(erga, base + i),
    SAMPLING_PERMITS_REQUIRED: 'N',
    SAMPLING_PERMITS_DEF: 'NOT_APPLICABLE',
    SAMPLING_PERMITS_FILENAME: 'NOT_APPLICABLE',
  }));
  const reportId = await validatedManifest(request, { profileId, fileName, rows, project: 'erga', headers });
  const report = await request.get(`/api/manifest/validate/report/${reportId}`, { headers });
  expect(((await report.json()) as { errors: unknown[] }).errors, 'the report’s errors').toEqual([]);
  const confirm = await request.post('/api/manifest/validate/confirm', { headers, data: { validation_report_id: reportId } });
  expect(confirm.status(), await confirm.text()).toBe(200);
  return rows.map((r) => r.TUBE_OR_WELL_ID!);
}

test('an admin names a user approver of an associated type on the Users page', async ({ page }, testInfo) => {
  const user = await createUser(page.request, testInfo, { memberOf: ['erga'] });
  await signIn(page);
  await navigateTo(page, 'Users');
  // the list is paged, and the suite's users are many by now: the admin looks the user up
  const search = page.getByRole('search');
  await search.getByLabel('Search users').fill(user.username);
  await search.getByRole('button', { name: 'Search' }).click();
  const row = page.getByRole('row', { name: new RegExp(user.username) });
  await row.getByRole('button', { name: `Projects of ${user.username}` }).click();
  const editor = page.getByRole('form', { name: `Projects of ${user.username}` });
  const types = editor.getByRole('group', { name: 'Approves samples of the associated types' });
  await types.getByLabel('BGE', { exact: true }).check();
  await types.getByLabel('ERGA_COMMUNITY', { exact: true }).check();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '01-editor');
  await editor.getByRole('button', { name: 'Save projects' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Saved the projects of ${user.username}` })).toContainText(
    'approves BGE, ERGA_COMMUNITY',
  );
  await expect(row).toContainText('Approves BGE, ERGA_COMMUNITY');
  // read back through the API
  const listed = await page.request.get('/api/admin/users?limit=1000');
  const found = ((await listed.json()) as { username: string; approver_of: string[] }[]).find((u) => u.username === user.username);
  expect(found?.approver_of).toEqual(['BGE', 'ERGA_COMMUNITY']);
});

test('a sample approved for ERGA_COMMUNITY waits for the BGE approver, who sees who approved what and sends it on', async ({
  page,
  browser,
}, testInfo) => {
  test.setTimeout(180_000);
  const uploader = await createUser(page.request, testInfo, { memberOf: ['erga'] });
  const community = await createUser(page.request, testInfo, { approverOf: ['ERGA_COMMUNITY'] });
  const bge = await createUser(page.request, testInfo, { approverOf: ['BGE'] });
  const fileName = `${unique(testInfo, 'pyrenean-beetles').replace(/\W+/g, '-')}.xlsx`;
  const [first, second] = await ergaManifest(page.request, uploader, fileName, 2);

  // the ERGA_COMMUNITY approver accepts the first through the API, as a script would
  const headers = await keyHeaders(page.request, community);
  const pending = (await (await page.request.get('/api/sample/pending?limit=1000', { headers })).json()) as PendingSamples;
  const firstId = pending.data.find((s) => s.TUBE_OR_WELL_ID === first)!.svc_id;
  const decided = await page.request.post('/api/sample/decision', { headers, data: { svc_ids: [firstId], decision: 'accept' } });
  expect(decided.status(), await decided.text()).toBe(200);

  await signIn(page, bge);
  await navigateTo(page, 'Review queue');
  const table = page.getByRole('table', { name: `Samples of ${fileName} awaiting your decision` });
  const approvedRow = table.getByRole('row', { name: new RegExp(first!) });
  await expect(approvedRow).toContainText('your accept approves BGE, its last approval)');
  await expect(approvedRow).toContainText(`ERGA_COMMUNITY approved by ${community.username}`);
  await expect(approvedRow).toContainText('Awaiting BGE (yours)');
  await expect(table.getByRole('row', { name: new RegExp(second!) })).toContainText('Awaiting BGE (yours) and ERGA_COMMUNITY');
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '02-queue');

  await page.getByLabel(`Select sample ${first}`).check();
  await page.getByRole('button', { name: 'Accept selected (1)' }).click();
  await expect(page.getByText(/records your approval of the associated types marked “yours”/)).toBeVisible();
  await page.getByRole('button', { name: 'Accept 1 sample' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Decision recorded: 1 accepted.' })).toBeVisible();
  await expect(page.getByLabel(`Select sample ${first}`)).toHaveCount(0);
  // its last approval: it left review for ENA
  const gone = page.getByRole('table', { name: `Samples of ${fileName} decided lately` }).getByRole('row', { name: new RegExp(first!) });
  await expect(gone).not.toContainText('Awaiting review');
  await shot(page, testInfo, '03-accepted');

  // the ERGA_COMMUNITY approver: nothing left for them in this manifest; the second still waits for both, the first moved on
  // a context of its own: axe runs only in pages of one
  const context = await browser.newContext({ viewport: page.viewportSize()!, hasTouch: testInfo.project.name === 'phone' });
  const other = await context.newPage();
  await signIn(other, community);
  await navigateTo(other, 'Review queue');
  const theirs = other.getByRole('table', { name: `Samples of ${fileName} awaiting your decision` });
  await expect(theirs.getByRole('row', { name: new RegExp(second!) })).toContainText('Awaiting BGE and ERGA_COMMUNITY (yours)');
  await expect(theirs.getByRole('row', { name: new RegExp(first!) })).toHaveCount(0);
  await expectAccessible(other);
  await expectNoSidewaysScroll(other);
  await context.close();
});
