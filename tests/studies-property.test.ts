import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldDefinition } from '@/lib/checklists/contract';
import type { ChecklistDefinition } from '@/lib/checklists/definitions';
import { matchesPattern } from '@/lib/checklists/patterns';
import { readChecklists } from '@/lib/seed/checklists';
import { numberText, PANDAS_NA_VALUES } from '@/lib/spreadsheets/cells';
import { FIRST_DATA_ROW } from '@/lib/studies/layout';
import { readStudyWorkbook } from '@/lib/studies/read';
import { type StudyComponents, validateStudy } from '@/lib/studies/validate';
import { writeStudyWorkbook } from '@/lib/studies/write';

const text = (over: Partial<FieldDefinition>): FieldDefinition => ({
  termName: 't',
  label: 'T',
  description: 'd',
  example: 'e',
  type: 'string',
  mandatory: false,
  cardinality: 'single',
  namespacePrefix: 'ei',
  identifier: false,
  ...over,
});

/** A small checklist: a study, and a child sheet with an identifier, a reference and free-text columns. */
const DEF: ChecklistDefinition = {
  schemaName: 'svc_single_cell',
  checklistId: 'version_test',
  name: 'Test',
  standard: 'dwc',
  technology: '',
  version: '0',
  components: [
    {
      key: 'study',
      name: 'Study',
      description: '',
      required: true,
      repositories: {},
      fields: [
        text({ termName: 'study_id', label: 'Study ID', identifier: true, mandatory: true }),
        text({ termName: 'title', label: 'Title', mandatory: true }),
      ],
    },
    {
      key: 'item',
      name: 'Item',
      description: '',
      required: false,
      repositories: {},
      fields: [
        text({ termName: 'study_id', label: 'Study ID', mandatory: true, referencedComponent: 'study' }),
        text({ termName: 'item_id', label: 'Item ID', identifier: true, mandatory: true, identifierPrefix: 'ITEM' }),
        text({ termName: 'note', label: 'Note' }),
        text({ termName: 'amount', label: 'Amount', mandatory: true }),
      ],
    },
  ],
};

// what a cell can hold and still read back as itself: trimmed, printable, not one of the texts read as blank (an id
// of `NA` or `NaN` is one: blanking another cell then gave two errors)
const cellValue = fc
  .string({ minLength: 1, maxLength: 40, unit: fc.constantFrom(...'ab Z09_-.:/µé,;"\'|()'.split('')) })
  .map((s) => s.trim())
  .filter((s) => s.length > 0 && !PANDAS_NA_VALUES.has(s) && !s.toUpperCase().startsWith('FILL OUT'));

const studyArb = fc
  .record({
    title: cellValue,
    items: fc.uniqueArray(
      fc.record({
        id: fc.stringMatching(/^[A-Z][A-Za-z0-9]{0,8}$/).filter((id) => !PANDAS_NA_VALUES.has(id)),
        note: fc.option(cellValue, { nil: undefined }),
        amount: cellValue,
      }),
      { minLength: 0, maxLength: 6, selector: (r) => r.id },
    ),
  })
  .map(({ title, items }): StudyComponents => {
    const out: StudyComponents = { study: [{ study_id: 'S1', title }] };
    if (items.length) {
      out.item = items.map((i) => ({ study_id: 'S1', item_id: i.id, ...(i.note !== undefined && { note: i.note }), amount: i.amount }));
    }
    return out;
  });

describe('writer and parser', () => {
  it('a written study reads back, valid, as the same components', async () => {
    await fc.assert(
      fc.asyncProperty(studyArb, async (components) => {
        const parsed = await readStudyWorkbook(await writeStudyWorkbook(DEF, components));
        const result = await validateStudy(DEF, parsed, { samples: new Map() });
        expect(result.errors).toEqual([]);
        expect(result.components).toEqual(components);
      }),
      { numRuns: 25 },
    );
  });

  it('one blanked mandatory cell gives exactly one error, at its row and column', async () => {
    const withItems = studyArb.filter((c) => (c.item?.length ?? 0) > 0);
    await fc.assert(
      fc.asyncProperty(withItems, fc.nat(), fc.constantFrom('item_id', 'amount'), async (components, pick, term) => {
        const k = pick % components.item!.length;
        const broken = structuredClone(components);
        delete broken.item![k]![term];
        // study_id stays, so the row still counts as a row
        const parsed = await readStudyWorkbook(await writeStudyWorkbook(DEF, broken));
        const { errors } = await validateStudy(DEF, parsed, { samples: new Map() });
        const label = term === 'item_id' ? 'Item ID' : 'Amount';
        expect(errors).toEqual([expect.objectContaining({ sheet: 'item', row: FIRST_DATA_ROW + k, column: label, value: null })]);
      }),
      { numRuns: 25 },
    );
  });
});

describe('patterns', () => {
  it('match like Python re.match: anchored at the start only', async () => {
    const patterns = [...new Set((await readChecklists()).flatMap((c) => c.fields.flatMap((x) => x.fields.map((f) => f.regex))))].filter(
      (p): p is string => Boolean(p),
    );
    expect(patterns.length).toBeGreaterThan(20);
    fc.assert(
      fc.property(fc.constantFrom(...patterns), fc.string({ maxLength: 30 }), (pattern, value) => {
        const found = new RegExp(pattern.trim()).exec(value);
        expect(matchesPattern(pattern, value)).toBe(found !== null && found.index === 0);
      }),
      { numRuns: 500 },
    );
    expect(matchesPattern('^([0-9]*[.])?[0-9]+', '1.5 cm')).toBe(true);
    expect(matchesPattern('[0-9]+', 'x1')).toBe(false);
  });
});

describe('numbers', () => {
  it('print without float noise (15 significant digits) and integers in full, reading back to that number', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (n) => {
        const shown = Number.isSafeInteger(n) ? n : Number(n.toPrecision(15));
        expect(Number(numberText(n)) === shown).toBe(true);
      }),
    );
    fc.assert(
      fc.property(fc.maxSafeInteger(), (n) => {
        expect(numberText(n)).toBe(String(n));
      }),
    );
  });
});
