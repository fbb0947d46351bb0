import { isBiosampleAccession } from '@/lib/identifiers/patterns';

/** The public page of an accession at its repository, or null when the string is not one we know. */
export function accessionLink(accession: string): string | null {
  if (isBiosampleAccession(accession)) return `https://www.ebi.ac.uk/biosamples/samples/${accession}`;
  // ERZ…: an analysis (an assembly, a sequence annotation, a submission of DNA barcodes)
  if (/^(PRJ[EDN][A-Z]\d+|[SED]R[SAPXRZ]\d+)$/.test(accession)) return `https://www.ebi.ac.uk/ena/browser/view/${accession}`;
  if (/^10\.\d{4,}\//.test(accession)) return `https://doi.org/${accession}`;
  return null;
}
