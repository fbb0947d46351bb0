import { z } from 'zod';
import { ProfileIdSchema, SvcIdSchema, UuidSchema } from '../identifiers/contract';
import { RepositorySchema } from '../repositories/contract';
import { SUBMISSION_STATUSES } from './statuses';

/**
 * A submission: one brokering job to a public repository (a study, or a batch of accepted Tree of Life samples), as
 * the submissions table keeps it and as /api/submissions shows it.
 */

export const SubmissionStatusSchema = z.enum(SUBMISSION_STATUSES).meta({ description: 'where the submission stands' });
export type SubmissionStatus = z.infer<typeof SubmissionStatusSchema>;

// which repositories there are is the repositories' (lib/repositories/contract.ts); the submissions table and the
// portal name them from here
export { REPOSITORIES, type Repository, RepositorySchema } from '../repositories/contract';

export const SubmissionKindSchema = z
  .enum(['samples', 'study', 'biodata_samples'])
  .meta({ description: 'Tree of Life samples, a study, or samples of an ENA checklist' });
export type SubmissionKind = z.infer<typeof SubmissionKindSchema>;

export const SubmissionActionSchema = z.enum(['submit', 'publish']);
export type SubmissionAction = z.infer<typeof SubmissionActionSchema>;

const receiptFields = {
  at: z.iso.datetime(),
  kind: z.string().meta({ description: 'ADD, MODIFY or RECEIPT (ENA), deposition (Zenodo)' }),
  alias: z.string().optional().meta({ description: 'the object asked about (RECEIPT)' }),
  objects: z.string().optional().meta({ description: 'what was sent, when not the study itself', example: 'reads' }),
  success: z.boolean(),
  submission: z.string().optional().meta({ description: 'the ENA submission accession', example: 'ERA1234567' }),
  errors: z.array(z.string()).optional(),
  infos: z.array(z.string()).optional(),
  deposition: z.string().optional().meta({ description: 'the Zenodo deposition id' }),
};

/**
 * A repository's answer (or a step of the job) as a row of submission_receipts keeps it: with ENA's RECEIPT document
 * as received, which only the receipt's own download serves (a registration's receipt names every sample).
 */
export const StoredReceiptSchema = z.object({
  ...receiptFields,
  xml: z.string().optional().meta({ description: 'the RECEIPT document as ENA sent it' }),
});
export type Receipt = z.infer<typeof StoredReceiptSchema>;

/** A repository's answer (or a step of the job) in a submission's history, as /api/submissions shows it. */
export const ReceiptSchema = z
  .object({
    ...receiptFields,
    xml_url: z.string().optional().meta({
      description: 'where ENA’s RECEIPT document is served as received (application/xml); absent for answers that are not one',
      example: '/api/submissions/3f2504e0-4f89-41d3-9a0c-0305e82c3301/receipts/0',
    }),
  })
  .meta({ id: 'SubmissionReceipt' });
export type SubmissionReceipt = z.infer<typeof ReceiptSchema>;

/** The accessions of a read file's row at ENA. */
const RunAccessionsSchema = z.object({ experiment_accession: z.string(), run_accession: z.string(), digest: z.string() });

export const SampleAccessionsSchema = z.object({
  biosampleAccession: z.string(),
  sraAccession: z.string(),
  tube: z.string().optional().meta({ description: 'TUBE_OR_WELL_ID, for people (registrations before it was kept have none)' }),
  specimen: z.string().optional().meta({ description: 'SPECIMEN_ID, for people' }),
});
export type SampleAccessions = z.infer<typeof SampleAccessionsSchema>;

/**
 * What the repository gave back (submissions.accessions). Sample registrations: the samples' and specimens'
 * accessions. Studies at ENA: the project accession, its state and release date, and the runs; at Zenodo: the
 * record (deposition) id, its state and DOI, and the files sent. Empty until the submission is accepted.
 */
export const SubmissionAccessionsSchema = z
  .object({
    samples: z.record(z.string(), SampleAccessionsSchema).optional().meta({ description: 'by svc_id' }),
    specimens: z.record(z.string(), z.string()).optional().meta({ description: 'BioSample accession by specimen' }),
    study: z.string().optional().meta({ description: 'the ENA project accession, or the Zenodo record id' }),
    state: z.string().optional().meta({ description: 'PRIVATE or PUBLIC (ENA); the deposition state (Zenodo)' }),
    release_date: z.string().optional(),
    runs: z.record(z.string(), RunAccessionsSchema).optional().meta({ description: 'ENA: by row identifier of the sheet' }),
    analyses: z
      .record(z.string(), z.string())
      .optional()
      .meta({ description: 'ENA: the sequence annotations’ analysis accessions (ERZ…) by row identifier' }),
    assemblies: z
      .record(z.string(), z.string())
      .optional()
      .meta({ description: 'ENA: the assemblies’ analysis accessions (ERZ…) by row identifier, or why they wait' }),
    doi: z.string().optional(),
    deposition_id: z.string().optional(),
    files: z.array(z.string()).optional().meta({ description: 'Zenodo: the files sent' }),
  })
  .meta({ id: 'SubmissionAccessions' });
