import { type APIRequestContext, expect, type Page, type TestInfo, test } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import { validRow } from '../tests/fixtures/manifests/generate';
import { minimalPdf } from '../tests/fixtures/pdf';
import { createUser, type E2eUser, expectAccessible, expectNoSidewaysScroll, keyHeaders, screenshot, signIn, unique } from './helpers';
import { validatedManifest } from './manifests';

/**
 * ERGA samples under traditional-knowledge rights in the review queue: they are listed apart from the samples
 * awaiting a decision, saying why they wait (their Local Contexts Hub project, when it was last asked), and "Check
 * rights now" asks the hub and says what it answered beside the button. The sample's page says why it waits.
 */

const erga = currentDefinition('erga');
// registered as Private at the hub stand-in by e2e/serve.ts
const PROJECT = '5c2f5f1e-7d3b-4b8e-9a61-2f4c8d9e0a17';
const shot = (page: Page, testInfo: TestInfo, name: string) => screenshot(page, testInfo, `rights-${name}`);

/** A confirmed ERGA manifest of `n` rows naming the hub project, its permit uploaded, through the API as `user`. */
async function privateManifest(request: APIRequestContext, user: E2eUser, fileName: string, n: number) {
  const headers = await keyHeaders(request, user);
  const profile = await request.post('/api/profiles', {
    headers,
    data: {
      title: `${fileName} profile`,
      description: 'Lichens of reindeer pasture',
      type: 'erga',
      associated_type: ['BGE'],
      sequencing_centre: ['CNAG'],
    },
  });
  expect(profile.status(), await profile.text()).toBe(201);
  const profileId = ((await profile.json()) as { id: string }).id;
  // ERGA specimen ids take four digits: validRow's index stays under 900,000
  const base = 100_000 + Math.floor(Math.random() * 700_000);
  const rows: Record<string, string>[] = Array.from({ length: n }, (_, i) => ({
    ...validRow(erga, base + i),
    ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_RIGHTS_APPLICABLE: 'Y',
    INDIGENOUS_RIGHTS_DEF: 'Gathered on Sámi reindeer pasture with the siida’s consent',
    ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_PROJECT_ID: PROJECT,
    ASSOCIATED_TRADITIONAL_KNOWLEDGE_CONTACT: 'siida@example.org',
  }));
  const reportId = await validatedManifest(request, { profileId, fileName, rows, project: 'erga', headers });
  const report = (await (await request.get(`/api/manifest/validate/report/${reportId}`, { headers })).json()) as {
    permits: { filename: string; received: boolean }[];
    errors: { field: string; message: string }[];
  };
  expect(report.errors.map((e) => `${e.field}: ${e.message}`)).toEqual([]);
  for (const p of report.permits.filter((x) => !x.received)) {
    const sent = await request.post('/api/manifest/validate/permits', {
      headers,
      multipart: {
        validation_report_id: reportId,
        file: { name: p.filename, mimeType: 'application/pdf', buffer: minimalPdf(p.filename) },
      },
    });
    expect(sent.status(), await sent.text()).toBe(200);
  }
  const confirm = await request.post('/api/manifest/validate/confirm', { headers, data: { validation_report_id: reportId } });
  expect(confirm.status(), await confirm.text()).toBe(200);
  return rows.map((r) => r.TUBE_OR_WELL_ID);
}

test('private ERGA samples wait apart in the review queue, and a manager asks the hub about them at once', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const uploader = await createUser(page.request, testInfo, { memberOf: ['erga'] });
  const manager = await createUser(page.request, testInfo, { memberOf: ['erga'], managerOf: ['erga'] });
  const fileName = `${unique(testInfo, 'lichens').replace(/\W+/g, '-')}.xlsx`;
  const [tube] = await privateManifest(page.request, uploader, fileName, 2);

  await signIn(page, manager);
  await page.goto('/manifests/review');
  await expect(page.getByRole('heading', { name: 'Review queue', level: 1 })).toBeVisible();
  const held = page.getByRole('region', { name: 'Waiting for traditional-knowledge rights' });
  const table = held.getByRole('table', { name: 'Private samples waiting for their rights' });
  const row = table.getByRole('row', { name: new RegExp(tube!) });
  await expect(row).toContainText(PROJECT);
  await expect(row).toContainText('not yet');
  await expect(row.getByRole('link', { name: `Project ${PROJECT} at the Local Contexts Hub` })).toHaveAttribute('href', /\/projects\//);
  // not among the samples to decide
  await expect(page.getByLabel(`Select sample ${tube}`)).toHaveCount(0);
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '01-private');

  const check = held.getByRole('button', { name: /^Check rights now/ });
  await check.click();
  await expect(held.getByRole('status')).toContainText(`is Private at the Local Contexts Hub, not public`);
  await expect(row).not.toContainText('not yet');
  await expect(row).toContainText('not public');
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '02-checked');

  // the sample's page says why it waits
  await row.getByRole('link', { name: tube! }).click();
  await expect(page.getByText(/Private: this sample is under traditional-knowledge or biocultural rights/)).toBeVisible();
  await expect(page.getByRole('link', { name: PROJECT })).toBeVisible();
  await expect(page.getByText(/Last checked/)).toBeVisible();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '03-sample');
});
