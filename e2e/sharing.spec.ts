import { expect, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import { validRow } from '../tests/fixtures/manifests/generate';
import { toXlsx } from '../tests/fixtures/manifests/workbook';
import { createUser, expectAccessible, expectNoSidewaysScroll, keyHeaders, navigateTo, signIn, unique } from './helpers';

/**
 * A lab working together: the owner makes a group on the Groups page, adds a colleague, and shares a DTOL profile
 * with the group as contributors from the profile's Sharing section; the colleague signs in, finds the profile
 * among theirs ("you: contributor") and uploads and confirms a manifest to it. At 1366 and 375 px, with axe.
 */

const dtol = currentDefinition('dtol');
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

test('the owner shares a profile with a group; a member signs in and uploads a manifest to it', async ({ page, request }, testInfo) => {
  const owner = await createUser(request, testInfo, { memberOf: ['dtol'] });
  const member = await createUser(request, testInfo, { memberOf: ['dtol'] });
  const group = unique(testInfo, 'Moth lab');
  const title = unique(testInfo, 'Shared moths');

  await signIn(page, owner);
  await navigateTo(page, 'Groups');
  await expect(page.getByRole('heading', { level: 1, name: 'Groups' })).toBeVisible();
  await page.getByLabel('Name').fill(group);
  await page.getByRole('button', { name: 'Make group' }).click();
  await expect(page.getByRole('status').filter({ hasText: `Made the group ${group}` })).toBeVisible();
  const card = page.getByRole('region', { name: group });
  await card.getByLabel('Add a member (username)').fill('nobody-of-that-name');
  await card.getByRole('button', { name: 'Add' }).click();
  await expect(card.getByText("No active user is named 'nobody-of-that-name'")).toBeVisible();
  await card.getByLabel('Add a member (username)').fill(member.username);
  await card.getByRole('button', { name: 'Add' }).click();
  await expect(card.getByRole('listitem').filter({ hasText: member.username })).toBeVisible();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  // the profile, made in the portal, shared with the group from its Sharing section
  await page.goto('/profiles/new');
  await page.getByLabel('Title').fill(title);
  await page.getByLabel('Type').selectOption('dtol');
  await page.getByRole('button', { name: /Create/ }).click();
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  const sharing = page.getByRole('region', { name: 'Sharing' });
  await expect(sharing.getByText('Not shared with anyone.')).toBeVisible();
  await sharing.getByLabel('Share with').selectOption({ label: `The group ${group} (2 members)` });
  await sharing.getByLabel('Role').selectOption('contributor');
  await sharing.getByRole('button', { name: 'Share' }).click();
  await expect(sharing.getByRole('status').filter({ hasText: `Shared with the group ${group} as contributor.` })).toBeVisible();
  await expect(sharing.getByText(group, { exact: true })).toBeVisible();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  const profileUrl = page.url();

  // the member, in a session of their own
  await page.context().clearCookies();
  await signIn(page, member);
  await navigateTo(page, 'Profiles');
  await expect(page.getByText(`${owner.username} (you: contributor)`).first()).toBeVisible();
  // the profile's page asks for its own profile, not for every profile the member may use
  const listsOfProfiles: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/profiles') listsOfProfiles.push(r.url());
  });
  await page.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(profileUrl);
  await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
  await expect(page.getByTestId('manifest-dropzone')).toBeVisible();
  expect(listsOfProfiles).toEqual([]);
  const base = 100_000 + Math.floor(Math.random() * 800_000);
  const rows = [validRow(dtol, base), validRow(dtol, base + 1)];
  const bytes = Buffer.from(
    await toXlsx(
      dtol.fields.map((f) => f.name),
      rows,
      { typed: true },
    ),
  );
  await page.getByTestId('manifest-input').setInputFiles({ name: 'shared-moths.xlsx', mimeType: XLSX, buffer: bytes });
  await expect(page).toHaveURL(/\/manifests\/reports\/[0-9a-f-]{36}$/, { timeout: 30_000 });
  await expect(page.getByRole('heading', { name: /Ready to confirm/ })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('button', { name: 'Confirm and create the samples' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Confirmed: 2 samples created, 0 updated.' })).toBeVisible();
  await expectNoSidewaysScroll(page);
});

test('a viewer is not offered what a viewer may not do: no drop zone, no delete, the reason said instead', async ({
  page,
  request,
}, testInfo) => {
  const owner = await createUser(request, testInfo, { memberOf: ['dtol'] });
  const viewer = await createUser(request, testInfo, { memberOf: ['dtol'] });
  const headers = await keyHeaders(request, owner);
  const title = unique(testInfo, 'Looked-at moths');
  const made = await request.post('/api/profiles', { headers, data: { title, description: 'Shared to be read', type: 'dtol' } });
  expect(made.status(), await made.text()).toBe(201);
  const profileId = ((await made.json()) as { id: string }).id;
  const shared = await request.post(`/api/profiles/${profileId}/shares`, { headers, data: { username: viewer.username, role: 'viewer' } });
  expect(shared.status(), await shared.text()).toBeLessThan(300);

  await signIn(page, viewer);
  await page.goto(`/profiles/${profileId}`);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  // nothing to drop a file on that would answer 403: each place says who may add instead
  await expect(page.getByTestId('manifest-input')).toHaveCount(0);
  await expect(page.getByTestId('file-dropzone')).toHaveCount(0);
  await expect(page.getByTestId('study-dropzone')).toHaveCount(0);
  await expect(page.getByText('its owner can make you a contributor to add samples')).toBeVisible();
  await expect(page.getByText('You may read this profile’s data files')).toBeVisible();
  await expect(page.getByRole('columnheader', { name: 'Delete' })).toHaveCount(0);
  await expectAccessible(page, 'a profile seen by a viewer');
  await expectNoSidewaysScroll(page);
});
