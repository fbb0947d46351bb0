import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOL_PROJECTS } from '@/db/schema';
import { currentDefinition } from '@/lib/manifests';
import { ByteChunks } from '@/lib/query/byte-chunks';
import { STANDARDS } from '@/lib/query/contract';
import { jsonString, renderSample, type SampleRow } from '@/lib/standards/render';
import { StoredFields } from '@/lib/standards/stored-fields';
import { jsonRecordWriter, type RecordShape, recordColumns, sampleWriters } from '@/lib/standards/writers';
import { CSV_STRINGIFY_OPTIONS } from '@/lib/values/csv';
import { type JsonbText, jsonbText, storable } from './support/jsonb-text';
import { sampleRow } from './support/sample-row';
import { bytesOfParts } from './support/written-parts';

/**
 * The exports write JSON and CSV straight from the stored row (sampleWriters), copying each field's JSON text out of
 * what the database printed for `fields::text`; what they write must be exactly what the record path writes:
 * JSON.stringify of the rendered record, and csv-stringify of its cells in the result's columns. The rendered record
 * must be the same whether the fields come as stored text or as the object postgres.js used to parse them into.
 */

let db: JsonbText;
beforeAll(async () => {
  db = await jsonbText();
});
afterAll(() => db.close());

// text a person might type, with what CSV and JSON must escape: commas, quotes, line breaks, non-ASCII, emoji
const text = fc
  .oneof(
    fc.string(),
    fc.constantFrom('', 'a,b', 'say "hi"', 'two\nlines', 'cr\rlf', 'Ærø — ñ', '🦋 moth', ' padded ', '\\', 'tab\there', '\u0001'),
    fc.string({ unit: 'binary' }),
  )
  .filter(storable);

// fields the templates have, those with a default or a former name, and keys no template has (one needing escapes)
const FIELD_NAMES = [
  'SPECIMEN_ID',
  'COLLECTOR_SAMPLE_ID',
  'SCIENTIFIC_NAME',
  'COLLECTION_LOCATION',
  'DECIMAL_LATITUDE',
  'DECIMAL_LONGITUDE',
  'LIFESTAGE',
  'SPECIMEN_IDENTITY_RISK',
  'SPECIMEN_ID_RISK',
  'MIXED_SAMPLE_RISK',
  'BARCODING_STATUS',
  'NOT_A_FIELD',
  'say "hi"\n',
] as const;

const rowArb = fc
  .record({
    project: fc.constantFrom(...TOL_PROJECTS),
    values: fc.dictionary(fc.constantFrom(...FIELD_NAMES), text),
    tk: fc.constantFrom(undefined, '', 'N', ' n ', 'Y', 'y'),
    publicName: fc.option(text, { nil: null }),
    biosample: fc.option(fc.constantFrom('SAMEA123', 'SAMEA9'), { nil: null }),
    image: fc.option(fc.constant('2026-01-02T03:04:05.123456'), { nil: null }),
    associated: fc.array(fc.constantFrom('BGE', 'ERGA_PILOT'), { maxLength: 2 }),
    id: fc.stringMatching(/^[0-9a-f]{24}$/),
    rightsCleared: fc.boolean(),
  })
  .map(({ project, values, tk, publicName, biosample, image, associated, id, rightsCleared }): SampleRow => {
    const fields: Record<string, string> = { ...values };
    if (tk !== undefined) fields.ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_RIGHTS_APPLICABLE = tk;
    return sampleRow({
      id,
      manifestId: '0b8f6c1e-0000-4000-8000-000000000001',
      project,
      manifestVersion: currentDefinition(project).version,
      status: 'accepted',
      fields,
      publicName,
      biosampleAccession: biosample,
      associatedTolProjects: associated,
      lastBioimageSubmitted: image,
      timeCreated: '2026-01-02T03:04:05.000001',
      timeUpdated: '2026-01-02T03:04:05.000002',
      profileTitle: 'Moths, "mostly"',
      rightsCleared,
    });
  });

const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));

/** The rows as the sample queries read them: their fields as the database prints them. */
async function stored(rows: SampleRow[]): Promise<SampleRow[]> {
  const printed = await db.print(rows.map((r) => r.fields as Record<string, string>));
  return rows.map((r, i) => ({ ...r, fields: new StoredFields(printed[i] as string) }));
}

