import { expect, test } from '@playwright/test';
import { createUser, expectAccessible, expectNoSidewaysScroll, navigateTo, signIn } from './helpers';

/**
 * The admin's basics on the Users page (issue 26), at a laptop's and a phone's width: a search that stays in the URL
 * finds one user among many, says so in words when nobody matches; "Set password" sets one in a dialog that says what
 * it did, and the user signs in with it. Then, signed out, "Forgot password?" answers the same whoever is named.
 */

test('an admin finds a user by a part of their email, sets their password, and the user signs in with it', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const stamp = `${testInfo.project.name}${Date.now().toString(36)}`;
  const person = await createUser(request, testInfo, { memberOf: ['dtol'], email: `findme-${stamp}@example.org` });
  await signIn(page);
  await navigateTo(page, 'Users');
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();

  const search = page.getByRole('search');
  // a part of their address, in capitals: theirs alone
  const part = `FINDME-${stamp.toUpperCase()}`;
  await search.getByLabel('Search users').fill(part);
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]q=${part}`));
  const rows = page.getByRole('table').getByRole('row');
  // the header and this user's row
  await expect(rows).toHaveCount(2);
  const row = page.getByRole('row', { name: new RegExp(person.username) });
  await expect(row).toBeVisible();
  // a reload keeps the search, its page of users coming with the page: the browser asks the API nothing for it
  const asked: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/admin/users') asked.push(r.url());
  });
  await page.reload();
  await expect(search.getByLabel('Search users')).toHaveValue(part);
  await expect(rows).toHaveCount(2);
  await page.waitForLoadState('networkidle');
  expect(asked).toEqual([]);
  await expectAccessible(page, 'the Users page with a search');
  await expectNoSidewaysScroll(page);

  // Set password: the API's minimum is checked in the dialog, the two must match, and the dialog says what it did
  await row.getByRole('button', { name: `Set password of ${person.username}` }).click();
  const dialog = page.getByRole('dialog', { name: `Set a password for ${person.username}` });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('New password (at least 8 characters)').fill('short');
  await dialog.getByRole('button', { name: 'Set password' }).click();
  await expect(dialog.getByText('password must have at least 8 characters')).toBeVisible();
  const newPassword = `${person.username}-new-pw`;
  await dialog.getByLabel('New password (at least 8 characters)').fill(newPassword);
  await dialog.getByLabel('The new password again').fill(`${newPassword}x`);
  await dialog.getByRole('button', { name: 'Set password' }).click();
  await expect(dialog.getByText('The two passwords differ')).toBeVisible();
  await dialog.getByLabel('The new password again').fill(newPassword);
  await expectAccessible(page, 'the Set password dialog');
  await dialog.getByRole('button', { name: 'Set password' }).click();
  await expect(dialog.getByRole('status')).toContainText(`The password of ${person.username} is set`);
  await expect(dialog.getByRole('status')).toBeInViewport();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  // the user signs in with it, in a browser of their own; the old password no longer works
  const theirs = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const theirPage = await theirs.newPage();
  const old = await request.post('/api/apiKey', { data: { username: person.username, password: person.password } });
  expect(old.status()).toBe(401);
  await signIn(theirPage, { username: person.username, password: newPassword });
  await theirs.close();

  // nobody matches: said in words, with the way back to everyone
  await search.getByLabel('Search users').fill('no-user-has-this-zq');
  await search.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'No user matches “no-user-has-this-zq”.' })).toBeVisible();
  await page.getByRole('link', { name: 'Show every user' }).first().click();
  await expect(page).not.toHaveURL(/[?&]q=/);
  await expect(page.getByRole('row', { name: /e2e-admin/ })).toBeVisible();
});

test('signed out, "Forgot password?" asks for a username or address and answers the same whoever is named', async ({ page }) => {
  await page.goto('/signin');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Forgot password' })).toBeVisible();
  const answers: string[] = [];
  for (const login of ['e2e-admin', 'nobody-by-this-name']) {
    await page.getByLabel('Username or email address').fill(login);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    const status = page.getByRole('status');
    await expect(status).toContainText('If an account matches, we have sent a link');
    await expect(status).toBeInViewport();
    answers.push((await status.textContent()) ?? '');
  }
  expect(answers[0]).toBe(answers[1]);
  await expectAccessible(page, 'the Forgot password page');
  await expectNoSidewaysScroll(page);

  // a link that does not work says so, and where to ask for a new one
  await page.goto('/reset-password?token=1-zzzz-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  await expect(page.getByRole('main').getByRole('alert')).toContainText('This password reset link does not work');
  await expect(page.getByRole('link', { name: 'Ask for a new link' })).toBeVisible();
  await expectAccessible(page, 'the Set a new password page with a spent link');
});
