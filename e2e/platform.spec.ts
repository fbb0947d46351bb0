import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { COMPILE_HINT } from '../scripts/compile-hints.mjs';
import { E2E_ADMIN, navigateTo, screenshot, signIn, unique } from './helpers';

test('a wrong password is refused on the sign-in page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/signin/);
  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.locator('#signin-error')).toHaveText('Unknown username or wrong password.');
});

test('sign in, create an API key, copy it, use it, revoke it after confirming', async ({ page, request }, testInfo) => {
  const name = unique(testInfo, 'e2e pipeline');
  await signIn(page);
  await navigateTo(page, 'API keys');
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();

  await page.getByLabel('Name (what the key is for)').fill(name);
  await page.getByRole('button', { name: 'Create key' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'it is shown this once' })).toBeVisible();
  const key = (await page.getByTestId('new-api-key').textContent())?.trim() ?? '';
  expect(key).toMatch(/^rmb_/);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.getByRole('button', { name: 'Copy the key' }).click();
  await expect(page.getByText(/Copied to the clipboard|did not allow copying/)).toBeVisible();

  // the key works against the API exactly as a script would use it
  const me = await request.get('/api/account', { headers: { Authorization: `token ${key}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).username).toBe(E2E_ADMIN.username);

  const row = page.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText('Active');
  await row.getByRole('button', { name: /Revoke/ }).click();
  const dialog = page.getByRole('dialog', { name: /Revoke the key/ });
  await expect(dialog).toContainText('refused from then on');
  await screenshot(page, testInfo, 'api-keys-revoke-dialog');
  await dialog.getByRole('button', { name: 'Revoke key' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Revoked the key' })).toBeVisible();
  await expect(row).toContainText('Revoked');
  const after = await request.get('/api/account', { headers: { Authorization: `token ${key}` } });
  expect(after.status()).toBe(401);
});

test('an admin adds a user with a project membership, who can then sign in', async ({ page, browser }, testInfo) => {
  const username = unique(testInfo, 'erga-member').replace(/\s+/g, '-').toLowerCase();
  await signIn(page);
  await navigateTo(page, 'Users');
  const form = page.getByRole('form', { name: 'Add a user' });
  await form.getByLabel('Username').fill(username);
  await form.getByLabel('Password (at least 8 characters)').fill('erga-member-pw');
  await form.getByRole('group', { name: 'Member of' }).getByLabel('ERGA').check();
  await form.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Added ${username}` })).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(username) });
  await expect(row).toContainText('Member of ERGA');

  const context = await browser.newContext({ viewport: page.viewportSize() });
  const other = await context.newPage();
  await signIn(other, { username, password: 'erga-member-pw' });
  // not in the menu at all, even folded
  await expect(other.locator('nav[aria-label="Main"] a', { hasText: 'Users' })).toHaveCount(0);
  await context.close();
});

test('the scripts every page loads are served with V8’s compile hint (scripts/compile-hints.mjs)', async ({ request }) => {
  const manifest = JSON.parse(readFileSync('.next/build-manifest.json', 'utf8')) as { rootMainFiles: string[] };
  const scripts = manifest.rootMainFiles.filter((f) => f.endsWith('.js'));
  expect(scripts.length).toBeGreaterThan(0);
  for (const file of scripts) {
    const res = await request.get(`/_next/${file}`);
    expect(res.status()).toBe(200);
    expect((await res.text()).startsWith(COMPILE_HINT), file).toBe(true);
  }
});
