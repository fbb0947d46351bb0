import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import { profiles, samples } from '@/db/schema';
import { AppError, Invalid } from '@/lib/errors';
import { fieldCondition } from '@/lib/query/sample-field';
import { countShapes, sampleRowColumns } from '@/lib/query/sample-rows';
import { sequencingCentreCondition, taxonCondition } from '@/lib/query/samples';
import { containsPattern, fromUtcText, utcText } from '@/lib/query/sql';
import { keysetRows, mapRows, type PageRequest } from '@/lib/query/stream';
import { sampleFieldNames } from '@/lib/standards/fields';
import { renderSample, type SampleRecord, type SampleRow } from '@/lib/standards/render';
import { recordColumns } from '@/lib/standards/writers';
import { displayColumns } from './columns';
import { DEFAULT_PAGE, type DisplayColumn, type SampleBrowseQuery, type SampleSort } from './contract';

/**
 * The portal's sample browser (GET /api/samples/browse): every filter of the form at once, sorted on an indexed
 * column, one page per request. The conditions are the query API's own (taxon ids, sequencing centre, field
 * contains), records are rendered by the query API's renderer, and number_found and the CSV columns come from the
 * query API's grouped count over the same condition.
 */

export interface SampleBrowseResult {
  total: number;
  /** the CSV header: every key of the result's records in the standard */
  columns: string[];
  /** what the portal's table shows */
  display: DisplayColumn[];
  rows: AsyncIterable<SampleRecord>;
}

/** A domain check of one parameter failed: name the parameter so the form shows the message beside it. */
function forParam<T>(param: string, build: () => T): T {
  try {
    return build();
  } catch (err) {
    if (err instanceof AppError && err.code === 'invalid') throw Invalid(err.message, [{ path: param, message: err.message }]);
    throw err;
  }
}

/** The browser's filter as one SQL condition (undefined: every sample). */
export function sampleBrowseCondition(p: SampleBrowseQuery): SQL | undefined {
  let field: SQL | undefined;
  if (p.field !== undefined && p.contains !== undefined) {
    const canonical = sampleFieldNames().get(p.field.toLowerCase());
    if (!canonical) throw Invalid(`Unknown field: ${p.field}.`, [{ path: 'field', message: `Unknown field: ${p.field}.` }]);
    field = forParam('contains', () => fieldCondition(canonical, p.contains));
  }
  return and(
    p.project?.length ? inArray(samples.project, p.project) : undefined,
    p.status?.length ? inArray(samples.status, p.status) : undefined,
    p.manifest_id ? eq(samples.manifestId, p.manifest_id) : undefined,
    p.sequencing_centre ? forParam('sequencing_centre', () => sequencingCentreCondition(p.sequencing_centre)) : undefined,
    p.taxon_id ? forParam('taxon_id', () => taxonCondition(p.taxon_id)) : undefined,
    p.scientific_name ? ilike(samples.scientificName, containsPattern(p.scientific_name)) : undefined,
    field,
  );
}

interface SortSpec {
  column: AnyPgColumn;
  /** may hold NULL: the keyset then has to place the NULLs (last ascending, first descending, as PostgreSQL sorts) */
  nullable: boolean;
  /** the column as selected for the keyset (timestamps as text, so no precision is lost) */
  selected: SQL | AnyPgColumn;
  /** a selected key back into SQL for comparison */
  literal: (v: string) => SQL;
}

const plain = (column: AnyPgColumn, nullable = false): SortSpec => ({ column, nullable, selected: column, literal: (v) => sql`${v}` });

const SORTS: Record<SampleSort, SortSpec> = {
  time_created: { column: samples.timeCreated, nullable: false, selected: utcText(samples.timeCreated), literal: fromUtcText },
  svc_id: plain(samples.id),
  project: plain(samples.project),
  status: plain(samples.status),
  taxon_id: plain(samples.taxonId, true),
  scientific_name: plain(samples.scientificName, true),
  tube: plain(samples.tubeOrWellId, true),
};

export type SampleBrowseKey = { v: string | null; id: string };
type Key = SampleBrowseKey;
type BrowseRow = SampleRow & { sortKey: string | null };

/** Rows after `key` in (sort column, svc_id) order. */
function after(spec: SortSpec, descending: boolean, key: Key): SQL {
  const { column } = spec;
  const cmp = descending ? '<' : '>';
  if (!spec.nullable) return sql`(${column}, ${samples.id}) ${sql.raw(cmp)} (${spec.literal(key.v ?? '')}, ${key.id})`;
  const idAfter = sql`${samples.id} ${sql.raw(cmp)} ${key.id}`;
  if (key.v === null) {
    // NULLs come last ascending (nothing after them but NULLs), first descending (every non-NULL follows them)
    return descending ? (or(and(isNull(column), idAfter), isNotNull(column)) as SQL) : (and(isNull(column), idAfter) as SQL);
  }
  const v = spec.literal(key.v);
  return or(sql`${column} ${sql.raw(cmp)} ${v}`, and(sql`${column} = ${v}`, idAfter), descending ? undefined : isNull(column)) as SQL;
}

/** One batch of the browser's rows: exported so that tests can EXPLAIN what the endpoint runs. */
export function sampleBrowseBatch(db: Db, where: SQL | undefined, sort: SampleSort, descending: boolean, req: PageRequest<Key>) {
  const spec = SORTS[sort];
  const dir = descending ? desc : asc;
  return db
    .select({ ...sampleRowColumns, sortKey: sql<string | null>`${spec.selected}` })
    .from(samples)
    .leftJoin(profiles, eq(profiles.id, samples.profileId))
    .where(and(where, req.after ? after(spec, descending, req.after) : undefined))
    .orderBy(dir(spec.column), dir(samples.id))
    .limit(req.limit)
    .offset(req.offset);
}

/**
 * The browser's result. JSON pages default to DEFAULT_PAGE rows and are read with one LIMIT/OFFSET query; a CSV
 * export without limit streams every match in keyset batches, so memory stays flat however many there are.
 */
export async function browseSamples(db: Db, p: SampleBrowseQuery): Promise<SampleBrowseResult> {
  const where = sampleBrowseCondition(p);
  const { total, shapes } = await countShapes(db, where);
  const descending = p.order === 'desc';
  const page = { limit: p.limit ?? (p.return_type === 'csv' ? undefined : DEFAULT_PAGE), offset: p.offset ?? 0 };
  const rows = keysetRows<BrowseRow, Key>(
    async (req) => (total ? ((await sampleBrowseBatch(db, where, p.sort, descending, req)) as BrowseRow[]) : []),
    (r) => ({ v: r.sortKey, id: r.id }),
    page,
  );
  return {
    total,
    columns: recordColumns(shapes, p.standard),
    display: displayColumns(shapes, p.standard),
    rows: mapRows(rows, (r) => renderSample(r, p.standard)),
  };
}
