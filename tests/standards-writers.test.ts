import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOL_PROJECTS } from '@/db/schema';
import { currentDefinition } from '@/lib/manifests';
import { STANDARDS } from '@/lib/query/contract';
import { type RecordShape, recordColumns, renderSample, type SampleRow, sampleWriters } from '@/lib/standards/render';

/**
 * The exports write JSON and CSV straight from the stored row (sampleWriters); what they write must be exactly what
 * the record path writes: JSON.stringify of the rendered record, and csv-stringify of its cells in the result's columns.
 */

// text a person might type, with what CSV and JSON must escape: commas, quotes, line breaks, non-ASCII, emoji
const text = fc.oneof(
  fc.string(),
  fc.constantFrom('', 'a,b', 'say "hi"', 'two\nlines', 'cr\rlf', 'Ærø — ñ', '🦋 moth', ' padded ', '\\'),
  fc.string({ unit: 'binary' }),
);

const rowArb = fc
  .record({
    project: fc.constantFrom(...TOL_PROJECTS),
    values: fc.dictionary(fc.constantFrom('SPECIMEN_ID', 'SCIENTIFIC_NAME', 'COLLECTION_LOCATION', 'DECIMAL_LATITUDE', 'LIFESTAGE'), text),
    tk: fc.constantFrom(undefined, '', 'N', 'Y', 'y'),
    publicName: fc.option(text, { nil: null }),
    biosample: fc.option(fc.constantFrom('SAMEA123', 'SAMEA9'), { nil: null }),
    image: fc.option(fc.constant('2026-01-02T03:04:05.123456'), { nil: null }),
    associated: fc.array(fc.constantFrom('BGE', 'ERGA_PILOT'), { maxLength: 2 }),
    id: fc.stringMatching(/^[0-9a-f]{24}$/),
  })
  .map(({ project, values, tk, publicName, biosample, image, associated, id }): SampleRow => {
    const fields: Record<string, string> = { ...values };
    if (tk !== undefined) fields.ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_RIGHTS_APPLICABLE = tk;
    return {
      id,
      manifestId: '0b8f6c1e-0000-4000-8000-000000000001',
      project,
      manifestVersion: currentDefinition(project).version,
      status: 'accepted',
      fields,
      publicName,
      biosampleAccession: biosample,
      sraAccession: null,
      submissionAccession: null,
      sampleDerivedFrom: null,
      sampleSameAs: null,
      sampleSymbiontOf: null,
      associatedTolProjects: associated,
      lastBioimageSubmitted: image,
      timeCreated: '2026-01-02T03:04:05.000001',
      timeUpdated: '2026-01-02T03:04:05.000002',
      profileTitle: 'Moths, "mostly"',
    };
  });

const cell = (v: unknown) => (v === null || v === undefined ? '' : String(v));

describe('the exports’ writers', () => {
  it('write exactly what the record path writes, in every standard, for rows of every project', () => {
    fc.assert(
      fc.property(fc.array(rowArb, { minLength: 1, maxLength: 6 }), fc.constantFrom(...STANDARDS), (rows, standard) => {
        const shapes: RecordShape[] = [
          ...new Map(rows.map((r) => [r.project, { project: r.project, version: r.manifestVersion }])).values(),
        ];
        const columns = recordColumns(shapes, standard);
        const write = sampleWriters(columns, standard);
        for (const row of rows) {
          const record = renderSample(row, standard);
          expect(write.json(row)).toBe(JSON.stringify(record));
          expect(JSON.parse(write.json(row))).toEqual(record);
          expect(write.csv(row)).toBe(stringify([columns.map((c) => cell(record[c]))]));
        }
      }),
      { numRuns: 300 },
    );
  });
});
