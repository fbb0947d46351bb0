import type { ChecklistField, SampleChecklist } from '@/lib/sample-checklists/contract';
import { choiceKey, wholeMatch } from '@/lib/sample-checklists/match';
import { CELL_MAX_CHARS, cellTooLongMessage, quotedValue } from '@/lib/values/cell-bound';
import { type BarcodeChecklist, type BarcodeFields, type BarcodeIssue, type BarcodeStatus, StudyAccessionSchema } from './contract';
import { BARCODE_MAX_ROWS, type BarcodeSheet, type SheetCell } from './sheet';

/**
 * A barcoding sheet checked against its sequence checklist as ENA stores it (lib/sample-checklists, kind `sequence`),
 * every problem at once with its sheet, row and column: the columns (unknown ones, mandatory fields without one), each
 * cell against its field (mandatory and present, choices matched ignoring case and respelled as ENA spells them,
 * patterns as whole-value matches run on RE2), the specimen (one of the profile's samples', by SPECIMEN_ID or ToLID),
 * the ENTRYNUMBER (once in the sheet, not a barcode of the profile already sent) and the study accession.
 */

/** The ToL sheet's own columns, which are no checklist field. */
export const SPECIMEN_ID = 'SPECIMEN_ID';
export const BOLD_ID = 'BOLD_ID';
/** a column naming each row's study, where the upload names none for the whole sheet */
export const STUDY = 'STUDY';
const ENTRYNUMBER = 'ENTRYNUMBER';
const ORGANISM_NAME = 'ORGANISM_NAME';
const SEQUENCE = 'SEQUENCE';
const GENE = 'GENE';

/** Excel's own bound on a cell: a sequence is as long as one cell holds, the other fields as any sheet's cell. */
const SEQUENCE_MAX_CHARS = 32_767;

/** A specimen of the profile's samples, as a row names it. */
export interface ProfileSpecimen {
  specimenId: string;
  tolid: string | null;
  scientificName: string | null;
}

export interface BarcodeSheetContext {
  /** the profile's specimens by SPECIMEN_ID and by ToLID, both lower-cased */
  specimens: ReadonlyMap<string, ProfileSpecimen>;
  /** the profile's barcodes by ENTRYNUMBER, lower-cased */
  stored: ReadonlyMap<string, { status: BarcodeStatus }>;
  /** the study the upload names for every row, unless a row's STUDY cell names one */
  studyAccession?: string;
}

export interface CheckedBarcode {
  rowNumber: number;
  specimenId: string;
  entryNumber: string;
  studyAccession: string;
  fields: BarcodeFields;
  sequence: string;
}

export interface BarcodeSheetResult {
  errors: BarcodeIssue[];
  rows: CheckedBarcode[];
}

/** The checklist a sheet is for when the upload names none: an rRNA gene's sheet names its GENE, a COI one does not. */
export const checklistOfSheet = (sheet: BarcodeSheet): BarcodeChecklist =>
  sheet.columns.some((c) => c.header.toUpperCase() === GENE) ? 'ERT000002' : 'ERT000020';

// a TAB file holds a barcode per line and a field per tab
const LINE_BREAKING = /[\t\n\r]/;

const listed = (values: readonly string[]) =>
  values.length <= 12 ? values.join(', ') : `${values.slice(0, 8).join(', ')} … (${values.length} values)`;

