import { expect, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from '../tests/fixtures/manifests/generate';
import { createUser, keyHeaders, signIn, unique } from './helpers';
import { confirmedManifest } from './manifests';

/**
 * The audit browser's first page of changes comes with the page (app/(portal)/audit/page.tsx): drawn at once, with
 * nothing asked of the API until the filter changes; a filter the API refuses is still said beside its field.
 */
test('the audit’s first page of changes comes with the page, and a new filter asks the API', async ({ page, request }, testInfo) => {
  const researcher = await createUser(request, testInfo, { memberOf: ['dtol'] });
  const headers = await keyHeaders(request, researcher);
  const profile = await request.post('/api/profiles', {
    headers,
    data: { title: unique(testInfo, 'Audited moths'), description: 'Moths whose sheet was corrected', type: 'dtol' },
  });
  expect(profile.status(), await profile.text()).toBe(201);
  const profileId = ((await profile.json()) as { id: string }).id;
  const seed = Math.floor(Math.random() * 1e6);
  const rows = validRows(currentDefinition('dtol'), 1).map(
    (r): Record<string, string> => ({
      ...r,
      TUBE_OR_WELL_ID: `FD${String(60_000_000 + seed).padStart(8, '0')}`,
      SPECIMEN_ID: `SAN${String(6_000_000 + seed).slice(-7)}`,
    }),
  );
  const tube = rows[0]!.TUBE_OR_WELL_ID!;
  await confirmedManifest(request, { profileId, fileName: 'audited-moths.xlsx', rows, headers });
  // the same tube again, collected by someone else: a change made by a user
  const corrected = rows.map((r) => ({ ...r, COLLECTED_BY: 'Ada Lovelace' }));
  await confirmedManifest(request, { profileId, fileName: 'audited-moths-corrected.xlsx', rows: corrected, headers });

  const asked: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === '/api/audit/browse') asked.push(r.url());
  });
  await signIn(page, researcher);
  await page.goto(`/audit?tube=${tube}`);
  const changes = page.getByRole('table', { name: 'Changes to samples, newest first' });
  const change = changes.getByRole('row').filter({ hasText: 'COLLECTED_BY' });
  await expect(change).toContainText('Ada Lovelace');
  await expect(page.getByRole('status').filter({ hasText: /^1 change, newest first/ })).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(asked, 'the first page came with the page').toEqual([]);

  // a field no audit row can name: the API's refusal, beside the field
  await page.goto(`/audit?tube=${tube}&field=NOT_A_FIELD`);
  if (testInfo.project.name === 'phone') await page.getByText(/^Filters/).click();
  await expect(page.getByText('Unknown field: NOT_A_FIELD.', { exact: true })).toBeVisible();
  expect(asked).toHaveLength(1);
});
