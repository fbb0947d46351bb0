import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, samples } from '@/db/schema';
import { BATCH_SIZE } from '@/lib/query/stream';
import { type QuerySeed, seedQueryData } from './query-seed';
import { EMPTY, expectNoPrivateData, queryClient } from './query-support';
import { createHarness, type Harness } from './support/harness';

let h: Harness;
let seed: QuerySeed;
const { wrapper, text, csv, problem } = queryClient(() => h);

beforeAll(async () => {
  h = await createHarness();
  seed = await seedQueryData(h.deps.db);
});
afterAll(() => h.close());

describe('GET manifest', () => {
  it('lists every manifest id, newest manifest first, with or without a trailing slash', async () => {
    const m = seed.manifests;
    const expected = [m.tk, m.erga, m.asg, m.dtol, m.dtolOld];
    expect((await wrapper<string>('/api/manifest')).data).toEqual(expected);
    expect((await wrapper<string>('/api/manifest/')).data).toEqual(expected);
    expect((await wrapper<string>('/api/manifest?limit=2&offset=1')).data).toEqual(expected.slice(1, 3));
    const { header, rows } = await csv('/api/manifest?return_type=CSV');
    expect(header).toEqual(['manifest_id']);
    expect(rows.map((r) => r.manifest_id)).toEqual(expected);
  });

  it('checks return_type and standard even where they change nothing', async () => {
    await problem('/api/manifest?return_type=xml', "Invalid value for 'return_type'. Accepted values are: json and csv");
    await problem('/api/manifest?standard=xyz', "Invalid value for 'standard'. Accepted values are: dwc, ena, mixs and tol");
  });
});

describe('GET manifest/sequencing_centre', () => {
  it('finds manifests by the centre’s label or short name, through the profile or the samples’ GAL', async () => {
    const m = seed.manifests;
    expect(
      (await wrapper<string>('/api/manifest/sequencing_centre?sequencing_centre=CENTRO%20NACIONAL%20DE%20AN%C3%81LISIS%20GEN%C3%93MICO'))
        .data,
    ).toEqual([m.erga]);
    expect((await wrapper<string>('/api/manifest/sequencing_centre?sequencing_centre=cnag')).data).toEqual([m.erga]);
    expect((await wrapper<string>('/api/manifest/sequencing_centre?sequencing_centre=SANGER%20INSTITUTE')).data).toEqual([
      m.tk,
      m.dtol,
      m.dtolOld,
    ]);
    expect(await text('/api/manifest/sequencing_centre?sequencing_centre=GENOSCOPE')).toBe(EMPTY);
  });

  it('refuses a missing or unknown centre with the list of labels', async () => {
    const sentence =
      /^Invalid value for 'sequencing_centre'\. Accepted values are: UNIVERSITY OF BARI, DNA SEQUENCING AND GENOMICS LABORATORY, HELSINKI GENOMICS CORE FACILITY, .*, WEST GERMAN GENOME CENTRE and OTHER$/;
    await problem('/api/manifest/sequencing_centre', sentence);
    await problem('/api/manifest/sequencing_centre?sequencing_centre=Nowhere', sentence);
  });
});

describe('GET manifest/current_version', () => {
  it('answers the current version of every project, or of one, as a one-element array', async () => {
    const all = await h.request('/api/manifest/current_version');
    expect(await all.json()).toEqual([{ ASG: '2.5', DTOL: '2.5', DTOLENV: '2.4', ERGA: '2.5.1' }]);
    const erga = await h.request('/api/manifest/current_version?manifest_type=erga');
    expect(await erga.json()).toEqual([{ ERGA: '2.5.1' }]);
    const { header, rows } = await csv('/api/manifest/current_version?return_type=csv');
    expect(header).toEqual(['manifest_type', 'version']);
    expect(rows).toContainEqual({ manifest_type: 'DTOL', version: '2.5' });
    await problem(
      '/api/manifest/current_version?manifest_type=BARCODE',
      "Invalid value for 'manifest_type'. Must be one of: ASG, DTOL, DTOLENV or ERGA",
    );
  });
});