export function validateBarcodeSheet(sheet: BarcodeSheet, checklist: SampleChecklist, ctx: BarcodeSheetContext): BarcodeSheetResult {
  const errors: BarcodeIssue[] = [];
  const letterOf = new Map(sheet.columns.map((c) => [c.header.toUpperCase(), c.letter]));
  const issue = (rule: string, i: { row: number | null; field: string | null; value?: string | null; message: string }) => {
    const value = i.value ?? null;
    errors.push({
      sheet: sheet.name,
      row: i.row,
      column: i.field ? (letterOf.get(i.field) ?? null) : null,
      field: i.field,
      value: value === null ? null : quotedValue(value),
      rule,
      message: value !== null && value.length > 100 ? i.message.split(value).join(quotedValue(value)) : i.message,
    });
  };

  if (!sheet.rows.length) {
    issue('empty', {
      row: null,
      field: null,
      message: `The sheet ${sheet.name} holds no barcode: fill a row per barcode below the headers.`,
    });
    return { errors, rows: [] };
  }
  if (sheet.rows.length > BARCODE_MAX_ROWS) {
    issue('too_many_rows', { row: null, field: null, message: `A sheet may hold at most ${BARCODE_MAX_ROWS} barcodes; split it.` });
    return { errors, rows: [] };
  }

  const fields = new Map(checklist.fields.map((f) => [f.name.toUpperCase(), f]));
  const own = new Set([SPECIMEN_ID, BOLD_ID, STUDY]);
  for (const c of sheet.columns) {
    const header = c.header.toUpperCase();
    if (!own.has(header) && !fields.has(header)) {
      issue('unknown_column', {
        row: null,
        field: header,
        message: `Unknown column '${c.header}': it is neither a column of the ToL barcoding sheet nor a field of the checklist ${checklist.id}.`,
      });
    }
  }
  // the columns a value can come from without a column of its own
  const filledElsewhere = new Map<string, boolean>([
    [ENTRYNUMBER, letterOf.has(BOLD_ID)],
    [ORGANISM_NAME, true],
  ]);
  if (!letterOf.has(SPECIMEN_ID)) {
    issue('missing_column', { row: null, field: null, message: `The column ${SPECIMEN_ID} is missing: each barcode names its specimen.` });
  }
  for (const f of checklist.fields) {
    const name = f.name.toUpperCase();
    if (f.requirement === 'mandatory' && !letterOf.has(name) && !filledElsewhere.get(name)) {
      issue('missing_column', {
        row: null,
        field: null,
        message: `The column ${f.name} is missing: the checklist ${checklist.id} makes it mandatory.`,
      });
    }
  }
  if (!ctx.studyAccession && !letterOf.has(STUDY)) {
    issue('study_needed', {
      row: null,
      field: null,
      message:
        'An ENA study accession (PRJEB… or ERP…) is needed: Webin-CLI sends barcodes into a study. Give study_accession with the upload, or a STUDY column.',
    });
  }

  const rows: CheckedBarcode[] = [];
  const entryRows = new Map<string, number>();
  for (const r of sheet.rows) {
    const before = errors.length;
    const cell = (name: string): SheetCell | undefined => r.cells.get(name);
    for (const c of r.cells.values()) {
      const max = c.header === SEQUENCE ? SEQUENCE_MAX_CHARS : CELL_MAX_CHARS;
      if (c.value.length > max) {
        issue('too_long', { row: r.rowNumber, field: c.header, message: cellTooLongMessage(`${c.letter}${r.rowNumber}`, c.value.length) });
      }
    }
    if (errors.length > before) continue;

    const named = cell(SPECIMEN_ID)?.value;
    const specimen = named ? ctx.specimens.get(named.toLowerCase()) : undefined;
    if (!named) {
      issue('mandatory', {
        row: r.rowNumber,
        field: letterOf.has(SPECIMEN_ID) ? SPECIMEN_ID : null,
        message: `${SPECIMEN_ID} is empty: name the barcode’s specimen.`,
      });
    } else if (!specimen) {
      issue('unknown_specimen', {
        row: r.rowNumber,
        field: SPECIMEN_ID,
        value: named,
        message: `${named} is not a specimen of this profile’s samples: give the SPECIMEN_ID (or ToLID) of a sample uploaded with the profile’s manifests.`,
      });
    }

    const study = cell(STUDY)?.value ?? ctx.studyAccession;
    if (study !== undefined && !StudyAccessionSchema.safeParse(study).success) {
      issue('study', {
        row: r.rowNumber,
        field: cell(STUDY) ? STUDY : null,
        value: study,
        message: `${study} is not an ENA study accession: give PRJEB… or ERP….`,
      });
    } else if (study === undefined && letterOf.has(STUDY)) {
      issue('study_needed', {
        row: r.rowNumber,
        field: STUDY,
        message: 'STUDY is empty: name the ENA study (PRJEB… or ERP…) of the barcode.',
      });
    }

    const values: BarcodeFields = {};
    const bold = cell(BOLD_ID)?.value;
    if (bold) values[BOLD_ID] = bold;
    for (const f of checklist.fields) {
      const name = f.name.toUpperCase();
      let value = cell(name)?.value;
      if (name === SEQUENCE && value) value = value.replace(/\s+/g, '');
      if (!value && name === ENTRYNUMBER) value = bold;
      if (!value && name === ORGANISM_NAME) value = specimen?.scientificName ?? undefined;
      const checked = value ? checkValue(f, value) : null;
      if (!value) {
        if (f.requirement === 'mandatory' && (letterOf.has(name) || filledElsewhere.get(name))) {
          issue('mandatory', {
            row: r.rowNumber,
            field: letterOf.has(name) ? name : null,
            message: `${f.name} is empty: the checklist ${checklist.id} makes it mandatory (${f.description || f.label}).`,
          });
        }
      } else if (typeof checked === 'string') values[f.name] = checked;
      else if (checked) issue(checked.rule, { row: r.rowNumber, field: letterOf.has(name) ? name : null, value, message: checked.message });
    }

    const entry = values[ENTRYNUMBER];
    if (entry) {
      const key = entry.toLowerCase();
      const first = entryRows.get(key);
      const stored = ctx.stored.get(key);
      if (first !== undefined) {
        issue('duplicate', {
          row: r.rowNumber,
          field: ENTRYNUMBER,
          value: entry,
          message: `ENTRYNUMBER ${entry} is given in row ${first} too: each barcode needs its own.`,
        });
      } else if (stored && (stored.status === 'processing' || stored.status === 'accepted')) {
        issue('already_sent', {
          row: r.rowNumber,
          field: letterOf.has(ENTRYNUMBER) ? ENTRYNUMBER : BOLD_ID,
          value: entry,
          message: `The barcode ${entry} of this profile is ${stored.status === 'accepted' ? 'at ENA already' : 'being sent to ENA'}: it cannot be replaced.`,
        });
      }
      entryRows.set(key, r.rowNumber);
    }
    if (errors.length > before || !specimen || !entry || !study) continue;
    const { [SEQUENCE]: sequence = '', ...rest } = values;
    rows.push({
      rowNumber: r.rowNumber,
      specimenId: specimen.specimenId,
      entryNumber: entry,
      studyAccession: study,
      fields: rest,
      sequence,
    });
  }
  return { errors, rows: errors.length ? [] : rows };
}

/** The value as ENA spells it, or why the field does not take it. */
function checkValue(f: ChecklistField, value: string): string | { rule: string; message: string } {
  if (LINE_BREAKING.test(value)) {
    return { rule: 'tab_or_line_break', message: `The ${f.name} holds a tab or a line break, which ENA's TAB file cannot hold.` };
  }
  if (f.type === 'choice' && f.choices?.length) {
    const found = f.choices.find((c) => choiceKey(c) === choiceKey(value));
    return found ?? { rule: 'vocabulary', message: `${value} is not a value of ${f.name}: one of ${listed(f.choices)}.` };
  }
  if (f.regex && !wholeMatch(f.regex, value)) {
    return { rule: 'pattern', message: `${value} is not a valid ${f.name}: it must match ${f.regex}.` };
  }
  return value;
}
