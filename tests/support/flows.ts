import { expect } from 'vitest';
import { currentDefinition, type ManifestProject } from '@/lib/manifests';
import { validRows } from '../fixtures/manifests/generate';
import { toXlsx } from '../fixtures/manifests/workbook';
import type { Harness } from './harness';

const json = { 'content-type': 'application/json' };

export async function createProfile(h: Harness, key: string, body: Record<string, unknown>): Promise<string> {
  const res = await h.request('/api/profiles', { method: 'POST', key, headers: json, body: JSON.stringify(body) });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, tries = 300): Promise<T> {
  for (let i = 0; i < tries; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** Uploads rows as an xlsx manifest, waits for the validation job, confirms: what a submitter does in the portal. */
export async function uploadManifest(
  h: Harness,
  key: string,
  profileId: string,
  rows: Record<string, string>[],
  /** run the validation job here, for a harness without workers */
  opts: { validateHere?: boolean } = {},
): Promise<{ manifest_id: string; created: number; updated: number }> {
  const project = rows.length ? guessProject(rows[0]!) : 'dtol';
  const headers = currentDefinition(project).fields.map((f) => f.name);
  const fd = new FormData();
  fd.set('profile_id', profileId);
  fd.set('file', new File([new Uint8Array(await toXlsx(headers, rows, { typed: true }))], 'manifest.xlsx'));
  const res = await h.request('/api/manifest/validate', { method: 'POST', key, body: fd });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  if (opts.validateHere) await h.jobs['manifest.validate']({ reportId: report_id });
  const report = await waitFor(
    async () =>
      (await (await h.request(`/api/manifest/validate/report/${report_id}`, { key })).json()) as { status: string; errors: unknown[] },
    (r) => r.status === 'complete' || r.status === 'failed',
    'the validation report',
  );
  expect(report.errors).toEqual([]);
  const confirmed = await h.request('/api/manifest/validate/confirm', {
    method: 'POST',
    key,
    headers: json,
    body: JSON.stringify({ validation_report_id: report_id }),
  });
  expect(confirmed.status).toBe(200);
  return (await confirmed.json()) as { manifest_id: string; created: number; updated: number };
}

function guessProject(row: Record<string, string>): ManifestProject {
  if ('SAMPLE_COORDINATOR' in row) return 'erga';
  if ('PARTNER' in row) return 'asg';
  if ('SORTING_APPROACH' in row) return 'dtolenv';
  return 'dtol';
}

export const dtolRows = (n: number, offset = 0) => validRows(currentDefinition('dtol'), n + offset).slice(offset);
