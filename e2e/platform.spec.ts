import { expect, test } from '@playwright/test';
import { E2E_ADMIN, signIn } from './helpers';

test('a wrong password is refused on the sign-in page', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/signin/);
  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.locator('#signin-error')).toHaveText('Unknown username or wrong password.');
});

test('sign in, create an API key, use it, revoke it', async ({ page, request }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys' })).toBeVisible();

  await page.getByLabel('Name (what the key is for)').fill('e2e pipeline');
  await page.getByRole('button', { name: 'Create key' }).click();
  const key = (await page.getByTestId('new-api-key').textContent())?.trim() ?? '';
  expect(key).toMatch(/^rmb_/);

  // the key works against the API exactly as a script would use it
  const me = await request.get('/api/account', { headers: { Authorization: `token ${key}` } });
  expect(me.status()).toBe(200);
  expect((await me.json()).username).toBe(E2E_ADMIN.username);

  const row = page.getByRole('row', { name: /e2e pipeline/ });
  await expect(row).toContainText('active');
  page.once('dialog', (d) => void d.accept());
  await row.getByRole('button', { name: /Revoke/ }).click();
  await expect(row).toContainText('revoked');
  const after = await request.get('/api/account', { headers: { Authorization: `token ${key}` } });
  expect(after.status()).toBe(401);
});

test('an admin adds a user with a project membership, who can then sign in', async ({ page, browser }) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Users' }).click();
  const form = page.getByRole('form', { name: 'Add a user' });
  await form.getByLabel('Username').fill('erga-member');
  // the page checks with the server's schema first, and says what is wrong beside the field
  await form.getByLabel('Password (at least 8 characters)').fill('short');
  await form.getByRole('button', { name: 'Add user' }).click();
  await expect(form.getByText('password must have at least 8 characters')).toBeVisible();
  await form.getByLabel('Password (at least 8 characters)').fill('erga-member-pw');
  await form.getByLabel('Member of ERGA').check();
  await form.getByRole('button', { name: 'Add user' }).click();
  const row = page.getByRole('row', { name: /erga-member/ });
  await expect(row).toBeVisible();
  await expect(row.getByLabel('member of erga (erga-member)')).toBeChecked();

  const other = await browser.newPage();
  await signIn(other, { username: 'erga-member', password: 'erga-member-pw' });
  await expect(other.getByRole('link', { name: 'Users' })).toHaveCount(0);
  await other.close();
});
