import { readFile } from 'node:fs/promises';
import AxeBuilder from '@axe-core/playwright';
import ExcelJS from 'exceljs';
import { expect, test, type Page } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from '../tests/fixtures/manifests/generate';
import { signIn } from './helpers';

/**
 * Every portal page, checked with axe against WCAG 2 A and AA. Serious and critical violations fail the test; the
 * others are printed so they can be seen and fixed too. The data the pages show is created through the API first,
 * with the signed-in admin's session, so that tables, timelines and charts are checked with content in them.
 */

const dtol = currentDefinition('dtol');
const headers = dtol.fields.map((f) => f.name);
const run = Date.now().toString(36);

async function workbook(rows: Record<string, string>[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('Metadata Entry');
  sheet.addRow(headers);
  for (const r of rows) sheet.addRow(headers.map((h) => r[h] ?? ''));
  return Buffer.from(await wb.xlsx.writeBuffer());
}

interface Fixture {
  dtolProfile: string;
  biodataProfile: string;
  manifestId: string;
  svcId: string;
}

/** A DTOL profile with a confirmed manifest (one sample accepted, so it has history), and a biodata profile. */
async function createData(page: Page): Promise<Fixture> {
  const api = page.request;
  const profile = await api.post('/api/profiles', {
    data: { title: `Accessible moths ${run}`, description: 'Lepidoptera for the accessibility checks', type: 'dtol' },
  });
  expect(profile.status(), await profile.text()).toBe(201);
  const dtolProfile = ((await profile.json()) as { id: string }).id;
  const biodata = await api.post('/api/profiles', {
    data: { title: `Accessible single cells ${run}`, description: 'Studies tab', type: 'biodata' },
  });
  expect(biodata.status(), await biodata.text()).toBe(201);
  const biodataProfile = ((await biodata.json()) as { id: string }).id;

  const rows = validRows(dtol, 4).map((r, i) => ({
    ...r,
    TUBE_OR_WELL_ID: `FD8${run.slice(-3)}${String(i).padStart(4, '0')}`,
    SPECIMEN_ID: `SAN${8_000_000 + (Date.now() % 100_000) * 10 + i}`,
  }));
  const upload = await api.post('/api/manifest/validate', {
    multipart: {
      profile_id: dtolProfile,
      file: { name: 'accessible-moths.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await workbook(rows) },
    },
  });
  expect(upload.status(), await upload.text()).toBe(202);
  const reportId = ((await upload.json()) as { report_id: string }).report_id;
  let status = 'pending';
  for (let i = 0; i < 120 && status !== 'complete' && status !== 'failed'; i++) {
    await page.waitForTimeout(250);
    const r = await api.post('/api/manifest/validate/report', { data: { validation_report_id: reportId } });
    const report = (await r.json()) as { status: string; errors: unknown[] };
    status = report.status;
    if (status === 'complete') expect(report.errors).toEqual([]);
  }
  expect(status).toBe('complete');
  const confirmed = await api.post('/api/manifest/validate/confirm', { data: { validation_report_id: reportId } });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  const manifestId = ((await confirmed.json()) as { manifest_id: string }).manifest_id;

  const browse = await api.get(`/api/samples/browse?manifest_id=${manifestId}&sort=tube&order=asc`);
  expect(browse.status()).toBe(200);
  const svcIds = ((await browse.json()) as { data: { svc_id: string }[] }).data.map((r) => r.svc_id);
  expect(svcIds).toHaveLength(4);
  const svcId = svcIds[0]!;
  // accept one (a system update in its history) and leave the others waiting in the review queue
  const decided = await api.post('/api/sample/decision', { data: { svc_ids: [svcId], decision: 'accept' } });
  expect(decided.status(), await decided.text()).toBe(200);
  const registered = await api.post('/api/sample/register', { data: { svc_ids: [svcId] } });
  expect(registered.status(), await registered.text()).toBe(202);
  return { dtolProfile, biodataProfile, manifestId, svcId };
}

async function expectAccessible(page: Page, path: string, ready: (page: Page) => Promise<void>) {
  await page.goto(path);
  await ready(page);
  // nothing still loading: the states with data are what is checked
  await expect(page.locator('[aria-busy="true"]')).toHaveCount(0, { timeout: 15_000 });
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const summary = results.violations.map(
    (v) => `${v.impact ?? 'unknown'} ${v.id}: ${v.help}\n    ${v.nodes.map((n) => n.target.join(' ')).slice(0, 5).join('\n    ')}`,
  );
  console.log(`axe on ${path}: ${results.passes.length} rules passed, ${results.violations.length} violated${summary.length ? `\n  ${summary.join('\n  ')}` : ''}`);
  const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(blocking.map((v) => `${v.id} (${v.nodes.length}): ${v.help}`), `serious or critical on ${path}`).toEqual([]);
}

const heading = (name: string | RegExp) => async (page: Page) => {
  await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();
};

test('every portal page passes axe (WCAG 2 A and AA) without serious or critical violations', async ({ page }) => {
  test.setTimeout(240_000);
  await expectAccessible(page, '/signin', heading(/sign in/i));
  await signIn(page);
  const f = await createData(page);

  const pages: [string, (page: Page) => Promise<void>][] = [
    ['/', heading(/Welcome/)],
    ['/profiles', heading('Profiles')],
    ['/profiles/new', heading(/profile/i)],
    [`/profiles/${f.dtolProfile}`, heading(`Accessible moths ${run}`)],
    [`/profiles/${f.dtolProfile}/edit`, heading(/Edit/i)],
    [
      `/profiles/${f.biodataProfile}`,
      async (p) => {
        await heading(`Accessible single cells ${run}`)(p);
        await expect(p.getByRole('heading', { name: /Studies/ })).toBeVisible();
      },
    ],
    ['/manifests', heading('Manifests')],
    [
      '/manifests/review',
      async (p) => {
        await heading('Samples awaiting review')(p);
        await expect(p.getByRole('table', { name: 'Samples awaiting review' })).toBeVisible();
      },
    ],
    [
      `/manifests/${f.manifestId}`,
      async (p) => {
        await expect(p.getByRole('table', { name: 'Samples of this manifest' })).toBeVisible();
      },
    ],
    [
      `/samples/${f.svcId}`,
      async (p) => {
        await expect(p.getByRole('list', { name: 'Changes, newest first' })).toContainText('pending → processing');
      },
    ],
    [
      '/samples',
      async (p) => {
        await heading('Samples')(p);
        await expect(p.getByRole('table', { name: /Samples matching the filter/ })).toBeVisible();
      },
    ],
    [
      `/samples?project=dtol&standard=dwc&sort=tube&order=asc&limit=25`,
      async (p) => {
        await expect(p.getByRole('columnheader', { name: /scientificName/ })).toBeVisible();
      },
    ],
    [
      '/audit',
      async (p) => {
        await heading('Audit')(p);
        await expect(p.getByRole('table', { name: /Changes to samples/ })).toBeVisible();
      },
    ],
    ['/studies', heading('Studies')],
    ['/submissions', heading('Submissions')],
    ['/account/keys', heading(/API keys/i)],
    ['/admin/users', heading('Users')],
    [
      '/admin/stats',
      async (p) => {
        await heading('Statistics')(p);
        await expect(p.getByRole('img', { name: 'Samples created per month' })).toBeVisible();
      },
    ],
  ];
  for (const [path, ready] of pages) await expectAccessible(page, path, ready);

  // the error and empty states of the browsers are pages too
  await expectAccessible(page, '/samples?limit=9999&project=plants', async (p) => {
    await expect(p.getByText('Unknown project: plants', { exact: false })).toBeVisible();
  });
  await expectAccessible(page, '/audit?update_type=system&from=2000-01-01&to=2000-01-02', async (p) => {
    await expect(p.getByText('No change matches this filter.')).toBeVisible();
  });
});

test('the sample browser filters, sorts, pages and opens a sample; the filter lives in the URL', async ({ page }) => {
  await signIn(page);
  await page.goto('/samples');
  const table = page.getByRole('table', { name: /Samples matching the filter/ });
  await expect(table).toBeVisible();
  await page.getByRole('checkbox', { name: 'DTOL', exact: true }).check();
  await page.getByLabel('Taxon id').fill('not a number');
  await page.getByRole('button', { name: 'Apply filter' }).click();
  // checked on the client with the server's schema, before anything is sent
  await expect(page.getByText('NCBI taxon ids are digits')).toBeVisible();
  await expect(page).toHaveURL(/\/samples$/);
  await page.getByLabel('Taxon id').fill('');
  await page.getByLabel('Field names').selectOption('dwc');
  await page.getByRole('button', { name: 'Apply filter' }).click();
  await expect(page).toHaveURL(/project=dtol/);
  await expect(page).toHaveURL(/standard=dwc/);
  await expect(table.getByRole('columnheader', { name: /materialSampleID/ })).toBeVisible();
  await table.getByRole('link', { name: /scientificName/ }).click();
  await expect(page).toHaveURL(/sort=scientific_name/);
  await expect(table.getByRole('columnheader', { name: /scientificName/ })).toHaveAttribute('aria-sort', 'ascending');
  // the export streams the current filter through the page, showing its progress, and saves it under the server's name
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export this filter as CSV' }).click()]);
  expect(download.suggestedFilename()).toBe('dwc_export.csv');
  const csv = await readFile((await download.path())!, 'utf8');
  expect(csv.split('\n')[0]).toContain('scientificName');
  await expect(page.getByText(/Exported \d+ rows\./)).toBeVisible();
  const first = table.getByRole('row').nth(1);
  const id = (await first.getByRole('link').first().textContent())!.trim();
  await first.getByRole('cell').nth(2).click();
  await expect(page).toHaveURL(new RegExp(`/samples/${id}$`));
  await expect(page.getByRole('heading', { name: 'History' })).toBeVisible();
});
