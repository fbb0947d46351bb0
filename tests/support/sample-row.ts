import { SAMPLE_COLUMN_LIST, type SampleRow } from '@/lib/standards/sample-columns';

/**
 * A row as rendering takes it, built in a test from the sample record's columns (lib/standards/sample-columns.ts): the
 * values given, and every other column empty (null where it may be, an empty list or text, a fixed time), so that a
 * column added to the record needs no change here or in the tests that build rows.
 */

const FIXED_TIME = '2026-01-02T03:04:05.000000';

function emptyValue(read: string, nullable: boolean, list: boolean): unknown {
  if (read === 'isSet') return undefined;
  if (read === 'fields') return {};
  if (nullable) return null;
  if (read === 'time') return FIXED_TIME;
  return list ? [] : '';
}

const EMPTY: Record<string, unknown> = Object.fromEntries(
  SAMPLE_COLUMN_LIST.flatMap(([name, { read, column }]) => {
    const value = emptyValue(read, column === null || !column.notNull, column?.getSQLType().endsWith('[]') ?? false);
    return value === undefined ? [] : [[name, value]];
  }),
);

export const sampleRow = (given: Partial<SampleRow> & Pick<SampleRow, 'project' | 'manifestVersion'>): SampleRow =>
  ({ ...EMPTY, ...given }) as SampleRow;