describe('GET manifest/{from}/{to} and manifest/{project}/{from}/{to}', () => {
  it('lists the manifests recorded in [from, to)', async () => {
    const m = seed.manifests;
    expect((await wrapper<string>('/api/manifest/2024-01-01T00:00:00+00:00/2025-01-01T00:00:00+00:00')).data).toEqual([m.asg, m.dtol]);
    expect((await wrapper<string>('/api/manifest/2024-03-14T10:21:33.512Z/2024-03-14T10:21:33.513Z')).data).toEqual([m.dtol]);
    expect((await wrapper<string>('/api/manifest/2024-03-14T10:21:33.513Z/2025-01-01')).data).toEqual([m.asg]);
    expect(await text('/api/manifest/2024-01-01T00:00:00+00:0/2024-01-01T00:00:00+00:0')).toBe(EMPTY);
  });

  it('takes a comma list of projects in any case', async () => {
    const m = seed.manifests;
    expect((await wrapper<string>('/api/manifest/DTOL%2Cerga/2020-01-01T00:00:00+00:00/2030-01-01T00:00:00+00:00')).data).toEqual([
      m.tk,
      m.erga,
      m.dtol,
      m.dtolOld,
    ]);
    expect((await wrapper<string>('/api/manifest/asg/2020-01-01/2030-01-01')).data).toEqual([m.asg]);
    await problem('/api/manifest/plants/2020-01-01/2030-01-01', "Invalid value for 'project'. Must be one of: ASG, DTOL, DTOLENV or ERGA");
  });

  it('answers 400 with the reference sentences for bad dates', async () => {
    await problem(
      '/api/manifest/2024-01-01T00:00:00+00:00/2023-01-01T00:00:00+00:00',
      "Invalid date. 'from' date must be earlier than 'to' date.",
    );
    await problem('/api/manifest/2024-01-01T25:00:00/2025-01-01', 'Failed to parse one of the dates');
    await problem('/api/manifest/dtol/2024-01-01/2025-1-1', 'Failed to parse one of the dates');
  });
});

describe('GET manifest/{manifest_id}', () => {
  it('returns the manifest’s samples with every exported field', async () => {
    const res = await wrapper(`/api/manifest/${seed.manifests.dtol}`);
    expect(res.number_found).toBe(4);
    expect(res.data.map((r) => r.svc_id)).toEqual(seed.samples.filter((s) => s.manifestId === seed.manifests.dtol).map((s) => s.id));
    expect(Object.keys(res.data[0]!)[0]).toBe('SERIES');
    expect(res.data[0]).toMatchObject({ svc_profile_title: 'NHM Lepidoptera 2024', manifest_id: seed.manifests.dtol, tol_project: 'DTOL' });
    // upper case is the same manifest
    expect((await wrapper(`/api/manifest/${seed.manifests.dtol.toUpperCase()}`)).number_found).toBe(4);
    expectNoPrivateData(await text(`/api/manifest/${seed.manifests.erga}`));
  });

  it('answers an unknown manifest with an empty result, in JSON and CSV (header row kept)', async () => {
    expect(await text('/api/manifest/00000000-0000-4000-8000-000000000000')).toBe(EMPTY);
    const { header, rows } = await csv('/api/manifest/00000000-0000-4000-8000-000000000000?return_type=csv');
    expect(rows).toEqual([]);
    expect(header).toContain('svc_id');
  });

  it('writes CSV, in any standard', async () => {
    const { header, rows } = await csv(`/api/manifest/${seed.manifests.erga}?return_type=csv&standard=ena`, 'ena_export.csv');
    expect(rows).toHaveLength(3);
    expect(header).toContain('sample coordinator');
    expect(header).toContain('svc_id');
    expect(header).not.toContain('SAMPLE_COORDINATOR');
  });

  it('refuses malformed ids with the reference sentences', async () => {
    await problem('/api/manifest/1234-abcd', "Invalid value for 'manifest_id'. Must be a string UUID of length 36 (including hyphens).");
    await problem(
      '/api/manifest/f8e5c23d-f735-439f-bfaf-a6886e31741eAAAA/sample_status',
      "Invalid value for 'manifest_id'. Must be a string UUID of length 36 (including hyphens).",
    );
    await problem('/api/manifest/f8e5c23d-f735-439f-bfaf-a6886e31741-', "Invalid value for 'manifest_id'. Must be a valid UUID.");
    await problem(
      `/api/manifest/${seed.manifests.dtol}?return_type=xlsx`,
      "Invalid value for 'return_type'. Accepted values are: json, csv and rocrate",
    );
  });

  it('narrows with limit and offset', async () => {
    const all = await wrapper(`/api/manifest/${seed.manifests.dtol}`);
    const page = await wrapper(`/api/manifest/${seed.manifests.dtol}?limit=2&offset=1`);
    expect(page.number_found).toBe(4);
    expect(page.data).toEqual(all.data.slice(1, 3));
  });
});

