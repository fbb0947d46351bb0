import { type GetColumnData, getTableColumns } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { samples } from '@/db/schema';
import { formatUtc } from '@/lib/values/dates';
import type { SampleFields } from './stored-fields';

/**
 * The sample record's columns, each written once: where it is stored, how the sample queries select and read it,
 * the key the service's records give it, and how it prints there. Everything else that lists them is derived from
 * this: the row type rendering takes (SampleRow), the service's keys in every record (lib/standards/render.ts,
 * SYSTEM_SLOTS), the sample queries' select list and row decoder (lib/query/sample-select.ts), the field search
 * (lib/query/sample-field.ts), the browser's probe row (lib/browse/columns.ts) and the portal's public record
 * (lib/samples/views.ts). A new column of the record is one entry here, beside its schema column and migration.
 */

/**
 * How a column is selected and read:
 * - `value`: as stored;
 * - `time`: a timestamp, printed by the database in UTC (lib/query/sql.ts, printedUtc) and read as utcText's
 *   `YYYY-MM-DDTHH:MI:SS.US`, so that it prints with the precision it was stored with;
 * - `isSet`: whether a nullable column holds a value, a boolean: all rendering needs of it;
 * - `fields`: the manifest fields, as the text the database prints for them, undecoded (lib/standards/stored-fields.ts);
 * - `profile`: not a column of samples but the title of the sample's profile, read apart from the row.
 */
export type ColumnRead = 'value' | 'time' | 'isSet' | 'fields' | 'profile';

/** One column of the sample record, whose value in a row is a `T`. */
export interface SampleColumn<T, Optional extends boolean = boolean> {
  read: ColumnRead;
  /** where it is stored: null for the profile's title */
  column: AnyPgColumn | null;
  /**
   * its key in the service's records (a system slot, in the public record too, and a column the browser can show), or
   * null: it never leaves the service as a value of its own
   */
  record: string | null;
  /** the record's text of the value */
  text: (value: T) => string;
  /** the value in a row as Drizzle selects the table (`samples.$inferSelect`): a sample loaded whole */
  loaded: (stored: unknown) => T;
  /** a value that carries `marker` into the record, so that the browser can trace which key it renders under */
  probe: (marker: string) => T;
  /** a row built without it still renders (it then counts as unset) */
  optional: Optional;
}

/** A column's value: the `T` of its SampleColumn. */
type ValueOf<C> = C extends SampleColumn<infer T> ? T : never;

// Drizzle gives a timestamp column as a Date; rendering takes utcText's form, as the queries print it
const utcOfDate = (d: Date | null): string | null => (d ? d.toISOString().replace('Z', '000') : null);
const orEmpty = (v: string | null): string => v ?? '';
const same = <T>(v: unknown): T => v as T;

/** A text column, printed as it is (empty when null), or by `text`. */
const plain = <C extends AnyPgColumn>(
  column: C,
  record: string | null,
  text: (value: GetColumnData<C>) => string = orEmpty as (value: GetColumnData<C>) => string,
): SampleColumn<GetColumnData<C>, false> => ({ read: 'value', column, record, text, loaded: same, probe: same, optional: false });

/** A text array column, its items joined by ` | ` (as the reference printed a profile's types). */
const list = <C extends AnyPgColumn>(column: C, record: string): SampleColumn<GetColumnData<C>, false> => ({
  read: 'value',
  column,
  record,
  text: (items) => (items as string[]).join(' | '),
  loaded: same,
  probe: (marker) => [marker] as GetColumnData<C>,
  optional: false,
});

type TimeOf<C extends AnyPgColumn> = C['_']['notNull'] extends true ? string : string | null;

/** A timestamp, printed as the reference prints times: `YYYY-MM-DDTHH:MI:SS+00:00`, microseconds when there are any. */
const time = <C extends AnyPgColumn>(column: C, record: string): SampleColumn<TimeOf<C>, false> => ({
  read: 'time',
  column,
  record,
  text: formatUtc,
  loaded: (stored) => utcOfDate(stored as Date | null) as TimeOf<C>,
  probe: (marker) => marker,
  optional: false,
});

/** Whether a nullable timestamp is set: a boolean, never a key of the records. */
const isSet = (column: AnyPgColumn): SampleColumn<boolean, true> => ({
  read: 'isSet',
  column,
  record: null,
  text: String,
  loaded: (stored) => stored !== null,
  probe: () => false,
  optional: true,
});

/** The manifest fields: each record's own keys, laid out by its manifest version (lib/standards/render.ts). */
const manifestFields = (column: AnyPgColumn): SampleColumn<SampleFields, false> => ({
  read: 'fields',
  column,
  record: null,
  text: () => '',
  loaded: same,
  probe: () => ({}),
  optional: false,
});

