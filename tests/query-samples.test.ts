import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samples } from '@/db/schema';
import { currentDefinition, findDefinition } from '@/lib/manifests';
import { SYSTEM_KEYS } from '@/lib/standards/render';
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

const ALL = '/api/sample/2000-01-01T00:00:00+00:00/2100-01-01T00:00:00+00:00';
const ids = (rows: Record<string, string>[]) => rows.map((r) => r.svc_id);
const byProject = (p: string) => seed.samples.filter((s) => s.project === p).map((s) => s.id);

describe('GET sample/{project}', () => {
  it('lists the svc_ids of one project, or of a comma list, with or without the trailing slash', async () => {
    expect((await wrapper<string>('/api/sample/dtol')).data).toEqual(byProject('dtol'));
    const two = await wrapper<string>('/api/sample/DTOL%2Casg/');
    expect(two.data.sort()).toEqual([...byProject('dtol'), ...byProject('asg')].sort());
    expect((await wrapper<string>('/api/sample/erga,%20asg')).number_found).toBe(7);
    expect(await text('/api/sample/dtolenv')).toBe(EMPTY);
  });

  it('names the CSV column svc_id', async () => {
    const { header, rows } = await csv('/api/sample/asg?return_type=csv');
    expect(header).toEqual(['svc_id']);
    expect(rows.map((r) => r.svc_id)).toEqual(byProject('asg'));
  });

  it('refuses an unknown project with the reference sentence, and leaves sample/pending to its own route', async () => {
    await problem('/api/sample/plants', 'Invalid project(s) provided! Accepted values are asg, dtol, dtolenv and erga.');
    await problem('/api/sample/dtol,plants', 'Invalid project(s) provided! Accepted values are asg, dtol, dtolenv and erga.');
    expect((await h.request('/api/sample/pending')).status).toBe(401);
  });
});

