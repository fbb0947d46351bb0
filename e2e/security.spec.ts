import { expect, test } from '@playwright/test';
import { createUser, E2E_ADMIN, expectAccessible, navigateTo, openMenu, screenshot, signIn } from './helpers';

/**
 * What the portal promises a person whose browser meets another site (SECURITY.md): its pages run only their own
 * scripts and are never framed, a deep link comes back after signing in but never to another site, and a person can
 * end their sessions everywhere.
 */

test('each page runs only the scripts carrying its request’s nonce, and refuses to be framed', async ({ page }) => {
  const first = await page.goto('/signin');
  const policy = first?.headers()['content-security-policy'] ?? '';
  expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]+' 'strict-dynamic'/);
  expect(policy).toContain("frame-ancestors 'none'");
  expect(first?.headers()['x-content-type-options']).toBe('nosniff');
  expect(first?.headers()['x-frame-options']).toBe('DENY');
  const again = await page.goto('/signin');
  expect(again?.headers()['content-security-policy']).not.toBe(policy);
  // the page's own scripts run under it: signing in works
  await signIn(page);

  // another site framing the portal gets nothing of it
  const framing = await page.context().newPage();
  await framing.setContent(`<iframe title="portal" src="${new URL('/signin', page.url()).href}"></iframe>`);
  await framing.waitForTimeout(500);
  const frame = framing.frames().find((f) => f.url().includes('/signin'));
  expect(frame ? await frame.locator('h1').count() : 0).toBe(0);
  await framing.close();
});

test('a deep link opened signed out comes back after signing in; another site never does', async ({ page }, testInfo) => {
  await page.goto('/samples?q=Lepidoptera');
  await expect(page).toHaveURL(/\/signin\?callbackUrl=%2Fsamples%3Fq%3DLepidoptera$/);
  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page).toHaveURL(/\/samples\?q=Lepidoptera$/);
  await screenshot(page, testInfo, 'deep-link-after-sign-in');

  for (const callback of ['/%5Cevil.example', '/%09/evil.example', 'https://evil.example/', '//evil.example']) {
    await page.context().clearCookies();
    await page.goto(`/signin?callbackUrl=${callback}`);
    await page.getByLabel('Username').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill(E2E_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('main')).toBeVisible();
    expect(new URL(page.url()).host, callback).toBe(new URL(testInfo.project.use.baseURL ?? page.url()).host);
  }
});

test('signing out says so, and signing out everywhere ends the sessions of other browsers', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const person = await createUser(request, testInfo);
  const elsewhere = await browser.newContext({ viewport: page.viewportSize() });
  const other = await elsewhere.newPage();
  await signIn(other, person);

  await signIn(page, person);
  await navigateTo(page, 'Account');
  await expect(page.getByRole('heading', { name: 'Where you are signed in' })).toBeVisible();
  await expectAccessible(page, 'the account page');
  await page.getByRole('button', { name: 'Sign out everywhere' }).click();
  const dialog = page.getByRole('dialog', { name: 'Sign out everywhere?' });
  await expect(dialog).toContainText('this one too');
  await screenshot(page, testInfo, 'sign-out-everywhere-dialog');
  await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
  await expect(page).toHaveURL(/\/signin\?signed_out=everywhere$/);
  await expect(page.getByRole('status')).toHaveText(/You have signed out everywhere/);

  // the other browser's next page asks it to sign in again, and comes back where it was going
  await other.goto('/profiles');
  await expect(other).toHaveURL(/\/signin\?callbackUrl=%2Fprofiles$/);
  await elsewhere.close();

  await signIn(page, person);
  await openMenu(page);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('status')).toHaveText('You have signed out.');
});