/** The title of the sample's profile, which the queries read apart from the row. */
const profileTitle = (record: string): SampleColumn<string | null, false> => ({
  read: 'profile',
  column: null,
  record,
  text: orEmpty,
  loaded: same,
  probe: same,
  optional: false,
});

/**
 * The columns, in the order the sample queries select them. Never among the records' keys: created_by, profile_id,
 * approvals, rejection_reason, the change log or anything naming a person's account (docs/api-behaviour.md §1.10).
 */
export const SAMPLE_COLUMNS = {
  id: plain(samples.id, 'svc_id'),
  manifestId: plain(samples.manifestId, 'manifest_id'),
  project: plain(samples.project, 'tol_project', (project) => project.toUpperCase()),
  manifestVersion: plain(samples.manifestVersion, 'manifest_version'),
  status: plain(samples.status, 'status'),
  fields: manifestFields(samples.fields),
  publicName: plain(samples.publicName, 'public_name'),
  biosampleAccession: plain(samples.biosampleAccession, 'biosampleAccession'),
  sraAccession: plain(samples.sraAccession, 'sraAccession'),
  submissionAccession: plain(samples.submissionAccession, 'submissionAccession'),
  sampleDerivedFrom: plain(samples.sampleDerivedFrom, 'sampleDerivedFrom'),
  sampleSameAs: plain(samples.sampleSameAs, 'sampleSameAs'),
  sampleSymbiontOf: plain(samples.sampleSymbiontOf, 'sampleSymbiontOf'),
  associatedTolProjects: list(samples.associatedTolProjects, 'associated_tol_project'),
  lastBioimageSubmitted: time(samples.lastBioimageSubmitted, 'last_bioimage_submitted'),
  timeCreated: time(samples.timeCreated, 'time_created'),
  timeUpdated: time(samples.timeUpdated, 'time_updated'),
  /**
   * The Local Contexts Hub said the sample's traditional-knowledge project is public (samples.rights_cleared_at is
   * set): rights that apply no longer embargo it. Absent counts as not cleared, so a row built without it stays hidden.
   */
  rightsCleared: isSet(samples.rightsClearedAt),
  profileTitle: profileTitle('svc_profile_title'),
};

type Columns = typeof SAMPLE_COLUMNS;
/** A column's name in SampleRow. */
export type SampleColumnName = keyof Columns;
type OptionalName = { [K in SampleColumnName]: Columns[K]['optional'] extends true ? K : never }[SampleColumnName];

/**
 * What rendering needs of a stored sample, one property per column above. Timestamps are UTC text with microseconds
 * (`YYYY-MM-DDTHH:MI:SS.US`) so they print exactly as stored; `fields` the text PostgreSQL prints for them, undecoded,
 * or an object for a row built in memory.
 */
export type SampleRow = { [K in Exclude<SampleColumnName, OptionalName>]: ValueOf<Columns[K]> } & {
  [K in OptionalName]?: ValueOf<Columns[K]>;
};

/** Every column, by its name in SampleRow, in the order the sample queries select them. */
export const SAMPLE_COLUMN_LIST = Object.entries(SAMPLE_COLUMNS) as readonly (readonly [SampleColumnName, SampleColumn<unknown>])[];

/** A key the service adds to every record: its name, and its text for a row. */
export interface RecordColumn {
  key: string;
  value: (row: SampleRow) => string;
}

/** The columns the records carry, as their keys and values, in registry order. */
export const RECORD_COLUMNS: readonly RecordColumn[] = SAMPLE_COLUMN_LIST.flatMap(([name, column]) => {
  if (column.record === null) return [];
  const text = column.text;
  return [{ key: column.record, value: (row: SampleRow) => text(row[name]) }];
});

// each stored column's property in `samples.$inferSelect` (and in an alias of the table), by the column
const PROPERTY_OF = new Map<AnyPgColumn, string>(Object.entries(getTableColumns(samples)).map(([property, column]) => [column, property]));

/** The property of `samples` (or of an alias of it) that is `column`. */
export const propertyOf = (column: AnyPgColumn): keyof typeof samples.$inferSelect => {
  const property = PROPERTY_OF.get(column);
  if (property === undefined) throw new Error(`${column.name} is not a column of samples`);
  return property as keyof typeof samples.$inferSelect;
};

/** A sample loaded whole (`samples.$inferSelect`) as the row rendering takes, with its profile's title. */
export function loadedRow(sample: typeof samples.$inferSelect, title: string | null): SampleRow {
  const row: Record<string, unknown> = {};
  for (const [name, column] of SAMPLE_COLUMN_LIST)
    row[name] = column.column === null ? title : column.loaded(sample[propertyOf(column.column)]);
  return row as SampleRow;
}
