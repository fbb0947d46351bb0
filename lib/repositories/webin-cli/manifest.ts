import { fieldInvalid } from '@/lib/errors';

/**
 * The manifest file Webin-CLI reads for one submission: a line per field, `FIELD<TAB>value`. The field names and
 * which of them each context takes are Webin-CLI's own (its GenomeManifestReader, TranscriptomeManifestReader and
 * SequenceManifestReader); Webin-CLI refuses a field its context does not know, so each context has its own type.
 * File fields hold absolute paths: Webin-CLI would otherwise resolve them against its working directory.
 */

/** Webin-CLI's controlled list for ASSEMBLY_TYPE; ENA adds values now and then, so others pass through. */
export type GenomeAssemblyType =
  | 'clone or isolate'
  | 'primary metagenome'
  | 'binned metagenome'
  | 'Metagenome-Assembled Genome (MAG)'
  | 'Environmental Single-Cell Amplified Genome (SAG)'
  | (string & {});

/** Webin-CLI's controlled list for MOLECULETYPE; it assumes `genomic DNA` when the field is absent. */
export type GenomeMoleculeType = 'genomic DNA' | 'genomic RNA' | 'viral cRNA';

interface ManifestCommon {
  /** the study's accession (PRJEB…/ERP…) or its name in the submitting account */
  STUDY: string;
  DESCRIPTION?: string;
  /** runs the assembly or sequences were made from, each an accession or a name; written as one comma-separated line */
  RUN_REF?: string | readonly string[];
  /** for brokers: the submitters' names, comma separated; Webin-CLI wants ADDRESS with it */
  AUTHORS?: string;
  ADDRESS?: string;
}

/** `-context genome`: an assembly of a genome, from a FASTA or an annotated flat file. */
export interface GenomeManifest extends ManifestCommon {
  SAMPLE: string;
  /** the assembly's unique name in the account; Webin-CLI also names its output folder after it */
  ASSEMBLYNAME: string;
  ASSEMBLY_TYPE?: GenomeAssemblyType;
  /** sequencing coverage, a positive number */
  COVERAGE: number | string;
  PROGRAM: string;
  PLATFORM: string;
  MOLECULETYPE?: GenomeMoleculeType;
  MINGAPLENGTH?: number;
  /** a third party assembly */
  TPA?: boolean;
  FASTA?: string;
  FLATFILE?: string;
  AGP?: string;
  CHROMOSOME_LIST?: string;
  UNLOCALISED_LIST?: string;
}

/** `-context transcriptome`: Webin-CLI takes fewer fields here than for a genome (no coverage, gaps or chromosomes). */
export interface TranscriptomeManifest extends ManifestCommon {
  SAMPLE: string;
  ASSEMBLYNAME: string;
  PROGRAM: string;
  PLATFORM: string;
  TPA?: boolean;
  FASTA?: string;
  FLATFILE?: string;
}

/**
 * `-context sequence`: annotated sequences such as DNA barcodes, as a TAB file made from one of ENA's annotation
 * checklists or as an EMBL flat file. Webin-CLI takes no FASTA in this context: sequences without annotation have no
 * place in it.
 */
export interface SequenceManifest extends ManifestCommon {
  /** the submission's unique name in the account; Webin-CLI also names its output folder after it */
  NAME: string;
  TAB?: string;
  FLATFILE?: string;
}

export interface WebinCliManifests {
  genome: GenomeManifest;
  transcriptome: TranscriptomeManifest;
  sequence: SequenceManifest;
}

export type WebinCliContext = keyof WebinCliManifests;
export type WebinCliManifest = WebinCliManifests[WebinCliContext];

type ManifestValue = string | number | boolean | readonly string[];
type ManifestField = keyof GenomeManifest | keyof TranscriptomeManifest | keyof SequenceManifest;

/** The order fields are written in, whatever order the object has them in: the same manifest makes the same file. */
const FIELD_ORDER: readonly ManifestField[] = [
  'STUDY',
  'SAMPLE',
  'NAME',
  'ASSEMBLYNAME',
  'ASSEMBLY_TYPE',
  'DESCRIPTION',
  'COVERAGE',
  'PROGRAM',
  'PLATFORM',
  'MOLECULETYPE',
  'MINGAPLENGTH',
  'RUN_REF',
  'TPA',
  'AUTHORS',
  'ADDRESS',
  'FASTA',
  'FLATFILE',
  'AGP',
  'CHROMOSOME_LIST',
  'UNLOCALISED_LIST',
  'TAB',
];

/** The fields whose value is a file's path. */
export const MANIFEST_FILE_FIELDS = ['FASTA', 'FLATFILE', 'AGP', 'CHROMOSOME_LIST', 'UNLOCALISED_LIST', 'TAB'] as const;

/** The submission's name as the manifest gives it: ASSEMBLYNAME for an assembly, NAME for sequences. */
export const manifestName = (manifest: WebinCliManifest): string => ('NAME' in manifest ? manifest.NAME : manifest.ASSEMBLYNAME);

// Webin-CLI reads a line per field and splits it at the first whitespace: a line break in a value would start a
// field of its own (a forged FASTA, say), and a tab would be read as one more separator
const LINE_BREAKING = /[\t\n\r]/;

function textOf(field: ManifestField, value: ManifestValue): string {
  let text: string;
  if (typeof value === 'boolean') text = value ? 'true' : 'false';
  else if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw fieldInvalid(field, `The manifest field ${field} must be a finite number, not ${value}.`);
    text = String(value);
  } else if (typeof value === 'string') text = value;
  else {
    const comma = value.find((v) => v.includes(','));
    // the list is written comma separated, so a comma inside an item would split it in two
    if (comma !== undefined)
      throw fieldInvalid(field, `An item of the manifest field ${field} contains a comma: ${JSON.stringify(comma)}.`);
    text = value.map((v) => v.trim()).join(',');
  }
  if (LINE_BREAKING.test(text)) {
    throw fieldInvalid(field, `The manifest field ${field} contains a tab or a line break, which Webin-CLI's manifest cannot hold.`);
  }
  return text.trim();
}

/**
 * The manifest's text: one `FIELD<TAB>value` line per field that has a value, in a fixed order. Throws `Invalid`
 * (naming the field) for a value the format cannot hold.
 */
export function writeManifestText(manifest: WebinCliManifest): string {
  const fields: Partial<Record<ManifestField, ManifestValue>> = manifest;
  const lines: string[] = [];
  for (const field of FIELD_ORDER) {
    const value = fields[field];
    if (value === undefined) continue;
    const text = textOf(field, value);
    // an empty value is no value: Webin-CLI would report the field as given but blank
    if (text) lines.push(`${field}\t${text}`);
  }
  return `${lines.join('\n')}\n`;
}