describe('GET sample/{from}/{to}', () => {
  it('returns every sample created in the period, newest first, each rendered for its own project and version', async () => {
    const all = await wrapper(ALL);
    expect(all.number_found).toBe(seed.samples.length);
    const created = [...seed.samples].sort((a, b) => b.timeCreated.getTime() - a.timeCreated.getTime());
    const shown = all.data.filter((r) => r.status !== 'embargoed');
    expect(ids(shown)).toEqual(created.filter((s) => s.id !== seed.embargoed).map((s) => s.id));

    const dtol = all.data.find((r) => r.manifest_version === '2.5' && r.tol_project === 'DTOL') as Record<string, string>;
    const dtolFields = currentDefinition('dtol').fields.map((f) => f.name);
    expect(Object.keys(dtol)).toEqual([...dtolFields, ...SYSTEM_KEYS]);
    const old = all.data.find((r) => r.manifest_version === '2.4.1') as Record<string, string>;
    expect(Object.keys(old).slice(0, -SYSTEM_KEYS.length)).toEqual(findDefinition('dtol', '2.4.1')!.fields.map((f) => f.name));
    const erga = all.data.find((r) => r.tol_project === 'ERGA') as Record<string, string>;
    expect(erga.SAMPLE_COORDINATOR).toBe('Ana García');
    // long enough to be written into bytes part by part (lib/query/byte-chunks.ts, wholeBody), where a character of two
    // UTF-8 bytes in an early part moves every later one
    expect(JSON.stringify(all).length).toBeGreaterThan(16 * 1024);
    expect(dtol).not.toHaveProperty('SAMPLE_COORDINATOR');
    expect(erga).not.toHaveProperty('COLLECTOR_ORCID_ID');
  });

  it('prints what the reference prints for the service keys', async () => {
    const [row] = (await wrapper(`/api/sample/svc_id/${seed.samples.find((s) => s.manifestId === seed.manifests.dtol)!.id}`)).data;
    expect(row).toMatchObject({
      svc_profile_title: 'NHM Lepidoptera 2024',
      manifest_id: seed.manifests.dtol,
      manifest_version: '2.5',
      tol_project: 'DTOL',
      associated_tol_project: 'DTOL',
      status: 'accepted',
      time_created: '2024-03-14T10:21:33.512000+00:00',
      time_updated: '2024-03-14T10:22:33.512000+00:00',
      last_bioimage_submitted: '',
      sampleSameAs: '',
    });
  });

  it('accepts Z, +00:0, %2B and a date alone; from == to is empty', async () => {
    for (const [from, to] of [
      ['2024-01-01T00:00:00Z', '2025-01-01T00:00:00Z'],
      ['2024-01-01T00:00:00+00:0', '2025-01-01T00:00:00%2B00:00'],
      ['2024-01-01', '2025-01-01'],
      ['2024-01-01T01:00:00+01:00', '2024-12-31T23:00:00-01:00'],
    ]) {
      expect((await wrapper(`/api/sample/${from}/${to}`)).number_found, `${from} ${to}`).toBe(6);
    }
    expect(await text('/api/sample/2024-01-01T00:00:00+00:00/2024-01-01T00:00:00+00:00')).toBe(EMPTY);
  });

  it('answers 400 with the reference sentences for bad dates', async () => {
    await problem('/api/sample/2024-13-01/2025-01-01', 'Failed to parse one of the dates');
    await problem('/api/sample/2024-02-30T00:00:00/2025-01-01', 'Failed to parse one of the dates');
    await problem('/api/sample/2024/2025-01-01', 'Failed to parse one of the dates');
    await problem(
      '/api/sample/2025-01-01T00:00:00+00:00/2024-01-01T00:00:00+00:00',
      "Invalid date. 'from' date must be earlier than 'to' date.",
    );
  });

  it('narrows with limit and offset; number_found stays the total', async () => {
    const all = await wrapper(ALL);
    const page = await wrapper(`${ALL}?limit=3&offset=2`);
    expect(page.number_found).toBe(all.number_found);
    expect(page.data).toEqual(all.data.slice(2, 5));
    expect((await wrapper(`${ALL}?limit=0`)).data).toEqual([]);
    await problem(`${ALL}?limit=-1`, "Invalid value for 'limit'. Must be a non-negative integer.");
  });

  it('shows an ERGA sample under traditional-knowledge rights only as embargoed, and nothing private of any sample', async () => {
    const body = await text(ALL);
    const all = JSON.parse(body) as { data: Record<string, string>[] };
    expect(all.data.filter((r) => r.status === 'embargoed')).toEqual([{ status: 'embargoed' }]);
    expect(body).not.toContain(seed.embargoed);
    expectNoPrivateData(body);
    for (const std of ['dwc', 'ena', 'mixs']) expectNoPrivateData(await text(`${ALL}?standard=${std}`));
    expectNoPrivateData(await text(`${ALL}?return_type=csv`));
  });
});

describe('standards', () => {
  const dtolId = () => seed.samples.find((s) => s.manifestId === seed.manifests.dtol)!.id;

  it('renames fields to Darwin Core terms, leaves unmapped fields out and prefixes the service keys', async () => {
    const [r] = (await wrapper(`/api/sample/svc_id/${dtolId()}?standard=dwc`)).data as Record<string, string>[];
    expect(r).toMatchObject({
      scientificName: 'Aglais io',
      taxonID: '171585',
      materialSampleID: 'SAN0000001',
      // the second field mapped to materialSampleID keeps its value under its own name
      svc_COLLECTOR_SAMPLE_ID: 'WYT-2023-00001',
      eventDate: '2023-06-15',
      svc_id: dtolId(),
      svc_profile_title: 'NHM Lepidoptera 2024',
      svc_status: 'accepted',
      svc_tol_project: 'DTOL',
    });
    expect(r).not.toHaveProperty('SCIENTIFIC_NAME');
    expect(r).not.toHaveProperty('RACK_OR_PLATE_ID');
    expect(r).not.toHaveProperty('status');
  });

  it('combines the coordinates into MIxS lat_lon and uses ENA attribute names', async () => {
    const [mixs] = (await wrapper(`/api/sample/svc_id/${dtolId()}?standard=MIXS`)).data as Record<string, string>[];
    expect(mixs).toMatchObject({ lat_lon: '51.7721 -1.3385', samp_taxon_id: '171585', collection_date: '2023-06-15' });
    const [ena] = (await wrapper(`/api/sample/svc_id/${dtolId()}?standard=ena`)).data as Record<string, string>[];
    expect(ena).toMatchObject({ 'collection date': '2023-06-15', 'geographic location (latitude)': '51.7721', GAL: 'SANGER INSTITUTE' });
    const [tol] = (await wrapper(`/api/sample/svc_id/${dtolId()}?standard=tol`)).data as Record<string, string>[];
    expect(tol!.SCIENTIFIC_NAME).toBe('Aglais io');
  });

  it('names CSV columns after the standard and the file after it', async () => {
    const { header, rows } = await csv(`${ALL}?return_type=csv&standard=dwc`, 'dwc_export.csv');
    expect(header).toContain('scientificName');
    expect(header).toContain('svc_id');
    expect(rows).toHaveLength(seed.samples.length);
  });

  it('refuses an unknown standard or return type with the reference sentences, return_type first', async () => {
    await problem(`${ALL}?standard=abcd`, "Invalid value for 'standard'. Accepted values are: dwc, ena, mixs and tol");
    await problem(`${ALL}?return_type=xml&standard=abcd`, "Invalid value for 'return_type'. Accepted values are: json and csv");
  });
});

