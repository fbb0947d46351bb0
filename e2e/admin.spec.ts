import { readFile } from 'node:fs/promises';
import { type APIRequestContext, expect, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import type { PendingSamples } from '@/lib/samples/contract';
import type { Submission, SubmissionList } from '@/lib/submissions/contract';
import { validRows } from '../tests/fixtures/manifests/generate';
import { createUser, expectNoSidewaysScroll, navigateTo, screenshot, signIn, unique } from './helpers';
import { confirmedManifest } from './manifests';

/**
 * The admin's journey: users added, made administrators and deactivated (each power asked for first and answered),
 * the Jobs page, and a registration made through the API as a script would, read back on the Submissions page in
 * words with its accessions and ENA's receipt.
 */

test('an admin adds a user, grants admin and deactivates only after confirming, and the user can no longer sign in', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const username = unique(testInfo, 'ada').replace(/\s+/g, '-').toLowerCase();
  const password = `${username}-password`;
  await signIn(page);
  await navigateTo(page, 'Users');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();

  const form = page.getByRole('form', { name: 'Add a user' });
  await form.getByLabel('Username').fill(username);
  // the server's own rules, checked before anything is sent, beside the field
  await form.getByLabel('Password (at least 8 characters)').fill('short');
  await form.getByRole('button', { name: 'Add user' }).click();
  await expect(form.getByText('password must have at least 8 characters')).toBeVisible();
  await form.getByLabel('Password (at least 8 characters)').fill(password);
  await form.getByRole('group', { name: 'Member of' }).getByLabel('DTOL', { exact: true }).check();
  await form.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Added ${username}` })).toBeVisible();
  await expect(form.getByLabel('Username')).toHaveValue('');

  const row = page.getByRole('row', { name: new RegExp(username) });
  await expect(row).toContainText('Member of DTOL');
  await expect(row).toContainText('May sign in');
  // a key of theirs, to see it refused once they are deactivated
  const key = await request.post('/api/apiKey', { data: { username, password } });
  expect(key.status()).toBe(200);
  const token = ((await key.json()) as { token: string }).token;

  // granting admin: a dialog first; Cancel changes nothing
  await row.getByRole('button', { name: `Make admin ${username}` }).click();
  let dialog = page.getByRole('dialog', { name: `Make ${username} an administrator?` });
  await expect(dialog).toBeVisible();
  await screenshot(page, testInfo, 'admin-01-grant-admin-dialog');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).not.toContainText('Administrator');
  await row.getByRole('button', { name: `Make admin ${username}` }).click();
  await dialog.getByRole('button', { name: 'Make administrator' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${username} is now an administrator.` })).toBeVisible();
  await expect(row).toContainText('Administrator');

  // deactivating: a dialog first, then what happened
  await row.getByRole('button', { name: `Deactivate ${username}` }).click();
  dialog = page.getByRole('dialog', { name: `Deactivate ${username}?` });
  await expect(dialog).toContainText('can no longer sign in');
  await dialog.getByRole('button', { name: 'Deactivate' }).click();
  await expect(page.getByRole('status').filter({ hasText: `${username} is deactivated` })).toBeVisible();
  await expect(row).toContainText('Deactivated');
  await expect(row.getByRole('button', { name: `Reactivate ${username}` })).toBeVisible();
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, 'admin-02-users-after');

  // they can no longer sign in, and their key is refused
  const context = await browser.newContext({ viewport: page.viewportSize() });
  const other = await context.newPage();
  await other.goto('/signin');
  await other.getByLabel('Username').fill(username);
  await other.getByLabel('Password').fill(password);
  await other.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(other.locator('#signin-error')).toHaveText('Unknown username or wrong password.');
  await context.close();
  expect((await request.get('/api/account', { headers: { authorization: `token ${token}` } })).status()).toBe(401);
});

test('the Jobs page shows the queue and the failed jobs, each with a Retry, or says that none failed', async ({ page }, testInfo) => {
  await signIn(page);
  await navigateTo(page, 'Jobs');
  await expect(page.getByRole('heading', { level: 1, name: 'Jobs' })).toBeVisible();
  await expect(page.getByText('Waiting to run')).toBeVisible();
  // no operation of the API makes a job fail for good, and the run's other specs may: either state is checked
  const table = page.getByRole('table', { name: 'Failed jobs, newest first' });
  const empty = page.getByText('No job has failed for good');
  await expect(table.or(empty)).toBeVisible();
  const retry = table.getByRole('button', { name: /^Retry/ });
  if ((await table.isVisible()) && (await retry.count()) > 0) {
    await retry.first().click();
    await expect(page.getByRole('status').filter({ hasText: 'queued again' })).toBeVisible();
  }
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, 'admin-03-jobs');
});

