import { z } from 'zod';
import { ProfileIdSchema, SvcIdSchema, UuidSchema } from '../identifiers/contract';
import { ManifestTypeSchema } from '../manifests/contract';
import { PermitKindSchema } from '../permits/contract';
import { UsernameSchema } from '../users/contract';
import {
  approvalState,
  confirmedManifest,
  SampleLabelsSchema,
  SampleStatusSchema,
  ServiceCheckSchema,
  StatusCountSchema,
  SvcIdAnyCaseSchema,
} from './contract';
import { DECIDED_DAYS, type REVIEW_FILTERS, REVIEW_SORTS, REVIEW_STATES } from './review-lists';

/**
 * A sample manager's review queue at the boundary (lib/samples/review*.ts, lib/samples/rights.ts): the samples awaiting
 * their decision or decided lately, by manifest, and the private samples held for their traditional-knowledge rights
 * with the check that clears them.
 */

// ---------------------------------------------------------------------------------------------------------------
// The review queue: samples grouped by the manifest that brought them, awaiting a decision or decided lately

export { DECIDED_DAYS, REVIEW_FILTERS, REVIEW_SORTS } from './review-lists';

export const ReviewQuerySchema = z.object({
  state: z
    .enum(REVIEW_STATES)
    .default('awaiting')
    .meta({ description: `awaiting: samples waiting for a decision; decided: samples decided in the last ${DECIDED_DAYS} days` }),
  limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: 'manifests per page (1–100)' }),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0).meta({ description: 'manifests to skip' }),
  sort: z
    .enum(REVIEW_SORTS)
    .default('newest')
    .meta({
      description:
        'newest (default): the manifest the caller was told about last comes first (confirmed, updated, or its samples’ rights ' +
        'cleared; decided: the latest decision first); oldest: the other way round. Samples keep their row order within a manifest',
    }),
  profile: ProfileIdSchema.optional().meta({ description: 'only the manifests of this profile' }),
  uploader: UsernameSchema.optional().meta({ description: 'only the manifests confirmed by this username' }),
  manifest: UuidSchema.optional().meta({
    description: 'only this manifest (the link of the email telling a manager that its samples wait, and of the home page)',
  }),
  rows: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .optional()
    .meta({
      description:
        'samples of each manifest described in full (`samples`), the first in row order (1–1000); every one when not given. ' +
        '`svc_ids` names them all either way',
    }),
});
export type ReviewQuery = z.output<typeof ReviewQuerySchema>;
/** The order and filters the review page keeps in its URL (REVIEW_FILTERS), checked as the API checks them. */
export const ReviewFilterSchema = ReviewQuerySchema.pick({
  sort: true,
  profile: true,
  uploader: true,
  manifest: true,
} satisfies Record<(typeof REVIEW_FILTERS)[number], true>);
export type ReviewFilter = z.output<typeof ReviewFilterSchema>;

/** An ERGA permit a sample names, and where to download it once it has arrived. */
export const ReviewPermitSchema = z
  .object({
    kind: PermitKindSchema,
    file_name: z.string().meta({ description: 'as the manifest names it' }),
    stored_name: z.string().nullable().meta({ description: 'null: no PDF of this name was confirmed with the profile' }),
    url: z.string().nullable().meta({ description: 'where to download it (same authentication)' }),
  })
  .meta({ id: 'ReviewPermit' });
export type ReviewPermit = z.infer<typeof ReviewPermitSchema>;

export const ReviewSampleSchema = z
  .object({
    svc_id: SvcIdSchema,
    status: SampleStatusSchema,
    status_detail: z.string().nullable().meta({ description: 'what the sample waits for, or why its registration stopped' }),
    rejection_reason: z.string().nullable().meta({ description: 'why it was rejected (by a sample manager, or by ENA)' }),
    registration_failed: z.boolean().meta({
      description: 'refused by ENA, or rejected after approval: its registration failed and can be retried (POST sample/register)',
    }),
    ...approvalState,
    ...SampleLabelsSchema.shape,
    public_name: z.string().nullable().meta({ description: 'the ToLID, once assigned' }),
    biosampleAccession: z.string().nullable(),
    sraAccession: z.string().nullable(),
    decided_by: z.string().nullable().meta({ description: 'who last decided on it (decided samples)' }),
    decided_at: z.iso.datetime().nullable(),
    permits: z.array(ReviewPermitSchema),
    time_created: z.iso.datetime(),
  })
  .meta({ id: 'ReviewSample' });
export type ReviewSample = z.infer<typeof ReviewSampleSchema>;

export const ReviewGroupSchema = z
  .object({
    ...confirmedManifest,
    profile_id: ProfileIdSchema,
    profile_title: z.string(),
    uploaded_by: z.string().nullable().meta({ description: 'the username of who confirmed the manifest' }),
    uploaded_at: z.iso.datetime(),
    manifest_samples: z.number().int().meta({ description: 'samples in the manifest, in any state' }),
    samples_found: z.number().int().meta({ description: 'samples of the manifest in this list' }),
    statuses: z
      .array(StatusCountSchema)
      .meta({ description: 'the samples of the manifest in this list by status (statuses with none left out)' }),
    svc_ids: z.array(SvcIdSchema).meta({
      description: 'every sample of the manifest in this list, in row order: what a decision on the whole manifest names',
    }),
    failed_ids: z.array(SvcIdSchema).meta({
      description: 'the samples of the manifest in this list whose registration failed and can be retried (POST sample/register)',
    }),
    samples: z
      .array(ReviewSampleSchema)
      .meta({ description: 'the samples of the manifest in this list, in row order: the first `rows` of them when the query says' }),
  })
  .meta({ id: 'ReviewGroup', description: 'The samples of one manifest in the review queue' });
