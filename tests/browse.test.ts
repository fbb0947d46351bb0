import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, profileShares, profiles, type SampleStatus, samples, sampleUpdates, type TolProject, users } from '@/db/schema';
import { browseAudit } from '@/lib/browse/audit';
import { AuditBrowseQuerySchema } from '@/lib/browse/contract';
import { BROWSE_STATUSES, SAMPLE_SORTS, type SampleSort, sampleBrowseParams } from '@/lib/browse/params';
import { sampleBrowseCondition, sampleBrowseFetcher, sampleBrowseKeyOf } from '@/lib/browse/samples';
import { currentDefinition } from '@/lib/manifests';
import { jsonAnswer } from '@/lib/query/json-answer';
import { keysetRows } from '@/lib/query/stream';
import { sequencingCentres } from '@/lib/reference/read';
import { typedColumns } from '@/lib/samples/columns';
import { sampleWithHistory } from '@/lib/samples/views';
import { exportedFieldSet } from '@/lib/standards/fields';
import { getUser } from '@/lib/users/users';
import { validRow } from './fixtures/manifests/generate';
import { expectNoPrivateData } from './query-support';
import { createHarness, type Harness } from './support/harness';
import { expectProblem } from './support/http';

/**
 * The portal's browse endpoints: GET /api/samples/browse and GET /api/audit/browse, against a few hundred samples
 * and changes written straight into the tables.
 */

interface Seeded {
  id: string;
  project: TolProject;
  status: SampleStatus;
  manifestId: string;
  taxonId: string;
  scientificName: string | null;
  tube: string | null;
  specimen: string | null;
  gal: string;
  centres: string[];
  created: string;
  embargoed: boolean;
}
interface Change {
  sampleId: string;
  project: TolProject;
  updateType: 'user' | 'system';
  field: string;
  time: Date;
}
interface Page {
  status: string;
  number_found: number;
  data: Record<string, string>[];
  columns: { field: string; key: string; label: string; sort?: string }[];
  standard: string;
  sort: string;
  order: string;
  limit: number;
  offset: number;
}

const N = 300;
const CHANGES = 240;
const M = {
  dtolA: '11111111-1111-4111-8111-111111111111',
  dtolB: '22222222-2222-4222-8222-222222222222',
  erga: '33333333-3333-4333-8333-333333333333',
  asg: '44444444-4444-4444-8444-444444444444',
};
const AUDITED_FIELDS = ['SEX', 'SCIENTIFIC_NAME', 'biosampleAccession', 'LIFESTAGE', 'COLLECTOR_ORCID_ID'];

let h: Harness;
let key: string;
let readerId: number;
let ownerId: number;
const seeded: Seeded[] = [];
const changes: Change[] = [];

const get = (path: string) => h.request(path, { key });
async function page(query: string): Promise<Page> {
  const res = await get(`/api/samples/browse?${query}`);
  const text = await res.text();
  expect(res.status, `${query}: ${text.slice(0, 400)}`).toBe(200);
  return JSON.parse(text) as Page;
}
/** Every match of a filter, read page by page. */
async function all(query: string, limit = 100): Promise<Record<string, string>[]> {
  const out: Record<string, string>[] = [];
  for (let offset = 0; ; offset += limit) {
    const p = await page(`${query}&limit=${limit}&offset=${offset}`);
    out.push(...p.data);
    if (p.data.length < limit) return out;
  }
}
const sorted = (ids: string[]) => [...ids].sort();
const seededIds = (pred: (s: Seeded) => boolean) => sorted(seeded.filter(pred).map((s) => s.id));
/** svc_ids of a filter; embargoed records have none, so those are counted apart */
async function idsMatching(query: string) {
  const rows = await all(query);
  return sorted(rows.filter((r) => r.svc_id).map((r) => r.svc_id!));
}

