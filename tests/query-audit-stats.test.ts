import { stringify } from 'csv-stringify/sync';
import { inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleUpdates } from '@/db/schema';
import { AUDIT_COLUMNS } from '@/lib/audit/audit';
import { CSV_STRINGIFY_OPTIONS } from '@/lib/values/csv';
import { type QuerySeed, seedQueryData } from './query-seed';
import { EMPTY, expectNoPrivateData, queryClient } from './query-support';
import { createHarness, type Harness } from './support/harness';

let h: Harness;
let seed: QuerySeed;
const { wrapper, arrayWrapper, text, csv, problem } = queryClient(() => h);

beforeAll(async () => {
  h = await createHarness();
  seed = await seedQueryData(h.deps.db);
});
afterAll(() => h.close());

const fields = (rows: Record<string, string>[]) => rows.map((r) => r.field);

describe('audit', () => {
  it('lists changes newest first, with the sample’s identifiers, never who made them nor sensitive fields', async () => {
    const body = await text('/api/audit/samples');
    const res = JSON.parse(body) as { number_found: number; data: Record<string, string>[] };
    expect(fields(res.data)).toEqual(['SCIENTIFIC_NAME', 'SEX', 'biosampleAccession']);
    expect(res.number_found).toBe(3);
    expect(Object.keys(res.data[1]!)).toEqual([...AUDIT_COLUMNS]);
    const first = seed.samples[0]!;
    expect(res.data[1]).toEqual({
      field: 'SEX',
      outdated_value: 'MALE',
      updated_value: 'FEMALE',
      update_type: 'user',
      time_updated: '2025-03-14T10:21:33+00:00',
      RACK_OR_PLATE_ID: first.fields.RACK_OR_PLATE_ID,
      SPECIMEN_ID: first.fields.SPECIMEN_ID,
      TUBE_OR_WELL_ID: first.fields.TUBE_OR_WELL_ID,
      biosampleAccession: first.biosampleAccession,
      manifest_id: first.manifestId,
      public_name: first.publicName,
      sraAccession: 'ERS5283501',
      svc_audit_type: 'update_log',
      svc_id: first.id,
      svc_profile_title: 'NHM Lepidoptera 2024',
      tol_project: 'DTOL',
    });
    expectNoPrivateData(body);
  });

  it('narrows audit/samples by svc_id, project and updatable field', async () => {
    const first = seed.samples[0]!;
    expect(fields((await wrapper(`/api/audit/samples?svc_id=${first.id}`)).data)).toEqual(['SEX', 'biosampleAccession']);
    expect(fields((await wrapper(`/api/audit/samples?svc_id=${first.id},${seed.samples[1]!.id}&project=dtol`)).data)).toHaveLength(2);
    expect(fields((await wrapper('/api/audit/samples?project=ERGA')).data)).toEqual(['SCIENTIFIC_NAME']);
    expect(fields((await wrapper('/api/audit/samples?project=dtol&updatable_field=SEX')).data)).toEqual(['SEX']);
    await problem('/api/audit/samples?svc_id=nope', "Invalid 'svc_id'(s) provided!");
    await problem('/api/audit/samples?project=plants', "Invalid value for 'project'. Must be one of: ASG, DTOL, DTOLENV or ERGA");
    await problem(
      '/api/audit/samples?project=dtol&updatable_field=RACK_OR_PLATE_ID',
      /^Invalid value for 'updatable_field'\. Must be one of: BARCODE_HUB, /,
    );
  });

  it('lists only the changes made in [from, to)', async () => {
    const res = await wrapper('/api/audit/sample/2025-01-01T00:00:00+00:00/2026-01-01T00:00:00+00:0');
    expect(fields(res.data)).toEqual(['SCIENTIFIC_NAME', 'SEX']);
    expect(await text('/api/audit/sample/2020-01-01/2021-01-01')).toBe(EMPTY);
    await problem('/api/audit/sample/2026-01-01/2025-01-01', "Invalid date. 'from' date must be earlier than 'to' date.");
    await problem('/api/audit/sample/2026-01-01/2026-99-01', 'Failed to parse one of the dates');
  });

  it('lists the changes of one or more manifests', async () => {
    const m = seed.manifests;
    expect((await wrapper(`/api/audit/sample/manifest_id/${m.dtolOld}%2C${m.erga.toUpperCase()}`)).number_found).toBe(3);
    expect((await wrapper(`/api/audit/sample/manifest_id/${m.erga}`)).number_found).toBe(1);
    expect((await wrapper(`/api/audit/sample/manifest_id/${m.asg}?standard=dwc`)).number_found).toBe(0);
    await problem('/api/audit/sample/manifest_id/not-a-uuid', "Invalid 'manifest_id'(s) provided!");
  });

  it('lists the changes of one update type, for repeated or listed projects', async () => {
    expect(fields((await wrapper('/api/audit/sample/update_type/user')).data)).toEqual(['SCIENTIFIC_NAME', 'SEX']);
    expect(fields((await wrapper('/api/audit/sample/update_type/system')).data)).toEqual(['biosampleAccession']);
    expect((await wrapper('/api/audit/sample/update_type/user?project=dtol&project=asg')).number_found).toBe(1);
    expect((await wrapper('/api/audit/sample/update_type/user?project=dtol,erga')).number_found).toBe(2);
    await problem('/api/audit/sample/update_type/admin', "Invalid value for 'update_type'. Must be one of: system or user");
  });

  it('lists the changes of the samples with exactly this field value', async () => {
    const first = seed.samples[0]!;
    expect((await wrapper(`/api/audit/sample/SPECIMEN_ID/${first.fields.SPECIMEN_ID}`)).number_found).toBe(2);
    expect((await wrapper(`/api/audit/sample/biosampleAccession/${first.biosampleAccession!.toLowerCase()}`)).number_found).toBe(2);
    expect((await wrapper(`/api/audit/sample/TUBE_OR_WELL_ID/${first.fields.TUBE_OR_WELL_ID}`)).number_found).toBe(2);
    // exact, not a substring
    expect(await text(`/api/audit/sample/SPECIMEN_ID/${first.fields.SPECIMEN_ID!.slice(0, -1)}`)).toBe(EMPTY);
    await problem(
      '/api/audit/sample/SCIENTIFIC_NAME/Aglais',
      "Invalid 'field' provided! Must be one of: RACK_OR_PLATE_ID, SPECIMEN_ID, TUBE_OR_WELL_ID, biosampleAccession, public_name or sraAccession",
    );
  });

  it('writes CSV with the audit columns', async () => {
    const { header, rows } = await csv('/api/audit/samples?return_type=csv');
    expect(header).toEqual([...AUDIT_COLUMNS]);
    expect(rows).toHaveLength(3);
    const empty = await csv('/api/audit/sample/2020-01-01/2021-01-01?return_type=csv');
    expect(empty.header).toEqual([...AUDIT_COLUMNS]);
  });

  it('writes any value as JSON.stringify and csv-stringify write the records, in one batch and in several', async () => {
    const first = seed.samples[0]!;
    const awkward = ['a "quoted", value', 'back\\slash', 'two\nlines\r\n', 'tab\tand\u0001control', 'Análisis 🧬', '=1+1', ''];
    const values = (i: number) => ({
      oldValue: awkward[i % awkward.length] as string,
      newValue: i % 3 ? (awkward[(i + 1) % awkward.length] as string) : null,
    });
    await withChanges(1_200, values, async () => {
      // 7 changes read whole, then all 1,202 in two batches
      for (const query of [`svc_id=${first.id}&limit=7`, `svc_id=${first.id}`]) {
        const body = await text(`/api/audit/samples?${query}`);
        expect(body).toBe(JSON.stringify(JSON.parse(body)));
        const records = (JSON.parse(body) as { data: Record<string, string>[] }).data;
        expect(records).toHaveLength(query.endsWith('=7') ? 7 : 1_202);
        const csvBody = await text(`/api/audit/samples?${query}&return_type=csv`);
        expect(csvBody).toBe(stringify([[...AUDIT_COLUMNS], ...records.map((r) => AUDIT_COLUMNS.map((c) => r[c]))], CSV_STRINGIFY_OPTIONS));
        if (records.length > 7) expect(records.map((r) => r.outdated_value)).toEqual(expect.arrayContaining(awkward));
      }
    });
  });

  it('pages through more changes than a batch holds, newest first, each once, ties on time ordered by id', async () => {
    const first = seed.samples[0]!;
    // 2,500 changes over 50 instants: batches of 1,000 end inside a run of equal times
    await withChanges(
      2_500,
      (i) => ({ oldValue: `old ${i}`, newValue: `new ${i}` }),
      async (added) => {
        const res = await wrapper(`/api/audit/samples?svc_id=${first.id}`);
        expect(res.number_found).toBe(2_502);
        const expected = [...added]
          .sort((a, b) => b.time.getTime() - a.time.getTime() || b.id - a.id)
          .map((a) => `new ${added.indexOf(a)}`);
        expect(res.data.slice(0, 2_500).map((r) => r.updated_value)).toEqual(expected);
        expect(res.data.slice(2_500).map((r) => r.field)).toEqual(['SEX', 'biosampleAccession']);
      },
    );
  });
});

