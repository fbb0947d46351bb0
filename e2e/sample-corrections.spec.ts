import { type APIRequestContext, expect, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import type { PendingSamples } from '@/lib/samples/contract';
import type { SubmissionList } from '@/lib/submissions/contract';
import { validRows } from '../tests/fixtures/manifests/generate';
import { createUser, expectAccessible, expectNoSidewaysScroll, keyHeaders, navigateTo, screenshot, signIn, unique } from './helpers';
import { confirmedManifest } from './manifests';

/**
 * A sample manager corrects a registered sample by its BioSample accession: from the review queue to the corrections
 * page, pastes a correction the manifest's rules refuse and reads the error beside its row, fixes it, reads the diff
 * and what will be sent to ENA, confirms, and the sample is registered again with the new value.
 */

/** One DTOL sample registered at ENA through the API, as a pipeline would: its profile and BioSample accession. */
async function registeredSample(
  request: APIRequestContext,
  headers: Record<string, string>,
  title: string,
): Promise<{ profileId: string; accession: string }> {
  const profile = await request.post('/api/profiles', { headers, data: { title, description: 'To be corrected', type: 'dtol' } });
  expect(profile.status(), await profile.text()).toBe(201);
  const profileId = ((await profile.json()) as { id: string }).id;
  const seed = Math.floor(Math.random() * 1e6);
  const rows = validRows(currentDefinition('dtol'), 1).map((r) => ({
    ...r,
    TUBE_OR_WELL_ID: `FD${String(40_000_000 + seed).padStart(8, '0')}`,
    SPECIMEN_ID: `SAN${String(4_000_000 + seed).slice(-7)}`,
  }));
  const { manifestId } = await confirmedManifest(request, { profileId, fileName: 'to-correct.xlsx', rows, headers });
  const pending = (await (await request.get('/api/sample/pending?limit=1000', { headers })).json()) as PendingSamples;
  const svcIds = pending.data.filter((s) => s.manifest_id === manifestId).map((s) => s.svc_id);
  expect(svcIds).toHaveLength(1);
  expect((await request.post('/api/sample/decision', { headers, data: { svc_ids: svcIds, decision: 'accept' } })).status()).toBe(200);
  let accession = '';
  await expect
    .poll(
      async () => {
        const sample = (await (await request.get(`/api/sample/svc_id/${svcIds[0]}`, { headers })).json()) as {
          data: { biosampleAccession?: string }[];
        };
        accession = sample.data[0]?.biosampleAccession ?? '';
        return accession;
      },
      { timeout: 90_000, intervals: [500, 1000, 2000] },
    )
    .toMatch(/^SAMEA\d+$/);
  return { profileId, accession };
}

/** The profile's registrations at ENA that finished, accepted. */
async function acceptedRegistrations(request: APIRequestContext, headers: Record<string, string>, profileId: string): Promise<number> {
  const list = (await (await request.get('/api/submissions?limit=100', { headers })).json()) as SubmissionList;
  return list.data.filter((s) => s.profile_id === profileId && s.status === 'accepted').length;
}

test('a sample manager corrects a registered sample by accession: errors beside their rows, the diff, then confirmed', async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(180_000);
  const manager = await createUser(request, testInfo, { memberOf: ['dtol'], managerOf: ['dtol'] });
  const headers = await keyHeaders(request, manager);
  const { profileId, accession } = await registeredSample(request, headers, unique(testInfo, 'Corrected moths'));
  expect(await acceptedRegistrations(request, headers, profileId)).toBe(1);

  await signIn(page, manager);
  await navigateTo(page, 'Review queue');
  await page.getByRole('link', { name: 'Correct registered samples by accession' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Correct registered samples' })).toBeVisible();
  await expectAccessible(page, 'the corrections page');
  await expectNoSidewaysScroll(page);

  // a correction the manifest's rules refuse: the error stands beside its row, and nothing can be confirmed
  const box = page.getByLabel('Corrections, one field a row');
  await box.fill(`biosampleAccession,field,value\n${accession},SEX,SOMETIMES\n${accession},NOT_A_FIELD,x\n`);
  await page.getByRole('button', { name: 'Preview the corrections' }).click();
  const rows = page.getByRole('table', { name: 'Each correction with its errors' });
  await expect(rows.getByRole('row').filter({ hasText: 'NOT_A_FIELD' })).toContainText('is not a field of the DTOL manifest');
  await expect(rows.getByRole('row').filter({ hasText: 'SOMETIMES' })).toContainText('SEX');
  await expect(page.getByRole('status').filter({ hasText: /errors? to fix/ })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirm the corrections' })).toHaveCount(0);
  await expectAccessible(page, 'the corrections page with errors');
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, 'corrections-01-errors');

  // fixed: the diff, with what goes to ENA
  await box.fill(`biosampleAccession,field,value\n${accession},DESCRIPTION_OF_COLLECTION_METHOD,Beaten from an oak\n`);
  await page.getByRole('button', { name: 'Preview the corrections' }).click();
  const diff = page.getByRole('table', { name: 'The samples that change, and what is sent to ENA' });
  const changed = diff.getByRole('row').filter({ hasText: accession });
  await expect(changed).toContainText('DESCRIPTION_OF_COLLECTION_METHOD');
  await expect(changed).toContainText('Beaten from an oak');
  await expect(changed).toContainText('MODIFY of the sample');
  await expectAccessible(page, 'the corrections page with its diff');
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, 'corrections-02-diff');

  await page.getByRole('button', { name: 'Confirm the corrections' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Corrected 1 sample' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Confirm the corrections' })).toHaveCount(0);
  await screenshot(page, testInfo, 'corrections-03-confirmed');

  // sent to ENA again (a MODIFY, in a registration of its own) with the corrected value
  await expect.poll(() => acceptedRegistrations(request, headers, profileId), { timeout: 90_000, intervals: [500, 1000, 2000] }).toBe(2);
  const found = (await (await request.get(`/api/sample/biosampleAccessions/${accession}`, { headers })).json()) as {
    data: { DESCRIPTION_OF_COLLECTION_METHOD?: string }[];
  };
  expect(found.data[0]?.DESCRIPTION_OF_COLLECTION_METHOD).toBe('Beaten from an oak');
});

test('one who approves no samples does not find the corrections page', async ({ page, request }, testInfo) => {
  const member = await createUser(request, testInfo, { memberOf: ['dtol'] });
  await signIn(page, member);
  await page.goto('/manifests/review/corrections');
  await expect(page.getByRole('heading', { level: 1, name: 'Correct registered samples' })).toHaveCount(0);
});
