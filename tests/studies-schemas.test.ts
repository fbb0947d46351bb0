import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checklists } from '@/db/schema';
import type { ComponentDefinition, FieldDefinition, WorkbookSheets } from '@/lib/checklists/contract';
import { parseSchemaWorkbook, SchemaWorkbookError } from '@/lib/checklists/schema-workbook';
import { seedReferenceData } from '@/lib/seed';
import { readChecklists } from '@/lib/seed/checklists';
import { createHarness, type Harness } from './support/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(() => h.close());

const byId = async (id: string) => (await readChecklists()).find((c) => c.checklistId === id)!;
const field = (components: ComponentDefinition[], component: string, term: string): FieldDefinition =>
  components.find((c) => c.key === component)!.fields.find((f) => f.termName === term)!;

describe('checklist definitions from the schema workbooks', () => {
  it('has the term counts of docs/studies-and-checklists.md §2', async () => {
    const counts = Object.fromEntries(
      (await readChecklists()).map((c) => {
        const fields = c.fields.flatMap((x) => x.fields);
        return [c.checklistId, [fields.length, fields.filter((f) => f.mandatory).length]];
      }),
    );
    expect(counts).toMatchObject({
      version_dwc_sc_rnaseq: [161, 64],
      version_mixs_sc_rnaseq: [185, 61],
      version_tol_sc_rnaseq: [160, 60],
      version_faang_sc_rnaseq: [167, 67],
    });
    expect(counts.version_rembi![0]).toBe(85);
    for (const id of ['version_dwc_stx_fish', 'version_mixs_stx_fish', 'version_tol_stx_fish']) expect(counts[id]![0]).toBe(39);
  });

  it('keeps the components in schema order with their repository mapping (§1)', async () => {
    const sc = await byId('version_tol_sc_rnaseq');
    expect(sc.fields.map((c) => c.key)).toEqual([
      'study',
      'person',
      'sample',
      'dissociation',
      'cell_suspension',
      'lib_prep',
      'sequencing',
      'analysis_derived_data',
      'raw_data_processing',
      'downstream_processing',
      'data_availability_checklist',
      'file',
      'expression_data_process_setting',
      'expression_data_file',
    ]);
    expect(sc.fields.find((c) => c.key === 'study')!.repositories).toEqual({ ena: 'study', zenodo: 'study' });
    expect(sc.fields.find((c) => c.key === 'file')!.repositories).toEqual({ ena: 'read' });
    const rembi = await byId('version_rembi');
    expect(rembi.fields.map((c) => c.key)).toEqual([
      'study',
      'grant_reference',
      'publication',
      'link',
      'study_component',
      'person',
      'sample',
      'specimen',
      'image_acquisition',
      'image_analysis',
      'image_correlation',
      'annotations',
      'file_level_metadata',
    ]);
    expect(rembi.fields[0]!.repositories).toEqual({ zenodo: 'study' });
    expect(rembi.fields.find((c) => c.key === 'sample')!.required).toBe(true);
    const fish = await byId('version_dwc_stx_fish');
    expect(fish.fields.map((c) => [c.key, c.repositories])).toEqual([
      ['study', { ena: 'study', zenodo: 'study' }],
      ['person', {}],
      ['sample', {}],
      ['imaging_protocol', {}],
      ['file', {}],
    ]);
  });

  it('carries every attribute of a term', async () => {
    const sc = (await byId('version_dwc_sc_rnaseq')).fields;
    expect(field(sc, 'lib_prep', 'library_prep_id')).toMatchObject({
      label: 'Library Preparation ID',
      type: 'string',
      mandatory: true,
      identifier: true,
      identifierPrefix: 'LIBPREP',
      regex: '^[a-zA-Z0-9]+$',
      errorMessage: expect.any(String),
      cardinality: 'single',
    });
    expect(field(sc, 'file', 'sequencing_id')).toMatchObject({ referencedComponent: 'sequencing', identifier: false });
    expect(field(sc, 'sample', 'biosampleAccession')).toMatchObject({
      type: 'BIOSAMPLEACCESSION_FIELD',
      reference: 'http://purl.obolibrary.org/obo/T4FS_0000316',
    });
    expect(field(sc, 'sample', 'scientific_name')).toMatchObject({
      type: 'BIOSAMPLEACCESSION_EXT_FIELD',
      mappingKey: 'scientific_name',
      enaName: 'SCIENTIFIC_NAME',
      mandatory: false,
    });
    expect(field(sc, 'sequencing', 'sequencing_instrument_model')).toMatchObject({ type: 'enum', enaName: 'instrument_model' });
    expect(field(sc, 'sequencing', 'sequencing_instrument_model').allowedValues).toHaveLength(83);
    expect(field(sc, 'lib_prep', 'end_bias').allowedValues).toEqual(['3', '5']);
    expect(field(sc, 'cell_suspension', 'cell_count').regex).toBe('^\\d+$');
    expect(field(sc, 'study', 'title')).not.toHaveProperty('regex'); // a lone space in the workbook
    expect(field(sc, 'expression_data_process_setting', 'matrix_type').label).toBe('Matrix Type'); // trailing space trimmed
    const mixs = (await byId('version_mixs_sc_rnaseq')).fields;
    expect(field(mixs, 'study', 'experimental_factor').cardinality).toBe('multiple');
    const faang = (await byId('version_faang_sc_rnaseq')).fields;
    expect(field(faang, 'dissociation', 'cell_type')).toMatchObject({ type: 'ontology', reference: 'CL:0000000' });
    const tol = (await byId('version_tol_sc_rnaseq')).fields;
    expect(field(tol, 'cell_suspension', 'cell_number').allowedValues).toContain('1');
  });

  it('corrects the REMBI quirks of §2', async () => {
    const rembi = (await byId('version_rembi')).fields;
    expect(field(rembi, 'study', 'study_id').identifier).toBe(true); // the text "true"
    expect(field(rembi, 'study', 'title').identifier).toBe(false);
    expect(field(rembi, 'specimen', 'specimen_id')).toMatchObject({ identifier: true });
    expect(field(rembi, 'specimen', 'specimen_id')).not.toHaveProperty('referencedComponent');
    expect(field(rembi, 'link', 'link_description')).not.toHaveProperty('regex');
    expect(field(rembi, 'study', 'rembi_version').regex).toBe('^1\\.5$');
    expect(field(rembi, 'sample', 'description')).not.toHaveProperty('mappingKey');
    expect(field(rembi, 'annotations', 'annotation_type')).toMatchObject({ cardinality: 'multiple', type: 'enum' });
    expect(field(rembi, 'study', 'licence').allowedValues).toContain('MIT License');
  });
});

