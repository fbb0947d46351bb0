/**
 * The study schemas' names and what each describes, as plain values (the schemas made from them are in contract.ts):
 * the portal's pages name them in the browser, where importing the contract would load zod with them.
 */

/** The study schemas, each configured by one workbook under db/seed/data/schemas. */
export const SCHEMA_NAMES = ['svc_single_cell', 'svc_image_rembi', 'svc_image_stx_fish', 'svc_read'] as const;
/** Whether a value (a page's choice, an address's) names one of the study schemas. */
export const isSchemaName = (v: unknown): v is (typeof SCHEMA_NAMES)[number] => (SCHEMA_NAMES as readonly unknown[]).includes(v);

/** What each schema describes, in the portal's words. */
export const SCHEMA_LABELS: Record<(typeof SCHEMA_NAMES)[number], string> = {
  svc_single_cell: 'Single-cell RNA-seq',
  svc_image_rembi: 'Images (REMBI)',
  svc_image_stx_fish: 'Spatial transcriptomics (FISH images)',
  svc_read: 'Reads, assemblies and annotations',
};
