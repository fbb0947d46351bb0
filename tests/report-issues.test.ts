import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validationReports } from '@/db/schema';
import { currentDefinition } from '@/lib/manifests';
import type { TaxonomyLookup } from '@/lib/manifests/types';
import type { IssueGroups, ReportIssuesPage, ValidationReport, ValidationReportState } from '@/lib/reports/contract';
import { validRows } from './fixtures/manifests/generate';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { toXlsx } from './fixtures/manifests/workbook';
import { createProfile, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';

/**
 * The report page's reads: a report's issues grouped by field and rule with counts, a page of one group's cells, who
 * may read them (the uploader, the profile's owner, admins), and the validation job's progress in rows.
 */

const dtol = currentDefinition('dtol');
const headers = dtol.fields.map((f) => f.name);
const fake = fakeTaxonomy();
// the look-ups of one taxon wait until the test lets them go, to look at a validation half done
let gatedTaxon = '';
let release: () => void = () => undefined;
let gate: Promise<void> = Promise.resolve();
const taxonomy: TaxonomyLookup = {
  byTaxId: async (id) => {
    if (id === gatedTaxon) await gate;
    return fake.byTaxId(id);
  },
  byScientificName: (name) => fake.byScientificName(name),
};

let h: Harness;
let owner: string;
let admin: string;
let stranger: string;
let profileId: string;

async function upload(key: string, rows: Record<string, string>[], name = 'm.xlsx'): Promise<string> {
  const fd = new FormData();
  fd.set('profile_id', profileId);
  fd.set('file', new File([new Uint8Array(await toXlsx(headers, rows))], name));
  const res = await h.request('/api/manifest/validate', { method: 'POST', key, body: fd });
  expect(res.status, await res.clone().text()).toBe(202);
  return ((await res.json()) as { report_id: string }).report_id;
}

const get = async <T>(path: string, key: string): Promise<T> => {
  const res = await h.request(path, { key });
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
  return (await res.json()) as T;
};

beforeAll(async () => {
  h = await createHarness({}, { taxonomy });
  owner = (await h.user({ memberOf: ['dtol'] })).key;
  admin = (await h.user({ isAdmin: true })).key;
  stranger = (await h.user({ memberOf: ['dtol'] })).key;
  profileId = await createProfile(h, owner, { title: 'Grouped issues', description: '', type: 'dtol' });
}, 60_000);
afterAll(() => h.close());

describe('a report’s issues', () => {
  let reportId: string;
  const rows = validRows(dtol, 30);
  beforeAll(async () => {
    for (const r of rows.slice(0, 25)) r.SEX = 'sometimes';
    for (const r of rows.slice(27)) r.DECIMAL_LATITUDE = '123.5';
    reportId = await upload(owner, rows);
    await h.jobs['manifest.validate']({ reportId });
  }, 60_000);

  it('come grouped by field and rule, largest group first, with the vocabulary as a list and the expected format', async () => {
    const report = await get<ValidationReport>(`/api/manifest/validate/report/${reportId}`, owner);
    const answer = await get<IssueGroups>(`/api/manifest/validate/report/${reportId}/groups`, owner);
    expect(answer).toMatchObject({ report_id: reportId, errors: report.summary.errors, warnings: report.summary.warnings });
    const errors = answer.groups.filter((g) => g.severity === 'error');
    expect(errors.reduce((n, g) => n + g.count, 0)).toBe(report.errors.length);
    expect(answer.groups.reduce((n, g) => n + g.count, 0)).toBe(report.errors.length + report.warnings.length);
    // errors before warnings, the largest first
    const severities = answer.groups.map((g) => g.severity);
    expect(severities).toEqual([...severities].sort());
    expect(errors.map((g) => g.count)).toEqual([...errors.map((g) => g.count)].sort((a, b) => b - a));

    const sex = errors.find((g) => g.field === 'SEX');
    expect(sex).toMatchObject({
      rule: 'vocabulary',
      title: 'not one of the allowed values',
      column: dtol.fields.find((f) => f.name === 'SEX')!.column,
      count: 25,
      rows: 25,
      allowed_values: dtol.fields.find((f) => f.name === 'SEX')!.allowedValues,
      expected: null,
    });
    expect(sex!.example).toContain('Invalid data: sometimes in column SEX at row 2.');
    expect(errors[0]).toBe(sex);
    const latitude = errors.find((g) => g.field === 'DECIMAL_LATITUDE');
    expect(latitude).toMatchObject({ rule: 'coordinates', count: 3, rows: 3, allowed_values: null });
    expect(latitude!.expected).toBeTruthy();

    const warnings = await get<IssueGroups>(`/api/manifest/validate/report/${reportId}/groups?severity=warning`, owner);
    expect(warnings.groups.every((g) => g.severity === 'warning')).toBe(true);
    expect(warnings.errors).toBe(report.summary.errors);
  });

  it('come a page at a time, filtered to one group, with the true count', async () => {
    const base = `/api/manifest/validate/report/${reportId}/issues`;
    const page = await get<ReportIssuesPage>(`${base}?severity=error&field=SEX&rule=vocabulary&limit=10&offset=20`, owner);
    expect(page.number_found).toBe(25);
    expect(page.data.map((i) => i.row)).toEqual([22, 23, 24, 25, 26]);
    expect(page.data.every((i) => i.severity === 'error' && i.field === 'SEX' && i.value === 'sometimes')).toBe(true);
    // each names its sample's tube, as people know it
    expect(page.data.map((i) => i.tube)).toEqual(rows.slice(20, 25).map((r) => r.TUBE_OR_WELL_ID));
    const past = await get<ReportIssuesPage>(`${base}?field=SEX&offset=100`, owner);
    expect(past).toMatchObject({ number_found: 25, data: [] });

    const all = await get<ReportIssuesPage>(`${base}?limit=1000`, owner);
    const report = await get<ValidationReport>(`/api/manifest/validate/report/${reportId}`, owner);
    expect(all.number_found).toBe(report.errors.length + report.warnings.length);
    // errors first, each list in the report's order
    expect(all.data.map(({ severity: _s, tube, ...i }) => (tube ? { ...i, tube } : i))).toEqual([...report.errors, ...report.warnings]);
    // an empty field: the issues that name none
    const sheet = await get<ReportIssuesPage>(`${base}?field=`, owner);
    expect(sheet.data.every((i) => i.field === null)).toBe(true);
    expect(sheet.data.filter((i) => i.row === null).every((i) => i.tube === null)).toBe(true);

    expect((await h.request(`${base}?severity=fatal`, { key: owner })).status).toBe(400);
  });
});

describe('who may read a report', () => {
  it('its uploader, the owner of its profile and admins; anyone else gets 404', async () => {
    // an admin uploads to the owner's profile: the owner reads the report and finds it listed
    const reportId = await upload(admin, validRows(dtol, 2), 'by-admin.xlsx');
    await h.jobs['manifest.validate']({ reportId });
    for (const key of [owner, admin]) {
      for (const path of ['', '/status', '/groups', '/issues']) {
        expect((await h.request(`/api/manifest/validate/report/${reportId}${path}`, { key })).status, path).toBe(200);
      }
    }
    for (const path of ['', '/status', '/groups', '/issues']) {
      expect((await h.request(`/api/manifest/validate/report/${reportId}${path}`, { key: stranger })).status, path).toBe(404);
    }
    const listed = await get<{ report_id: string }[]>(`/api/manifest/validations?profile_id=${profileId}`, owner);
    expect(listed.map((r) => r.report_id)).toContain(reportId);
    expect(await get<unknown[]>(`/api/manifest/validations?profile_id=${profileId}`, stranger)).toEqual([]);
  });
});

describe('the validation job', () => {
  it('records its progress in rows checked of the total while it runs', async () => {
    const rows = validRows(dtol, 12);
    gatedTaxon = rows[0]!.TAXON_ID!;
    gate = new Promise((r) => {
      release = r;
    });
    const reportId = await upload(owner, rows, 'slow.xlsx');
    const job = h.jobs['manifest.validate']({ reportId });
    const stored = async () => (await h.database.db.select().from(validationReports).where(eq(validationReports.id, reportId)))[0]!;
    const half = await waitFor(stored, (r) => r.status === 'running' && r.summary.rows_checked !== undefined, 'the rows to be counted');
    expect(half.summary.rows_total).toBe(12);
    expect(half.summary.rows_checked).toBeLessThan(12);
    const state = await get<ValidationReportState>(`/api/manifest/validate/report/${reportId}/status`, owner);
    expect(state.summary).toMatchObject({ rows_total: 12 });
    expect(state.progress).toBeGreaterThanOrEqual(25);
    expect(state.progress).toBeLessThan(85);

    release();
    await job;
    const done = await stored();
    expect(done.status).toBe('complete');
    expect(done.summary).toEqual({ rows: 12, errors: 0, warnings: done.summary.warnings });
  }, 60_000);
});
