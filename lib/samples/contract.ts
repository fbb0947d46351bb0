import { z } from 'zod';
import { ApprovalGivenSchema } from '../approvals/contract';
import { PATTERNS, ProfileIdSchema, SvcIdSchema, UuidSchema } from '../identifiers/contract';
import { FieldKindSchema, ManifestTypeSchema } from '../manifests/contract';
import { ProfilePermitSchema } from '../permits/contract';
import { TolProjectSchema } from '../projects/contract';
import { SAMPLE_STATUSES } from './statuses';

/**
 * Tree of Life samples at the boundary: their states, the JSON they keep (fields, approvals), a sample manager's
 * decision and review queue, and the registration at ENA that approval starts.
 */

/**
 * pending → (every approval) → processing → sending → accepted | refused; a sample approved while no Webin account
 * is configured waits in awaiting_ena, one whose specimen's ToLID a curator has not yet assigned in awaiting_tolid;
 * private: an ERGA sample under traditional-knowledge rights, waiting until they are cleared. rejected: by a sample
 * manager (or the ToLID service); refused: by ENA, its approvals kept, so that a sample manager sends it again once
 * the cause is fixed (POST sample/register). They are apart because who acts differs: the uploader after a
 * rejection, a sample manager after a refusal. failed: a registration that gave up (ENA unreachable past its last
 * attempt, or the process running it lost), its approvals kept and retried as a refusal is.
 */
export { SAMPLE_STATUSES } from './statuses';
export const SampleStatusSchema = z.enum(SAMPLE_STATUSES).meta({ description: 'where a sample stands on its way to ENA' });
export type SampleStatus = z.infer<typeof SampleStatusSchema>;

/** Approved samples whose registration stopped at ENA, refused or given up: a sample manager sends them again. */
export const STOPPED_AT_ENA = ['refused', 'failed'] as const satisfies readonly SampleStatus[];
export const stoppedAtEna = (status: string): boolean => (STOPPED_AT_ENA as readonly string[]).includes(status);

/** Every manifest field of a sample (or specimen), by its manifest name (samples.fields, specimens.fields). */
export const SampleFieldsSchema = z.record(z.string(), z.string());
export type SampleFields = z.infer<typeof SampleFieldsSchema>;

// a sample's approvals are the approvals' (lib/approvals/contract.ts); the samples table names them from here
export type { SampleApprovals } from '../approvals/contract';

/** The last answer of the ToLID service about a specimen: approved (its public name is the ToLID), pending or rejected. */
export const TolidStatusSchema = z.enum(['approved', 'pending', 'rejected']);
export type TolidStatus = z.infer<typeof TolidStatusSchema>;

/** ENA's record of a BioSample a study sheet references (ena_sample_cache.record). */
export const EnaSampleRecordSchema = z.object({
  biosampleAccession: z.string(),
  enaAccession: z.string().optional(),
  taxonId: z.string(),
  scientificName: z.string(),
  title: z.string().optional(),
  source: z.enum(['webin', 'browser']),
});
export type EnaSampleRecord = z.infer<typeof EnaSampleRecordSchema>;

/** A svc_id as requests give it: the reference's clients send either case, so both are taken (and lower-cased). */
export const SvcIdAnyCaseSchema = z
  .string()
  .regex(new RegExp(`^${PATTERNS.objectId}$`, 'i'), 'svc_id is 24 hexadecimal characters')
  .meta({ description: 'a sample’s svc_id (24 hexadecimal characters)', example: '67e14bbf5b9e8a38259f95eb' });
const SvcIdListSchema = z.array(SvcIdAnyCaseSchema).min(1).max(10_000);

// ---------------------------------------------------------------------------------------------------------------
// A sample manager's decision

export const DecisionSchema = z.enum(['accept', 'reject']);
export type Decision = z.infer<typeof DecisionSchema>;

export const DecisionRequestSchema = z
  .object({
    svc_ids: SvcIdListSchema,
    decision: DecisionSchema,
    reason: z.string().max(2000).optional().meta({ description: 'why the samples are rejected; never returned by the public API' }),
  })
  .meta({ id: 'SampleDecision' });
export type DecisionRequest = z.infer<typeof DecisionRequestSchema>;