describe('CSV', () => {
  it('writes a header row of the union of the records’ keys, and the header alone when nothing matches', async () => {
    const { header, rows } = await csv(`${ALL}?return_type=csv`);
    expect(header.slice(0, 3)).toEqual(['SERIES', 'RACK_OR_PLATE_ID', 'TUBE_OR_WELL_ID']);
    expect(header).toContain('SAMPLE_COORDINATOR');
    expect(rows).toHaveLength(seed.samples.length);
    const erga = rows.find((r) => r.svc_id && r.tol_project === 'ERGA') as Record<string, string>;
    expect(erga.SAMPLE_COORDINATOR).toBe('Ana García');
    const empty = await csv('/api/sample/taxon_id/1?return_type=csv');
    expect(empty.rows).toEqual([]);
    expect(empty.header.slice(0, 2)).toEqual(['SERIES', 'RACK_OR_PLATE_ID']);
    expect(empty.header).toContain('svc_id');
  });
});

describe('GET sample/svc_id, biosampleAccessions, taxon_id', () => {
  it('returns samples by svc_id in the order asked (comma list, %2C)', async () => {
    const [a, b] = [seed.samples[3]!.id, seed.samples[0]!.id];
    expect(ids((await wrapper(`/api/sample/svc_id/${a}%2C${b}`)).data)).toEqual([a, b]);
    expect(ids((await wrapper(`/api/sample/svc_id/${b.toUpperCase()},${a}`)).data)).toEqual([b, a]);
    expect(await text('/api/sample/svc_id/ffffffffffffffffffffffff')).toBe(EMPTY);
    await problem(`/api/sample/svc_id/${a},xyz,12`, "Invalid 'svc_id' value(s): xyz and 12");
  });

  it('writes a looked-up record as a list writes it, the first time and each time after (then by the field copier)', async () => {
    const listed = (JSON.parse(await text(ALL)) as { data: Record<string, string>[] }).data;
    const recordOf = new Map(listed.filter((r) => r.svc_id).map((r) => [r.svc_id, JSON.stringify(r)]));
    for (const sample of seed.samples) {
      const bodies: string[] = [];
      for (let i = 0; i < 3; i++) bodies.push(await text(`/api/sample/svc_id/${sample.id}`));
      expect(new Set(bodies).size).toBe(1);
      // byte for byte what JSON.stringify writes of it
      expect(bodies[0]).toBe(JSON.stringify(JSON.parse(bodies[0] as string)));
      const [record] = (JSON.parse(bodies[0] as string) as { data: Record<string, string>[] }).data;
      if (sample.id === seed.embargoed) expect(record).toEqual({ status: 'embargoed' });
      else expect(bodies[0]).toContain(recordOf.get(sample.id));
    }
  });

  it('finds samples by accession, in any case and under both spellings of the path', async () => {
    const accessioned = seed.samples.filter((s) => s.biosampleAccession);
    const [x, y] = accessioned.map((s) => s.biosampleAccession as string);
    for (const path of [`/api/sample/biosampleAccessions/${x}%2C${y}`, `/api/sample/biosampleAccession/${x?.toLowerCase()},${y}/`]) {
      const res = await wrapper(path);
      expect(res.data.map((r) => r.biosampleAccession).sort()).toEqual([x, y].sort());
    }
    expect(await text('/api/sample/biosampleAccessions/SAMEA0000000')).toBe(EMPTY);
  });

  it('pages a one-value look-up as any list: an accession two samples share, with limit and offset', async () => {
    // one value is read whole by its own statement and the page sliced from every match (lib/query/sample-rows.ts,
    // lookupRows; lib/query/samples.ts, pageOfRows)
    const [a, b] = seed.samples.filter((s) => s.biosampleAccession && s.id !== seed.embargoed).map((s) => s.id);
    const shared = 'SAMEA9999001';
    const db = h.deps.db;
    await db
      .update(samples)
      .set({ biosampleAccession: shared })
      .where(inArray(samples.id, [a!, b!]));
    try {
      const both = [a!, b!].sort();
      const page = async (query: string) => {
        const res = await wrapper(`/api/sample/biosampleAccessions/${shared}${query}`);
        expect(res.number_found).toBe(2);
        return ids(res.data);
      };
      expect(await page('')).toEqual(both);
      expect(await page('?limit=1')).toEqual([both[0]]);
      expect(await page('?offset=1')).toEqual([both[1]]);
      expect(await page('?limit=1&offset=1')).toEqual([both[1]]);
      expect(await page('?limit=0')).toEqual([]);
      const { rows } = await csv(`/api/sample/biosampleAccessions/${shared}?return_type=csv&limit=1`);
      expect(rows.map((r) => r.svc_id)).toEqual([both[0]]);
    } finally {
      for (const s of seed.samples.filter((x) => x.id === a || x.id === b)) {
        await db.update(samples).set({ biosampleAccession: s.biosampleAccession }).where(eq(samples.id, s.id));
      }
    }
  });

  it('finds samples by taxon id exactly', async () => {
    const res = await wrapper('/api/sample/taxon_id/171585%2C7116');
    expect(res.number_found).toBe(4);
    expect(new Set(res.data.map((r) => r.TAXON_ID))).toEqual(new Set(['171585', '7116']));
    expect(await text('/api/sample/taxon_id/17158')).toBe(EMPTY);
    await problem('/api/sample/taxon_id/abc', "Invalid 'taxon_id' value(s): abc");
  });
});

