import { expect } from 'vitest';
import { currentDefinition } from '@/lib/manifests';
import { toXlsx } from '../fixtures/manifests/workbook';
import { waitFor } from './flows';
import type { Harness } from './harness';

/** The errors of a re-upload of these DTOL rows to the profile: validated by the job, never confirmed. */
export async function reuploadErrors(
  h: Harness,
  key: string,
  profileId: string,
  rows: Record<string, string>[],
): Promise<{ message: string; rule: string }[]> {
  const headers = currentDefinition('dtol').fields.map((f) => f.name);
  const fd = new FormData();
  fd.set('profile_id', profileId);
  fd.set('file', new File([new Uint8Array(await toXlsx(headers, rows, { typed: true }))], 'again.xlsx'));
  const res = await h.request('/api/manifest/validate', { method: 'POST', key, body: fd });
  expect(res.status).toBe(202);
  const { report_id } = (await res.json()) as { report_id: string };
  const report = await waitFor(
    async () =>
      (await (await h.request(`/api/manifest/validate/report/${report_id}`, { key })).json()) as {
        status: string;
        errors: { message: string; rule: string }[];
      },
    (r) => r.status === 'complete' || r.status === 'failed',
    'the re-upload’s report',
  );
  expect(report.status).toBe('complete');
  return report.errors;
}