beforeAll(async () => {
  h = await createHarness();
  const reader = await h.user();
  key = reader.key;
  readerId = reader.user.id;
  const db = h.deps.db;
  const [owner] = await db.insert(users).values({ username: 'browse-owner', email: 'owner@example.org', passwordHash: 'x' }).returning();
  ownerId = owner!.id;
  const p = { dtol: 'aa0000000000000000000001', erga: 'aa0000000000000000000002', asg: 'aa0000000000000000000003' };
  await db.insert(profiles).values([
    { id: p.dtol, ownerId, title: 'Wytham moths', type: 'dtol', associatedTypes: ['DTOL'] },
    { id: p.erga, ownerId, title: 'Catalan genomes', type: 'erga', associatedTypes: ['BGE'], sequencingCentres: ['CNAG'] },
    { id: p.asg, ownerId, title: 'Reef symbionts', type: 'asg', associatedTypes: ['ASG'] },
  ]);
  const def = { dtol: currentDefinition('dtol'), erga: currentDefinition('erga'), asg: currentDefinition('asg') };
  await db.insert(manifests).values([
    { id: M.dtolA, profileId: p.dtol, project: 'dtol', version: def.dtol.version },
    { id: M.dtolB, profileId: p.dtol, project: 'dtol', version: def.dtol.version },
    { id: M.erga, profileId: p.erga, project: 'erga', version: def.erga.version, sequencingCentres: ['CNAG'] },
    { id: M.asg, profileId: p.asg, project: 'asg', version: def.asg.version },
  ]);
  const base = Date.parse('2025-01-01T00:00:00Z');
  const rows = [];
  for (let i = 0; i < N; i++) {
    const project = (['dtol', 'erga', 'asg'] as const)[i % 3]!;
    const fields = validRow(def[project], i);
    fields.TAXON_ID = String(1000 + (i % 13));
    fields.SCIENTIFIC_NAME = i % 50 === 7 ? '' : i === 11 ? 'Odd_name%x' : `Species${String(i % 37).padStart(2, '0')}`;
    if (i % 60 === 5) fields.TUBE_OR_WELL_ID = '';
    if (project === 'erga' && i % 9 === 1) fields.GAL = 'SANGER INSTITUTE';
    const embargoed = i === 4;
    if (embargoed) fields.ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_RIGHTS_APPLICABLE = 'Y';
    // a permutation of 0..N-1: svc_id order is not creation order
    const id = `cc${((i * 37) % N).toString(16).padStart(22, '0')}`;
    const manifestId = project === 'dtol' ? (i < 150 ? M.dtolA : M.dtolB) : project === 'erga' ? M.erga : M.asg;
    const status = BROWSE_STATUSES[i % BROWSE_STATUSES.length]!;
    // two samples per minute: ties on time_created are broken by svc_id
    const created = new Date(base + Math.floor(i / 2) * 60_000);
    const centres = project === 'erga' ? ['CNAG'] : [];
    rows.push({
      id,
      manifestId,
      profileId: p[project],
      project,
      manifestVersion: def[project].version,
      status,
      fields,
      ...typedColumns(fields),
      sequencingCentres: centres,
      associatedTolProjects: project === 'erga' ? ['BGE'] : [project.toUpperCase()],
      rejectionReason: status === 'rejected' ? 'Sample rejected by curator.' : null,
      timeCreated: created,
      timeUpdated: created,
    });
    const t = typedColumns(fields);
    seeded.push({
      id,
      project,
      status,
      manifestId,
      taxonId: fields.TAXON_ID,
      scientificName: t.scientificName,
      tube: t.tubeOrWellId,
      specimen: t.specimenId,
      gal: fields.GAL ?? '',
      centres,
      created: created.toISOString(),
      embargoed,
    });
  }
  await db.insert(samples).values(rows);
  const updates = [];
  for (let j = 0; j < CHANGES; j++) {
    const s = seeded[(j * 7) % N]!;
    const change: Change = {
      sampleId: s.id,
      project: s.project,
      updateType: j % 4 === 0 ? 'system' : 'user',
      field: AUDITED_FIELDS[j % AUDITED_FIELDS.length]!,
      time: new Date(Date.parse('2025-06-01T00:00:00Z') + j * 3_600_000),
    };
    changes.push(change);
    updates.push({
      sampleId: s.id,
      manifestId: s.manifestId,
      project: s.project,
      updateType: change.updateType,
      field: change.field,
      oldValue: `old-${j}`,
      newValue: `new-${j}`,
      actorId: change.updateType === 'user' ? ownerId : null,
      timeUpdated: change.time,
    });
  }
  await db.insert(sampleUpdates).values(updates);
}, 120_000);
afterAll(() => h.close());