/**
 * `n` changes of the first seeded sample's SEX, the `i`th with `values(i)`, over 50 instants a second apart (so that
 * batches end inside runs of equal times), there while `use` runs and removed after.
 */
async function withChanges(
  n: number,
  values: (i: number) => { oldValue: string; newValue: string | null },
  use: (added: { id: number; time: Date }[]) => Promise<void>,
): Promise<void> {
  const first = seed.samples[0]!;
  const added = await h.deps.db
    .insert(sampleUpdates)
    .values(
      Array.from({ length: n }, (_, i) => ({
        sampleId: first.id,
        manifestId: first.manifestId,
        project: 'dtol' as const,
        updateType: 'user' as const,
        field: 'SEX',
        ...values(i),
        timeUpdated: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 50)),
      })),
    )
    .returning({ id: sampleUpdates.id, time: sampleUpdates.timeUpdated });
  try {
    await use(added);
  } finally {
    await h.deps.db.delete(sampleUpdates).where(
      inArray(
        sampleUpdates.id,
        added.map((a) => a.id),
      ),
    );
  }
}

describe('statistics', () => {
  const number = async (path: string) => {
    const res = await h.request(path);
    const body = await res.text();
    expect(res.status, `${path}: ${body}`).toBe(200);
    expect(body).toMatch(/^\d+$/);
    return Number(body);
  };

  it('counts users, profiles, data files and samples as bare numbers', async () => {
    expect(await number('/api/stats/number_of_users')).toBe(2);
    expect(await number('/api/stats/number_of_profiles')).toBe(4);
    expect(await number('/api/stats/number_of_datafiles')).toBe(1);
    expect(await number('/api/stats/number_of_samples')).toBe(seed.samples.length);
    expect(await number('/api/stats/number_of_samples/')).toBe(seed.samples.length);
    expect(await number('/api/stats/number_of_samples/%2C')).toBe(seed.samples.length);
    expect(await number('/api/stats/number_of_samples/DTOL')).toBe(6);
  });

  it('honours d_from and d_to with and without a sample type', async () => {
    const year = 'd_from=2024-01-01T00:00:00%2B00:00&d_to=2025-01-01T00:00:00%2B00:0';
    expect(await number(`/api/stats/number_of_samples/dtol?${year}`)).toBe(4);
    expect(await number(`/api/stats/number_of_samples?${year}`)).toBe(6);
    // a `+` sent unencoded arrives as a space
    expect(await number('/api/stats/number_of_samples?d_from=2024-01-01T00:00:00+00:00&d_to=2025-01-01T00:00:00+00:00')).toBe(6);
    expect(await number('/api/stats/number_of_samples/asg?from=2024-01-01&to=2025-01-01')).toBe(2);
  });

  it('answers 400 with the reference sentences', async () => {
    await problem('/api/stats/number_of_samples/plants', "Invalid value for 'sample_type'. Must be one of: ASG, DTOL, DTOLENV or ERGA");
    await problem(
      '/api/stats/number_of_samples/dtol?d_from=2024-01-01',
      "Missing date. Both 'from' and 'to' date values must be provided together.",
    );
    await problem('/api/stats/number_of_samples?d_from=2024-01-01&d_to=tomorrow', 'Failed to parse one of the dates');
    await problem(
      '/api/stats/number_of_samples?d_from=2025-01-01&d_to=2024-01-01',
      "Invalid date. 'from' date must be earlier than 'to' date.",
    );
  });

  it('lists the projects and sub-projects', async () => {
    expect((await wrapper<string>('/api/stats/tol_projects')).data).toEqual([
      'Aquatic Symbiosis Genomics (ASG)',
      'Darwin Tree of Life (DTOL)',
      'Darwin Tree of Life Environmental Samples (DTOLENV)',
      'European Reference Genome Atlas (ERGA)',
    ]);
    expect((await wrapper<string>('/api/stats/associated_tol_projects')).data).toEqual([
      'BioBlitz',
      'Biodiversity Genomics Europe (BGE)',
      'Catalan Initiative for the Earth BioGenome Project (CBP)',
      'European Reference Genome Atlas - Community (ERGA_COMMUNITY)',
      'European Reference Genome Atlas - Pilot (ERGA_PILOT)',
      'Population Genomics (POP_GENOMICS)',
    ]);
    const { header, rows } = await csv('/api/stats/tol_projects?return_type=csv');
    expect(header).toEqual(['name']);
    expect(rows).toHaveLength(4);
  });

  it('sums everything up for the dashboard', async () => {
    const res = await h.request('/api/stats/summary');
    expect(res.status).toBe(200);
    const s = (await res.json()) as Record<string, unknown>;
    expect(s).toMatchObject({
      users: 2,
      profiles: 4,
      datafiles: 1,
      samples: {
        total: 13,
        by_project: { dtol: { total: 6, by_status: { accepted: 3, pending: 3 } }, asg: { total: 2 }, erga: { total: 5 } },
        per_month: expect.arrayContaining([{ month: '2024-03', count: 4 }]),
      },
      manifests: {
        total: 5,
        per_sequencing_centre: expect.arrayContaining([
          { sequencing_centre: 'CNAG', label: 'CENTRO NACIONAL DE ANÁLISIS GENÓMICO', manifests: 1 },
        ]),
      },
      submissions: { total: 1, by_status: { accepted: 1 } },
    });
  });
});

