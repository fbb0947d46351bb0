import { type SQL, sql } from 'drizzle-orm';
import { type AnyPgColumn, alias } from 'drizzle-orm/pg-core';
import { samples } from '@/db/schema';
import { type ColumnRead, propertyOf, SAMPLE_COLUMN_LIST, type SampleRow } from '@/lib/standards/sample-columns';
import { StoredFields } from '@/lib/standards/stored-fields';
import { printedUtc, utcOfPrinted } from './sql';

/**
 * What the sample queries select of a row and how they read it, derived from the sample record's columns
 * (lib/standards/sample-columns.ts) once, as the module loads: the stored columns a batch is chosen on, the select list
 * of the chosen rows, and the decoder of a row as the driver gives it.
 */

/** A batch's row: a SampleRow with its profile, and the browser's sort key when the query selects one. */
export type BatchRow = SampleRow & { profileId: string; sortKey?: string | null };

// samples, or an alias of it: its columns by their properties
type Table = Record<keyof typeof samples.$inferSelect, AnyPgColumn>;

// the columns a query selects from the table: the record's stored ones, then the profile's id, by which its title is
// read apart (ProfileTitles in lib/query/sample-batches.ts), not joined, so that a batch is a walk of one index in its
// order (a join with profiles made PostgreSQL hash the batch's rows and sort them again: the day list)
const SELECTED = SAMPLE_COLUMN_LIST.flatMap(([name, { read, column }]) => (column ? [{ name, read, column }] : []));
const SELECTED_NAMES = [...SELECTED.map((c) => c.name as string), 'profileId'];

/** A stored column as the queries select it for rendering. */
function selected(read: ColumnRead, column: AnyPgColumn): SQL | AnyPgColumn {
  switch (read) {
    // as text, undecoded on PostgreSQL (db/client.ts, RAW_TEXT_OID): the writers copy each value out of it
    // (lib/standards/stored-fields.ts, lib/standards/field-copier.ts)
    case 'fields':
      return sql`${column}::text::varchar`;
    // printed by the database, made utcText's form as they are read (toBatchRow)
    case 'time':
      return printedUtc(column);
    // one boolean, not the value: all an embargo needs to know (lib/standards/render.ts)
    case 'isSet':
      return sql`${column} is not null`;
    default:
      return column;
  }
}

/** How a selected value becomes the row's, or null when it is taken as the driver gives it. */
function decoder(read: ColumnRead): ((value: unknown) => unknown) | null {
  switch (read) {
    case 'fields':
      return (value) => new StoredFields(value as string | Uint8Array);
    case 'time':
      return (value) => (value === null ? null : utcOfPrinted(value as string));
    default:
      return null;
  }
}

/** The column of `table` (samples, or an alias of it) that stands where `column` stands in samples. */
const columnOf = (table: Table, column: AnyPgColumn): AnyPgColumn => table[propertyOf(column)];

/** The stored columns, unconverted, of `table`: what a batch's rows are chosen and sorted on. */
const storedOf = (table: Table): AnyPgColumn[] => [...SELECTED.map((c) => columnOf(table, c.column)), table.profileId];

/** The columns of `table` as rendering reads them, by their names in BatchRow. */
const rowColumnsOf = (table: Table): Record<string, SQL | AnyPgColumn> => {
  const columns: Record<string, SQL | AnyPgColumn> = {};
  for (const c of SELECTED) columns[c.name] = selected(c.read, columnOf(table, c.column));
  columns.profileId = table.profileId;
  return columns;
};

/** The stored columns of samples, as the inner query of a batch selects them. */
export const STORED_COLUMNS: readonly AnyPgColumn[] = storedOf(samples);

/**
 * The columns every sample query selects: what rendering needs but the profile's title, and nothing that must not
 * leave the service.
 */
export const sampleRowColumns = rowColumnsOf(samples);

/** The batch's chosen rows, as the outer query names them: a subquery "chosen" selecting STORED_COLUMNS. */
export const chosenSample = alias(samples, 'chosen');
export const CHOSEN_ROW_COLUMNS: readonly (SQL | AnyPgColumn)[] = Object.values(rowColumnsOf(chosenSample));

/** The chosen rows' svc_id, and the sort value a batch text's `key` selects, for the outer query's order. */
export const CHOSEN_ID: SQL = sql`${chosenSample.id}`;
export const CHOSEN_SORT_VALUE: SQL = sql.raw('"chosen"."sort_value"');

const DECODERS = [...SELECTED.map((c) => decoder(c.read)), null];
const SORT_KEY_AT = SELECTED_NAMES.length;

/**
 * A batch row as the driver gave it (forEachValueRow), in sampleRowColumns' order then the sort key if selected, as
 * the BatchRow it stands for; its profile's title is filled in once known.
 */
export function toBatchRow(values: unknown[]): BatchRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < SORT_KEY_AT; i++) {
    const decode = DECODERS[i];
    row[SELECTED_NAMES[i] as string] = decode ? decode(values[i]) : values[i];
  }
  row.profileTitle = null;
  if (values.length > SORT_KEY_AT) row.sortKey = values[SORT_KEY_AT];
  return row as unknown as BatchRow;
}
