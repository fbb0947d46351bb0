import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifestDefinitions } from '@/lib/manifests';
import { ByteChunks } from '@/lib/query/byte-chunks';
import { STANDARDS } from '@/lib/standards/contract';
import type { SampleRecordWriter } from '@/lib/standards/record-writer';
import { referenceWriters } from '@/lib/standards/reference-writer';
import { SAMPLE_COLUMN_LIST, type SampleRow } from '@/lib/standards/sample-columns';
import { StoredFields } from '@/lib/standards/stored-fields';
import { type RecordShape, recordColumns, sampleWriters } from '@/lib/standards/writers';
import { CSV_STRINGIFY_OPTIONS } from '@/lib/values/csv';
import { type JsonbText, jsonbText, storable } from './support/jsonb-text';
import { bytesOfParts } from './support/written-parts';

/**
 * The answers' writers (lib/standards/writers.ts) write each record straight from the stored row: each field's JSON
 * copied out of the text the database printed, by the WebAssembly field copier once a key sequence repeats. The
 * reference (lib/standards/reference-writer.ts) parses the fields, builds the record and stringifies it. On random
 * records, of every manifest version, in every standard, the two must agree byte for byte, in every format the fast
 * path serves: a JSON record as text, the same written into an answer's chunks, and a CSV line.
 */

let db: JsonbText;
beforeAll(async () => {
  db = await jsonbText();
});
afterAll(() => db.close());

const TRADITIONAL_KNOWLEDGE = 'ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_RIGHTS_APPLICABLE';

// what a person types, and what JSON, CSV and a spreadsheet treat specially: quotes, separators, line breaks,
// backslashes, control characters, formulas, numbers as text, non-ASCII and emoji, and long values
const text = fc
  .oneof(
    { arbitrary: fc.string(), weight: 3 },
    fc.string({ unit: 'binary' }),
    fc.string({ unit: 'grapheme' }),
    fc.constantFrom('', ' ', 'a,b', 'say "hi"', '"', '""', '\\', '\\"', 'two\nlines', 'cr\rlf', '\r\n', 'tab\there'),
    fc.constantFrom('\u0001\u001f\u007f', '\u2028\u2029', 'Ærø — ñ', '🦋 moth', '𝔘𝔫𝔦', '=SUM(A1)', '+44', '-33.86', '@x', '＝1'),
    fc.constantFrom('0012', '1e5', '-0', 'NaN', 'null', 'true', '{}', '[]', '}', ', "K": "'),
    fc.tuple(fc.constantFrom('x', 'é', '"', '🦋', '\\n'), fc.integer({ min: 100, max: 12_000 })).map(([s, n]) => s.repeat(n)),
  )
  .filter(storable);

const DEFINITIONS = loadManifestDefinitions();
// names the renderer treats specially, whichever template is used
const SPECIAL_NAMES = [
  'SPECIMEN_IDENTITY_RISK',
  'SPECIMEN_ID_RISK',
  'MIXED_SAMPLE_RISK',
  'BARCODING_STATUS',
  'DECIMAL_LATITUDE',
  'DECIMAL_LONGITUDE',
];

// a time as the queries read it: UTC text with microseconds, whole seconds among them
const utc = fc
  .tuple(
    fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }),
    fc.oneof(fc.constant(0), fc.nat(999_999)),
  )
  .map(([d, micro]) => `${d.toISOString().slice(0, 19)}.${String(micro).padStart(6, '0')}`);

/**
 * The service's own columns, each random as its kind allows (lib/standards/sample-columns.ts): a column added to the
 * record is covered here without a change. The shape's columns (project, version) and the fields are chosen apart.
 */
const SYSTEM = fc.record(
  Object.fromEntries(
    SAMPLE_COLUMN_LIST.flatMap(([name, { read, column }]): [string, fc.Arbitrary<unknown>][] => {
      if (name === 'project' || name === 'manifestVersion' || read === 'fields') return [];
      const nullable = column === null || !column.notNull;
      const maybe = (value: fc.Arbitrary<unknown>) => (nullable ? fc.option(value, { nil: null }) : value);
      if (read === 'isSet') return [[name, fc.option(fc.boolean(), { nil: undefined })]];
      if (read === 'time') return [[name, maybe(utc)]];
      if (column?.getSQLType().endsWith('[]')) return [[name, fc.array(text, { maxLength: 3 })]];
      return [[name, maybe(text)]];
    }),
  ),
);