/** A registration at ENA that samples went into: one per profile. */
export const RegistrationSchema = z
  .object({
    submission_id: UuidSchema,
    samples: z.number().int().meta({ description: 'samples in it' }),
    created: z.boolean().meta({ description: 'false: the samples were already on their way in this submission' }),
  })
  .meta({ id: 'SampleRegistration' });
export type Registration = z.infer<typeof RegistrationSchema>;

export const DecisionAnswerSchema = z
  .object({
    accepted: z.array(z.string()).meta({ description: 'the svc_ids accepted' }),
    rejected: z.array(z.string()).meta({ description: 'the svc_ids rejected' }),
    registrations: z
      .array(RegistrationSchema)
      .meta({ description: 'the registrations started (samples waiting for a ToLID or a Webin account are in none)' }),
  })
  .meta({ id: 'SampleDecisionResult', description: 'Decided samples' });
export type DecisionAnswer = z.infer<typeof DecisionAnswerSchema>;

/** The manifest fields a reviewer knows a sample by: its specimen, its tube and its taxon ('' where the manifest has none). */
export const SampleLabelsSchema = z.object({
  SPECIMEN_ID: z.string(),
  RACK_OR_PLATE_ID: z.string(),
  TUBE_OR_WELL_ID: z.string(),
  TAXON_ID: z.string(),
  SCIENTIFIC_NAME: z.string(),
});
export type SampleLabels = z.infer<typeof SampleLabelsSchema>;

/** Where a sample stands in its approvals, as its reviewers see it. */
export const approvalState = {
  approvals: z.array(ApprovalGivenSchema).meta({ description: 'the approvals it carries, by associated type' }),
  waiting_for: z
    .array(z.string())
    .meta({ description: 'associated types whose approval it still needs (approval-required types without an approval)' }),
  waiting_for_you: z
    .array(z.string())
    .meta({ description: 'those of waiting_for that the caller approves (the caller’s accept records them)' }),
};

/** A sample in a manager's review queue. */
export const PendingSampleSchema = z
  .object({
    svc_id: SvcIdSchema,
    manifest_id: UuidSchema,
    profile_id: ProfileIdSchema,
    tol_project: ManifestTypeSchema,
    status: SampleStatusSchema,
    ...SampleLabelsSchema.shape,
    ...approvalState,
    time_created: z.iso.datetime(),
  })
  .meta({ id: 'PendingSample' });

export const PendingSamplesSchema = z
  .object({ status: z.literal('OK'), number_found: z.number().int(), data: z.array(PendingSampleSchema) })
  .meta({
    id: 'PendingSamples',
    description:
      'A page of the samples waiting for the caller, oldest first: for an approval of a type the caller approves, or, with no approval awaited, for a decision of one who decides on them',
  });
export type PendingSamples = z.infer<typeof PendingSamplesSchema>;

// ---------------------------------------------------------------------------------------------------------------
// Registration at ENA

export const RegisterRequestSchema = z
  .object({
    svc_ids: SvcIdListSchema,
    release_date: z.string().optional().meta({
      description:
        'samples of a checklist (a biodata profile’s) not yet at ENA: held private until this day (YYYY-MM-DD, at most two years ahead); without it they are public once registered. Tree of Life samples are always public at once.',
      example: '2027-06-30',
    }),
  })
  .meta({ id: 'SampleRegistrationRequest' });

export const RegisterAnswerSchema = z.array(RegistrationSchema);

/** A confirmed manifest as lists of samples name it: the review queue's groups and a profile's manifests. */
export const confirmedManifest = {
  manifest_id: UuidSchema,
  file_name: z.string(),
  tol_project: ManifestTypeSchema,
  version: z.string(),
};

// ---------------------------------------------------------------------------------------------------------------
// What a profile holds: its manifests, its samples by status, its permits

export const StatusCountSchema = z.object({ status: SampleStatusSchema, samples: z.number().int() }).meta({ id: 'StatusCount' });
export type StatusCount = z.infer<typeof StatusCountSchema>;

/** Counts of samples by status as the API lists them: in the statuses' order, those with none left out. */
export const countByStatus = (counts: { status: string; n: number }[]): StatusCount[] =>
  SAMPLE_STATUSES.flatMap((status) => {
    const samples = counts.filter((c) => c.status === status).reduce((sum, c) => sum + Number(c.n), 0);
    return samples ? [{ status, samples }] : [];
  });

