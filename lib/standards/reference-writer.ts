import type { SampleRecord, Standard } from './contract';
import type { SampleRecordWriter, SampleRecordWriters } from './record-writer';
import { DEFAULTS, EMBARGOED, LEGACY_KEYS, recordSlots, rightsApply, type Slot, TRADITIONAL_KNOWLEDGE } from './render';
import type { SampleRow } from './sample-columns';
import { StoredFields } from './stored-fields';

/**
 * The sample record written the obvious way: the stored fields parsed, the record built key by key as an object, then
 * JSON.stringify'd, or its cells quoted into a CSV line. Slow, and plain enough to read as the definition of what the
 * answers' writers (lib/standards/writers.ts) write straight from the stored row: tests/record-writers.test.ts holds
 * them to it byte for byte.
 */

/** The row's manifest fields, parsed. A value that is not a string (a JSON null) counts as absent. */
function parsedFields(row: SampleRow): Record<string, unknown> {
  const fields = row.fields;
  return fields instanceof StoredFields ? (JSON.parse(fields.text) as Record<string, unknown>) : fields;
}

const stringOr = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A manifest field's value: the field, else its former name's, else the reference's default, else empty. */
function fieldValue(fields: Record<string, unknown>, name: string): string {
  const legacy = LEGACY_KEYS[name];
  return stringOr(fields[name]) ?? (legacy === undefined ? undefined : stringOr(fields[legacy])) ?? DEFAULTS[name] ?? '';
}

function slotValue(slot: Slot, row: SampleRow, fields: Record<string, unknown>): string {
  if ('value' in slot) return slot.value(row);
  const [only] = slot.fields;
  if (slot.fields.length === 1 && only !== undefined) return fieldValue(fields, only);
  // several fields in one value (MIxS lat_lon): those that are not empty, joined by a space
  return slot.fields
    .map((name) => fieldValue(fields, name))
    .filter((v) => v !== '')
    .join(' ');
}

/** The row's record in `standard`: `{"status": "embargoed"}` for an ERGA sample under rights not cleared. */
export function referenceRecord(row: SampleRow, standard: Standard): SampleRecord {
  const fields = parsedFields(row);
  if (row.project === 'erga' && !row.rightsCleared && rightsApply(stringOr(fields[TRADITIONAL_KNOWLEDGE]))) return { ...EMBARGOED };
  const record: SampleRecord = {};
  for (const slot of recordSlots(row.project, row.manifestVersion, standard)) record[slot.key] = slotValue(slot, row, fields);
  return record;
}

// = + - @, tab, carriage return and their full-width forms start a formula, unless the cell is a plain number
const FORMULA_START = /^[=+\-@\t\r\uff1d\uff0b\uff0d\uff20]/;
const PLAIN_NUMBER = /^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/;

/** A CSV cell as the service writes every one: a formula defused by an apostrophe, then quoted when it has to be. */
function referenceCell(value: string): string {
  const cell = FORMULA_START.test(value) && !PLAIN_NUMBER.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(cell) ? `"${cell.split('"').join('""')}"` : cell;
}

const writerOf = (text: (row: SampleRow) => string): SampleRecordWriter => ({ text, write: (row, out) => out.write(text(row)) });

/** The reference's JSON and CSV writers of a result in `columns`. */
export const referenceWriters = (columns: readonly string[], standard: Standard): SampleRecordWriters => ({
  json: writerOf((row) => JSON.stringify(referenceRecord(row, standard))),
  csv: writerOf((row) => {
    const record = referenceRecord(row, standard);
    return `${columns.map((c) => referenceCell(record[c] ?? '')).join(',')}\n`;
  }),
});