export type SubmissionAccessions = z.infer<typeof SubmissionAccessionsSchema>;

export const FILE_STATES = ['waiting', 'checking', 'sending', 'sent', 'failed'] as const;

/** Where a data file of a study submission stands: checked against the sheet's checksum, then sent, byte by byte. */
export const FileProgressSchema = z.object({
  state: z.enum(FILE_STATES),
  /** bytes of the file */
  size: z.number(),
  /** bytes sent so far in the current attempt */
  sent: z.number(),
  /** the MD5 the file was checked to have */
  md5: z.string().optional(),
  /** why the file failed */
  error: z.string().optional(),
});
export type FileProgress = z.infer<typeof FileProgressSchema>;

/** What a resumed job needs (submissions.progress): what was sent already, the Zenodo deposition, the files. */
export const SubmissionProgressSchema = z.object({
  /**
   * ENA: what each ledger of the exactly-once protocol (lib/repositories/ena/once.ts) holds: the aliases sent with
   * ADD, and those sent with MODIFY with the ENA submission that last acted on each before
   */
  ena_sent: z
    .partialRecord(
      z.enum(['specimens', 'samples', 'project', 'reads', 'analyses']),
      z.object({ added: z.array(z.string()).optional(), modified: z.record(z.string(), z.string()).optional() }),
    )
    .optional(),
  deposition_id: z.string().optional(),
  files: z.record(z.string(), FileProgressSchema).optional(),
});
export type SubmissionProgress = z.infer<typeof SubmissionProgressSchema>;

export const SubmissionSchema = z
  .object({
    submission_id: UuidSchema,
    kind: SubmissionKindSchema,
    repository: RepositorySchema,
    action: SubmissionActionSchema,
    profile_id: ProfileIdSchema,
    profile_title: z.string().optional(),
    status: SubmissionStatusSchema,
    samples: z.number().int().meta({ description: 'samples in it (sample registrations)' }),
    accessions: SubmissionAccessionsSchema,
    receipts: z.array(ReceiptSchema).meta({ description: 'the repository’s answers, oldest first' }),
    attempts: z.number().int(),
    error: z.string().nullable(),
    created: z.iso.datetime(),
    updated: z.iso.datetime(),
    finished: z.iso.datetime().nullable(),
  })
  .meta({ id: 'Submission', description: 'One brokering job to a public repository' });
export type Submission = z.infer<typeof SubmissionSchema>;

export const SubmissionListSchema = z
  .object({ number_found: z.number().int(), data: z.array(SubmissionSchema) })
  .meta({ id: 'Submissions', description: 'A page of submissions, newest first' });
export type SubmissionList = z.infer<typeof SubmissionListSchema>;

export const SubmissionIdParamsSchema = z.object({ submission_id: z.string().meta({ description: 'the submission id (a UUID)' }) });

export const SubmissionReceiptParamsSchema = SubmissionIdParamsSchema.extend({
  n: z.coerce
    .number()
    .int()
    .min(0)
    .max(1_000_000)
    .meta({ description: 'the receipt’s place in the submission’s `receipts`, from 0 (oldest first)', example: 0 }),
});

// ---------------------------------------------------------------------------------------------------------------
// ENA's refusals of sample registrations, said once per registration (lib/submissions/refusals.ts)

/** What the reader can do about a refused registration: retry it (a sample manager of its project), or nothing. */
const REFUSAL_PARTS = ['retry', 'uploader', 'viewer'] as const;

export const EnaRefusalSchema = z
  .object({
    submission_id: UuidSchema,
    profile_id: ProfileIdSchema,
    profile_title: z.string(),
    tol_project: z.string().meta({ description: 'the Tree of Life project whose sample managers retry it', example: 'dtol' }),
    refused_at: z.iso.datetime(),
    outcome: z.enum(['refused', 'failed']).meta({
      description: 'refused: ENA refused the document; failed: the registration gave up (ENA unreachable past its last attempt)',
    }),
    message: z.string().meta({
      description: 'ENA’s message, as its receipt gave it (it names every sample of the document), or what made the registration give up',
    }),
    samples: z
      .array(z.object({ svc_id: SvcIdSchema, tube: z.string(), specimen: z.string() }))
      .meta({ description: 'its samples still refused (those sent again since are left out), by tube' }),
    your_part: z.enum(REFUSAL_PARTS).meta({
      description:
        'retry: the caller manages the project and can send the samples again (POST sample/register) once the cause is fixed; ' +
        'uploader: the caller may add to the profile, but there is nothing to upload again; viewer: nothing to do',
    }),
  })
  .meta({ id: 'EnaRefusal', description: 'A registration of samples ENA refused, or that failed, whose samples still wait for a retry' });
export type EnaRefusal = z.infer<typeof EnaRefusalSchema>;

export const EnaRefusalsSchema = z.object({ number_found: z.number().int(), data: z.array(EnaRefusalSchema) }).meta({
  id: 'EnaRefusals',
  description: 'A page of the registrations ENA refused, or that failed, that the caller may see, newest first',
});
export type EnaRefusals = z.infer<typeof EnaRefusalsSchema>;
