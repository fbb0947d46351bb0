/**
 * Every rule code a validation report can carry, with its severity and what it means. Codes are stable: clients
 * and stored reports depend on them. Reporter only accepts these codes, so the list cannot drift from the rules.
 */
export const RULES = {
  // sheet
  missing_column: { severity: 'error', description: 'a required column is absent' },
  duplicate_column: { severity: 'error', description: 'two headers name the same field' },
  unknown_column: { severity: 'warning', description: 'a header that is no field of the manifest; ignored' },
  header: { severity: 'warning', description: 'a header matched its field only after normalisation' },
  empty: { severity: 'error', description: 'no data rows' },
  too_many_rows: { severity: 'error', description: 'more data rows than allowed' },
  template_prefill: { severity: 'warning', description: 'rows holding only template pre-fill were ignored' },
  // cells
  mandatory: { severity: 'error', description: 'a required cell is empty (NA spellings count as empty)' },
  vocabulary: { severity: 'error', description: 'a value outside the field’s vocabulary' },
  vocabulary_normalised: {
    severity: 'warning',
    description: 'a vocabulary value in another case/format; replaced by the canonical spelling',
  },
  pattern: { severity: 'error', description: 'a value not in the field’s format (ORCID, Local Contexts id, …)' },
  integer: { severity: 'error', description: 'not an integer' },
  number: { severity: 'error', description: 'not a number of the required form' },
  date: { severity: 'error', description: 'not a date in the required format, or no such calendar day' },
  date_future: { severity: 'error', description: 'a date after today' },
  date_order: { severity: 'warning', description: 'preserved before collected' },
  time: { severity: 'error', description: 'not a 24-hour HH:MM time' },
  coordinates: { severity: 'error', description: 'a latitude/longitude that is malformed or out of range' },
  collection_location: {
    severity: 'error',
    description: 'COLLECTION_LOCATION does not start with a known country followed by | and a region',
  },
  url: { severity: 'error', description: 'not a valid URL' },
  // rack and tube
  rack_tube_token: { severity: 'error', description: 'RACK_OR_PLATE_ID / TUBE_OR_WELL_ID is a missing-value token or NA' },
  rack_tube_slash: { severity: 'error', description: 'RACK_OR_PLATE_ID / TUBE_OR_WELL_ID contains / or \\' },
  fluidx: { severity: 'warning', description: 'RACK_OR_PLATE_ID / TUBE_OR_WELL_ID is not in FluidX format' },
  rack_tube_duplicate: { severity: 'error', description: 'rows sharing a tube are not one TARGET with its SYMBIONTs' },
  rack_tube_exists: { severity: 'error', description: 'the tube belongs to a sample of another profile' },
  orphan_symbiont: { severity: 'error', description: 'a SYMBIONT without a TARGET in its tube' },
  symbiont_overwrite: { severity: 'warning', description: 'a SYMBIONT’s own values will be replaced by its TARGET’s' },
  update_new_sample: { severity: 'error', description: 'in an update upload, a row that matches no stored sample' },
  update_symbiont: { severity: 'error', description: 'in an update upload, a SYMBIONT row' },
  // specimens
  specimen_id: { severity: 'error', description: 'SPECIMEN_ID not in the format of its GAL/partner/project' },
  specimen_taxon: { severity: 'error', description: 'a SPECIMEN_ID used with another TAXON_ID (here or stored)' },
  whole_organism_duplicate: { severity: 'error', description: 'WHOLE_ORGANISM twice for one specimen' },
  barcoding_overwrite: { severity: 'warning', description: 'barcoding fields set to NOT_APPLICABLE as no tissue was removed' },
  original_location: { severity: 'error', description: 'ORIGINAL_COLLECTION_DATE without ORIGINAL_GEOGRAPHIC_LOCATION' },
  // ERGA
  erga_coordinates: {
    severity: 'error',
    description: 'ERGA’s decimal and start/end coordinate groups are not one numeric, one NOT_COLLECTED',
  },
  permit_filename: { severity: 'error', description: 'a permit file name that does not match its REQUIRED flag' },
  permit_conflict: { severity: 'error', description: 'rows of one specimen disagree on a permit' },
  biobanking_voucher: { severity: 'warning', description: 'biobanked tissue/DNA without a voucher id' },
  pop_genomics: { severity: 'error', description: 'POP_GENOMICS profile and PURPOSE_OF_SPECIMEN disagree' },
  default_substituted: { severity: 'warning', description: 'a blank POP_GENOMICS cell filled with its default' },
  // taxonomy
  taxon_missing: { severity: 'error', description: 'neither TAXON_ID nor SCIENTIFIC_NAME' },
  taxon_id_integer: { severity: 'error', description: 'TAXON_ID is not an integer' },
  name_unresolved: { severity: 'error', description: 'SCIENTIFIC_NAME unknown to the taxonomy (TAXON_ID blank)' },
  taxon_filled: { severity: 'warning', description: 'a blank TAXON_ID filled from SCIENTIFIC_NAME' },
  taxon_not_found: { severity: 'error', description: 'TAXON_ID unknown to the taxonomy' },
  taxon_not_submittable: { severity: 'error', description: 'the taxon is not submittable to ENA' },
  taxon_rank: { severity: 'error', description: 'the taxon is not a species (or subspecies)' },
  taxon_not_binomial: { severity: 'error', description: 'the taxon has no binomial name' },
  taxon_mismatch: { severity: 'error', description: 'SCIENTIFIC_NAME and TAXON_ID name different taxa' },
  taxon_synonym: { severity: 'warning', description: 'SCIENTIFIC_NAME is a synonym; replaced by the official name' },
  lineage: { severity: 'error', description: 'GENUS / FAMILY / ORDER_OR_GROUP differ from the taxon’s lineage' },
  lineage_filled: { severity: 'warning', description: 'a blank GENUS / FAMILY / ORDER_OR_GROUP filled from the lineage' },
} as const satisfies Record<string, { severity: 'error' | 'warning'; description: string }>;

export type RuleCode = keyof typeof RULES;