describe('GET sample/sample_field/{field}/{values}', () => {
  it('matches any of the values as a case-insensitive substring', async () => {
    expect((await wrapper('/api/sample/sample_field/SCIENTIFIC_NAME/aglais')).number_found).toBe(2);
    expect((await wrapper('/api/sample/sample_field/SCIENTIFIC_NAME/AGLAIS%2Cpieris')).number_found).toBe(4);
    expect((await wrapper('/api/sample/sample_field/scientific_name/ io')).number_found).toBe(2);
    expect((await wrapper('/api/sample/sample_field/TAXON_ID/9627')).data.map((r) => r.TAXON_ID)).toEqual(['9627', '9627']);
    expect((await wrapper('/api/sample/sample_field/HABITAT/woodland')).number_found).toBeGreaterThan(0);
    expect((await wrapper('/api/sample/sample_field/COLLECTION_LOCATION/Montseny')).number_found).toBe(5);
  });

  it('takes the values literally: no regex, no LIKE wildcards', async () => {
    for (const v of ['%25', '_', 'Aglais.io', '.*', '%5C', 'a%25s', '(x)']) {
      expect(await text(`/api/sample/sample_field/SCIENTIFIC_NAME/${v}`), v).toBe(EMPTY);
    }
    expect((await wrapper('/api/sample/sample_field/SPECIMEN_ID/CNAG_1003')).number_found).toBe(3);
  });

  it('matches svc_id exactly, the profile title, the service keys and dates on or after', async () => {
    const id = seed.samples[0]!.id;
    expect(ids((await wrapper(`/api/sample/sample_field/svc_id/${id}`)).data)).toEqual([id]);
    expect((await wrapper('/api/sample/sample_field/svc_profile_title/lepidoptera')).number_found).toBe(6);
    expect((await wrapper('/api/sample/sample_field/tol_project/asg')).number_found).toBe(2);
    expect((await wrapper('/api/sample/sample_field/status/pending')).number_found).toBe(6);
    expect((await wrapper(`/api/sample/sample_field/manifest_id/${seed.manifests.asg}`)).number_found).toBe(2);
    expect((await wrapper('/api/sample/sample_field/associated_tol_project/ERGA_PILOT')).number_found).toBe(3);
    expect((await wrapper('/api/sample/sample_field/time_created/2025-01-01T00:00:00+00:00')).number_found).toBe(5);
    await problem(
      '/api/sample/sample_field/time_created/yesterday',
      'Invalid date format provided. Error: Unknown string format: yesterday',
    );
  });

  it('refuses unknown and sensitive fields with the reference sentence', async () => {
    for (const f of ['NOT_A_FIELD', 'COLLECTOR_ORCID_ID', 'created_by']) {
      const body = await problem(
        `/api/sample/sample_field/${f}/x`,
        /^Invalid field provided\. Please provide either SERIES, .* or tol_project\.$/,
      );
      expect(body.detail).not.toContain('ORCID');
    }
  });
});

