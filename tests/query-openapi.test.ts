import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from './support/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

it('documents every query route in the OpenAPI document', async () => {
  const res = await h.request('/api/openapi.json');
  expect(res.status).toBe(200);
  const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
  for (const p of [
    '/api/manifest',
    '/api/manifest/sequencing_centre',
    '/api/manifest/current_version',
    '/api/manifest/{manifest_id}',
    '/api/manifest/{from}/{to}',
    '/api/manifest/{project}/{from}/{to}',
    '/api/manifest/{manifest_id}/sample_status',
    '/api/sample/{project}',
    '/api/sample/associated_tol_project',
    '/api/sample/{from}/{to}',
    '/api/sample/updatable_fields',
    '/api/sample/svc_id/{svc_ids}',
    '/api/sample/biosampleAccessions/{biosampleAccessions}',
    '/api/sample/biosampleAccession/{biosampleAccessions}',
    '/api/sample/sample_field/{field}/{values}',
    '/api/sample/sequencing_centre',
    '/api/sample/taxon_id/{taxon_ids}',
    '/api/sample/with_submitted_bioimages',
    '/api/sample/tube_or_well_ids',
    '/api/profile/tube_or_well_ids',
    '/api/sample/project/manifest_version/fields',
    '/api/audit/samples',
    '/api/audit/sample/{from}/{to}',
    '/api/audit/sample/manifest_id/{manifest_id}',
    '/api/audit/sample/update_type/{update_type}',
    '/api/audit/sample/{field}/{field_value}',
    '/api/stats/number_of_users',
    '/api/stats/number_of_samples',
    '/api/stats/number_of_samples/{sample_type}',
    '/api/stats/tol_projects',
    '/api/stats/associated_tol_projects',
    '/api/stats/number_of_profiles',
    '/api/stats/number_of_datafiles',
    '/api/stats/summary',
    '/api/mapping',
  ]) {
    expect(doc.paths[p], p).toBeDefined();
  }
  expect(Object.keys(doc.paths['/api/profile/tube_or_well_ids']!).sort()).toEqual(['get', 'post']);
});
