import { afterAll, beforeAll, expect, it } from 'vitest';
import { runReferenceClient } from './query-client';
import { type QuerySeed, seedQueryData } from './query-seed';
import { createHarness, type Harness } from './support/harness';

let h: Harness;
let seed: QuerySeed;

beforeAll(async () => {
  h = await createHarness();
  seed = await seedQueryData(h.deps.db);
});
afterAll(() => h.close());

it('serves a client written for the reference system: accession -> manifest -> RO-Crate, taxon -> samples', async () => {
  const sample = seed.samples.find((s) => s.manifestId === seed.manifests.erga && s.biosampleAccession)!;
  const report = await runReferenceClient(h, { biosampleAccession: sample.biosampleAccession!, taxonId: '171585' });
  expect(report.manifestId).toBe(seed.manifests.erga);
  expect(report.samples.map((s) => s.svc_id).sort()).toEqual(
    seed.samples
      .filter((s) => s.fields.TAXON_ID === '171585')
      .map((s) => s.id)
      .sort(),
  );
  expect(report.samples).toContainEqual({
    svc_id: sample.id,
    number_found: 1,
    public_name: sample.publicName,
    TAXON_ID: '171585',
    tol_project: 'ERGA',
    status: 'accepted',
    biosampleAccession: sample.biosampleAccession,
  });
});