describe('GET sample/associated_tol_project, sequencing_centre, with_submitted_bioimages', () => {
  it('filters on sub-projects, all of those named (repeated or comma list)', async () => {
    expect((await wrapper('/api/sample/associated_tol_project?values=BGE')).number_found).toBe(5);
    expect((await wrapper('/api/sample/associated_tol_project?values=BGE&values=erga_pilot')).number_found).toBe(3);
    expect((await wrapper('/api/sample/associated_tol_project?values=bge%2CERGA_PILOT')).number_found).toBe(3);
    const sentence =
      'Invalid associated project type(s) provided! Accepted values are BGE, BIOBLITZ, CBP, ERGA_COMMUNITY, ERGA_PILOT and POP_GENOMICS.';
    await problem('/api/sample/associated_tol_project?values=SANGER', sentence);
    await problem('/api/sample/associated_tol_project', sentence);
  });

  it('finds the samples of a sequencing centre by label or name, through the profile or the GAL', async () => {
    expect((await wrapper('/api/sample/sequencing_centre?sequencing_centre=cnag')).number_found).toBe(3);
    const sanger = await wrapper('/api/sample/sequencing_centre?sequencing_centre=SANGER%20INSTITUTE');
    expect(sanger.number_found).toBe(8);
    await problem(
      '/api/sample/sequencing_centre?sequencing_centre=Nowhere',
      /^Invalid value for 'sequencing_centre'\. Accepted values are: UNIVERSITY OF BARI, .* and OTHER$/,
    );
    await problem('/api/sample/sequencing_centre', /^Invalid value for 'sequencing_centre'\./);
  });

  it('lists samples with submitted images, honouring from/to and d_from/d_to', async () => {
    const res = await wrapper('/api/sample/with_submitted_bioimages?project=ERGA');
    expect(res.data).toEqual([
      expect.objectContaining({
        last_bioimage_submitted: '2025-02-03T09:00:00+00:00',
        svc_profile_title: 'CNAG ERGA pilot',
        tol_project: 'ERGA',
      }),
    ]);
    expect(Object.keys(res.data[0]!)).toEqual([
      'SPECIMEN_ID',
      'TAXON_ID',
      'biosampleAccession',
      'last_bioimage_submitted',
      'svc_profile_title',
      'tol_project',
    ]);
    expect((await wrapper('/api/sample/with_submitted_bioimages?project=erga&from=2025-02-01&to=2025-03-01')).number_found).toBe(1);
    expect((await wrapper('/api/sample/with_submitted_bioimages?project=erga&d_from=2025-03-01&d_to=2025-04-01')).number_found).toBe(0);
    await problem('/api/sample/with_submitted_bioimages', "'project' is required but not provided.");
    await problem(
      '/api/sample/with_submitted_bioimages?project=erga&d_from=2025-01-01',
      "Missing date. Both 'from' and 'to' date values must be provided together.",
    );
    await problem('/api/sample/with_submitted_bioimages?project=erga&d_from=soon&d_to=later', 'Failed to parse one of the dates');
  });
});

