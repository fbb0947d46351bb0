import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manifests, profiles, samples, users } from '@/db/schema';
import { currentDefinition, findDefinition } from '@/lib/manifests';
import { typedColumns } from '@/lib/samples/columns';
import { CSV_STRINGIFY_OPTIONS } from '@/lib/values/csv';
import { type BulkInfo, type Exec, execFor, seedBulkSamples } from '../bench/query-seed';
import { validRow } from './fixtures/manifests/generate';
import { createHarness, type Harness } from './support/harness';

/**
 * The portal's CSV export (GET /api/samples/browse?return_type=csv), byte for byte: a fixed set of samples whose
 * values are hard on a CSV writer (commas, quotes, line breaks, unicode, empty and missing fields, an embargoed record,
 * several projects and manifest versions in one file). The files under __snapshots__ are the export as the record
 * path wrote it (each record built, then csv-stringify) before the export moved onto the query API's row writer;
 * the export must stay exactly that, and equal to the records the JSON pages show, written the old way.
 */

let h: Harness;
let key: string;

const P = {
  commas: 'bb0000000000000000000001',
  lines: 'bb0000000000000000000002',
  unicode: 'bb0000000000000000000003',
};
const M = {
  dtol: '55555555-5555-4555-8555-555555555551',
  dtolOld: '55555555-5555-4555-8555-555555555552',
  erga: '55555555-5555-4555-8555-555555555553',
  asg: '55555555-5555-4555-8555-555555555554',
  dtolenv: '55555555-5555-4555-8555-555555555555',
};

/** Values a CSV writer must quote or keep as they are, cycled through the samples' fields. */
const TRICKY = [
  'Aglais io, the peacock',
  'a "quoted" word',
  '"',
  'two\nlines',
  'windows\r\nline',
  'trailing comma,',
  'Ærøskøbing – Ünïcödé 🦋 中文',
  '',
  ' leading and trailing spaces ',
  'tab\there',
  '=1+1',
  'back\\slash',
];

type Layout = { project: 'dtol' | 'erga' | 'asg' | 'dtolenv'; version: string; manifestId: string; profileId: string };

beforeAll(async () => {
  h = await createHarness();
  ({ key } = await h.user());
  const db = h.deps.db;
  const [owner] = await db.insert(users).values({ username: 'export-owner', email: 'export@example.org', passwordHash: 'x' }).returning();
  await db.insert(profiles).values([
    { id: P.commas, ownerId: owner!.id, title: 'Moths, "the big ones"', type: 'dtol', associatedTypes: ['DTOL'] },
    { id: P.lines, ownerId: owner!.id, title: 'Reef\nsymbionts', type: 'asg', associatedTypes: ['ASG'] },
    { id: P.unicode, ownerId: owner!.id, title: 'Genómica Ibérica 🧬', type: 'erga', associatedTypes: ['BGE', 'ERGA_PILOT'] },
  ]);
  const layouts: Layout[] = [
    { project: 'dtol', version: currentDefinition('dtol').version, manifestId: M.dtol, profileId: P.commas },
    { project: 'dtol', version: '2.4.1', manifestId: M.dtolOld, profileId: P.commas },
    { project: 'erga', version: currentDefinition('erga').version, manifestId: M.erga, profileId: P.unicode },
    { project: 'asg', version: currentDefinition('asg').version, manifestId: M.asg, profileId: P.lines },
    { project: 'dtolenv', version: currentDefinition('dtolenv').version, manifestId: M.dtolenv, profileId: P.commas },
  ];
  for (const l of layouts) if (!findDefinition(l.project, l.version)) throw new Error(`no definition ${l.project} ${l.version}`);
  await db
    .insert(manifests)
    .values(layouts.map((l) => ({ id: l.manifestId, profileId: l.profileId, project: l.project, version: l.version })));
  const rows = [];
  for (let i = 0; i < 40; i++) {
    const l = layouts[i % layouts.length]!;
    const def = findDefinition(l.project, l.version)!;
    const fields = validRow(def, i);
    // every field but the identifiers the filters use gets a hard value now and then
    const names = Object.keys(fields).filter((n) => !['TAXON_ID', 'SPECIMEN_ID', 'TUBE_OR_WELL_ID'].includes(n));
    names.forEach((name, j) => {
      if ((i + j) % 3 === 0) fields[name] = TRICKY[(i + j) % TRICKY.length]!;
    });
    // a field missing altogether falls back to '' (or the reference's default)
    if (i % 4 === 1) delete fields.MIXED_SAMPLE_RISK;
    if (i % 6 === 2) delete fields.COLLECTOR_AFFILIATION;
    if (l.project === 'erga') {
      fields.ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_RIGHTS_APPLICABLE = i % 10 === 2 ? 'Y' : 'N';
    }
    const created = new Date(Date.parse('2025-03-01T10:00:00.123Z') + Math.floor(i / 3) * 3_600_000 + (i % 3) * 7);
    rows.push({
      id: `dd${i.toString(16).padStart(22, '0')}`,
      manifestId: l.manifestId,
      profileId: l.profileId,
      project: l.project,
      manifestVersion: l.version,
      status: (['pending', 'accepted', 'rejected', 'processing'] as const)[i % 4]!,
      fields,
      ...typedColumns(fields),
      publicName: i % 5 === 0 ? null : `ilExample${i}, “curly”`,
      biosampleAccession: i % 2 ? `SAMEA${9000000 + i}` : null,
      sraAccession: i % 3 ? null : `ERS${i}`,
      sampleDerivedFrom: i % 7 === 0 ? `SAMEA${8000000 + i}` : null,
      associatedTolProjects: l.project === 'erga' ? ['BGE', 'ERGA_PILOT'] : [l.project.toUpperCase()],
      lastBioimageSubmitted: i % 9 === 0 ? new Date('2025-04-02T08:09:10.456Z') : null,
      // one ERGA sample under rights the Local Contexts Hub has cleared: shown; the others under rights: embargoed
      rightsClearedAt: i === 22 ? new Date('2025-05-01T00:00:00Z') : null,
      timeCreated: created,
      timeUpdated: new Date(created.getTime() + 1000),
    });
  }
  await db.insert(samples).values(rows);
}, 120_000);
afterAll(() => h.close());

