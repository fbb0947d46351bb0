import { type APIRequestContext, expect } from '@playwright/test';
import { currentDefinition } from '@/lib/manifests';
import type { ManifestProject } from '@/lib/manifests/types';
import { toXlsx } from '../tests/fixtures/manifests/workbook';
import { FROM_PORTAL } from './helpers';

/**
 * A manifest set up through the API, as a researcher's script would: the browser tests that start from a validated
 * or confirmed manifest make it here, so each says only what its journey is about.
 */

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface ManifestUpload {
  /** the profile the manifest is for */
  profileId: string;
  fileName: string;
  /** the sheet's rows, under the project's column names */
  rows: Record<string, string>[];
  /** the project whose columns the sheet has (default dtol) */
  project?: ManifestProject;
  /** the caller's credentials, when the request context does not carry them */
  headers?: Record<string, string>;
}

/** Uploads the rows as a workbook and waits for the validation to complete; the report's id. */
export async function validatedManifest(request: APIRequestContext, m: ManifestUpload): Promise<string> {
  const definition = currentDefinition(m.project ?? 'dtol');
  const buffer = Buffer.from(
    await toXlsx(
      definition.fields.map((f) => f.name),
      m.rows,
      { typed: true },
    ),
  );
  const upload = await request.post('/api/manifest/validate', {
    headers: m.headers ?? FROM_PORTAL,
    multipart: { profile_id: m.profileId, file: { name: m.fileName, mimeType: XLSX, buffer } },
  });
  expect(upload.status(), await upload.text()).toBe(202);
  const reportId = ((await upload.json()) as { report_id: string }).report_id;
  await expect
    .poll(
      async () =>
        (
          (await (await request.get(`/api/manifest/validate/report/${reportId}/status`, { headers: m.headers })).json()) as {
            status: string;
          }
        ).status,
      { timeout: 60_000 },
    )
    .toBe('complete');
  return reportId;
}

/** Uploads, validates and confirms the rows: the report's and the new manifest's ids. */
export async function confirmedManifest(request: APIRequestContext, m: ManifestUpload): Promise<{ reportId: string; manifestId: string }> {
  const reportId = await validatedManifest(request, m);
  const confirmed = await request.post('/api/manifest/validate/confirm', {
    headers: m.headers ?? FROM_PORTAL,
    data: { validation_report_id: reportId },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  return { reportId, manifestId: ((await confirmed.json()) as { manifest_id: string }).manifest_id };
}
