import { inArray, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleUpdates } from '@/db/schema';
import { auditBatchQuery, oneManifestFirstBatch } from '@/lib/audit/audit';
import { manifestCondition } from '@/lib/query/manifests';
import { fieldCondition } from '@/lib/query/sample-field';
import {
  lookupBatchQuery,
  lookupCondition,
  lookupOneQuery,
  lookupRows,
  type SampleOrder,
  sampleBatchQuery,
  shapeQuery,
} from '@/lib/query/sample-rows';
import { createdCondition, sequencingCentreCondition, taxonCondition } from '@/lib/query/samples';
import { type BulkInfo, type Exec, execFor, seedBulkSamples } from '../bench/query-seed';
import { queryClient } from './query-support';
import { createHarness, type Harness } from './support/harness';

/**
 * Enough samples for several keyset batches (1,000 rows each), and the query plans of the main look-ups. Tiny tables
 * make the planner prefer sequential scans, so the plans are taken with enable_seqscan off: a sequential scan that
 * remains means no index can serve the query.
 */

const N = 3_200;
let h: Harness;
let exec: Exec;
let info: BulkInfo;
const { wrapper, csv } = queryClient(() => h);

beforeAll(async () => {
  h = await createHarness();
  exec = execFor(h.database);
  info = await seedBulkSamples(exec, { samples: N, perManifest: 400, profiles: 8, taxa: 50, chunk: 1000 });
}, 120_000);
afterAll(() => h.close());

const ALL = '/api/sample/2000-01-01T00:00:00+00:00/2100-01-01T00:00:00+00:00';