export const ProfileManifestSchema = z
  .object({
    ...confirmedManifest,
    uploaded_by: z.string().nullable(),
    confirmed: z.iso.datetime(),
    updated: z.iso.datetime(),
    samples: z.number().int(),
    statuses: z.array(StatusCountSchema).meta({ description: 'its samples by status (statuses with none left out)' }),
  })
  .meta({ id: 'ProfileManifest' });
export type ProfileManifest = z.infer<typeof ProfileManifestSchema>;

export const ProfileSampleSummarySchema = z
  .object({
    profile_id: ProfileIdSchema,
    samples: z.number().int(),
    statuses: z.array(StatusCountSchema).meta({ description: 'the profile’s samples by status (statuses with none left out)' }),
    registration_failed: z
      .number()
      .int()
      .meta({ description: 'samples refused by ENA, or rejected after approval: their registration failed' }),
    manifests: z.array(ProfileManifestSchema).meta({ description: 'its confirmed manifests, newest first' }),
    permits: z.array(ProfilePermitSchema).meta({ description: 'the ERGA permits its samples name, latest upload of each' }),
  })
  .meta({ id: 'ProfileSampleSummary', description: 'What a Tree of Life profile holds' });
export type ProfileSampleSummary = z.infer<typeof ProfileSampleSummarySchema>;

/** The values a profile's samples hold in a column a sheet usually fills alike, for a pre-filled template's form. */
export const CommonFieldSchema = z
  .object({
    field: z.string().meta({ description: 'the manifest field', example: 'COLLECTED_BY' }),
    label: z.string(),
    required: z.boolean(),
    kind: FieldKindSchema.meta({
      description: 'how its cells are read: text, enum (allowed_values), location (`Country | region | locality`), …',
    }),
    allowed_values: z
      .array(z.string())
      .nullable()
      .meta({ description: 'the field’s vocabulary (a location field: its countries); null: free text' }),
    profile_value: z.string().nullable().meta({
      description: 'what a template of this profile pre-fills by itself: its one sequencing centre (GAL), its ERGA sub-project',
    }),
    values: z
      .array(z.object({ value: z.string(), samples: z.number().int() }))
      .meta({ description: 'the distinct values of the profile’s samples, the most used first (at most 20)' }),
  })
  .meta({ id: 'CommonField' });
export const CommonValuesSchema = z
  .object({
    profile_id: ProfileIdSchema,
    project: TolProjectSchema,
    version: z.string().meta({ description: 'the manifest version the fields are of: the current one' }),
    fields: z.array(CommonFieldSchema).meta({ description: 'the columns a sheet usually fills alike, in the order a form offers them' }),
  })
  .meta({ id: 'CommonValues', description: 'What a profile’s samples used in the columns a manifest template may pre-fill' });
export type CommonValues = z.infer<typeof CommonValuesSchema>;

// ---------------------------------------------------------------------------------------------------------------
// The rights hold: private ERGA samples wait until the Local Contexts Hub says their traditional-knowledge project
// is public (lib/samples/rights.ts; the check and the private samples' list: lib/samples/review-contract.ts)

/** The last answer of a service that a scheduled job asks and no request waits on (service_checks). */
export const ServiceCheckSchema = z
  .object({
    ok: z.boolean().nullable().meta({ description: 'whether it answered at the last look-up; null: never asked yet' }),
    detail: z.string().meta({ description: 'what the last look-up found, or why it failed' }),
    checked_at: z.iso.datetime().nullable(),
  })
  .meta({ id: 'ServiceCheck' });
export type ServiceCheck = z.infer<typeof ServiceCheckSchema>;

/**
 * The history row a MODIFY leaves on a sample (a `system` update): old value the ENA submission that last acted on
 * the sample before, new value the receipt's submission accession. Not a manifest field, so never in the public audit.
 */
export const ENA_MODIFY_FIELD = 'ena_modify';

/**
 * The history row ENA's refusal leaves on a sample (a `system` update beside its change of status): new value ENA's
 * message. The sample's history says why it stopped; the message is not repeated on the sample itself. Not a manifest
 * field, so never in the public audit.
 */
export const ENA_REFUSAL_FIELD = 'ena_refusal';

/** The history row a registration that gave up leaves on a sample, as ENA_REFUSAL_FIELD: new value what went wrong. */
export const REGISTRATION_FAILURE_FIELD = 'registration_failure';
