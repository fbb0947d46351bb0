/**
 * The identifiers' patterns and guards, without the schemas made from them (contract.ts): the guards run on the
 * service's hot paths and in the portal's pages, where importing a contract would load zod with them.
 */

export const PATTERNS = {
  /** RFC 4122 text form, any case: reports, manifests, submissions, dead letters */
  uuid: '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}',
  /** the reference system's ObjectId shape: sample (svc_id) and profile ids */
  objectId: '[0-9a-f]{24}',
  /** an NCBI taxon id */
  taxonId: '[1-9][0-9]{0,9}',
  /** a BioSamples accession: SAMEA…, SAMN…, SAMD… */
  biosampleAccession: 'SAM[EDN][A-Z]?[0-9]+',
  /** an ENA study (project) accession, which Webin-CLI's STUDY takes: PRJEB…, ERP… */
  enaStudyAccession: '(PRJEB|ERP)[0-9]+',
} as const;

const whole = (pattern: string) => new RegExp(`^${pattern}$`);
// one expression per shape, for the schemas of contract.ts and the guards below: a guard tests it directly (a schema's safeParse
// builds a result object each time, on a one-record look-up's hot path; docs/benchmarks.md)
export const UUID = whole(PATTERNS.uuid);
export const OBJECT_ID = whole(PATTERNS.objectId);
export const BIOSAMPLE_ACCESSION = whole(PATTERNS.biosampleAccession);
export const ENA_STUDY_ACCESSION = whole(PATTERNS.enaStudyAccession);
/** What an ENA study accession is, in the words a refusal uses. */
export const ENA_STUDY_ACCESSION_WORDS = 'an ENA study accession: PRJEB… or ERP…';

export const isUuid = (v: string): boolean => UUID.test(v);
export const isSvcId = (v: string): boolean => OBJECT_ID.test(v);
export const isProfileId = (v: string): boolean => OBJECT_ID.test(v);
export const isBiosampleAccession = (v: string): boolean => BIOSAMPLE_ACCESSION.test(v);