const get = (path: string) => h.request(path, { key });

async function text(path: string): Promise<string> {
  const res = await get(path);
  const body = await res.text();
  expect(res.status, body.slice(0, 300)).toBe(200);
  return body;
}

const cell = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

describe('the sample browser’s CSV export', () => {
  const exports: [string, string][] = [
    ['tol', 'standard=tol&sort=time_created&order=desc'],
    ['dwc', 'standard=dwc&sort=scientific_name&order=asc'],
    ['ena', 'standard=ena&sort=tube&order=desc'],
    ['mixs', 'standard=mixs&sort=svc_id&order=asc'],
    ['tol-filtered', 'project=dtol,erga&status=pending,accepted&sort=project&order=asc&offset=2&limit=9'],
  ];

  it.each(exports)('is byte for byte what it was (%s)', async (name, query) => {
    const body = await text(`/api/samples/browse?return_type=csv&${query}`);
    await expect(body).toMatchFileSnapshot(`./__snapshots__/browse-export/${name}.csv`);
  });

  it.each(exports)('is the records of the JSON pages, written as csv-stringify writes them (%s)', async (_name, query) => {
    const body = await text(`/api/samples/browse?return_type=csv&${query}`);
    const columns = body.slice(0, body.indexOf('\n')).split(',');
    const q = new URLSearchParams(query);
    const offset = Number(q.get('offset') ?? 0);
    const limit = q.get('limit');
    q.delete('offset');
    q.delete('limit');
    const page = (await (await get(`/api/samples/browse?${q}&limit=500`)).json()) as { data: Record<string, unknown>[] };
    const records = page.data.slice(offset, limit === null ? undefined : offset + Number(limit));
    expect(records.length).toBeGreaterThan(0);
    expect(body).toBe(
      stringify([columns], CSV_STRINGIFY_OPTIONS) +
        stringify(
          records.map((r) => columns.map((c) => cell(r[c]))),
          CSV_STRINGIFY_OPTIONS,
        ),
    );
  });
});

/**
 * The statements that read a batch of samples (the engine's client counted, whichever path sends them): a select
 * from samples with a limit, not the count, the key check or the job queue's.
 */
