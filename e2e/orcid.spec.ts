import { expect, type Page, test } from '@playwright/test';
import { createUser, expectNoSidewaysScroll, navigateTo, screenshot, signIn } from './helpers';

/**
 * Signing in with ORCID in a browser, against the OpenID Connect server e2e/serve.ts runs in ORCID's place when
 * E2E_ORCID=1 (with SELF_REGISTRATION=true): a new person signs in and has an account; a user links an iD from the
 * Account page and the admin's Users page shows it.
 */

test.skip(!process.env.E2E_ORCID, 'needs E2E_ORCID=1, so that e2e/serve.ts runs a stand-in for ORCID');

/** A fresh ORCID iD with a right check digit (ISO 7064 MOD 11-2), different on every run. */
function newOrcidId(): string {
  const digits = `0009${String(Date.now() % 1e8).padStart(8, '0')}${Math.floor(Math.random() * 1000)
    .toString()
    .padStart(3, '0')}`;
  let total = 0;
  for (const d of digits) total = (total + Number(d)) * 2;
  const check = (12 - (total % 11)) % 11;
  const all = `${digits}${check === 10 ? 'X' : check}`;
  return all.match(/.{4}/g)?.join('-') ?? all;
}

/** At the stand-in's pages: sign in as the iD (any password), then allow the broker. */
async function signInAtOrcid(page: Page, orcidId: string) {
  await page.getByPlaceholder('Enter any login').fill(orcidId);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

test('a new person signs in with ORCID and finds their iD on their account', async ({ page }, testInfo) => {
  const orcidId = newOrcidId();
  await page.goto('/signin');
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, 'orcid-signin');
  await page.getByRole('button', { name: 'Sign in with ORCID' }).click();
  await signInAtOrcid(page, orcidId);

  // a username made from the name ORCID gave
  await expect(page.getByText(/Signed in as robin\.orcid\.\w+/)).toBeAttached();
  await navigateTo(page, 'Account');
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
  await expect(page.getByRole('link', { name: `https://orcid.org/${orcidId}` })).toBeVisible();
  await expect(page.getByText(`Robin Orcid-${orcidId.slice(-4)}`)).toBeVisible();
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, 'orcid-account');
});

test('a user links an ORCID iD from the Account page; the admin sees it on the Users page', async ({
  page,
  browser,
  request,
}, testInfo) => {
  const user = await createUser(request, testInfo);
  const orcidId = newOrcidId();
  await signIn(page, user);
  await navigateTo(page, 'Account');
  await expect(page.getByText('Not linked')).toBeVisible();
  await page.getByRole('button', { name: 'Link your ORCID iD' }).click();
  await signInAtOrcid(page, orcidId);

  await expect(page.getByRole('status')).toContainText(`Your ORCID iD ${orcidId} is linked`);
  await expect(page.getByText(`Signed in as ${user.username}`)).toBeAttached();
  await expect(page.getByRole('link', { name: `https://orcid.org/${orcidId}` })).toBeVisible();

  const admin = await browser.newPage({ viewport: page.viewportSize() ?? undefined });
  await signIn(admin);
  await navigateTo(admin, 'Users');
  const row = admin.getByRole('row', { name: new RegExp(user.username) });
  await expect(row.getByRole('link', { name: orcidId })).toHaveAttribute('href', `https://orcid.org/${orcidId}`);
  await expectNoSidewaysScroll(admin);
  await screenshot(admin, testInfo, 'orcid-users');
  await admin.close();
});