describe('GET /api/samples/browse', () => {
  it('needs a key or a session', async () => {
    await expectProblem(await h.request('/api/samples/browse'), 401);
    await expectProblem(await h.request('/api/samples/browse', { key: 'not-a-key' }), 401);
  });

  it('answers one page at a time, newest first by default, with the total of the filter', async () => {
    const first = await page('');
    expect(first).toMatchObject({
      status: 'OK',
      number_found: N,
      standard: 'tol',
      sort: 'time_created',
      order: 'desc',
      limit: 50,
      offset: 0,
    });
    expect(first.data).toHaveLength(50);

    const expected = [...seeded]
      .sort((a, b) => (a.created === b.created ? (a.id < b.id ? 1 : -1) : a.created < b.created ? 1 : -1))
      .map((s) => s.id);
    const seen: string[] = [];
    for (let offset = 0; offset < N; offset += 64) {
      const p = await page(`limit=64&offset=${offset}`);
      expect(p.number_found).toBe(N);
      expect(p.data).toHaveLength(Math.min(64, N - offset));
      // each page holds exactly its rows: the embargoed record has no svc_id, so compare positions
      p.data.forEach((r, i) => {
        const id = expected[offset + i]!;
        if (seeded.find((s) => s.id === id)!.embargoed) expect(r).toEqual({ status: 'embargoed' });
        else expect(r.svc_id).toBe(id);
      });
      seen.push(...p.data.map((r) => r.svc_id ?? 'embargoed'));
    }
    expect(seen).toHaveLength(N);
    expect(new Set(seen).size).toBe(N);
    expect((await page(`offset=${N}`)).data).toEqual([]);
  });

  it('filters by project, status, manifest id, sequencing centre, taxon id, scientific name and field contents', async () => {
    const visible = (pred: (s: Seeded) => boolean) => seededIds((s) => !s.embargoed && pred(s));
    expect(await idsMatching('project=dtol')).toEqual(visible((s) => s.project === 'dtol'));
    expect(await idsMatching('project=DTOL,asg')).toEqual(visible((s) => s.project !== 'erga'));
    expect(await idsMatching('status=accepted,rejected')).toEqual(visible((s) => s.status === 'accepted' || s.status === 'rejected'));
    expect(await idsMatching(`manifest_id=${M.dtolB.toUpperCase()}`)).toEqual(visible((s) => s.manifestId === M.dtolB));
    // CNAG: chosen on the ERGA profile; SANGER: named as the GAL of some ERGA rows
    expect(await idsMatching('sequencing_centre=CNAG')).toEqual(visible((s) => s.centres.includes('CNAG')));
    expect(await idsMatching('sequencing_centre=sanger%20institute')).toEqual(visible((s) => s.gal === 'SANGER INSTITUTE'));
    expect(await idsMatching('taxon_id=1003,1007')).toEqual(visible((s) => s.taxonId === '1003' || s.taxonId === '1007'));
    expect(await idsMatching('scientific_name=species0')).toEqual(visible((s) => /^Species0/.test(s.scientificName ?? '')));
    expect(await idsMatching('field=scientific_name&contains=CIES3')).toEqual(visible((s) => /cies3/i.test(s.scientificName ?? '')));
    expect(await idsMatching('field=TUBE_OR_WELL_ID&contains=FD0000012')).toEqual(visible((s) => (s.tube ?? '').includes('FD0000012')));
    // LIKE wildcards are taken literally
    expect(await idsMatching('field=SCIENTIFIC_NAME&contains=_name%25')).toEqual(visible((s) => s.scientificName === 'Odd_name%x'));
    expect(await idsMatching('scientific_name=e%25x')).toEqual(visible((s) => s.scientificName === 'Odd_name%x'));
    expect((await page('field=SCIENTIFIC_NAME&contains=%25')).number_found).toBe(1);
    // combined, all at once
    const combined = await idsMatching(
      'project=erga&status=pending,private,processing&taxon_id=1001,1002,1004,1005&sequencing_centre=cnag',
    );
    expect(combined).toEqual(
      visible(
        (s) =>
          s.project === 'erga' &&
          ['pending', 'private', 'processing'].includes(s.status) &&
          ['1001', '1002', '1004', '1005'].includes(s.taxonId),
      ),
    );
    expect(combined.length).toBeGreaterThan(0);
    // the embargoed ERGA record is counted and listed, but shows nothing but its state
    const erga = await all('project=erga');
    expect(erga.filter((r) => r.status === 'embargoed')).toEqual([{ status: 'embargoed' }]);
    expect((await page('project=erga')).number_found).toBe(100);
    expect((await page('taxon_id=999999')).number_found).toBe(0);
  });

  it('narrows to the reader’s own and shared profiles with profiles=mine', async () => {
    expect((await page('profiles=mine')).number_found).toBe(0);
    // the ERGA profile shared with the reader: its samples are theirs to browse; the others' owner's stay out
    await h.deps.db.insert(profileShares).values({ profileId: 'aa0000000000000000000002', userId: readerId, role: 'viewer' });
    try {
      expect(await idsMatching('profiles=mine')).toEqual(seededIds((s) => !s.embargoed && s.project === 'erga'));
      expect((await page('profiles=mine&project=dtol')).number_found).toBe(0);
      expect((await page('profiles=all')).number_found).toBe(N);
    } finally {
      await h.deps.db.delete(profileShares);
    }
    // the owner's own, though not shared with anyone
    const owner = await h.request('/api/samples/browse?profiles=mine&limit=1', { key: (await h.user({ isAdmin: true })).key });
    expect(((await owner.json()) as Page).number_found).toBe(0);
  });

  it('sorts on every key both ways, NULLs last ascending and first descending, svc_id breaking ties', async () => {
    const value: Record<SampleSort, (s: Seeded) => string | null> = {
      time_created: (s) => s.created,
      svc_id: (s) => s.id,
      project: (s) => s.project,
      status: (s) => s.status,
      taxon_id: (s) => s.taxonId,
      scientific_name: (s) => s.scientificName,
      tube: (s) => s.tube,
    };
    for (const sort of SAMPLE_SORTS) {
      for (const order of ['asc', 'desc'] as const) {
        const sign = order === 'asc' ? 1 : -1;
        const cmp = (a: string | null, b: string | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a < b ? -1 : 1);
        const expected = [...seeded]
          .sort((a, b) => sign * (cmp(value[sort](a), value[sort](b)) || (a.id < b.id ? -1 : 1)))
          .map((s) => (s.embargoed ? 'embargoed' : s.id));
        const got = (await all(`sort=${sort}&order=${order}`, 128)).map((r) => r.svc_id ?? 'embargoed');
        expect(got, `${sort} ${order}`).toEqual(expected);

        // the keyset continuation the CSV export streams with gives the same order, batch after batch
        const params = sampleBrowseParams.parse({ sort, order });
        const where = sampleBrowseCondition(params, await sequencingCentres(h.deps.db));
        const keyset: string[] = [];
        const rows = keysetRows(sampleBrowseFetcher(h.deps.db, where, sort, order === 'desc'), sampleBrowseKeyOf, { offset: 0 }, 7);
        for await (const r of rows) keyset.push(r.id);
        expect(
          keyset.map((id) => (seeded.find((s) => s.id === id)!.embargoed ? 'embargoed' : id)),
          `keyset ${sort} ${order}`,
        ).toEqual(expected);
      }
    }
  });

  it('renames the records and the columns through the standard, as the query API renders them', async () => {
    const tol = await page('project=dtol&sort=svc_id&order=asc&limit=5');
    expect(tol.columns.map((c) => c.key)).toEqual([
      'svc_id',
      'tol_project',
      'status',
      'SPECIMEN_ID',
      'TUBE_OR_WELL_ID',
      'SCIENTIFIC_NAME',
      'TAXON_ID',
      'biosampleAccession',
      'GAL',
      'time_created',
    ]);
    const dwc = await page('project=dtol&sort=svc_id&order=asc&limit=5&standard=dwc');
    const keyOf = (p: Page, field: string) => p.columns.find((c) => c.field === field)?.key;
    expect(keyOf(dwc, 'SCIENTIFIC_NAME')).toBe('scientificName');
    expect(keyOf(dwc, 'SPECIMEN_ID')).toBe('materialSampleID');
    expect(keyOf(dwc, 'TAXON_ID')).toBe('taxonID');
    expect(keyOf(dwc, 'tol_project')).toBe('svc_tol_project');
    expect(keyOf(dwc, 'biosampleAccession')).toBe('svc_biosampleAccession');
    expect(keyOf(dwc, 'GAL')).toBeUndefined();
    const first = dwc.data[0]!;
    expect(first.scientificName).toBe(tol.data[0]!.SCIENTIFIC_NAME);
    expect(first).not.toHaveProperty('SCIENTIFIC_NAME');
    for (const standard of ['tol', 'dwc', 'ena', 'mixs']) {
      const browsed = (await page(`project=asg&sort=svc_id&order=asc&limit=3&standard=${standard}`)).data;
      for (const record of browsed) {
        const res = await h.request(`/api/sample/svc_id/${record.svc_id}?standard=${standard}`);
        const viaQueryApi = ((await res.json()) as { data: Record<string, string>[] }).data[0];
        expect(record, standard).toEqual(viaQueryApi);
      }
      // every column shown is a key of the records
      const p = await page(`project=asg&limit=1&standard=${standard}`);
      for (const c of p.columns) expect(p.data[0], `${standard} ${c.key}`).toHaveProperty(c.key);
    }
  });

  it('exports the current filter as CSV, every match and every field, streamed', async () => {
    const res = await get('/api/samples/browse?project=dtol&status=accepted,pending&return_type=csv&standard=dwc&sort=tube&order=asc');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename=dwc_export.csv');
    const body = await res.text();
    const lines = parse(body) as string[][];
    const header = lines[0]!;
    expect(header).toContain('scientificName');
    expect(header).toContain('svc_id');
    const expected = seeded
      .filter((s) => s.project === 'dtol' && (s.status === 'accepted' || s.status === 'pending'))
      .sort((a, b) => (a.tube === b.tube ? (a.id < b.id ? -1 : 1) : a.tube === null ? 1 : b.tube === null ? -1 : a.tube < b.tube ? -1 : 1))
      .map((s) => s.id);
    const idColumn = header.indexOf('svc_id');
    expect(lines.slice(1).map((l) => l[idColumn])).toEqual(expected);
    expectNoPrivateData(body);
    // limit and offset still narrow an export when given
    const narrowed = parse(await (await get('/api/samples/browse?return_type=csv&limit=10&offset=5')).text()) as string[][];
    expect(narrowed).toHaveLength(11);
  });

  it('never shows what must stay inside the service', async () => {
    const res = await get('/api/samples/browse?status=rejected&limit=500');
    expectNoPrivateData(await res.text());
  });

  it('refuses bad parameters with a 400 naming the parameter', async () => {
    const bad: [string, string][] = [
      ['limit=0', 'limit'],
      ['limit=501', 'limit'],
      ['limit=ten', 'limit'],
      ['offset=-1', 'offset'],
      ['project=plants', 'project'],
      ['profiles=ours', 'profiles'],
      ['status=lost', 'status'],
      ['manifest_id=not-a-uuid', 'manifest_id'],
      ['sequencing_centre=Atlantis', 'sequencing_centre'],
      ['taxon_id=9606x', 'taxon_id'],
      ['field=SCIENTIFIC_NAME', 'contains'],
      ['contains=Aglais', 'field'],
      ['field=NO_SUCH_FIELD&contains=x', 'field'],
      ['sort=colour', 'sort'],
      ['order=sideways', 'order'],
      ['standard=darwin', 'standard'],
      ['return_type=xml', 'return_type'],
    ];
    for (const [query, param] of bad) {
      const body = await expectProblem(await get(`/api/samples/browse?${query}`), 400);
      const errors = (body.errors ?? []) as { path: string; message: string }[];
      expect(
        errors.map((e) => e.path),
        query,
      ).toContain(param);
    }
  });
});