describe('GET manifest/{manifest_id}/sample_status', () => {
  it('gives the minimal status of each sample', async () => {
    const res = await wrapper(`/api/manifest/${seed.manifests.asg}/sample_status`);
    expect(res.data).toHaveLength(2);
    expect(Object.keys(res.data[0]!)).toEqual(['svc_id', 'manifest_id', 'status', 'time_created', 'time_updated']);
    expect(res.data[0]).toMatchObject({ manifest_id: seed.manifests.asg, status: 'accepted', time_created: '2024-11-01T12:00:00+00:00' });
    expect(await text('/api/manifest/00000000-0000-4000-8000-000000000000/sample_status')).toBe(EMPTY);
    const { header, rows } = await csv(`/api/manifest/${seed.manifests.asg}/sample_status?return_type=csv`);
    expect(header).toEqual(['svc_id', 'manifest_id', 'status', 'time_created', 'time_updated']);
    // rows are written straight from what was read: the same text the records print, in JSON and in CSV
    expect(rows).toEqual(res.data.map((r) => Object.fromEntries(header.map((c) => [c, String(r[c])]))));
    expect(await text(`/api/manifest/${seed.manifests.asg}/sample_status`)).toBe(
      JSON.stringify({ status: 'OK', number_found: 2, data: res.data }),
    );
  });
});

describe('GET manifest/{manifest_id}/sample_status of more samples than a batch', () => {
  it('continues after the first batch in svc_id order, and pages through them', async () => {
    const [template] = await h.deps.db.select().from(samples).where(eq(samples.manifestId, seed.manifests.asg)).limit(1);
    const [manifest] = await h.deps.db.select().from(manifests).where(eq(manifests.id, seed.manifests.asg));
    const manifestId = randomUUID();
    await h.deps.db.insert(manifests).values({ ...manifest!, id: manifestId });
    const ids = Array.from({ length: BATCH_SIZE + 205 }, (_, i) => (0xa00000 + i).toString(16).padStart(24, '0'));
    for (let i = 0; i < ids.length; i += 500) {
      await h.deps.db.insert(samples).values(ids.slice(i, i + 500).map((id) => ({ ...template!, id, manifestId })));
    }
    const all = await wrapper<{ svc_id: string }>(`/api/manifest/${manifestId}/sample_status`);
    expect(all.number_found).toBe(ids.length);
    expect(all.data.map((r) => r.svc_id)).toEqual(ids);
    const page = await wrapper<{ svc_id: string }>(`/api/manifest/${manifestId}/sample_status?limit=300&offset=${BATCH_SIZE - 100}`);
    expect(page.data.map((r) => r.svc_id)).toEqual(ids.slice(BATCH_SIZE - 100, BATCH_SIZE + 200));
  });
});

describe('lists answered whole', () => {
  it('answer the same bytes when many are made at once, their chunks given back and taken again by the next', async () => {
    const [template] = await h.deps.db.select().from(samples).where(eq(samples.manifestId, seed.manifests.dtol)).limit(1);
    const [manifest] = await h.deps.db.select().from(manifests).where(eq(manifests.id, seed.manifests.dtol));
    // two manifests of a few hundred samples, each answer some hundred kB: written into chunks, sent whole
    const lists = await Promise.all(
      [0xb00000, 0xc00000].map(async (first, n) => {
        const manifestId = randomUUID();
        await h.deps.db.insert(manifests).values({ ...manifest!, id: manifestId });
        const rows = Array.from({ length: 300 }, (_, i) => ({
          ...template!,
          id: (first + i).toString(16).padStart(24, '0'),
          manifestId,
          fields: { ...template!.fields, SPECIMEN_ID: `list ${n} sample ${i} ${'é'.repeat(i % 40)}` },
        }));
        await h.deps.db.insert(samples).values(rows);
        return `/api/manifest/${manifestId}`;
      }),
    );
    const paths = lists.flatMap((path) => [path, `${path}?return_type=csv`]);
    const alone = await Promise.all(paths.map(async (path) => Buffer.from(await (await h.request(path)).arrayBuffer())));
    for (const body of alone) expect(body.length).toBeGreaterThan(64 * 1024);
    expect((JSON.parse(alone[0]!.toString()) as { data: unknown[] }).data.length).toBe(300);
    for (let round = 0; round < 5; round++) {
      const order = Array.from({ length: 24 }, (_, i) => (i * 7 + round) % paths.length);
      const bodies = await Promise.all(order.map(async (k) => Buffer.from(await (await h.request(paths[k]!)).arrayBuffer())));
      for (const [i, k] of order.entries()) expect(bodies[i]!.equals(alone[k]!)).toBe(true);
    }
  });
});

describe('routes', () => {
  it('keeps the lead’s manifest routes, and answers 405 to writes here', async () => {
    expect((await h.request('/api/manifest/validations')).status).toBe(401);
    expect((await h.request(`/api/manifest/${seed.manifests.dtol}`, { method: 'PUT' })).status).toBe(405);
    expect((await h.request('/api/manifest/2024-01-01/2025-01-01', { method: 'POST' })).status).toBe(405);
  });
});
