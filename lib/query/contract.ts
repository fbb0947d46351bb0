import { z } from 'zod';
import { SvcIdSchema, UuidSchema } from '../identifiers/contract';

// shared with the layers below the query API, declared where they belong; the API's contract names them too
export * from '../standards/contract';
export { parseDate } from '../values/dates';

/**
 * The public query API (the reference's read endpoints): its parameters as they arrive, its answers — the W wrapper
 * `{"status":"OK","number_found":N,"data":[…]}`, its one-element-array form AW, sample records, statuses, audit rows,
 * versions, tube or well ids, field lists — and the RO-Crate of a manifest. The parameters are taken as strings
 * (absent, once or repeated) and checked by the domain, so that a bad value gets the reference's sentence.
 */

// ---------------------------------------------------------------------------------------------------------------
// The audit trail's rows as the query API and the portal show them (docs/tol-manifests.md §4.4): declared here, below
// the audit domain that reads them (lib/audit/audit.ts uses this API's paging and streams)

/** user: a re-uploaded manifest changed the field; system: the service did (an accession, a ToLID…). */
// in the reference's order, which its messages keep ('Must be one of: system or user')
export const UPDATE_TYPES = ['system', 'user'] as const;
export const UpdateTypeSchema = z.enum(UPDATE_TYPES);
export type UpdateType = z.infer<typeof UpdateTypeSchema>;

/** One changed field of a sample, with the sample's current identifiers; never who made the change. */
export const AuditRecordSchema = z
  .object({
    field: z.string(),
    outdated_value: z.string(),
    updated_value: z.string(),
    update_type: UpdateTypeSchema,
    time_updated: z.string(),
    RACK_OR_PLATE_ID: z.string(),
    SPECIMEN_ID: z.string(),
    TUBE_OR_WELL_ID: z.string(),
    biosampleAccession: z.string(),
    manifest_id: z.string(),
    public_name: z.string(),
    sraAccession: z.string(),
    svc_audit_type: z.literal('update_log').meta({ description: 'rows are field updates' }),
    svc_id: z.string(),
    svc_profile_title: z.string(),
    tol_project: z.string(),
  })
  .meta({ id: 'AuditRecord' });
/** The CSV columns of the audit answers, in the reference's order. */
export const AUDIT_COLUMNS = AuditRecordSchema.keyof().options;
export type AuditRecord = z.infer<typeof AuditRecordSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Parameters

/** A parameter as it arrives: absent, once, or repeated. */
export const RawParamSchema = z.union([z.string(), z.array(z.string())]).optional();
export type Raw = z.infer<typeof RawParamSchema>;

export type ReturnType = 'json' | 'csv' | 'rocrate';

const returnType = RawParamSchema.meta({ description: 'json (default) or csv', example: 'json' });
const limit = RawParamSchema.meta({ description: 'at most this many rows (extension; default all). number_found is always the total' });
const offset = RawParamSchema.meta({ description: 'skip this many rows first (extension; default 0)' });

/** What every list endpoint takes: the format, the standard the records are named in, and paging. */
export const OutputQuerySchema = z.object({
  return_type: returnType,
  standard: RawParamSchema.meta({ description: 'tol (default), dwc, ena or mixs', example: 'tol' }),
  limit,
  offset,
});
export type OutputQuery = z.infer<typeof OutputQuerySchema>;

/** Lists whose items are not records take no standard. */
export const PagingQuerySchema = z.object({ return_type: returnType, limit, offset });
export const ReturnTypeQuerySchema = z.object({ return_type: returnType });

/** The date parameters of the reference (`d_from`/`d_to`) and of the spec (`from`/`to`); the first given wins. */
export const DateQuerySchema = z.object({
  d_from: z.string().optional().meta({ description: 'inclusive; ISO 8601, e.g. 2024-01-01T00:00:00%2B00:00' }),
  d_to: z.string().optional().meta({ description: 'exclusive' }),
  from: z.string().optional().meta({ description: 'alias of d_from' }),
  to: z.string().optional().meta({ description: 'alias of d_to' }),
});
export type DateQuery = z.infer<typeof DateQuerySchema>;

const list = (example: string, description?: string) => z.string().meta({ example, ...(description && { description }) });
const date = (example: string) =>
  z.string().meta({ example, description: 'ISO 8601: `2024-01-01T00:00:00+00:00`; `Z`, `+00:0` or a date alone are accepted' });

export const DateRangeParamsSchema = z.object({ from: date('2024-01-01T00:00:00+00:00'), to: date('2025-01-01T00:00:00+00:00') });
export const ProjectDateRangeParamsSchema = DateRangeParamsSchema.extend({
  project: list('dtol,erga', 'a comma list of asg, dtol, dtolenv, erga (any case)'),
});

export const SequencingCentreQuerySchema = z.object({
  sequencing_centre: z.string().optional().meta({ description: 'a label or a short name, any case', example: 'EARLHAM INSTITUTE' }),
});

export const CurrentVersionQuerySchema = z.object({
  manifest_type: z.string().optional().meta({ example: 'DTOL' }),
  return_type: returnType,
});

export const ManifestParamsSchema = z.object({ manifest_id: list('f8e5c23d-f735-439f-bfaf-a6886e31741e') });