describe('streaming in keyset batches', () => {
  it('sends every match exactly once, newest first, across batches', async () => {
    const res = await wrapper(ALL);
    expect(res.number_found).toBe(N);
    expect(res.data).toHaveLength(N);
    expect(new Set(res.data.map((r) => r.svc_id)).size).toBe(N);
    const times = res.data.map((r) => r.time_created as string);
    expect(times).toEqual([...times].sort().reverse());
  });

  it('keeps ties on time_created in order by svc_id, and pages across batch boundaries', async () => {
    await exec(`update samples set time_created = timestamptz '2019-06-01 12:00:00.123456+00' where taxon_id::int % 3 = 0`);
    const res = await wrapper(ALL);
    expect(new Set(res.data.map((r) => r.svc_id)).size).toBe(N);
    const tied = res.data.filter((r) => r.time_created === '2019-06-01T12:00:00.123456+00:00').map((r) => r.svc_id as string);
    expect(tied.length).toBeGreaterThan(1000);
    expect(tied).toEqual([...tied].sort().reverse());
    const page = await wrapper(`${ALL}?offset=900&limit=1300`);
    expect(page.number_found).toBe(N);
    expect(page.data.map((r) => r.svc_id)).toEqual(res.data.slice(900, 2200).map((r) => r.svc_id));
  });

  it('stops reading when the client goes away', async () => {
    const res = await h.request(`${ALL}?return_type=csv`);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    await reader.cancel();
    expect((await wrapper(`${ALL}?limit=5`)).data).toHaveLength(5);
  });

  it('answers a look-up (titles in its statement) as it answers a long list (titles read per batch)', async () => {
    const all = await wrapper(`${ALL}?limit=150`);
    const ids = all.data.map((r) => r.svc_id as string);
    const long = await wrapper(`/api/sample/svc_id/${ids.join(',')}`);
    expect(long.data.map((r) => r.svc_id)).toEqual(ids);
    const few = [ids[3]!, ids[140]!, ids[0]!];
    const lookup = await wrapper(`/api/sample/svc_id/${few.join(',')}`);
    expect(lookup.number_found).toBe(3);
    expect(lookup.data).toEqual(few.map((id) => long.data.find((r) => r.svc_id === id)));
    expect(lookup.data.every((r) => typeof r.svc_profile_title === 'string' && r.svc_profile_title.length > 0)).toBe(true);
    const byAccession = await wrapper(`/api/sample/biosampleAccessions/${info.probe.biosampleAccession.toLowerCase()}`);
    expect(byAccession.data).toEqual((await wrapper(`/api/sample/svc_id/${byAccession.data[0]!.svc_id}`)).data);
  });

  it('streams svc_id lists and CSV of thousands of rows', async () => {
    const ids = await wrapper<string>('/api/sample/asg,dtol,dtolenv,erga');
    expect(ids.data).toHaveLength(N);
    expect(ids.data).toEqual([...ids.data].sort());
    const { header, rows } = await csv(`${ALL}?return_type=csv`);
    expect(rows).toHaveLength(N);
    // the lines of later batches are written as their rows arrive; every line says what the JSON record says
    const records = (await wrapper(ALL)).data;
    expect(rows.map((r) => r.svc_id)).toEqual(records.map((r) => r.svc_id));
    for (const [i, row] of rows.entries()) {
      expect(row).toEqual(Object.fromEntries(header.map((c) => [c, String(records[i]?.[c] ?? '')])));
    }
    const dtol = await wrapper('/api/sample/sample_field/tol_project/dtolenv?limit=500');
    expect(dtol.number_found).toBe(N / 4);
  });

  it('reads a look-up whole when a batch holds it, and as a list when more samples share an accession than a batch holds', async () => {
    const shared = 'SAMEA99999999';
    const chosen = await exec('select id, biosample_accession from samples order by id limit 1200');
    const ids = chosen.map((r) => r.id as string);
    expect(await lookupRows(h.database.db, { column: 'id', values: [ids[5]!, ids[2]!] })).toEqual([
      expect.objectContaining({ id: ids[2] }),
      expect.objectContaining({ id: ids[5] }),
    ]);
    // more values than one statement takes: the caller streams them (tested above with 150 svc_ids)
    expect(await lookupRows(h.database.db, { column: 'id', values: ids.slice(0, 101) })).toBeNull();
    // the record read whole is the record streamed, key for key in the same order
    const streamed = await wrapper(`/api/sample/svc_id/${ids.slice(0, 101).join(',')}`);
    const whole = await wrapper(`/api/sample/svc_id/${ids[7]}`);
    expect(JSON.stringify(whole.data[0])).toBe(JSON.stringify(streamed.data[7]));
    await exec('update samples set biosample_accession = $1 where id = any($2::text[])', [shared, ids]);
    try {
      expect(await lookupRows(h.database.db, { column: 'biosampleAccession', values: [shared] })).toBeNull();
      const all = await wrapper(`/api/sample/biosampleAccessions/${shared}`);
      expect(all.number_found).toBe(1200);
      expect(all.data.map((r) => r.svc_id)).toEqual(ids);
      const page = await wrapper(`/api/sample/biosampleAccessions/${shared}?offset=990&limit=20`);
      expect(page.number_found).toBe(1200);
      expect(page.data.map((r) => r.svc_id)).toEqual(ids.slice(990, 1010));
      const { rows } = await csv(`/api/sample/biosampleAccessions/${shared}?return_type=csv&limit=1001`);
      expect(rows.map((r) => r.svc_id)).toEqual(ids.slice(0, 1001));
    } finally {
      await exec(
        'update samples set biosample_accession = c.old from (select unnest($1::text[]) as id, unnest($2::text[]) as old) c where samples.id = c.id',
        [ids, chosen.map((r) => r.biosample_accession as string | null)],
      );
    }
  });
});

/** Every plan node, depth first. */
function nodes(plan: Record<string, unknown>): Record<string, unknown>[] {
  const children = (plan.Plans as Record<string, unknown>[] | undefined) ?? [];
  return [plan, ...children.flatMap(nodes)];
}

const planNodes = (row: Record<string, unknown> | undefined) => {
  const value = Object.values(row ?? {})[0];
  const json = (typeof value === 'string' ? JSON.parse(value) : value) as { Plan: Record<string, unknown> }[];
  return nodes(json[0]!.Plan);
};

/**
 * The plan of a Drizzle query as the API builds it, with sequential scans (and any other `off` plan types) disabled on
 * the connection that runs it.
 */
async function planOf(
  query: { toSQL(): { sql: string; params: unknown[] } },
  off = ['enable_seqscan'],
): Promise<Record<string, unknown>[]> {
  const { sql, params } = query.toSQL();
  const pg = h.database.sql;
  if (pg) {
    // a pool: the settings and the EXPLAIN must share one connection
    return pg.begin(async (tx) => {
      for (const setting of off) await tx.unsafe(`set local ${setting} = off`);
      return planNodes((await tx.unsafe(`explain (format json) ${sql}`, params as never[]))[0]);
    }) as Promise<Record<string, unknown>[]>;
  }
  for (const setting of off) await exec(`set ${setting} = off`);
  try {
    return planNodes((await exec(`explain (format json) ${sql}`, params))[0]);
  } finally {
    for (const setting of off) await exec(`set ${setting} = on`);
  }
}

