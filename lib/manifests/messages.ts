/**
 * The human sentences of validation issues. Where docs/tol-manifests.md §2 quotes the reference system the wording is
 * kept (its "COPO will …" becomes an impersonal "… will be …"); sentences the reference lacks follow the same style.
 */

const TOKENS_ALLOWED = "Values of ['NOT_APPLICABLE', 'NOT_COLLECTED', 'NOT_PROVIDED'] are allowed, unless otherwise stated in the SOP.";

export const list = (values: readonly string[]): string => `[${values.map((v) => `'${v}'`).join(', ')}]`;

export const messages = {
  fieldNotFound: (field: string) => `Field not found - ${field}`,
  unknownColumn: (header: string, manifest: string) =>
    `Unknown column '${header}': it is not a field of the ${manifest} manifest and its values will be ignored.`,
  headerNormalised: (header: string, field: string) => `Column header '${header}' was read as ${field}.`,
  duplicateColumn: (field: string, headers: string[]) =>
    `Columns ${headers.map((h) => `'${h}'`).join(' and ')} both hold ${field}. Keep one of them.`,
  empty: () => 'Manifest uploaded is empty',
  tooManyRows: (max: number) => `Cannot process more than ${max} samples in a single manifest file.`,
  issuesNotListed: (listed: number, errors: number, warnings: number) =>
    `Only the first ${listed.toLocaleString('en')} errors and warnings of each kind are listed: ${[
      errors && `${errors.toLocaleString('en')} more errors`,
      warnings && `${warnings.toLocaleString('en')} more warnings`,
    ]
      .filter(Boolean)
      .join(' and ')} were found. Correct the ones listed and upload the sheet again to see the rest.`,
  templatePrefill: (rows: string) => `Rows ${rows} hold only values pre-filled by the template (SERIES, SYMBIONT) and were ignored.`,

  missing: (field: string, row: number) =>
    `Missing data detected in column ${field} at row ${row}. All required fields must have a value. There must be no empty rows. ${TOKENS_ALLOWED}`,
  missingSymbiont: (row: number) =>
    `Missing data detected in column SYMBIONT at row ${row}. All required fields must have a value. There must be no empty rows. Values of TARGET and SYMBIONT are allowed.`,
  invalid: (value: string, field: string, row: number, allowed: string) =>
    `Invalid data: ${value} in column ${field} at row ${row}. Allowed values are ${allowed}`,
  caseFormat: (value: string, row: number, field: string, canonical: string) =>
    `Case/Format warning: Value ${value} in row ${row} for field ${field} matches an allowed value but differs in case or format. It will be replaced by the expected format, ${canonical}.`,
  location: (value: string, row: number) =>
    `Invalid data: ${value} in column COLLECTION_LOCATION at row ${row}. If this is a location, start with the Country, adding more specific details separated with '|'. See list of allowed Country entries at ERC000053`,
  url: (value: string, field: string, row: number) =>
    `Invalid URL: ${value} in column ${field} at row ${row}. The entered value is not a valid URL.`,
  dateFormat: (value: string, field: string, row: number, format: string) =>
    `Invalid date: ${value} in column ${field} at row ${row}. Dates should be in format ${format}`,
  dateNotInCalendar: (value: string, field: string, row: number) =>
    `Invalid date: ${value} in column ${field} at row ${row}. This date does not exist.`,
  dateFuture: (value: string, field: string, row: number) =>
    `Invalid date: ${value} in column ${field} at row ${row}. Date cannot be in the future.`,
  dateRangeReversed: (value: string, field: string, row: number) =>
    `Invalid date: ${value} in column ${field} at row ${row}. The end of the range is before its start.`,
  preservedBeforeCollected: (value: string, row: number, collected: string) =>
    `Warning: DATE_OF_PRESERVATION ${value} at row ${row} is before DATE_OF_COLLECTION ${collected}. Please check both dates.`,
  coordinateRange: (value: string, field: string, row: number, min: number, max: number) =>
    `Invalid data: ${value} in column ${field} at row ${row}. Allowed values are numbers from ${min} to ${max}`,
  timeCut: (value: string, row: number, cut: string) => `TIME_OF_COLLECTION ${value} at row ${row} will be stored as ${cut}.`,

  fluidx: (value: string, field: string, row: number) =>
    `Warning: ${value} in column ${field} at row ${row} does not look like FluidX format. Please check that this is correct before submitting.`,
  rackTubeBothTokens: (row: number) =>
    `NOT_APPLICABLE, NOT_PROVIDED or NOT_COLLECTED value found in both RACK_OR_PLATE_ID and TUBE_OR_WELL_ID at row ${row}.`,
  rackTubeToken: (row: number) =>
    `NOT_APPLICABLE, NOT_PROVIDED, NOT_COLLECTED or "NA" value found in column, RACK_OR_PLATE_ID or column, TUBE_OR_WELL_ID at row ${row}.`,
  rackTubeSlash: (row: number) =>
    `Slash found in column, RACK_OR_PLATE_ID, or column, TUBE_OR_WELL_ID at row ${row}. '/' and '\\' are not allowed in these columns.`,
  rackTubeExists: (key: string) => `Duplicate RACK_OR_PLATE_ID and TUBE_OR_WELL_ID already exist in another profile: ${key}`,
  duplicateWithoutTarget: (key: string, rows: string) =>
    `Duplicate RACK_OR_PLATE_ID/TUBE_OR_WELL_ID ${key} (rows ${rows}) found without TARGET in SYMBIONT field. One of these duplicates must be listed as TARGET`,
  multipleTargets: (key: string, rows: string) => `Multiple Targets found for RACK_OR_PLATE_ID/TUBE_OR_WELL_ID: ${key} (rows ${rows})`,
  orphanSymbiont: (tube: string) => `Symbiont(s) found with TUBE_OR_WELL_ID: ${tube} has no associated Target`,
  symbiontOverwrite: (row: number, targetRow: number, fields: string[]) =>
    `Warning: the SYMBIONT at row ${row} takes ${fields.join(', ')} from its TARGET at row ${targetRow}; its own values in these fields will be overwritten.`,
  updateNewSample: (key: string) =>
    `New sample detected: RACK_OR_PLATE_ID/TUBE_OR_WELL_ID (${key}). Sample cannot be processed. Please add the sample to a new manifest to proceed with the upload.`,
  updateSymbiont: (row: number) =>
    `SYMBIONT at row ${row} cannot be processed: this manifest updates existing samples, and symbionts cannot be added or updated by a re-upload.`,

  specimenFormat: (value: string, row: number, by: string, expected: string) =>
    `Invalid data: ${value} in column SPECIMEN_ID at row ${row}. Expected format for ${by} is ${expected}.`,
  specimenToken: (value: string, row: number) =>
    `Invalid data: ${value} in column SPECIMEN_ID at row ${row}. A SPECIMEN_ID is required; NOT_APPLICABLE, NOT_COLLECTED and NOT_PROVIDED are not allowed.`,
  specimenTaxon: (row: number, specimen: string, taxon: string, inManifest: boolean) =>
    `Invalid SPECIMEN_ID and TAXON pair: at row ${row}, SPECIMEN_ID ${specimen} has already been used for a specimen with TAXON_ID ${taxon}${inManifest ? ' in this manifest' : ''}`,
  wholeOrganism: (specimen: string, rows: string) =>
    `Duplicate SPECIMEN_ID and ORGANISM_PART 'WHOLE_ORGANISM' pair found for specimen: ${specimen} (rows ${rows})`,

  barcodingOverwrite: (fields: string[], row: number, value: string) =>
    `Warning: Overwriting ${fields.join(', ')} at row ${row} because TISSUE_REMOVED_FOR_BARCODING is ${value}`,
  biobankingVoucher: (row: number, removed: string, voucher: string) =>
    `ERGA requires to voucher your sample: ${removed} is Y at row ${row} but ${voucher} is not given. Please provide the voucher id.`,
  originalLocation: (row: number) =>
    `Missing data: ORIGINAL_GEOGRAPHIC_LOCATION missing at row ${row}. If ORIGINAL_COLLECTION_DATE is provided, ORIGINAL_GEOGRAPHIC_LOCATION must also be provided.`,
  permitFilename: (value: string, field: string, row: number) =>
    `Invalid data: ${value} in column ${field} at row ${row}. Expected value should be filename (including '.pdf' extension) if permit is required or NOT_APPLICABLE if permit is not required`,
  permitConflict: (pair: string, prefix: string, specimen: string) =>
    `Conflicting data: ${pair} in column ${prefix}_REQUIRED | column ${prefix}_FILENAME for SPECIMEN_ID ${specimen}`,

  latLongMissing: (field: string, row: number) =>
    `Missing data detected in column ${field} at row ${row}. DECIMAL_LATITUDE, DECIMAL_LONGITUDE, LATITUDE_START, LONGITUDE_START, LATITUDE_END and LONGITUDE_END must all have a value; use NOT_COLLECTED where a coordinate is not known.`,
  latLongDecimalMixed: (row: number) =>
    `Invalid data at row ${row}: DECIMAL_LATITUDE and DECIMAL_LONGITUDE must both be numbers or both be NOT_COLLECTED.`,
  latLongStartEndMixed: (row: number) =>
    `Invalid data at row ${row}: LATITUDE_START, LONGITUDE_START, LATITUDE_END and LONGITUDE_END must all be numbers or all be NOT_COLLECTED.`,
  latLongBoth: (row: number) =>
    `Invalid data at row ${row}: give either DECIMAL_LATITUDE and DECIMAL_LONGITUDE or the start and end coordinates, and set the other group to NOT_COLLECTED.`,
  latLongNone: (row: number) =>
    `Invalid data at row ${row}: both DECIMAL_LATITUDE/DECIMAL_LONGITUDE and the start and end coordinates are NOT_COLLECTED. Provide one of the two groups.`,

  popGenomicsPurpose: (value: string, row: number) =>
    `Invalid data: ${value} in column PURPOSE_OF_SPECIMEN at row ${row}. Allowed value is RESEQUENCING for profiles whose associated type is POP_GENOMICS`,
  popGenomicsCombined: (profile: string) =>
    `Invalid associated profile type for profile, ${profile}. POP_GENOMICS cannot be combined with other associated profile types.`,
  resequencingWithoutPopGenomics: (profile: string, rows: string) =>
    `Invalid associated profile type for profile, ${profile}. PURPOSE_OF_SPECIMEN RESEQUENCING (rows ${rows}) needs a profile whose associated type is POP_GENOMICS.`,
  defaultSubstituted: (field: string, row: number, value: string) =>
    `Missing ${field} at row ${row}. It will be substituted with the default value, ${value}.`,

  taxonBothMissing: (row: number) => `Missing data: both TAXON_ID and SCIENTIFIC_NAME missing from row ${row}. Provide at least one`,
  taxonIdNotInteger: (value: string, row: number) => `Non integer value detected in TAXON_ID column: ${value} at row ${row}`,
  nameUnresolved: (name: string, row: number) =>
    `Invalid data: couldn't resolve SCIENTIFIC_NAME ${name} at row ${row}. Please check the name or add the TAXON_ID`,
  taxonFilled: (row: number, name: string, taxId: string) =>
    `Missing TAXON_ID: row ${row} - TAXON_ID for ${name} will be filled with ${taxId}`,
  taxonNotFound: (taxId: string, row: number) =>
    `TAXON_ID ${taxId} at row ${row} is invalid. Check that SCIENTIFIC_NAME and TAXON_ID match in the ENA/NCBI taxonomy`,
  taxonNotSubmittable: (taxId: string) => `TAXON_ID ${taxId} is not submittable to ENA`,
  taxonRank: (taxId: string, ranks: string) => `TAXON_ID ${taxId} is not a ${ranks} level entity.`,
  taxonNotBinomial: (taxId: string, name: string) =>
    `For the TAXON_ID ${taxId}, the scientific name ${name}, is not a valid binomial name. Please contact the ENA helpdesk to register a taxon with a binomial name.`,
  synonym: (name: string, row: number, official: string) =>
    `Synonym warning: ${name} at row ${row} is a synonym of ${official}. The official scientific name will be substituted.`,
  nameMismatch: (name: string, row: number, expected: string) =>
    `Invalid data: ${name} in column SCIENTIFIC_NAME at row ${row}. Expected value is ${expected}`,
  taxonIdMismatch: (taxId: string, row: number, expected: string[]) =>
    `Invalid data: ${taxId} in column TAXON_ID at row ${row}. Expected value is ${expected.length > 1 ? `one of ${expected.join(', ')}` : (expected[0] ?? '')}`,
  lineageFilled: (field: string, row: number, name: string, value: string) =>
    `Missing ${field}: row ${row} - ${field} for ${name} will be filled with ${value}`,
  lineageMismatch: (value: string, field: string, row: number, expected: string) =>
    `Invalid data: ${value} in column ${field} at row ${row}. Expected value is ${expected}`,
  lineageAbsent: (value: string, field: string, row: number) =>
    `Invalid data: ${value} in column ${field} at row ${row}. Expected value is missing in NCBI, please default to NOT_APPLICABLE`,
};

/** "2, 3, 5–9" from sorted row numbers, shortened after a handful of ranges. */
export function rowRanges(rows: readonly number[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < rows.length) {
    let j = i;
    while (j + 1 < rows.length && rows[j + 1] === (rows[j] ?? 0) + 1) j++;
    parts.push(j > i ? `${rows[i]}–${rows[j]}` : String(rows[i]));
    i = j + 1;
  }
  return parts.length > 6 ? `${parts.slice(0, 6).join(', ')} and ${parts.length - 6} more` : parts.join(', ');
}