/** A record of one manifest version: some of its fields, names of none, a value now and then JSON null. */
const rowArb = fc
  .constantFrom(...DEFINITIONS)
  .chain((def) => {
    const names = [...def.fields.map((f) => f.name), ...SPECIAL_NAMES];
    const name = fc.oneof({ arbitrary: fc.constantFrom(...names), weight: 4 }, text);
    const value = fc.oneof({ arbitrary: text, weight: 9 }, fc.constant(null));
    return fc.record({
      def: fc.constant(def),
      fields: fc.dictionary(name, value, { maxKeys: 40 }),
      tk: fc.constantFrom(undefined, '', 'N', ' n ', 'Y', ' y ', 'yes'),
      others: fc.array(text, { minLength: 1, maxLength: 5 }),
      system: SYSTEM,
    });
  })
  .map(({ def, fields, tk, others, system }) => {
    const all: Record<string, string | null> = { ...fields };
    if (tk !== undefined) all[TRADITIONAL_KNOWLEDGE] = tk;
    // rightsCleared may be undefined: as in a row built without it, it counts as not cleared
    const row = { ...system, project: def.project, manifestVersion: def.version, fields: all } as SampleRow;
    // a row of the same keys with other values: the field copier writes it by the plan the first row's keys made
    const sibling: SampleRow = {
      ...row,
      fields: Object.fromEntries(Object.keys(all).map((k, i) => [k, (k === TRADITIONAL_KNOWLEDGE ? tk : others[i % others.length]) ?? ''])),
    };
    return [row, sibling] as const;
  });

// rows the field copier wrote, as bytes: the property must reach it
let copied = 0;

/** The record written into an answer's chunks, as the bytes sent. */
const written = (writer: SampleRecordWriter, rows: readonly SampleRow[]): string => {
  const chunks = new ByteChunks(',');
  for (const row of rows) writer.write(row, chunks);
  const parts = chunks.parts();
  if (parts.some((p) => typeof p !== 'string')) copied++;
  return bytesOfParts(parts).toString();
};

describe('the answers’ record writers', () => {
  it(`write what the reference writes, byte for byte, in every format and standard (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { minLength: 1, maxLength: 4 }), fc.constantFrom(...STANDARDS), async (pairs, standard) => {
        const rows = pairs.flat();
        const printed = await db.print(rows.map((r) => r.fields as Record<string, string>));
        const shapes: RecordShape[] = [
          ...new Map(rows.map((r) => [`${r.project}|${r.manifestVersion}`, { project: r.project, version: r.manifestVersion }])).values(),
        ];
        const columns = recordColumns(shapes, standard);
        const fast = sampleWriters(columns, standard);
        const reference = referenceWriters(columns, standard);
        for (const [i, row] of rows.entries()) {
          const text = printed[i] as string;
          // the row as the queries read it: the fields as printed, as text (PGlite) or as bytes (PostgreSQL)
          const forms = [row, { ...row, fields: new StoredFields(text) }, { ...row, fields: new StoredFields(Buffer.from(text)) }];
          const json = reference.json.text(row);
          const csv = reference.csv.text(row);
          // the reference's CSV is csv-stringify's of its record
          const record = JSON.parse(json) as Record<string, string>;
          expect(csv).toBe(stringify([columns.map((c) => record[c] ?? '')], CSV_STRINGIFY_OPTIONS));
          for (const form of forms) {
            expect(fast.json.text(form)).toBe(json);
            expect(fast.csv.text(form)).toBe(csv);
            expect(reference.json.text(form)).toBe(json);
          }
        }
        // into an answer's chunks, each row and its sibling twice running: from a key sequence's third row on, by the
        // field copier
        for (const [n, [row, sibling]] of pairs.entries()) {
          const stored = (r: SampleRow, k: number) => ({ ...r, fields: new StoredFields(printed[2 * n + k] as string) });
          const sequence = [stored(row, 0), stored(row, 0), stored(sibling, 1), stored(sibling, 1), stored(row, 0)];
          expect(written(fast.json, sequence)).toBe(written(reference.json, sequence));
          const bytes = sequence.map((r) => ({ ...r, fields: new StoredFields(Buffer.from((r.fields as StoredFields).text)) }));
          expect(written(fast.json, bytes)).toBe(written(reference.json, sequence));
        }
      }),
      { numRuns: 150 },
    );
    expect(copied).toBeGreaterThan(0);
  }, 180_000);
});