/** A parameter written into a statement's text, for PREPARE … EXECUTE: numbers as they are, the rest quoted. */
const literal = (p: unknown) => (typeof p === 'number' ? String(p) : `'${String(p)}'`);

/** `steps`, then `last`'s first row, on one connection (a pool's statements would not share one); `undo` afterwards. */
async function onOneConnection(steps: string[], last: string, undo: string[]): Promise<Record<string, unknown> | undefined> {
  const pg = h.database.sql;
  if (pg) {
    const c = await pg.reserve();
    try {
      for (const step of steps) await c.unsafe(step);
      return (await c.unsafe(last))[0] as Record<string, unknown> | undefined;
    } finally {
      for (const step of undo) await c.unsafe(step);
      c.release();
    }
  }
  try {
    for (const step of steps) await exec(step);
    return (await exec(last))[0];
  } finally {
    for (const step of undo) await exec(step);
  }
}

/** A plan's nodes as [type, index or relation], for a failing assertion to show. */
const shapeOf = (plan: Record<string, unknown>[]) =>
  JSON.stringify(plan.map((n) => [n['Node Type'], n['Index Name'] ?? n['Relation Name']]));

const seqScansOfSamples = (plan: Record<string, unknown>[]) =>
  plan.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'samples');

describe('query plans', () => {
  const cases: [string, () => SQL, SampleOrder][] = [
    // a list of more svc_ids or accessions than a look-up reads in one statement (lookupBatchQuery) reads this way
    ['svc_id', () => lookupCondition({ column: 'id', values: [info.probe.svcId] }), 'id'],
    ['biosampleAccession', () => lookupCondition({ column: 'biosampleAccession', values: [info.probe.biosampleAccession] }), 'id'],
    ['taxon_id', () => taxonCondition(info.probe.taxonId), 'id'],
    ['manifest_id', () => manifestCondition(info.probe.manifestId), 'id'],
    ['time_created range', () => createdCondition('2020-01-02T00:00:00+00:00', '2020-01-03T00:00:00+00:00'), 'newest'],
    ['field substring (trigram)', () => fieldCondition('SCIENTIFIC_NAME', 'species17'), 'id'],
    ['field substring on a typed column', () => fieldCondition('SPECIMEN_ID', 'SAN0000012'), 'id'],
    ['accession substring (trigram)', () => fieldCondition('biosampleAccession', info.probe.biosampleAccession.slice(0, -1)), 'id'],
    ['public name substring (trigram)', () => fieldCondition('public_name', 'ilXxx'), 'id'],
    ['sequencing centre', () => sequencingCentreCondition('SANGER INSTITUTE', [{ name: 'SANGER', label: 'SANGER INSTITUTE' }]), 'id'],
  ];

  it.each(cases)('serves %s from an index: the count and every batch', async (_name, where, order) => {
    const db = h.deps.db;
    const first = await planOf(sampleBatchQuery(where(), order, { after: null, limit: 1000, offset: 0 }));
    const next = await planOf(
      sampleBatchQuery(where(), order, { after: { id: info.probe.svcId, t: '2020-01-02T12:00:00.000000' }, limit: 1000, offset: 0 }),
    );
    const count = await planOf(shapeQuery(db, where()));
    for (const plan of [first, next, count]) {
      expect(seqScansOfSamples(plan), shapeOf(plan)).toEqual([]);
    }
    expect(first.some((n) => typeof n['Index Name'] === 'string' && String(n['Index Name']).startsWith('samples'))).toBe(true);
  });

  it('finds a look-up’s samples by svc_id and accession from their indexes; of several, with titles in the statement', async () => {
    const first = { after: null, limit: 1000, offset: 0 };
    const oneOf = (column: 'id' | 'biosampleAccession', value: string) => {
      const one = lookupOneQuery({ column, values: [value] }, first);
      expect(one).not.toBeNull();
      return one!;
    };
    // one value: the sample's row alone, its profile's title from those the service has read (lib/query/profile-titles.ts);
    // several: one statement with the titles in it
    const statements = [
      { statement: oneOf('id', info.probe.svcId), readsProfiles: false },
      { statement: oneOf('biosampleAccession', info.probe.biosampleAccession), readsProfiles: false },
      {
        statement: lookupBatchQuery({ column: 'biosampleAccession', values: [info.probe.biosampleAccession, 'SAMEA0'] }, first),
        readsProfiles: true,
      },
    ];
    for (const { statement, readsProfiles } of statements) {
      const plan = await planOf(statement);
      const shape = shapeOf(plan);
      expect(seqScansOfSamples(plan), shape).toEqual([]);
      expect(
        plan.some((n) => n['Relation Name'] === 'profiles'),
        shape,
      ).toBe(readsProfiles);
    }
    // a page further on reads as a list does
    expect(lookupOneQuery({ column: 'id', values: [info.probe.svcId] }, { ...first, offset: 1 })).toBeNull();
    expect(lookupOneQuery({ column: 'id', values: [info.probe.svcId] }, { ...first, after: { id: info.probe.svcId, t: null } })).toBeNull();
  });

  it('plans a one-value look-up once for every value: PostgreSQL keeps its generic plan after the fifth run', async () => {
    // with the values as an array of unknown length, or LIMIT and OFFSET as parameters, the generic plan looked dearer
    // than one made for the values, and PostgreSQL planned the look-up anew on every run, which took longer than
    // running it (lib/query/sample-statements.ts)
    const one = lookupOneQuery({ column: 'id', values: [info.probe.svcId] }, { after: null, limit: 1000, offset: 0 });
    const { sql, params } = one!.toSQL();
    expect(params).toEqual([info.probe.svcId]);
    const plans = await onOneConnection(
      [`prepare one_lookup as ${sql}`, ...Array.from({ length: 8 }, () => `execute one_lookup(${params.map(literal).join(', ')})`)],
      `select generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where name = 'one_lookup'`,
      ['deallocate one_lookup'],
    );
    expect(plans).toEqual({ generic: 3, custom: 5 });
  });

  it('walks the day list’s index in its order: no sort, no join (profile titles are read per batch)', async () => {
    const day = createdCondition('2020-01-02T00:00:00+00:00', '2020-01-03T00:00:00+00:00');
    for (const after of [null, { id: info.probe.svcId, t: '2020-01-02T12:00:00.000000' }]) {
      // a day is a fifth of these few samples, which the planner would rather gather by bitmap and sort
      const plan = await planOf(sampleBatchQuery(day, 'newest', { after, limit: 1000, offset: 0 }), [
        'enable_seqscan',
        'enable_bitmapscan',
      ]);
      const shape = shapeOf(plan);
      expect(
        plan.filter((n) => /Sort|Join|Nested Loop|Hash/.test(String(n['Node Type']))),
        shape,
      ).toEqual([]);
      expect(
        plan.filter((n) => n['Relation Name'] === 'profiles'),
        shape,
      ).toEqual([]);
      expect(
        plan.some((n) => n['Node Type'] === 'Index Scan' && n['Index Name'] === 'samples_created_idx'),
        shape,
      ).toBe(true);
    }
  });

  it('finds a manifest’s changes by its index in the audit’s order under a prepared statement’s generic plan', async () => {
    // postgres-js prepares every statement; after five runs PostgreSQL may keep one plan for any values, LIMIT
    // unknown. On (manifest_id) alone that plan walked the time index backwards through every change.
    // the statement of one manifest's first batch, made once (lib/audit/audit.ts), and the one Drizzle builds for others
    const first = { after: null, limit: 1000, offset: 0 };
    const statements = [
      oneManifestFirstBatch(info.probe.manifestId)(first),
      auditBatchQuery(inArray(sampleUpdates.manifestId, [info.probe.manifestId]), first),
    ];
    for (const statement of statements) {
      const { sql, params } = statement!.toSQL();
      const values = params.map(literal).join(', ');
      const steps = [
        'set plan_cache_mode = force_generic_plan',
        `prepare audit_of_manifest as ${sql}`,
        `explain (format json) execute audit_of_manifest(${values})`,
      ];
      const row = await onOneConnection(steps.slice(0, 2), steps[2]!, ['deallocate audit_of_manifest', 'reset plan_cache_mode']);
      const plan = planNodes(row);
      const shape = shapeOf(plan);
      const ofChanges = plan.filter((n) => n['Relation Name'] === 'sample_updates');
      expect(
        ofChanges.map((n) => n['Index Name']),
        shape,
      ).toEqual(['sample_updates_manifest_idx']);
      expect(
        plan.filter((n) => n['Node Type'] === 'Sort'),
        shape,
      ).toEqual([]);
    }
    expect(oneManifestFirstBatch(info.probe.manifestId)({ ...first, after: { id: 1, time: '2020-01-02T00:00:00.000000' } })).toBeNull();
  });
});
