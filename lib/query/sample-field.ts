import { gte, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import { profiles, samples } from '@/db/schema';
import { Invalid } from '@/lib/errors';
import { invalidFieldMessage, sampleFieldNames } from '@/lib/standards/fields';
import type { SampleRecord } from '@/lib/standards/render';
import { SAMPLE_COLUMN_LIST } from '@/lib/standards/sample-columns';
import { parseDate } from './contract';
import { type Raw, splitList } from './params';
import { sampleStream } from './sample-rows';
import type { SampleQuery } from './samples';
import { containsPattern } from './sql';
import type { RowStream } from './stream';

/** Manifest fields with a typed column: searched there, where a trigram index serves the substring match. */
const TYPED: Record<string, AnyPgColumn> = {
  SPECIMEN_ID: samples.specimenId,
  RACK_OR_PLATE_ID: samples.rackOrPlateId,
  TUBE_OR_WELL_ID: samples.tubeOrWellId,
  TAXON_ID: samples.taxonId,
  SCIENTIFIC_NAME: samples.scientificName,
  SYMBIONT: samples.symbiont,
};

/** A stored column of the record searched as the text it prints as: a list as its items joined, a uuid as text. */
const searchedAs = (column: AnyPgColumn): AnyPgColumn | SQL => {
  const type = column.getSQLType();
  if (type.endsWith('[]')) return sql`array_to_string(${column}, ' | ')`;
  return type === 'uuid' ? sql`${column}::text` : column;
};

/** The record's own keys (lib/standards/sample-columns.ts): a timestamp's searched as a date, any other's as text. */
const DATES: Record<string, AnyPgColumn> = {};
const COLUMNS: Record<string, AnyPgColumn | SQL> = { ...TYPED };
for (const [, { read, column, record }] of SAMPLE_COLUMN_LIST) {
  if (record === null || column === null) continue;
  if (read === 'time') DATES[record] = column;
  else COLUMNS[record] = searchedAs(column);
}

const anyContains = (expr: AnyPgColumn | SQL, values: string[]): SQL => or(...values.map((v) => ilike(expr, containsPattern(v)))) as SQL;

/**
 * The condition for "field contains any of the values" (docs/api-behaviour.md §3.5.7, Sensible): case-insensitive substring match with the
 * values taken literally (no regex, no LIKE wildcards), svc_id exact, svc_profile_title on the profile's title, dates
 * "on or after the earliest value" as the reference documents.
 */
export function fieldCondition(rawField: string, rawValues: Raw): SQL {
  const field = sampleFieldNames().get(rawField.trim().toLowerCase());
  if (!field) throw Invalid(invalidFieldMessage());
  const values = splitList(rawValues);
  if (!values.length) throw Invalid("'values' is required but not provided.");

  if (field === 'svc_id')
    return inArray(
      samples.id,
      values.map((v) => v.toLowerCase()),
    );
  if (field === 'svc_profile_title') {
    const owners = sql`select ${profiles.id} from ${profiles} where ${anyContains(profiles.title, values)}`;
    return sql`${samples.profileId} in (${owners})`;
  }
  const dateColumn = DATES[field];
  if (dateColumn) {
    const dates = values.map((v) => {
      const d = parseDate(v);
      if (!d) throw Invalid(`Invalid date format provided. Error: Unknown string format: ${v}`);
      return d;
    });
    return gte(dateColumn, new Date(Math.min(...dates.map((d) => d.getTime()))));
  }
  return anyContains(COLUMNS[field] ?? sql`${samples.fields}->>${field}`, values);
}

export function samplesByFieldValues(db: Db, input: SampleQuery & { field: string; values: Raw }): Promise<RowStream<SampleRecord>> {
  return sampleStream(db, fieldCondition(input.field, input.values), input);
}