describe('GET /api/audit/browse', () => {
  const exported = exportedFieldSet();
  const listed = () => changes.filter((c) => exported.has(c.field));
  async function audit(query: string) {
    const res = await get(`/api/audit/browse?${query}`);
    const text = await res.text();
    expect(res.status, `${query}: ${text.slice(0, 300)}`).toBe(200);
    return JSON.parse(text) as { status: string; number_found: number; data: Record<string, string>[] };
  }
  const times = (rows: Record<string, string>[]) => rows.map((r) => Date.parse(r.time_updated!));
  const expectedTimes = (pred: (c: Change) => boolean) =>
    listed()
      .filter(pred)
      .map((c) => c.time.getTime())
      .sort((a, b) => b - a);

  it('needs a key or a session', async () => {
    await expectProblem(await h.request('/api/audit/browse'), 401);
  });

  it('pages the changes newest first, without sensitive fields or who made them', async () => {
    expect(listed().length).toBeLessThan(CHANGES);
    const first = await audit('');
    expect(first.number_found).toBe(listed().length);
    expect(first.data).toHaveLength(50);
    const seen: number[] = [];
    for (let offset = 0; offset < first.number_found; offset += 40) {
      const p = await audit(`limit=40&offset=${offset}`);
      expect(p.data.length).toBe(Math.min(40, first.number_found - offset));
      seen.push(...times(p.data));
    }
    expect(seen).toEqual(expectedTimes(() => true));
    const body = await (await get('/api/audit/browse?limit=500')).text();
    expect(body).not.toContain('COLLECTOR_ORCID_ID');
    expectNoPrivateData(body);
  });

  it('is read by the audit page with itself as the API answers it', async () => {
    for (const query of ['', 'limit=40&offset=40', 'update_type=system&project=erga,asg&limit=500', 'field=sex']) {
      const p = AuditBrowseQuerySchema.parse(Object.fromEntries(new URLSearchParams(query)));
      expect(await jsonAnswer(await browseAudit(h.deps.db, p)), query).toEqual(await audit(query));
    }
  });

  it('filters by dates (either or both), update type, project and field, combined', async () => {
    const from = '2025-06-03T00:00:00+00:00';
    const to = '2025-06-06';
    const inRange = (c: Change) => c.time >= new Date(from) && c.time < new Date('2025-06-06T00:00:00Z');
    expect(times((await audit(`from=${encodeURIComponent(from)}&to=${to}&limit=500`)).data)).toEqual(expectedTimes(inRange));
    expect(times((await audit(`from=2025-06-09&limit=500`)).data)).toEqual(
      expectedTimes((c) => c.time >= new Date('2025-06-09T00:00:00Z')),
    );
    expect(times((await audit(`to=2025-06-02&limit=500`)).data)).toEqual(expectedTimes((c) => c.time < new Date('2025-06-02T00:00:00Z')));
    expect(times((await audit('update_type=system&limit=500')).data)).toEqual(expectedTimes((c) => c.updateType === 'system'));
    expect(times((await audit('project=erga,asg&limit=500')).data)).toEqual(expectedTimes((c) => c.project !== 'dtol'));
    expect(times((await audit('field=sex&limit=500')).data)).toEqual(expectedTimes((c) => c.field === 'SEX'));
    const combined = (c: Change) => inRange(c) && c.updateType === 'user' && c.project === 'dtol' && c.field === 'LIFESTAGE';
    const got = await audit(`from=${encodeURIComponent(from)}&to=${to}&update_type=user&project=dtol&field=LIFESTAGE&limit=500`);
    expect(times(got.data)).toEqual(expectedTimes(combined));
    expect(got.data.every((r) => r.update_type === 'user' && r.tol_project === 'DTOL' && r.field === 'LIFESTAGE')).toBe(true);
  });

  it('filters by one sample, a tube or a specimen, alone or with the others', async () => {
    const bySample = new Map(seeded.map((s) => [s.id, s]));
    // a changed sample with a tube and a specimen
    const svcId = listed().find((c) => bySample.get(c.sampleId)?.tube && bySample.get(c.sampleId)?.specimen)!.sampleId;
    const sample = bySample.get(svcId)!;

    const one = await audit(`svc_id=${svcId.toUpperCase()}&limit=500`);
    expect(times(one.data)).toEqual(expectedTimes((c) => c.sampleId === svcId));
    expect(one.data.every((r) => r.svc_id === svcId)).toBe(true);

    const tube = await audit(`tube=${encodeURIComponent(sample.tube!)}&limit=500`);
    expect(times(tube.data)).toEqual(expectedTimes((c) => bySample.get(c.sampleId)?.tube === sample.tube));
    expect(tube.data.every((r) => r.TUBE_OR_WELL_ID === sample.tube)).toBe(true);

    const specimen = await audit(`specimen=${encodeURIComponent(sample.specimen!)}&limit=500`);
    expect(times(specimen.data)).toEqual(expectedTimes((c) => bySample.get(c.sampleId)?.specimen === sample.specimen));
    expect(specimen.number_found).toBeGreaterThan(0);

    const field = listed().find((c) => c.sampleId === svcId)!.field;
    const combined = await audit(`svc_id=${svcId}&tube=${encodeURIComponent(sample.tube!)}&field=${field}&limit=500`);
    expect(times(combined.data)).toEqual(expectedTimes((c) => c.sampleId === svcId && c.field === field));
    expect(combined.number_found).toBeGreaterThan(0);
    const otherField = AUDITED_FIELDS.find((f) => f !== field && exported.has(f))!;
    expect((await audit(`svc_id=${svcId}&field=${otherField}`)).number_found).toBe(
      listed().filter((c) => c.sampleId === svcId && c.field === otherField).length,
    );
    // exactly, not a substring: a tube no sample has finds nothing
    expect((await audit(`tube=${encodeURIComponent(sample.tube!.slice(0, -1))}X`)).number_found).toBe(0);
  });

  it('exports the current filter as CSV', async () => {
    const res = await get('/api/audit/browse?update_type=user&return_type=csv');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    const lines = parse(await res.text()) as string[][];
    expect(lines[0]).toEqual(expect.arrayContaining(['field', 'outdated_value', 'updated_value', 'update_type', 'time_updated', 'svc_id']));
    expect(lines).toHaveLength(1 + expectedTimes((c) => c.updateType === 'user').length);
  });

  it('refuses bad parameters with a 400 naming the parameter', async () => {
    for (const [query, param] of [
      ['from=yesterday', 'from'],
      ['from=2025-06-05&to=2025-06-01', 'to'],
      ['update_type=robot', 'update_type'],
      ['project=plants', 'project'],
      ['field=COLLECTOR_ORCID_ID', 'field'],
      ['svc_id=not-a-sample', 'svc_id'],
      ['limit=1000', 'limit'],
    ] as const) {
      const body = await expectProblem(await get(`/api/audit/browse?${query}`), 400);
      expect(
        ((body.errors ?? []) as { path: string }[]).map((e) => e.path),
        query,
      ).toContain(param);
    }
  });
});

