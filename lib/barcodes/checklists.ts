/**
 * The sequence checklists barcodes are sent under, as a plain list beside the schema made from it (contract.ts): the
 * barcodes' upload offers them on a profile's page, where importing the contract would load zod with the page.
 */

/** COI barcodes and rRNA genes. */
export const BARCODE_CHECKLISTS = ['ERT000020', 'ERT000002'] as const;