describe('workbook load checks', () => {
  const header = [
    'component_name',
    'namespace_prefix',
    'term_name',
    'term_label',
    'copo_name',
    'identifier',
    'identifier_prefix',
    'referenced_component',
    'term_description',
    'term_example',
    'term_regex',
    'term_error_message',
    'term_cardinality',
    'term_type',
    'term_reference',
    'v1',
  ];
  const term = (over: Partial<Record<string, string>>) =>
    header.map((h) => over[h] ?? (h === 'term_type' ? 'string' : h === 'v1' ? 'M' : ''));
  const sheets = (data: string[][]): WorkbookSheets => ({
    data: [header, ...data],
    checklists: [
      ['key', 'name', 'description', 'standard', 'technology'],
      ['v1', 'One', '', 'dwc', 'x'],
    ],
    components: [
      ['key', 'name'],
      ['study', 'Study'],
      ['person', 'Person'],
    ],
    allowed_values: [['colour'], ['red'], ['blue']],
    term_mapping: [['copo_name', 'ENA']],
  });
  const good = [
    term({ component_name: 'study', term_name: 'study_id', term_label: 'Study ID', identifier: 'true' }),
    term({ component_name: 'study', term_name: 'colour', term_label: 'Colour', term_type: 'enum' }),
    term({ component_name: 'person', term_name: 'study_id', term_label: 'Study ID', referenced_component: 'study' }),
  ];

  it('loads a sound workbook', () => {
    const def = parseSchemaWorkbook('test.xlsx', sheets(good));
    expect(def.checklists[0]!.components.map((c) => c.fields.map((f) => f.termName))).toEqual([['study_id', 'colour'], ['study_id']]);
    expect(def.checklists[0]!.components[0]!.fields[1]!.allowedValues).toEqual(['red', 'blue']);
  });

  it('rejects the workbook with every problem listed', () => {
    const broken = [
      ...good,
      term({ component_name: 'study', term_name: 'bad', term_label: 'Bad', term_regex: '^([a-z$' }),
      term({ component_name: 'study', term_name: '', term_label: 'Nameless' }),
      term({ component_name: 'study', term_name: 'colour2', term_label: 'Colour' }),
      term({ component_name: 'person', term_name: 'study_id', term_label: 'Study again' }),
      term({ component_name: 'person', term_name: 'lab', term_label: 'Lab', referenced_component: 'lab' }),
    ];
    let error: unknown;
    try {
      parseSchemaWorkbook('test.xlsx', sheets(broken));
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(SchemaWorkbookError);
    const problems = (error as SchemaWorkbookError).problems;
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Invalid term_regex for 'bad' at row 5/),
        "Empty value in 'term_name' at row 6",
        'Duplicate term_label: "Colour" within a component: "study"  with same version: v1',
        'Duplicate term_name: "study_id" within a component: "person"  with same version: v1',
        "Referenced component: 'lab' is missing (person.lab in v1)",
      ]),
    );
    expect(problems).toHaveLength(5);
  });
});

describe('seeding', () => {
  it('stores each checklist’s definitions in checklists.fields', async () => {
    const rows = await h.database.db.select().from(checklists);
    const expected = await readChecklists();
    for (const r of rows) {
      expect(r.fields, r.checklistId).toEqual(expected.find((c) => c.checklistId === r.checklistId)!.fields);
    }
  });

  it('rewrites definitions that differ from what the loader generates, at the next start', async () => {
    const db = h.database.db;
    await db.update(checklists).set({ fields: [], version: '0.3' }).where(eq(checklists.checklistId, 'version_tol_stx_fish'));
    await db.update(checklists).set({ fields: sql`'[{"custom": true}]'::jsonb` }).where(eq(checklists.checklistId, 'version_rembi'));
    await seedReferenceData(db);
    const rows = await db.select().from(checklists);
    const expected = await readChecklists();
    for (const id of ['version_tol_stx_fish', 'version_rembi']) {
      const row = rows.find((r) => r.checklistId === id)!;
      const want = expected.find((c) => c.checklistId === id)!;
      expect(row.fields).toEqual(want.fields);
      expect(row.version).toBe(want.version);
    }
  });
});