export type ReviewGroup = z.infer<typeof ReviewGroupSchema>;

/** What the list holds before its filters narrow it, so a filter offers only values that find something. */
export const ReviewChoicesSchema = z
  .object({
    profiles: z.array(z.object({ profile_id: ProfileIdSchema, profile_title: z.string() })).meta({ description: 'by title' }),
    uploaders: z.array(z.string()).meta({ description: 'the usernames of who confirmed the manifests, in order' }),
  })
  .meta({ id: 'ReviewChoices', description: 'the profiles and uploaders of this list without its filters' });
export type ReviewChoices = z.infer<typeof ReviewChoicesSchema>;

export const ReviewQueueSchema = z
  .object({
    status: z.literal('OK'),
    state: z.enum(REVIEW_STATES),
    number_found: z.number().int().meta({ description: 'manifests in this list' }),
    samples_found: z.number().int().meta({ description: 'samples in this list, over every manifest' }),
    sort: z.enum(REVIEW_SORTS),
    limit: z.number().int(),
    offset: z.number().int(),
    data: z.array(ReviewGroupSchema),
    choices: ReviewChoicesSchema,
  })
  .meta({
    id: 'ReviewQueue',
    description:
      'A page of the caller’s review queue, by manifest: awaiting (newest manifest first unless sort=oldest) or decided lately ' +
      '(latest decision first unless sort=oldest), narrowed by profile, uploader or manifest',
  });
export type ReviewQueue = z.infer<typeof ReviewQueueSchema>;

// ---------------------------------------------------------------------------------------------------------------
// The rights hold: private ERGA samples wait until the Local Contexts Hub says their traditional-knowledge project
// is public (lib/samples/rights.ts)

export const RightsCheckRequestSchema = z
  .object({ svc_ids: z.array(SvcIdAnyCaseSchema).min(1).max(500) })
  .meta({ id: 'RightsCheckRequest' });

export const RIGHTS_OUTCOMES = ['cleared', 'not_public', 'unknown_project', 'hub_unreachable', 'not_private'] as const;
export const RightsOutcomeSchema = z.enum(RIGHTS_OUTCOMES).meta({
  description:
    'cleared: the project is public, the sample is pending now; not_public: the hub holds the project but not as Public; ' +
    'unknown_project: the hub does not know the project id; hub_unreachable: no answer, nothing changed; ' +
    'not_private: nothing to check (no rights apply, or they were cleared before)',
});
export type RightsOutcome = z.infer<typeof RightsOutcomeSchema>;

export const RightsCheckSampleSchema = z
  .object({
    svc_id: SvcIdSchema,
    status: SampleStatusSchema.meta({ description: 'its status after the check' }),
    project_id: z
      .string()
      .nullable()
      .meta({ description: 'its Local Contexts Hub project (ASSOCIATED_TRADITIONAL_KNOWLEDGE_OR_BIOCULTURAL_PROJECT_ID)' }),
    outcome: RightsOutcomeSchema,
    project_privacy: z.string().nullable().meta({
      description: 'the project’s project_privacy as the hub said it (Public, Private, Contributor); null: the hub said nothing of it',
    }),
    detail: z.string().meta({ description: 'the outcome in words' }),
    rights_checked_at: z.iso.datetime().nullable().meta({ description: 'when the hub last answered about its project' }),
    rights_cleared_at: z.iso.datetime().nullable().meta({ description: 'when the hub said its project is public' }),
  })
  .meta({ id: 'RightsCheckSample' });
export type RightsCheckSample = z.infer<typeof RightsCheckSampleSchema>;

export const RightsCheckAnswerSchema = z
  .object({ data: z.array(RightsCheckSampleSchema), hub: ServiceCheckSchema })
  .meta({ id: 'RightsCheckResult', description: 'Each sample asked about, after the check, and how the hub answered' });
export type RightsCheckAnswer = z.infer<typeof RightsCheckAnswerSchema>;

/** A private sample in its managers' review queue, with why it cannot be decided yet. */
export const PrivateSampleSchema = z
  .object({
    svc_id: SvcIdSchema,
    manifest_id: UuidSchema,
    profile_id: ProfileIdSchema,
    tol_project: ManifestTypeSchema,
    ...SampleLabelsSchema.shape,
    project_id: z.string().nullable().meta({ description: 'its Local Contexts Hub project' }),
    project_url: z.string().nullable().meta({ description: 'the project’s page at the hub' }),
    rights_checked_at: z.iso.datetime().nullable().meta({ description: 'when the hub last answered about its project; null: not yet' }),
    status_detail: z.string().nullable().meta({ description: 'what the hub last said' }),
    time_created: z.iso.datetime(),
  })
  .meta({ id: 'PrivateSample' });
export type PrivateSample = z.infer<typeof PrivateSampleSchema>;

export const PrivateSamplesSchema = z
  .object({
    status: z.literal('OK'),
    number_found: z.number().int(),
    data: z.array(PrivateSampleSchema),
    hub: ServiceCheckSchema.meta({ description: 'the Local Contexts Hub’s last answer to the scheduled check' }),
  })
  .meta({
    id: 'PrivateSamples',
    description: 'A page of the private samples of the caller’s projects, oldest first: they wait for their rights, not for a decision',
  });
export type PrivateSamples = z.infer<typeof PrivateSamplesSchema>;