/** A DTOL manifest of `n` samples registered at ENA through the API alone, as a pipeline would: the submission. */
async function registerThroughApi(request: APIRequestContext, token: string, title: string, n: number): Promise<Submission> {
  const headers = { authorization: `token ${token}` };
  const profile = await request.post('/api/profiles', { headers, data: { title, description: 'Registered by a script', type: 'dtol' } });
  expect(profile.status(), await profile.text()).toBe(201);
  const profileId = ((await profile.json()) as { id: string }).id;

  const dtol = currentDefinition('dtol');
  const seed = Math.floor(Math.random() * 1e6);
  const rows = validRows(dtol, n).map((r, i) => ({
    ...r,
    TUBE_OR_WELL_ID: `FD${String(30_000_000 + seed * 10 + i).padStart(8, '0')}`,
    SPECIMEN_ID: `SAN${String(3_000_000 + seed + i * 1_000_003).slice(-7)}`,
  }));
  const { manifestId } = await confirmedManifest(request, { profileId, fileName: 'script.xlsx', rows, headers });

  // the manager's review queue, as their script reads it
  const pending = await request.get('/api/sample/pending?limit=1000', { headers });
  const svcIds = ((await pending.json()) as PendingSamples).data.filter((s) => s.manifest_id === manifestId).map((s) => s.svc_id);
  expect(svcIds).toHaveLength(n);
  const decided = await request.post('/api/sample/decision', { headers, data: { svc_ids: svcIds, decision: 'accept' } });
  expect(decided.status(), await decided.text()).toBe(200);

  let found: Submission | undefined;
  await expect
    .poll(
      async () => {
        const list = (await (await request.get('/api/submissions?limit=50', { headers })).json()) as SubmissionList;
        found = list.data.find((s) => s.profile_id === profileId);
        return found?.status;
      },
      { timeout: 90_000, intervals: [500, 1000, 2000] },
    )
    .toBe('accepted');
  return found!;
}

test('a registration made through the API reads in words on the Submissions page, with its accessions and its receipt as XML', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const manager = await createUser(request, testInfo, { memberOf: ['dtol'], managerOf: ['dtol'] });
  const key = await request.post('/api/apiKey', { data: { username: manager.username, password: manager.password } });
  const token = ((await key.json()) as { token: string }).token;
  const title = unique(testInfo, 'Scripted moths');
  const submission = await registerThroughApi(request, token, title, 3);
  const accessions = Object.entries(submission.accessions.samples ?? {});
  expect(accessions).toHaveLength(3);

  await signIn(page, manager);
  await navigateTo(page, 'Submissions');
  const table = page.getByRole('table', { name: /Submissions to public repositories/ });
  const row = table.getByRole('row').filter({ hasText: title });
  await expect(row).toContainText('Registered 3 samples at ENA');
  await expect(row).toContainText('Done');

  // the detail row under it: accessions beside their samples, folded until opened
  const detail = row.locator('xpath=following-sibling::tr[1]');
  await detail.getByText('Accessions of 3 samples').click();
  const pairs = detail.getByRole('list', { name: 'Samples and their accessions' });
  for (const [svcId, acc] of accessions) {
    // each sample named by its tube and specimen, linked to its page
    expect(acc.tube).toBeTruthy();
    const item = pairs.getByRole('listitem').filter({ hasText: `Tube ${acc.tube} (specimen ${acc.specimen})` });
    await expect(item.getByRole('link', { name: acc.tube })).toHaveAttribute('href', `/samples/${svcId}`);
    await expect(item.getByRole('link', { name: acc.biosampleAccession })).toHaveAttribute(
      'href',
      `https://www.ebi.ac.uk/biosamples/samples/${acc.biosampleAccession}`,
    );
    await expect(item.getByRole('link', { name: acc.sraAccession })).toHaveAttribute(
      'href',
      `https://www.ebi.ac.uk/ena/browser/view/${acc.sraAccession}`,
    );
  }

  // ENA's answers as a list, each receipt downloadable as the XML ENA sent
  await detail.getByText(/\d+ answers from ENA/).click();
  await expect(detail.getByText(/Sent to ENA: accepted, submission ERA\d+/).first()).toBeVisible();
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, 'admin-04-submissions');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    detail
      .getByRole('link', { name: /^Download the receipt as XML/ })
      .last()
      .click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^receipt-.+\.xml$/);
  const xml = await readFile((await download.path())!, 'utf8');
  expect(xml).toMatch(/<RECEIPT[^>]*success="true"/);
  expect(xml).toContain(accessions[0]![1].sraAccession);
});
