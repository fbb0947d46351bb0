import { METADATA_SHEET } from '@/lib/manifests/parse';
import { LISTS_SHEET } from '@/lib/manifests/template';
import type { SampleChecklist } from '@/lib/sample-checklists/contract';
import { loadExcelJS } from '@/lib/spreadsheets/exceljs';
import { ListValidations } from '@/lib/spreadsheets/list-validation';
import { type SheetColumn, sheetColumns } from './sheet';

/**
 * The blank sample sheet of a checklist (GET /api/profiles/{id}/samples/template): the `Metadata Entry` sheet with a
 * header per column of sheetColumns (the mandatory ones shaded, each with its description as a note), drop-downs on
 * the choice fields and the unit columns, and a `Guide` sheet saying what each column takes.
 */

/** Rows the drop-downs reach; a sheet may hold more, validated the same. */
const TEMPLATE_ROWS = 1000;
const MANDATORY_FILL = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFFFF2CC' } } as const;

function requirementOf(c: SheetColumn): string {
  switch (c.kind) {
    case 'taxon_id':
    case 'scientific_name':
      return 'Required: TAXON_ID or SCIENTIFIC_NAME, or both.';
    case 'alias':
      return 'Required.';
    default:
      return { mandatory: 'Required.', recommended: 'Recommended.', optional: 'Optional.' }[c.field.requirement];
  }
}

function described(c: SheetColumn): string {
  switch (c.kind) {
    case 'alias':
      return 'Your name for the sample, unique in the profile: a later sheet with the same name updates the sample.';
    case 'taxon_id':
      return 'The NCBI taxon id of the organism (ENA’s taxonomy): filled from SCIENTIFIC_NAME when left empty.';
    case 'scientific_name':
      return 'The scientific name of the organism, as ENA’s taxonomy has it: filled from TAXON_ID when left empty.';
    case 'unit':
      return `The unit of ${c.field.name}: ${c.field.units?.join(', ')}.`;
    case 'field':
      return c.field.description;
  }
}

function accepted(c: SheetColumn): string {
  if (c.kind === 'unit') return c.field.units?.join(', ') ?? '';
  if (c.kind !== 'field') return c.field?.regex ? `Pattern: ${c.field.regex}` : '';
  const f = c.field;
  if (f.type === 'choice') return `One of: ${f.choices?.join(', ') ?? ''}`;
  if (f.type === 'taxon') return 'A scientific name ENA’s taxonomy knows.';
  if (f.regex) return `Pattern: ${f.regex}`;
  return '';
}

export async function buildSampleTemplate(checklist: SampleChecklist): Promise<Buffer> {
  const columns = sheetColumns(checklist);
  const workbook = new (await loadExcelJS()).Workbook();
  workbook.creator = 'Research Metadata Broker';
  const sheet = workbook.addWorksheet(METADATA_SHEET, { views: [{ state: 'frozen', ySplit: 1 }] });
  const guide = workbook.addWorksheet('Guide');
  const lists = workbook.addWorksheet(LISTS_SHEET, { state: 'hidden' });
  const validations = new ListValidations(sheet, lists, TEMPLATE_ROWS + 1);

  sheet.columns = columns.map((c) => ({ header: c.header, key: c.header, width: Math.min(40, Math.max(14, c.header.length + 3)) }));
  const header = sheet.getRow(1);
  header.font = { bold: true };
  columns.forEach((c, i) => {
    const cell = header.getCell(i + 1);
    cell.note = [requirementOf(c), described(c), accepted(c)].filter(Boolean).join(' ');
    if (c.required) cell.fill = MANDATORY_FILL;
    if (c.kind === 'unit' && c.field.units?.length) {
      validations.add(i + 1, c.header, c.field.units, { strict: true, error: `Choose one of the units of ${c.field.name}.` });
    } else if (c.kind === 'field' && c.field.type === 'choice' && c.field.choices?.length) {
      // other spellings of a listed value are taken and respelled, so the list only suggests
      validations.add(i + 1, c.header, c.field.choices, { strict: false, error: `Choose a value of the list for ${c.header}.` });
    }
  });

  guide.columns = [
    { header: 'Column', key: 'column', width: 40 },
    { header: 'Required', key: 'required', width: 30 },
    { header: 'Description', key: 'description', width: 80 },
    { header: 'What it takes', key: 'accepted', width: 60 },
  ];
  guide.getRow(1).font = { bold: true };
  guide.addRow({ column: `${checklist.name} (${checklist.id})`, required: '', description: checklist.description, accepted: '' });
  for (const c of columns) {
    guide.addRow({ column: c.header, required: requirementOf(c), description: described(c), accepted: accepted(c) });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}
