import { expect, type Page } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config';

export async function signIn(page: Page, user = E2E_ADMIN) {
  await page.goto('/signin');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(`Signed in as ${user.username}`)).toBeVisible();
}

export { E2E_ADMIN };