describe('tube or well ids', () => {
  it('serves both paths, both methods and both parameter spellings (one-element array)', async () => {
    const get = await arrayWrapper<Record<string, unknown>>('/api/sample/tube_or_well_ids?project=erga');
    expect(get.number_found).toBe(2);
    expect(get.data[0]).toEqual({
      TUBE_OR_WELL_IDs: ['FD00000301', 'FD00000302', 'FD00000303'],
      associated_profile_type: ['BGE', 'ERGA_PILOT'],
      first_manifest_date_created: '2025-01-03T10:00:00+00:00',
      last_manifest_date_modified: '2025-01-03T10:00:00+00:00',
      profile_title: 'CNAG ERGA pilot',
      profile_type: 'erga',
    });
    const post = await h.request('/api/profile/tube_or_well_ids?profile_type=erga&associated_profile_type=erga_pilot', { method: 'POST' });
    expect(post.status).toBe(200);
    const [body] = (await post.json()) as { number_found: number; data: { profile_title: string }[] }[];
    expect(body!.data.map((d) => d.profile_title)).toEqual(['CNAG ERGA pilot']);
    expect((await arrayWrapper('/api/sample/tube_or_well_ids?project=erga&d_from=2025-02-01&d_to=2026-01-01')).number_found).toBe(1);
  });

  it('writes CSV with titles and space-separated ids, and refuses bad values', async () => {
    const { header, rows } = await csv('/api/sample/tube_or_well_ids?project=dtol&return_type=csv');
    expect(header).toEqual(['svc_profile_title', 'TUBE_OR_WELL_IDs']);
    expect(rows[0]!.TUBE_OR_WELL_IDs!.split(' ')).toHaveLength(6);
    await problem(
      '/api/profile/tube_or_well_ids?profile_type=plants',
      "Invalid value for 'profile_type'. Must be one of: ASG, DTOL, DTOLENV or ERGA",
      400,
      { method: 'POST' },
    );
    await problem('/api/sample/tube_or_well_ids', "'project' is required but not provided.");
    await problem(
      '/api/sample/tube_or_well_ids?project=erga&associated_tol_project=SANGER',
      'Invalid value for associated project. Must be one of: BGE, BIOBLITZ, CBP, ERGA_COMMUNITY, ERGA_PILOT or POP_GENOMICS',
    );
  });
});

describe('field lists', () => {
  it('lists updatable fields, sorted, for one project or a comma list, in a standard', async () => {
    const dtol = await wrapper<string>('/api/sample/updatable_fields?project=dtol');
    expect(dtol.number_found).toBe(29);
    expect(dtol.data).toEqual([...dtol.data].sort());
    expect(dtol.data).toContain('SEX');
    expect((await wrapper<string>('/api/sample/updatable_fields?project=asg')).number_found).toBe(28);
    expect((await wrapper<string>('/api/sample/updatable_fields?project=erga')).number_found).toBe(77);
    const union = await wrapper<string>('/api/sample/updatable_fields?project=dtol%2Casg');
    expect(union.data).toContain('PARTNER_SAMPLE_ID');
    expect(union.data).toContain('GAL_SAMPLE_ID');
    const dwc = await wrapper<string>('/api/sample/updatable_fields?project=dtol&standard=dwc');
    expect(dwc.data).toContain('sex');
    expect(dwc.data).not.toContain('SEX');
    const { header } = await csv('/api/sample/updatable_fields?project=dtol&return_type=csv');
    expect(header).toEqual(['field']);
    await problem('/api/sample/updatable_fields', "'project' is required but not provided.");
    await problem('/api/sample/updatable_fields?project=x', "Invalid value for 'project'. Must be one of: ASG, DTOL, DTOLENV or ERGA");
  });

  it('lists the fields of a stored manifest version', async () => {
    const erga = await arrayWrapper('/api/sample/project/manifest_version/fields?project=ERGA&manifest_version=2.5.1');
    expect(erga.number_found).toBe(91);
    const old = await arrayWrapper('/api/sample/project/manifest_version/fields?project=dtol&manifest_version=2.4.1&standard=mixs');
    expect(old.data).toContain('samp_taxon_id');
    await problem(
      '/api/sample/project/manifest_version/fields?project=dtol&manifest_version=9.9',
      'No fields exist for the manifest version, 9.9. Available manifest versions are 2.4.1 and 2.5.',
    );
  });
});

describe('methods', () => {
  it('answers 405 to writes on the read endpoints', async () => {
    expect((await h.request('/api/sample/dtol', { method: 'DELETE' })).status).toBe(405);
    expect((await h.request(`/api/sample/svc_id/${seed.samples[0]!.id}`, { method: 'POST' })).status).toBe(405);
  });
});
