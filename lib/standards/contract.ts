import { z } from 'zod';

/**
 * Sample records rendered in a standard (docs/tol-manifests.md §5.3), and the RO-Crate of a manifest
 * (docs/tol-manifests.md §6): what the renderers produce, whichever API or page serves it.
 */

export const STANDARDS = ['dwc', 'ena', 'mixs', 'tol'] as const;
export const StandardSchema = z.enum(STANDARDS);
export type Standard = z.infer<typeof StandardSchema>;

/** A sample as the query API renders it: field (or term) → value, every value a string. */
export const SampleRecordSchema = z.record(z.string(), z.string()).meta({
  id: 'SampleRecord',
  description:
    'Field → value, every value a string (empty when unknown): the manifest’s exported fields in template order, then ' +
    'the service’s keys. In dwc/ena/mixs the fields are named by their terms, the service’s keys prefixed `svc_`. An ' +
    'ERGA sample under traditional-knowledge rights is `{"status": "embargoed"}`.',
});
export type SampleRecord = z.infer<typeof SampleRecordSchema>;

// ---------------------------------------------------------------------------------------------------------------
// RO-Crate of a manifest

const Ref = z.object({ '@id': z.string() });
const Refs = z.array(Ref);
const entity = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ '@id': z.string(), '@type': z.literal(type), ...shape });

export const RoCrateDescriptorSchema = entity('CreativeWork', { conformsTo: Ref, about: Ref });
export const RoCrateDatasetSchema = entity('Dataset', {
  name: z.string(),
  description: z.string(),
  identifier: z.string(),
  datePublished: z.string(),
  dateModified: z.string(),
  license: Ref,
  contributor: Refs.optional(),
  taxonomicRange: Refs.optional(),
  spatialCoverage: Refs.optional(),
  mentions: Refs,
});
export const RoCrateLicenseSchema = entity('CreativeWork', { name: z.string(), identifier: z.string() });
export const RoCrateBioSampleSchema = entity('BioSample', {
  name: z.string(),
  identifier: z.string(),
  dateCreated: z.string(),
  sameAs: Ref.optional(),
  taxonomicRange: Ref.optional(),
  locationCreated: Ref.optional(),
  collector: Refs.optional(),
  custodian: Refs.optional(),
  additionalProperty: Refs,
  subjectOf: Refs.optional(),
});
/** A run, assembly or sequence annotation made from a sample, at ENA (public studies only). */
export const RoCrateSequenceDataSchema = entity('Dataset', {
  name: z.string(),
  identifier: z.string(),
  additionalType: z.enum(['ENA run', 'ENA assembly', 'ENA sequence annotation']),
  url: z.string(),
  about: Ref,
  isPartOf: Ref.optional(),
});
export const RoCrateTaxonSchema = entity('Taxon', {
  name: z.string(),
  identifier: z.string().optional(),
  taxonRank: z.string().optional(),
  parentTaxon: Ref.optional(),
});
export const RoCratePlaceSchema = entity('Place', { name: z.string(), latitude: z.number().optional(), longitude: z.number().optional() });
export const RoCratePersonSchema = entity('Person', { name: z.string(), affiliation: Refs });
export const RoCrateOrganizationSchema = entity('Organization', { name: z.string() });
export const RoCratePropertySchema = entity('PropertyValue', { propertyID: z.string(), name: z.string(), value: z.string() });

export const RoCrateEntitySchema = z.union([
  RoCrateDescriptorSchema,
  RoCrateDatasetSchema,
  RoCrateLicenseSchema,
  RoCrateBioSampleSchema,
  RoCrateSequenceDataSchema,
  RoCrateTaxonSchema,
  RoCratePlaceSchema,
  RoCratePersonSchema,
  RoCrateOrganizationSchema,
  RoCratePropertySchema,
]);
export type RoCrateEntity = z.infer<typeof RoCrateEntitySchema>;

export const RoCrateSchema = z
  .object({
    '@context': z.array(z.union([z.string(), z.record(z.string(), z.string())])),
    '@graph': z.array(RoCrateEntitySchema),
  })
  .meta({
    id: 'RoCrate',
    description:
      'RO-Crate 1.2 metadata of a detached crate: the manifest as the root dataset, one BioSample per sample, with its ' +
      'people, organisations, taxa, places and field values',
  });
export type RoCrate = z.infer<typeof RoCrateSchema>;
