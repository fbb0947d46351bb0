import { Invalid } from '@/lib/errors';
import { ManifestParseError } from '@/lib/manifests';
import { readCsvGrid } from '@/lib/manifests/parse/csv';
import { CORRECTION_COLUMNS, CORRECTIONS_MAX, type Correction, type CorrectionIssue } from './corrections-contract';
import { RIGHTS_APPLICABLE, RIGHTS_PROJECT_ID } from './rights-hold';

/**
 * What a curator sends, as rows: a JSON list or a CSV of biosampleAccession, field and value. Rows are numbered as a
 * spreadsheet of the corrections would number them (header 1, first correction 2) whichever form they came in, so
 * that a rule's message names the same row as a re-upload of that sheet would.
 */

export interface InputRow {
  row: number;
  accession: string;
  field: string;
  value: string;
}

export const FIRST_ROW = 2;

export const fromJson = (list: Correction[]): InputRow[] =>
  list.map((c, i) => ({ row: i + FIRST_ROW, accession: c.biosampleAccession.trim(), field: c.field.trim(), value: c.value }));

const COLUMNS_WORDS = `exactly three columns: ${CORRECTION_COLUMNS.join(', ')}`;

/** A CSV of corrections (comma, semicolon or tab separated, as readCsvGrid takes manifests), or 400 saying what is wrong. */
export async function fromCsv(bytes: Uint8Array): Promise<InputRow[]> {
  let grid: Awaited<ReturnType<typeof readCsvGrid>>;
  try {
    grid = await readCsvGrid(bytes);
  } catch (err) {
    if (err instanceof ManifestParseError) throw Invalid(err.message);
    throw err;
  }
  const header = grid.header.map((h) => h.trim());
  if (header.length !== CORRECTION_COLUMNS.length || CORRECTION_COLUMNS.some((c, i) => c.toLowerCase() !== header[i]?.toLowerCase())) {
    throw Invalid(`A CSV of corrections has a header row and ${COLUMNS_WORDS}; this one's header is ${header.join(', ') || 'empty'}.`);
  }
  const rows: InputRow[] = [];
  for (const r of grid.rows) {
    if (r.cells.every((c) => !c.trim())) continue;
    if (r.cells.length !== CORRECTION_COLUMNS.length) {
      throw Invalid(`Row ${r.rowNumber} has ${r.cells.length} cells: each row of corrections has ${COLUMNS_WORDS}.`);
    }
    const [accession = '', field = '', value = ''] = r.cells;
    rows.push({ row: r.rowNumber, accession: accession.trim(), field: field.trim(), value });
  }
  if (!rows.length) throw Invalid('The CSV holds no corrections: one row per field to correct, under its header row.');
  if (rows.length > CORRECTIONS_MAX) throw Invalid(`At most ${CORRECTIONS_MAX} corrections at once; this CSV has ${rows.length}.`);
  return rows;
}

// ---------------------------------------------------------------------------------------------------------------
// Fields a correction may not change

/** What the service assigns or keeps of a sample: never a manifest's value. */
const SERVICE_OWNED = new Set(
  [
    'svc_id',
    'public_name',
    'tolid',
    'biosample_accession',
    'biosampleaccession',
    'sra_accession',
    'submission_accession',
    'status',
    'profile_id',
    'manifest_id',
    'sample_derived_from',
    'sample_same_as',
    'sample_symbiont_of',
  ].map((f) => f.replace(/_/g, '')),
);

/** Fields a re-upload finds the sample by: changed, they would name another tube. */
const IDENTITY = new Set(['RACK_OR_PLATE_ID', 'TUBE_OR_WELL_ID', 'SYMBIONT']);
/** Fields that decide the traditional-knowledge hold (lib/samples/rights-hold.ts), which a re-upload re-checks. */
const RIGHTS = new Set([RIGHTS_APPLICABLE, RIGHTS_PROJECT_ID]);

/**
 * The manifest field a correction names (its definition's spelling), or why it cannot be corrected. `fields`: the
 * names of the sample's manifest definition.
 */
export function correctableField(
  field: string,
  fields: readonly string[],
  manifestType: string,
): { field: string; issue?: undefined } | { field?: undefined; issue: CorrectionIssue } {
  if (SERVICE_OWNED.has(field.toLowerCase().replace(/[_\s-]/g, ''))) {
    return {
      issue: { rule: 'not_correctable', message: `${field} is assigned by the service, not given in a manifest: it cannot be corrected.` },
    };
  }
  const name = fields.find((f) => f.toUpperCase() === field.toUpperCase());
  if (!name) return { issue: { rule: 'unknown_field', message: `${field} is not a field of the ${manifestType} manifest.` } };
  if (IDENTITY.has(name)) {
    return {
      issue: {
        rule: 'not_correctable',
        message: `${name} identifies the sample's tube, by which its manifest's re-uploads find it: it cannot be corrected.`,
      },
    };
  }
  if (RIGHTS.has(name)) {
    return {
      issue: {
        rule: 'not_correctable',
        message: `${name} decides whether the sample waits for its traditional-knowledge rights: correct it by re-uploading the manifest.`,
      },
    };
  }
  return { field: name };
}
