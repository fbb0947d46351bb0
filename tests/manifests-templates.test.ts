import path from 'node:path';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import {
  buildTemplate,
  currentDefinition,
  LISTS_SHEET,
  loadManifestDefinitions,
  type ManifestProject,
  METADATA_SHEET,
  parseManifest,
  validateManifest,
} from '@/lib/manifests';
import { TEMPLATE_FILES, tolDataDir } from '@/lib/manifests/reference/source';
import { testContext } from './fixtures/manifests/context';
import { validRows } from './fixtures/manifests/generate';
import { fillTemplate, toXlsx } from './fixtures/manifests/workbook';

describe('official templates filled with realistic rows', () => {
  it.each(Object.entries(TEMPLATE_FILES))('%s validates with no errors', async (project, file) => {
    const definition = currentDefinition(project as ManifestProject);
    const rows = validRows(definition, 40);
    // one target with a symbiont in its tube, as ASG and DTOL manifests have them
    Object.assign(rows[1] ?? {}, {
      TAXON_ID: '562',
      SCIENTIFIC_NAME: 'Escherichia coli',
      ORDER_OR_GROUP: 'Enterobacterales',
      FAMILY: 'Enterobacteriaceae',
      GENUS: 'Escherichia',
      SYMBIONT: 'SYMBIONT',
      RACK_OR_PLATE_ID: rows[0]?.RACK_OR_PLATE_ID ?? '',
      TUBE_OR_WELL_ID: rows[0]?.TUBE_OR_WELL_ID ?? '',
      SPECIMEN_ID: rows[0]?.SPECIMEN_ID ?? '',
    });
    const buffer = await fillTemplate(path.join(tolDataDir(), file), rows);
    const parsed = await parseManifest(buffer, file, { definition });
    const result = await validateManifest(
      parsed,
      definition,
      testContext({ associatedProjectTypes: project === 'erga' ? ['BGE'] : undefined }),
    );
    expect(result.errors).toEqual([]);
    expect(result.rows).toBe(40);
    // what remains are notes on the template's own pre-fill and the symbiont copy, never complaints about data
    expect(new Set(result.warnings.map((w) => w.rule))).toEqual(
      new Set([...(project === 'erga' ? [] : ['template_prefill']), 'symbiont_overwrite']),
    );
    // typed cells came back as the text the submitter typed
    expect(result.normalised[0]?.values).toMatchObject({
      DATE_OF_COLLECTION: '2023-06-15',
      TIME_OF_COLLECTION: '10:30',
      TAXON_ID: rows[0]?.TAXON_ID,
      ELEVATION: '120',
      DECIMAL_LONGITUDE: rows[0]?.DECIMAL_LONGITUDE,
    });
  });

  it('the same manifests as CSV-like text cells validate too (typed = false)', async () => {
    const definition = currentDefinition('dtol');
    const buffer = await toXlsx(
      definition.fields.map((f) => f.name),
      validRows(definition, 10),
    );
    const result = await validateManifest(await parseManifest(buffer, 'x.xlsx', { definition }), definition, testContext());
    expect(result.errors).toEqual([]);
  });
});

describe('buildTemplate', () => {
  it.each(loadManifestDefinitions().map((d) => [`${d.project} ${d.version}`, d] as const))(
    '%s: header row only, round-trips through parseManifest',
    async (_, definition) => {
      const buffer = await buildTemplate(definition);
      const parsed = await parseManifest(buffer, 'template.xlsx', { definition });
      expect(parsed.headers).toEqual(definition.fields.map((f) => f.name));
      expect(parsed.rows).toEqual([]);
      const result = await validateManifest(parsed, definition, testContext());
      expect(result.errors.map((e) => e.rule)).toEqual(['empty']);
      expect(result.warnings).toEqual([]);
    },
  );

  it('has a drop-down on every vocabulary column, long lists on a hidden sheet, and no stray cells', async () => {
    const definition = currentDefinition('erga');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load((await buildTemplate(definition)) as unknown as ExcelJS.Buffer);
    const sheet = wb.getWorksheet(METADATA_SHEET);
    const lists = wb.getWorksheet(LISTS_SHEET);
    expect(sheet).toBeDefined();
    expect(lists?.state).toBe('hidden');
    expect(wb.worksheets.map((w) => w.name)).toEqual([METADATA_SHEET, LISTS_SHEET]);
    expect(sheet?.actualRowCount).toBe(1);
    expect(sheet?.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });

    const column = (name: string) => definition.fields.find((f) => f.name === name)?.column ?? '';
    const validation = (name: string, row = 2) => sheet?.getCell(`${column(name)}${row}`).dataValidation;
    expect(validation('SEX')).toMatchObject({
      type: 'list',
      formulae: [`"${definition.fields.find((f) => f.name === 'SEX')?.allowedValues?.join(',')}"`],
    });
    expect(validation('HAZARD_GROUP', 1001)?.type).toBe('list');
    expect(validation('HAZARD_GROUP', 1002)).toBeUndefined();
    // the GAL names contain commas and ORGANISM_PART is long: both come from the hidden sheet
    const gal = validation('GAL')?.formulae?.[0];
    expect(gal).toMatch(/^'Allowed Values'!\$[A-Z]+\$2:\$[A-Z]+\$22$/);
    expect(validation('ORGANISM_PART')).toMatchObject({ errorStyle: 'information' });
    expect(validation('HABITAT')).toBeUndefined();
    const galColumn = /\$([A-Z]+)\$2/.exec(String(gal))?.[1] ?? '';
    expect(lists?.getCell(`${galColumn}1`).value).toBe('GAL');
    expect(lists?.getCell(`${galColumn}2`).value).toBe('Centro Nacional de Análisis Genómico');
  });
});
