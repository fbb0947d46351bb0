import { expect, test } from '@playwright/test';
import { E2E_ADMIN, openMenu } from './helpers';

/**
 * The portal shows and goes to the address it was reached at (issue 26): reached as 127.0.0.1 while its configured
 * address (NEXTAUTH_URL) is localhost, the API keys page's curl examples name 127.0.0.1 and the test server's port,
 * and signing out lands on the sign-in page at 127.0.0.1, not at localhost.
 */

test('the curl examples and signing out keep to the address in use', async ({ page }, testInfo) => {
  const configured = new URL(String(testInfo.project.use.baseURL));
  expect(configured.hostname).toBe('localhost');
  const inUse = `http://127.0.0.1:${configured.port}`;

  await page.goto(`${inUse}/signin`);
  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByText(`Signed in as ${E2E_ADMIN.username}`)).toBeAttached();

  await page.goto(`${inUse}/account/keys`);
  const main = page.getByRole('main');
  await expect(main.getByText(`curl -H "Authorization: token <your key>" ${inUse}/api/profiles`)).toBeVisible();
  await expect(main.getByText(`${inUse}/api/apiKey`)).toBeVisible();
  await expect(main).not.toContainText(configured.origin);

  await openMenu(page);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${inUse}/signin?signed_out=1`);
  await expect(page.getByLabel('Username')).toBeVisible();
  // signed out for good: the portal sends the visitor back to the sign-in page
  await page.goto(`${inUse}/account/keys`);
  await expect(page).toHaveURL(new RegExp(`^${inUse.replace(/\./g, '\\.')}/signin`));
});