export const AssociatedProjectsQuerySchema = z.object({
  values: RawParamSchema.meta({
    description:
      'sub-projects (as installed: BGE, BIOBLITZ, CBP, ERGA_COMMUNITY, ERGA_PILOT or POP_GENOMICS; admins keep the list), repeated or a comma list',
    example: 'BGE',
  }),
});
export const ProjectQuerySchema = z.object({ project: RawParamSchema.meta({ example: 'dtol' }) });
export const VersionFieldsQuerySchema = z.object({
  project: RawParamSchema.meta({ example: 'erga' }),
  manifest_version: RawParamSchema.meta({ example: '2.5' }),
});

export const SvcIdsParamsSchema = z.object({ svc_ids: list('67d461e318e6e19d10b37901', 'a comma list') });
export const AccessionsParamsSchema = z.object({ biosampleAccessions: list('SAMEA7519928', 'a comma list') });
export const TaxonIdsParamsSchema = z.object({ taxon_ids: list('104452', 'a comma list') });
export const SampleFieldParamsSchema = z.object({
  field: list('SCIENTIFIC_NAME'),
  values: list('Aglais io', 'a comma list, each matched as a case-insensitive substring'),
});
export const ProjectsParamsSchema = z.object({ project: list('dtol,erga', 'a comma list of asg, dtol, dtolenv, erga (any case)') });

export const BioimagesQuerySchema = PagingQuerySchema.extend({ project: RawParamSchema.meta({ example: 'erga' }) }).extend(
  DateQuerySchema.shape,
);

export const TubeOrWellQuerySchema = z
  .object({
    return_type: returnType,
    project: RawParamSchema.meta({ description: 'the reference’s name of profile_type' }),
    profile_type: RawParamSchema.meta({ example: 'erga' }),
    associated_tol_project: RawParamSchema.meta({ description: 'the reference’s name of associated_profile_type' }),
    associated_profile_type: RawParamSchema.meta({ example: 'BGE' }),
  })
  .extend(DateQuerySchema.shape);
export type TubeOrWellQuery = z.infer<typeof TubeOrWellQuerySchema>;

export const AuditSamplesQuerySchema = z.object({
  svc_id: RawParamSchema.meta({ description: 'comma list or repeated' }),
  project: RawParamSchema.meta({ example: 'dtol' }),
  updatable_field: RawParamSchema.meta({ description: 'one of the project’s updatable fields', example: 'SEX' }),
});
export const AuditManifestsParamsSchema = z.object({ manifest_id: list('f8e5c23d-f735-439f-bfaf-a6886e31741e', 'a comma list') });
export const UpdateTypeParamsSchema = z.object({ update_type: list('user', 'user or system') });
export const AuditProjectQuerySchema = z.object({
  project: RawParamSchema.meta({ description: 'repeated or a comma list', example: 'erga' }),
});
export const AuditFieldParamsSchema = z.object({
  field: list('SPECIMEN_ID', 'RACK_OR_PLATE_ID, SPECIMEN_ID, TUBE_OR_WELL_ID, biosampleAccession, public_name or sraAccession'),
  field_value: list('NHMUK014425123'),
});

export const MappingQuerySchema = z.object({
  project: RawParamSchema.meta({ example: 'dtol' }),
  standard: OutputQuerySchema.shape.standard,
  return_type: returnType,
  pairs: z.string().optional().meta({ description: 'true: ToL field and mapped name pairs' }),
});

// ---------------------------------------------------------------------------------------------------------------
// Answers

/** The reference's wrapper (W) around a list. */
export const wrapped = <T extends z.ZodType>(item: T) =>
  z.object({
    status: z.literal('OK'),
    number_found: z.number().int().meta({ description: 'every match, whatever limit and offset say' }),
    data: z.array(item),
  });
/** The reference's one-element array around the wrapper (AW). */
export const arrayWrapped = <T extends z.ZodType>(item: T) => z.array(wrapped(item)).meta({ description: 'always one element' });

export const ManifestIdSchema = UuidSchema;
export const FieldNameSchema = z.string().meta({ example: 'SPECIMEN_ID' });

export const SampleStatusItemSchema = z
  .object({
    svc_id: SvcIdSchema,
    manifest_id: UuidSchema,
    status: z.string().meta({ example: 'accepted' }),
    time_created: z.string().meta({ example: '2025-01-31T10:12:00.123456+00:00' }),
    time_updated: z.string(),
  })
  .meta({ id: 'SampleStatusItem' });
export type SampleStatusItem = z.infer<typeof SampleStatusItemSchema>;

/** `[{"ASG": "2.5", "DTOL": "2.5", …}]`: manifest type → current version. */
export const CurrentVersionsSchema = z.array(z.record(z.string(), z.string())).meta({ description: 'always one element' });
export type CurrentVersions = z.infer<typeof CurrentVersionsSchema>[number];

export const ProfileTubesSchema = z
  .object({
    TUBE_OR_WELL_IDs: z.array(z.string()),
    associated_profile_type: z.array(z.string()),
    first_manifest_date_created: z.string(),
    last_manifest_date_modified: z.string(),
    profile_title: z.string(),
    profile_type: z.string(),
  })
  .meta({ id: 'ProfileTubes' });
export type ProfileTubes = z.infer<typeof ProfileTubesSchema>;

/** With `pairs=true`: a ToL field and its name in the standard (`{"tol": …, "dwc": …}`). */
export const MappingPairSchema = z.object({
  tol: z.string(),
  dwc: z.string().optional(),
  ena: z.string().optional(),
  mixs: z.string().optional(),
});
export type MappingPair = z.infer<typeof MappingPairSchema>;
export const MappingItemSchema = z.union([FieldNameSchema, MappingPairSchema]);