describe('the sample page behind a browser row', () => {
  it('shows owners everything, with who made each user update', async () => {
    const owner = await getUser(h.deps.db, ownerId);
    const changed = changes.find((c) => c.updateType === 'user' && c.field === 'COLLECTOR_ORCID_ID')!;
    const view = await sampleWithHistory(h.deps.db, owner, changed.sampleId);
    expect(view.access).toBe('full');
    expect(view.record).toBeNull();
    expect(view.history.some((c) => c.field === 'COLLECTOR_ORCID_ID')).toBe(true);
    expect(view.history.filter((c) => c.updateType === 'user').every((c) => c.actor === 'browse-owner')).toBe(true);
    // newest first
    const times = view.history.map((c) => c.timeUpdated.getTime());
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('shows anyone else the public view: the rendered record and exported changes, without actors', async () => {
    const { user: stranger } = await h.user();
    const changed = changes.find((c) => c.updateType === 'user' && c.field === 'COLLECTOR_ORCID_ID')!;
    const view = await sampleWithHistory(h.deps.db, stranger, changed.sampleId);
    expect(view.access).toBe('public');
    expect(view.history.some((c) => c.field === 'COLLECTOR_ORCID_ID')).toBe(false);
    const exportedChange = changes.find((c) => c.updateType === 'user' && c.field === 'SEX')!;
    const other = await sampleWithHistory(h.deps.db, stranger, exportedChange.sampleId);
    expect(other.history.map((c) => [c.field, c.actor])).toEqual([['SEX', null]]);
    const res = await h.request(`/api/sample/svc_id/${changed.sampleId}`);
    expect(view.record).toEqual(((await res.json()) as { data: Record<string, string>[] }).data[0]);
    expectNoPrivateData(JSON.stringify({ record: view.record, history: view.history }));
    // a sample under traditional-knowledge rights stays hidden from them
    const embargoed = seeded.find((s) => s.embargoed)!;
    await expect(sampleWithHistory(h.deps.db, stranger, embargoed.id)).rejects.toMatchObject({ code: 'not_found' });
  });
});
