import { and, asc, desc, eq, ilike, inArray, isNotNull, isNull, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import { samples } from '@/db/schema';
import { AppError, Invalid } from '@/lib/errors';
import { ownOrSharedProfiles } from '@/lib/profiles/access';
import { sampleBatchFetcher } from '@/lib/query/sample-batches';
import { fieldCondition } from '@/lib/query/sample-field';
import { countShapes, csvRows, sampleRowStream } from '@/lib/query/sample-rows';
import { type BatchRow, CHOSEN_ID, CHOSEN_SORT_VALUE } from '@/lib/query/sample-select';
import { type BatchText, batchQuery, sampleBatchText } from '@/lib/query/sample-statements';
import { type CentreNames, sequencingCentreCondition, taxonCondition } from '@/lib/query/samples';
import { type BatchQuery, containsPattern, fromUtcText, utcText } from '@/lib/query/sql';
import { type Batch, keysetBatches, type PageRequest, type RowStream, type RowWriter } from '@/lib/query/stream';
import { sequencingCentres } from '@/lib/reference/read';
import { sampleFieldNames } from '@/lib/standards/fields';
import type { SampleRecord, SampleRow } from '@/lib/standards/render';
import { recordColumns, sampleWriters } from '@/lib/standards/writers';
import type { UserRecord } from '@/lib/users/users';
import { displayColumns } from './columns';
import { DEFAULT_PAGE, type DisplayColumn, type SampleBrowsePage, type SampleBrowseQuery, type SampleSort } from './contract';

/**
 * The portal's sample browser (GET /api/samples/browse): every filter of the form at once, sorted on an indexed
 * column, one page per request. The conditions are the query API's own (taxon ids, sequencing centre, field
 * contains), the batches are the query API's (lib/query/sample-batches.ts) with the browser's order, number_found and
 * the CSV columns come from the query API's grouped count over the same condition, and an export's rows are written
 * by the query API's writer as they arrive.
 */

/** The rows (`columns` is the CSV header: every key of the result's records in the standard), and the table's columns. */
export interface SampleBrowseResult extends RowStream<SampleRecord> {
  /** what the portal's table shows */
  display: DisplayColumn[];
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

/**
 * The browser's filter as one SQL condition (undefined: every sample); `centres`: every sequencing centre; `mine`: the
 * reader's own and shared profiles, when the filter asks for them.
 */
export function sampleBrowseCondition(p: SampleBrowseQuery, centres: readonly CentreNames[], mine?: SQL): SQL | undefined {
  let field: SQL | undefined;
  if (p.field !== undefined && p.contains !== undefined) {
    const canonical = sampleFieldNames().get(p.field.toLowerCase());
    if (!canonical) throw Invalid(`Unknown field: ${p.field}.`, [{ path: 'field', message: `Unknown field: ${p.field}.` }]);
    field = forParam('contains', () => fieldCondition(canonical, p.contains));
  }
  return and(
    p.profiles === 'mine' ? mine : undefined,
    p.project?.length ? inArray(samples.project, p.project) : undefined,
    p.status?.length ? inArray(samples.status, p.status) : undefined,
    p.manifest_id ? eq(samples.manifestId, p.manifest_id) : undefined,
    p.sequencing_centre ? forParam('sequencing_centre', () => sequencingCentreCondition(p.sequencing_centre, centres)) : undefined,
    p.taxon_id ? forParam('taxon_id', () => taxonCondition(p.taxon_id)) : undefined,
    p.scientific_name ? ilike(samples.scientificName, containsPattern(p.scientific_name)) : undefined,
    field,
  );
}

interface SortSpec {
  column: AnyPgColumn;
  /** may hold NULL: the keyset then has to place the NULLs (last ascending, first descending, as PostgreSQL sorts) */
  nullable: boolean;
  /** the column's value (as the batch's chosen rows name it) as the keyset's key: timestamps as text, so no precision is lost */
  key: (value: SQL) => SQL;
  /** a selected key back into SQL for comparison */
  literal: (v: string) => SQL;
}

const plain = (column: AnyPgColumn, nullable = false): SortSpec => ({ column, nullable, key: (v) => v, literal: (v) => sql`${v}` });

const SORTS: Record<SampleSort, SortSpec> = {
  time_created: { column: samples.timeCreated, nullable: false, key: utcText, literal: fromUtcText },
  svc_id: plain(samples.id),
  project: plain(samples.project),
  status: plain(samples.status),
  taxon_id: plain(samples.taxonId, true),
  scientific_name: plain(samples.scientificName, true),
  tube: plain(samples.tubeOrWellId, true),
};

/** Each sort both ways as the query API's batch text, rendered once: the sort column selected as the row's key. */
const TEXTS = Object.fromEntries(
  Object.entries(SORTS).map(([sort, spec]) => {
    // sorted on svc_id alone, svc_id has no ties to break (and PostgreSQL would sort again on the second copy)
    const byId = spec.column === samples.id;
    const text = (dir: typeof asc) =>
      sampleBatchText(
        byId
          ? { inner: dir(samples.id), outer: dir(CHOSEN_ID) }
          : { inner: sql`${dir(spec.column)}, ${dir(samples.id)}`, outer: sql`${dir(CHOSEN_SORT_VALUE)}, ${dir(CHOSEN_ID)}` },
        { inner: spec.column, outer: spec.key(CHOSEN_SORT_VALUE) },
      );
    return [sort, { asc: text(asc), desc: text(desc) }];
  }),
) as Record<SampleSort, { asc: BatchText; desc: BatchText }>;

export type SampleBrowseKey = { v: string | null; id: string };
type Key = SampleBrowseKey;

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
export function sampleBrowseBatchQuery(where: SQL | undefined, sort: SampleSort, descending: boolean, req: PageRequest<Key>): BatchQuery {
  const spec = SORTS[sort];
  const text = TEXTS[sort][descending ? 'desc' : 'asc'];
  return batchQuery(text, and(where, req.after ? after(spec, descending, req.after) : undefined), req.limit, req.offset);
}

/** Where the next batch starts: after the last row's (sort key, svc_id). */
export const sampleBrowseKeyOf = (r: BatchRow): Key => ({ v: r.sortKey ?? null, id: r.id });

/** The browser's batches as rows; with `write`, each row is written as it arrives. */
export const sampleBrowseFetcher = (
  db: Db,
  where: SQL | undefined,
  sort: SampleSort,
  descending: boolean,
  writer?: RowWriter<SampleRow>,
): ((req: PageRequest<Key>) => Promise<Batch<BatchRow>>) =>
  sampleBatchFetcher(
    db,
    (req: PageRequest<Key>) => sampleBrowseBatchQuery(where, sort, descending, req),
    () => writer,
  );

/**
 * The browser's result. JSON pages default to DEFAULT_PAGE rows and are read with one LIMIT/OFFSET query; a CSV
 * export without limit streams every match in keyset batches, each row written as it arrives (the columns are known
 * from the count before the first batch), so memory stays flat however many there are.
 */
export async function browseSamples(db: Db, user: UserRecord, p: SampleBrowseQuery): Promise<SampleBrowseResult> {
  const where = sampleBrowseCondition(p, await sequencingCentres(db), ownOrSharedProfiles(db, user, samples.profileId));
  const { total, shapes } = await countShapes(db, where);
  const csv = p.return_type === 'csv';
  const page = { limit: p.limit ?? (csv ? undefined : DEFAULT_PAGE), offset: p.offset ?? 0 };
  const columns = recordColumns(shapes, p.standard);
  const write = sampleWriters(columns, p.standard);
  const fetch = sampleBrowseFetcher(db, where, p.sort, p.order === 'desc', csv ? csvRows(write.csv) : undefined);
  const batches = keysetBatches(async (req: PageRequest<Key>) => (total ? fetch(req) : []), sampleBrowseKeyOf, page);
  return { ...sampleRowStream(batches, total, columns, p.standard, write), display: displayColumns(shapes, p.standard) };
}

/**
 * One page of the sample browser as GET /api/samples/browse answers it in JSON, for the route and for the portal's
 * page, which reads the first with itself. A page is at most MAX_PAGE records: read at once, so that the answer
 * carries the columns after the rows.
 */
export async function sampleBrowsePage(db: Db, user: UserRecord, p: SampleBrowseQuery): Promise<SampleBrowsePage> {
  const result = await browseSamples(db, user, p);
  const data: SampleRecord[] = [];
  for await (const r of result.rows) data.push(r);
  return {
    status: 'OK',
    number_found: result.total,
    data,
    columns: result.display,
    standard: p.standard,
    sort: p.sort,
    order: p.order,
    limit: p.limit ?? DEFAULT_PAGE,
    offset: p.offset ?? 0,
  };
}
