/**
 * What the ENA builders take: plain data describing the objects of one Webin submission (docs/repositories.md §2–§4,
 * docs/studies-and-checklists.md §11.3). Aliases are unique per object type per Webin account; objects refer to each
 * other by alias (refname) or accession.
 */

/** One ACTION of a SUBMISSION. HOLD/RELEASE with a target act on an existing object; without, on this submission. */
export type SubmissionAction =
  | { type: 'ADD' }
  | { type: 'MODIFY' }
  | { type: 'VALIDATE' }
  /** `holdUntilDate` YYYY-MM-DD (at most two years ahead); without a date ENA holds for its default period */
  | { type: 'HOLD'; holdUntilDate?: string; target?: string }
  | { type: 'RELEASE'; target?: string }
  | { type: 'CANCEL'; target: string }
  /** re-fetches the receipt of an earlier ADD: the way back after a lost answer or an "already exists" error */
  | { type: 'RECEIPT'; target: string };

export interface SubmissionContact {
  name: string;
  informOnStatus?: string;
  informOnError?: string;
}

export interface SubmissionSpec {
  /** left out by default: ENA names the submission, and a fixed alias would make a retried ADD collide */
  alias?: string;
  centerName?: string;
  brokerName?: string;
  actions: SubmissionAction[];
  contacts?: SubmissionContact[];
}

export interface XrefLink {
  db: string;
  id: string;
}
export interface UrlLink {
  label: string;
  url: string;
}
export type ObjectLink = { xref: XrefLink } | { url: UrlLink };

export interface Attribute {
  tag: string;
  value: string;
  units?: string;
}

/** A study, registered at ENA as a PROJECT (ENA.project.xsd). */
export interface ProjectSpec {
  alias: string;
  centerName?: string;
  /** a short name; ENA shows the title when absent */
  name?: string;
  title: string;
  description?: string;
  /** an umbrella project groups other projects instead of holding data */
  umbrella?: boolean;
  locusTagPrefixes?: string[];
  links?: ObjectLink[];
  attributes?: Attribute[];
}

/** A SAMPLE (SRA.sample.xsd). `attributes` are written in order; the checklist goes in an `ENA-CHECKLIST` one. */
export interface SampleSpec {
  alias: string;
  centerName?: string;
  title?: string;
  taxonId: string;
  scientificName?: string;
  commonName?: string;
  description?: string;
  attributes: Attribute[];
  links?: ObjectLink[];
}

/** A reference by accession or by the alias (refname) of an object of the same account. */
export type ObjectRef = { accession: string } | { refname: string };

export type LibraryLayout = { type: 'SINGLE' } | { type: 'PAIRED'; nominalLength?: number; nominalSdev?: number };

/** An EXPERIMENT: how one sample's library was made and sequenced, within one study. */
export interface ExperimentSpec {
  alias: string;
  centerName?: string;
  title?: string;
  study: ObjectRef;
  sample: ObjectRef;
  designDescription?: string;
  libraryName?: string;
  libraryStrategy: string;
  librarySource: string;
  librarySelection: string;
  libraryLayout: LibraryLayout;
  libraryConstructionProtocol?: string;
  /** the PLATFORM child: ILLUMINA, OXFORD_NANOPORE, PACBIO_SMRT, … */
  platform: string;
  instrumentModel: string;
  attributes?: Attribute[];
}

export interface RunFile {
  /** path in the Webin upload area, e.g. `<submission>/reads/x_R1.fastq.gz` */
  filename: string;
  filetype: string;
  checksum: string;
  checksumMethod?: 'MD5' | 'SHA-256';
}

/** A RUN: the data files of one experiment. */
export interface RunSpec {
  alias: string;
  centerName?: string;
  title?: string;
  experiment: ObjectRef;
  files: RunFile[];
  attributes?: Attribute[];
}

/** The `filetype` values SRA.analysis.xsd allows on an analysis FILE (`AnalysisFileType`). */
export const ANALYSIS_FILE_TYPES = [
  'tab',
  'tsv',
  'bam',
  'bai',
  'cram',
  'crai',
  'vcf',
  'vcf_aggregate',
  'bcf',
  'tabix',
  'wig',
  'bed',
  'gff',
  'gff3',
  'gfa',
  'fasta',
  'fastq',
  'flatfile',
  'chromosome_list',
  'sample_list',
  'readme_file',
  'phenotype_file',
  'BioNano_native',
  'Kallisto_native',
  'unlocalised_list',
  'info',
  'manifest',
  'csi',
  'bcf_aggregate',
  'sample_tsv',
  'tax_tsv',
  'other',
] as const;
export type AnalysisFileType = (typeof ANALYSIS_FILE_TYPES)[number];

export interface AnalysisFile {
  /** path in the Webin upload area, e.g. `<submission>/annotation/genes.gff3.gz` */
  filename: string;
  filetype: AnalysisFileType;
  checksum: string;
  /** SRA.analysis.xsd allows MD5 only (runs also take SHA-256) */
  checksumMethod: 'MD5';
}

/**
 * An ANALYSIS (SRA.analysis.xsd): files derived from reads, within one study. Only sequence annotations for now;
 * the other analysis types carry elements of their own under ANALYSIS_TYPE.
 */
export interface AnalysisSpec {
  alias: string;
  centerName?: string;
  title: string;
  description?: string;
  study: ObjectRef;
  samples: ObjectRef[];
  /** written as RUN_REF */
  runs: ObjectRef[];
  analysisType: 'SEQUENCE_ANNOTATION';
  files: AnalysisFile[];
  attributes?: Attribute[];
}

/** Everything one Webin REST v2 submission carries, sent as a single `<WEBIN>` document. */
export interface WebinDocument {
  submission: SubmissionSpec;
  projects?: ProjectSpec[];
  samples?: SampleSpec[];
  experiments?: ExperimentSpec[];
  runs?: RunSpec[];
  analyses?: AnalysisSpec[];
}

/** Defaults a broker account applies to every object that does not name its own. */
export interface BrokerDefaults {
  centerName?: string;
  brokerName?: string;
}
