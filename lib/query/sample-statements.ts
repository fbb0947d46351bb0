import { and, asc, desc, gt, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { profiles, samples } from '@/db/schema';
import { CHOSEN_ROW_COLUMNS, chosenSample, STORED_COLUMNS, sampleRowColumns } from './sample-select';
import { type BatchQuery, fromUtcText, queryOf, textOf } from './sql';
import { BATCH_SIZE, type PageRequest } from './stream';

/**
 * The sample queries' statements: a batch of rows matching a condition in an order, and a look-up by svc_id or
 * accession. Each is rendered to text once, as the module loads; a request only fills in its parameters.
 */

/**
 * Batch order. `id`: by svc_id, the primary key. `newest`/`newestImage`: newest first on time_created or
 * last_bioimage_submitted, svc_id breaking ties; each served by an index on (time, id).
 */
export type SampleOrder = 'id' | 'newest' | 'newestImage';

export type SampleKey = { id: string; t: string | null };
type Key = SampleKey;

/**
 * What a batch query says whatever it asks for, rendered once per order: Drizzle took longer to build the whole
 * statement on every call than PostgreSQL took to answer a one-sample look-up (see docs/benchmarks.md). `order.inner` sorts the
 * samples table, `order.outer` the same order on the chosen rows; `key` is an extra sort column, selected from the
 * samples table as "sort_value" and, as `key.outer` makes of CHOSEN_SORT_VALUE, after the row's columns.
 */
export interface BatchText {
  head: string;
  inner: string;
  outer: string;
}

export function sampleBatchText(order: { inner: SQL; outer: SQL }, key?: { inner: SQL | AnyPgColumn; outer: SQL }): BatchText {
  return batchText(order, key ? [key.outer] : [], key);
}

// a look-up's profile title, read per row in the statement itself: for a few rows, cheaper than a second round trip
const TITLE_OF_CHOSEN = sql`(select ${profiles.title} from ${profiles} where ${profiles.id} = ${chosenSample.profileId})`;

function batchText(order: { inner: SQL; outer: SQL }, extra: SQL[], key?: { inner: SQL | AnyPgColumn }): BatchText {
  const outerColumns: (SQL | AnyPgColumn)[] = [...CHOSEN_ROW_COLUMNS, ...extra];
  const innerColumns: (SQL | AnyPgColumn)[] = [...STORED_COLUMNS, ...(key ? [sql`${key.inner} as "sort_value"`] : [])];
  return {
    head: textOf(sql`select ${sql.join(outerColumns, sql`, `)} from (select ${sql.join(innerColumns, sql`, `)} from ${samples} where `),
    inner: textOf(order.inner),
    outer: textOf(order.outer),
  };
}

/** A batch: the rows of `where`, in the text's order, `limit` of them after the first `offset`. */
export function batchQuery(text: BatchText, where: SQL | undefined, limit: number, offset: number): BatchQuery {
  const query = sql`${sql.raw(text.head)}${where ?? sql`true`} order by ${sql.raw(text.inner)} limit ${limit} offset ${offset}) "chosen" order by ${sql.raw(text.outer)}`;
  return { toSQL: () => queryOf(query) };
}

const BY_ID = { inner: asc(samples.id), outer: asc(chosenSample.id) };

const ORDERS: Record<SampleOrder, { time: AnyPgColumn | null; text: BatchText }> = {
  id: { time: null, text: sampleBatchText(BY_ID) },
  newest: {
    time: samples.timeCreated,
    text: sampleBatchText({
      inner: sql`${desc(samples.timeCreated)}, ${desc(samples.id)}`,
      outer: sql`${desc(chosenSample.timeCreated)}, ${desc(chosenSample.id)}`,
    }),
  },
  newestImage: {
    time: samples.lastBioimageSubmitted,
    text: sampleBatchText({
      inner: sql`${desc(samples.lastBioimageSubmitted)}, ${desc(samples.id)}`,
      outer: sql`${desc(chosenSample.lastBioimageSubmitted)}, ${desc(chosenSample.id)}`,
    }),
  },
};

/**
 * One batch of rows: exported so that tests and the benchmark can EXPLAIN exactly what the API runs. The batch is
 * chosen, sorted and limited on the stored columns first, and only then are the fields printed as text and the times
 * formatted, row by row as they are sent: PostgreSQL computes a select list before sorting, so a batch sorted on
 * anything but the index it was found by (a manifest's or a taxon's samples by svc_id) would otherwise print every
 * row before sending the first, and the service could not write rows while the rest arrive. The outer query asks
 * for the order the chosen rows already have, so PostgreSQL sorts nothing twice.
 */
export function sampleBatchQuery(where: SQL | undefined, order: SampleOrder, { after, limit, offset }: PageRequest<Key>): BatchQuery {
  const { time, text } = ORDERS[order];
  const position = !after
    ? undefined
    : time === null
      ? gt(samples.id, after.id)
      : after.t
        ? sql`(${time}, ${samples.id}) < (${fromUtcText(after.t)}, ${after.id})`
        : undefined;
  return batchQuery(text, and(where, position), limit, offset);
}

/**
 * A look-up's statement: the samples it names, by svc_id, each with its profile's title as the row's last value. For the
 * few samples a look-up of several values names this is one round trip where reading titles apart is two; for a long
 * list or an export the titles are read per batch (ProfileTitles), as a subquery per row would cost more than the rows.
 */
const LOOKUP_TEXT = batchText(BY_ID, [TITLE_OF_CHOSEN]);

/**
 * A look-up of at most this many svc_ids or accessions reads the profiles' titles in its statement (lookupBatchQuery),
 * one round trip; a longer list is read like any other list, its titles per batch.
 */
export const LOOKUP_MAX = 100;

/** What a look-up names: svc_ids or BioSamples accessions. */
export interface Lookup {
  column: 'id' | 'biosampleAccession';
  values: string[];
}

// the statement of each kind of look-up, whole, so that Drizzle builds nothing per request (building the condition
// took longer than PostgreSQL's answer). Several values are one array parameter, so one text serves any number of
// them. PostgreSQL plans a prepared statement anew on every run while it judges the plan made without the parameters'
// values ("generic") dearer than one made with them, and with an array of unknown length it may (on one connection it
// did for most runs); planning the look-up took longer than running it, on the database's CPU (see
// docs/benchmarks.md).
const lookupTexts = (column: Lookup['column']) => {
  const name = textOf(sql`${samples[column]}`);
  const id = textOf(sql`${samples.id}`);
  const tail = (n: number) => ` order by ${LOOKUP_TEXT.inner} limit $${n} offset $${n + 1}) "chosen" order by ${LOOKUP_TEXT.outer}`;
  const match = `${name} = any($1::text[])`;
  return {
    first: `${LOOKUP_TEXT.head}${match}${tail(2)}`,
    next: `${LOOKUP_TEXT.head}${match} and ${id} > $2${tail(3)}`,
  };
};
const LOOKUP_TEXTS = { id: lookupTexts('id'), biosampleAccession: lookupTexts('biosampleAccession') };

export const lookupBatchQuery = ({ column, values }: Lookup, { after, limit, offset }: PageRequest<Key>): BatchQuery => {
  const texts = LOOKUP_TEXTS[column];
  const query = after
    ? { sql: texts.next, params: [values, after.id, limit, offset] }
    : { sql: texts.first, params: [values, limit, offset] };
  return { toSQL: () => query };
};

// The commonest look-up, of one value, as plain as the statement a person would write: the sample's row and nothing
// else. Its profile's title comes from those this process has read lately (ProfileTitles): read in the statement, it
// cost PostgreSQL a second relation for one short string, a sizeable part of the look-up. No LIMIT or OFFSET as
// parameters: with them PostgreSQL judged its generic plan dearer and planned every run anew, which made a look-up
// markedly slower (tests/query-explain.test.ts, docs/benchmarks.md); a batch's worth is the most it reads. A look-up read whole slices its page from every
// match (lookupRows); in a stream the page's limit is taken as rows arrive (sampleBatchFetcher), and a page that starts
// further on (an offset, a next batch) reads as a list does.
const lookupOneText = (column: Lookup['column']) =>
  textOf(sql`select ${sql.join(Object.values(sampleRowColumns), sql`, `)} from ${samples} where ${samples[column]} = `) +
  `$1 order by ${LOOKUP_TEXT.inner} limit ${BATCH_SIZE}`;
const LOOKUP_ONE_TEXTS = { id: lookupOneText('id'), biosampleAccession: lookupOneText('biosampleAccession') };

/** A one-value look-up's first page from its start: the statement above; null for any other page. */
export const lookupOneQuery = ({ column, values }: Lookup, { after, offset }: PageRequest<Key>): BatchQuery | null => {
  if (values.length !== 1 || after || offset) return null;
  const query = { sql: LOOKUP_ONE_TEXTS[column], params: [values[0]] };
  return { toSQL: () => query };
};

/** The condition a look-up stands for: a long list's statements, and the count of a long result. */
export const lookupCondition = ({ column, values }: Lookup): SQL => inArray(samples[column], values);