describe('mapping', () => {
  it('lists the current version’s field names in a standard, as a one-element array', async () => {
    const tol = await arrayWrapper('/api/mapping?project=dtol');
    expect(tol.number_found).toBe(68);
    expect(tol.data.slice(0, 3)).toEqual(['SERIES', 'RACK_OR_PLATE_ID', 'TUBE_OR_WELL_ID']);
    expect((await arrayWrapper('/api/mapping?project=DTOL&standard=dwc')).number_found).toBe(34);
    expect((await arrayWrapper('/api/mapping?project=dtol&standard=ENA')).number_found).toBe(31);
    expect((await arrayWrapper('/api/mapping?project=dtol&standard=mixs')).number_found).toBe(24);
    expect((await arrayWrapper('/api/mapping?project=erga&standard=dwc')).number_found).toBe(35);
    expect((await arrayWrapper('/api/mapping?project=erga&standard=ena')).number_found).toBe(41);
  });

  it('gives ToL-to-standard pairs and CSV', async () => {
    const pairs = await arrayWrapper<Record<string, string>>('/api/mapping?project=dtol&standard=dwc&pairs=true');
    expect(pairs.data).toContainEqual({ tol: 'SCIENTIFIC_NAME', dwc: 'scientificName' });
    const { header, rows } = await csv('/api/mapping?project=dtol&standard=dwc&return_type=csv', 'dwc_export.csv');
    expect(header).toEqual(['field']);
    expect(rows).toHaveLength(34);
    const paired = await csv('/api/mapping?project=dtol&standard=mixs&return_type=csv&pairs=1', 'mixs_export.csv');
    expect(paired.header).toEqual(['tol', 'mixs']);
  });

  it('refuses a missing or unknown project and an unknown standard', async () => {
    await problem('/api/mapping', "'project' is required but not provided.");
    await problem('/api/mapping?project=genomics', "Invalid value for 'project'. Must be one of: ASG, DTOL, DTOLENV or ERGA");
    await problem('/api/mapping?project=dtol,erga', "Invalid value for 'project'. Must be one of: ASG, DTOL, DTOLENV or ERGA");
    await problem('/api/mapping?project=dtol&standard=faang', "Invalid value for 'standard'. Accepted values are: dwc, ena, mixs and tol");
  });
});
