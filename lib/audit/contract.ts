import { z } from 'zod';

/** The audit trail's rows as the query API and the portal show them (docs/tol-manifests.md §4.4). */

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