describe('the exports’ writers', () => {
  it('write exactly what the record path writes, in every standard, for rows of every project', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(rowArb, { minLength: 1, maxLength: 6 }), fc.constantFrom(...STANDARDS), async (rows, standard) => {
        const shapes: RecordShape[] = [
          ...new Map(rows.map((r) => [r.project, { project: r.project, version: r.manifestVersion }])).values(),
        ];
        const columns = recordColumns(shapes, standard);
        const write = sampleWriters(columns, standard);
        const into = jsonRecordWriter(standard);
        const read = await stored(rows);
        for (const [i, row] of read.entries()) {
          const inMemory = rows[i] as SampleRow;
          const record = renderSample(row, standard);
          // the fields as stored text and as an object render alike
          expect(record).toEqual(renderSample(inMemory, standard));
          expect(Object.keys(record)).toEqual(Object.keys(renderSample(inMemory, standard)));
          // written three times: a row's key sequence read a third time running is cut up by its expression
          // (lib/standards/stored-fields.ts, Shape)
          for (let time = 0; time < 3; time++) expect(write.json.text(row)).toBe(JSON.stringify(record));
          // and into an answer's chunks four times: from the third, by the field copier (lib/standards/field-copier.ts)
          const chunks = new ByteChunks(',');
          for (let time = 0; time < 4; time++) into.write(row, chunks);
          expect(bytesOfParts(chunks.parts()).toString()).toBe(Array(4).fill(JSON.stringify(record)).join(','));
          expect(write.json.text(inMemory)).toBe(JSON.stringify(record));
          expect(write.csv.text(row)).toBe(stringify([columns.map((c) => cell(record[c]))], CSV_STRINGIFY_OPTIONS));
          expect(write.csv.text(inMemory)).toBe(write.csv.text(row));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('quote the service’s own values as JSON.stringify does, whatever they hold', () => {
    const anyText = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
      // half a surrogate pair, alone or beside a whole one: escaped, and a whole pair left as it is
      fc.constantFrom('\ud800', 'a\udfff', '\ud83e\udd8b\ud800', '"', '\\', '\u0000\u001f\u007f', '\u2028'),
    );
    fc.assert(
      fc.property(anyText, (value) => {
        expect(jsonString(value)).toBe(JSON.stringify(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('fill a missing field from its former name, then from the reference’s default, and hide rows under rights', async () => {
    const [base] = fc.sample(rowArb, { numRuns: 1, seed: 1 });
    const row = (project: SampleRow['project'], fields: Record<string, string>): SampleRow => ({
      ...(base as SampleRow),
      project,
      manifestVersion: currentDefinition(project).version,
      fields,
      rightsCleared: false,
    });
    const rows = await stored([
      row('dtol', { SPECIMEN_ID_RISK: 'Y' }),
      row('dtol', { SPECIMEN_IDENTITY_RISK: 'N', SPECIMEN_ID_RISK: 'Y', MIXED_SAMPLE_RISK: '' }),
      row('dtol', { SPECIMEN_ID_RISK: '' }),
      row('erga', { ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_RIGHTS_APPLICABLE: ' y ' }),
      row('erga', { ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_RIGHTS_APPLICABLE: 'n', SPECIMEN_ID: 'E1' }),
    ]);
    const write = sampleWriters(recordColumns([{ project: 'erga', version: rows[3]?.manifestVersion ?? '' }], 'tol'), 'tol');
    const pick = (r: SampleRow) => {
      const rec = JSON.parse(write.json.text(r)) as Record<string, string>;
      return { risk: rec.SPECIMEN_IDENTITY_RISK, mixed: rec.MIXED_SAMPLE_RISK, barcoding: rec.BARCODING_STATUS };
    };
    const [former, both, emptyFormer, embargoed, open] = rows as [SampleRow, SampleRow, SampleRow, SampleRow, SampleRow];
    expect(pick(former)).toEqual({ risk: 'Y', mixed: 'NOT_PROVIDED', barcoding: 'DNA_BARCODE_EXEMPT' });
    expect(pick(both)).toEqual({ risk: 'N', mixed: '', barcoding: 'DNA_BARCODE_EXEMPT' });
    expect(pick(emptyFormer).risk).toBe('');
    expect(write.json.text(embargoed)).toBe('{"status":"embargoed"}');
    expect(renderSample(embargoed, 'dwc')).toEqual({ status: 'embargoed' });
    expect(JSON.parse(write.json.text(open)).SPECIMEN_ID).toBe('E1');
    expect(write.csv.text(embargoed).trim().split(',').filter(Boolean)).toEqual(['embargoed']);
  });
});
