import { ManifestParamsSchema } from '@/lib/query/contract';
import { manifestSpreadsheet } from '@/lib/reports/spreadsheet';
import type { ApiApp } from '../context';
import { QUERY_PATTERNS } from '../formats';
import { openapiConstrained } from '../openapi';
import { route } from '../policy';
import { fileResponse, pick, XLSX } from '../schemas';

/** A confirmed manifest back as its template, filled with its samples' current values, to correct and upload again. */
const spreadsheet = route(
  {
    method: 'get',
    path: '/manifest/{manifest_id}/spreadsheet',
    tags: ['Manifests'],
    summary: 'A confirmed manifest as its project’s template (xlsx), filled with its samples’ current values',
    description:
      'The template of the manifest’s project and version (as `manifest/template` serves it) with one row per sample, in ' +
      'the order of the uploaded rows, holding each sample’s values as they are now, later corrections included. ' +
      'Uploaded again through `manifest/validate` it is an update: unchanged it has no changes to apply, and each edited ' +
      'cell is one change. Numbers and dates are written as Excel cells where they read back as the same text. Whoever ' +
      'may open the manifest’s page may download it (its profile’s owner, the project’s sample managers, admins); anyone ' +
      'else gets 404.',
    request: { params: ManifestParamsSchema },
    responses: { 200: fileResponse('The workbook', XLSX), ...pick(401, 404) },
  },
  { access: { profile: 'view', of: 'manifest', reviewers: true } },
);

export function registerManifestSpreadsheetRoutes(app: ApiApp) {
  openapiConstrained(app, spreadsheet, { manifest_id: QUERY_PATTERNS.manifestId }, async (c) => {
    const { fileName, body } = await manifestSpreadsheet(c.get('deps').db, c.get('user'), c.req.valid('param').manifest_id);
    return c.body(new Uint8Array(body), 200, {
      'content-type': XLSX,
      'content-disposition': `attachment; filename="${fileName}"`,
    });
  });
}