function countBatches(): { count(): number; restore(): void } {
  const client = (h.deps.db as unknown as { $client: Record<string, unknown> }).$client;
  const name = typeof client.unsafe === 'function' ? 'unsafe' : 'query';
  // the function itself (db/client.ts wraps postgres.js's unsafe in a Proxy that calls it): an own property of
  // postgres.js's client, a method of PGlite's
  const own = Object.getOwnPropertyDescriptor(client, name);
  const original = (own?.value ?? client[name]) as (...args: unknown[]) => unknown;
  let n = 0;
  client[name] = function (this: unknown, ...args: unknown[]) {
    if (typeof args[0] === 'string' && /from "samples"/.test(args[0]) && / limit /.test(args[0])) n++;
    return original.apply(this, args);
  };
  return {
    count: () => n,
    restore: () => {
      if (own) Object.defineProperty(client, name, own);
      else delete client[name];
    },
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('thousands of samples of many profiles', () => {
  const N = 4_500;
  let info: BulkInfo;
  beforeAll(async () => {
    // on PostgreSQL on one connection: the seed's temporary table lives in its session
    const reserved = await h.database.sql?.reserve();
    const exec: Exec = reserved
      ? async (q, p = []) => (await reserved.unsafe(q, p as never[])) as Record<string, unknown>[]
      : execFor(h.database);
    try {
      info = await seedBulkSamples(exec, { samples: N, perManifest: 500, profiles: 12, taxa: 40, chunk: 1500 });
    } finally {
      reserved?.release();
    }
  }, 120_000);

  it('names each row’s profile, batch after batch, as a join with profiles would', async () => {
    const joined = new Map(
      (await execFor(h.database)('select s.id, p.title from samples s join profiles p on p.id = s.profile_id')).map((r) => [
        String(r.id),
        String(r.title),
      ]),
    );
    // the fixture's three, and one per 500 bulk samples
    expect(new Set(joined.values()).size).toBe(3 + Math.ceil(info.samples / 500));
    const lines = parse(await text('/api/samples/browse?return_type=csv&sort=taxon_id&order=desc')) as string[][];
    const header = lines[0]!;
    const [id, title] = [header.indexOf('svc_id'), header.indexOf('svc_profile_title')];
    const named = lines.slice(1).filter((l) => l[id]);
    expect(named.length).toBeGreaterThan(info.samples);
    for (const l of named) expect(l[title], l[id]).toBe(joined.get(l[id]!));
    const all = await get('/api/sample/2000-01-01T00:00:00+00:00/2100-01-01T00:00:00+00:00');
    const records = ((await all.json()) as { data: Record<string, string>[] }).data.filter((r) => r.svc_id);
    expect(records.length).toBeGreaterThan(info.samples);
    for (const r of records) expect(r.svc_profile_title, r.svc_id).toBe(joined.get(r.svc_id!));
    // and in the list's order, newest first: a row that waited for its profile's title did not change places with the
    // rows after it
    const sent = new Set(records.map((r) => r.svc_id));
    const ordered = (await execFor(h.database)('select id from samples order by time_created desc, id desc'))
      .map((r) => String(r.id))
      .filter((id) => sent.has(id));
    expect(records.map((r) => r.svc_id)).toEqual(ordered);
  });

  it('stops the export’s query when the client disconnects', async () => {
    const path = '/api/samples/browse?return_type=csv&sort=svc_id&order=asc';
    const whole = countBatches();
    try {
      expect((await text(path)).split('\n').length).toBeGreaterThan(info.samples);
    } finally {
      whole.restore();
    }
    // every sample, 1,000 a batch
    expect(whole.count()).toBeGreaterThanOrEqual(Math.ceil((info.samples + 40) / 1000));

    const cut = countBatches();
    try {
      const res = await get(path);
      const reader = res.body!.getReader();
      const first = await reader.read();
      expect(first.done).toBe(false);
      await reader.cancel();
      await sleep(300);
      const atCancel = cut.count();
      await sleep(500);
      // the batch being sent and the one read ahead, no more; and none after the client left
      expect(cut.count()).toBe(atCancel);
      expect(atCancel).toBeLessThanOrEqual(2);
    } finally {
      cut.restore();
    }
    const after = await get('/api/samples/browse?limit=5');
    expect(((await after.json()) as { data: unknown[] }).data).toHaveLength(5);
    expect(h.logs.filter((l) => l.msg === 'response stream failed')).toEqual([]);
  });
});
