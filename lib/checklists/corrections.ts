import type { FieldDefinition } from './contract';
import { compilePattern, type Pattern } from './patterns';

/**
 * Defects of the published schema workbooks (docs/studies-and-checklists.md §2), corrected when the definitions are
 * generated from them rather than copied into every template. NOTICE lists each one. The rule they serve: the
 * example row of every template, copied below the separator, passes that checklist's own validation.
 */

/** REMBI's link_description carries the rembi_version pattern `^1\.5$`, which would reject every description. */
export const DROPPED_PATTERNS: ReadonlyArray<{ component: string; term: string; pattern: string }> = [
  { component: 'link', term: 'link_description', pattern: '^1\\.5$' },
];

/** copo_name typos: the key in the sheet → the term_mapping key it means */
export const MAPPING_KEY_FIXES: Record<string, string> = { scientic_name: 'scientific_name' };

interface ExampleCorrection {
  component: string;
  term: string;
  /** what the workbook holds, so a corrected workbook is left alone */
  was: string;
  example: string;
}

/**
 * Examples that are missing for a mandatory term, outside their own list, or too short for their own pattern, per
 * workbook file. Keyed by file so that a new workbook version starts from its own content.
 */
const EXAMPLE_CORRECTIONS: Record<string, readonly ExampleCorrection[]> = {
  'singlecell_schema_main_v0.4.xlsx': [
    {
      component: 'cell_suspension',
      term: 'purification_protocol',
      was: '',
      example: 'https://www.protocols.io/view/facs-purification-of-single-cells-from-tissue',
    },
    {
      component: 'lib_prep',
      term: 'pool_creation_protocol',
      was: '',
      example: 'https://www.protocols.io/view/pooling-of-single-cell-libraries-before-sequencing',
    },
  ],
  'rembi_image_schema_main_v0.1.xlsx': [
    {
      component: 'study',
      term: 'description',
      was: 'COVID drug screen',
      example: 'High-content screen of approved drugs against SARS-CoV-2 infection in the Caco2 cell line',
    },
    { component: 'link', term: 'link_url', was: '', example: 'https://github.com/example-lab/caco2-screen-analysis' },
    {
      component: 'study_component',
      term: 'description',
      was: '',
      example: 'Maximum-intensity projections of stitched confocal tiles, one image per well and drug',
    },
    { component: 'image_acquisition', term: 'image_method', was: '', example: 'confocal microscopy' },
    {
      component: 'image_correlation',
      term: 'fiducials_used',
      was: '',
      example: '100 nm gold nanoparticles visible in both modalities',
    },
    {
      component: 'image_correlation',
      term: 'transformation_matrix',
      was: '',
      example: 'Affine transformation estimated from the fiducials with BigWarp',
    },
  ],
  'stx_fish_image_schema_main_v0.1.xlsx': [
    // the full licence name of the REMBI list, where this list holds SPDX identifiers
    { component: 'study', term: 'licence', was: 'MIT License', example: 'MIT' },
  ],
  'reads_schema_main_v0.1.xlsx': [
    // the annotation's file names an annotation id the sequencing_annotation example does not have
    { component: 'sequencing_annotation_file', term: 'sequencing_annotation_id', was: 'SEQANN001', example: 'ANNO01' },
  ],
};

/** A string term whose pattern takes ISO dates (YYYY-MM-DD) and nothing looser: its cells are dates. */
export function isDateTerm(f: Pick<FieldDefinition, 'type' | 'regex'>): boolean {
  if (f.type !== 'string' || !f.regex) return false;
  let re: Pattern;
  try {
    re = compilePattern(f.regex);
  } catch {
    // the load checks report the pattern itself
    return false;
  }
  return re.test('2024-05-01') && !re.test('2024-05-01x') && !re.test('20240501') && !re.test('May 2024');
}

const EXCEL_EPOCH_DAYS = 25569;
const DAY_MS = 86_400_000;

/** An Excel date serial written out as text (e.g. `46539`) as the ISO date it stands for. */
function serialAsDate(text: string): string | undefined {
  if (!/^\d{5}$/.test(text)) return undefined;
  return new Date((Number(text) - EXCEL_EPOCH_DAYS) * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The example a template shows for a term: the workbook's, corrected where it fails the term's own rules: listed
 * corrections first, then an enum value in another case spelt as the list spells it, then a date that the workbook
 * generator turned into its Excel serial number.
 */
export function correctedExample(source: string, component: string, f: Omit<FieldDefinition, 'mandatory'>): string {
  const listed = EXAMPLE_CORRECTIONS[source]?.find((c) => c.component === component && c.term === f.termName);
  if (listed && listed.was === f.example) return listed.example;
  if (f.type === 'enum' && f.allowedValues && !f.allowedValues.includes(f.example)) {
    const same = f.allowedValues.find((v) => v.toLowerCase() === f.example.trim().toLowerCase());
    if (same) return same;
  }
  if (isDateTerm(f)) return serialAsDate(f.example) ?? f.example;
  return f.example;
}
