import { z } from 'zod';
import { UuidSchema } from '../../identifiers/contract';
import { ARCHIVE_FILE_STATES, ArchiveFileSchema, StudyStatusSchema } from '../../studies/contract';
import { FILE_STATES, REPOSITORIES, RepositorySchema } from '../contract';

/**
 * A study's submission to a repository: which repository a request names, the answers of submit, status,
 * accession and publish, and where each data file stands (kept in `submissions.progress.files` while the job runs).
 */

const REPOSITORY_MESSAGE = `Invalid value for 'repository'. Accepted values are: ${REPOSITORIES.join(' and ')}`;
// any case, as the reference read it; an empty value is no value
const repositoryText = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() || undefined : v);
const repository = z.enum(REPOSITORIES, { error: REPOSITORY_MESSAGE });

/** submit and status: ENA unless another repository is named. */
export const RepositoryQuerySchema = z.object({
  repository: z.preprocess(repositoryText, repository.default('ena')).meta({ description: 'ena (default) or zenodo' }),
});

/** publish: the repository is required (the interface specification: "query repository (required: ena, zenodo)"; docs/api-behaviour.md §3.3.7). */
export const PublishQuerySchema = z.object({
  repository: z.preprocess(repositoryText, repository).meta({ description: 'ena or zenodo' }),
  hold_until: z
    .preprocess((v) => v || undefined, z.string().optional())
    .meta({ description: 'ENA only: YYYY-MM-DD to release on instead of now', example: '2030-01-31' }),
});

export const AccessionQuerySchema = z.object({
  repository: z
    .preprocess(repositoryText, repository.optional())
    .meta({ description: 'ena or zenodo; default: every repository the study goes to' }),
  // checked in the handler, which answers the reference's sentence naming the accepted values
  return_type: z.string().optional().meta({ description: 'json (default) or csv, in any case' }),
});

export const StudySubmitAnswerSchema = z
  .object({
    status: z.literal('success'),
    message: z.string().meta({ example: 'Submission has been scheduled.' }),
    state: z.literal('queued'),
    submission_id: UuidSchema,
    repository: RepositorySchema,
  })
  .meta({ id: 'StudySubmitAnswer', description: 'the submission, queued' });
export type StudySubmitAnswer = z.infer<typeof StudySubmitAnswerSchema>;

const FileStateSchema = z.enum(FILE_STATES).meta({ description: 'checked against the sheet’s checksum, then sent byte by byte' });
export type FileState = z.infer<typeof FileStateSchema>;

const SUBMISSION_STATES = ['not_submitted', 'queued', 'waiting', 'sending', 'accepted', 'rejected', 'published', 'failed'] as const;

export const StudySubmissionStatusSchema = z
  .object({
    study_id: z.string(),
    repository: RepositorySchema,
    status: StudyStatusSchema,
    state: z.enum(SUBMISSION_STATES).meta({
      description:
        'the latest submission: queued, sending, waiting (for an unreachable repository), or how it ended; ' +
        'not_submitted when there is none',
    }),
    accession: z.string(),
    doi: z.string().optional(),
    error: z.string(),
    detail: z.string().optional().meta({
      description: 'while processing: what it waits for',
      example: 'ENA could not be reached (…); next try at 2026-11-24T10:00:30Z.',
    }),
    submission_id: UuidSchema.optional(),
    updated: z.string().optional().meta({ description: 'when the latest submission last changed (ISO 8601)' }),
    files: z
      .array(
        z.object({
          file_name: z.string(),
          state: FileStateSchema,
          size: z.number(),
          sent: z.number(),
          error: z.string().optional(),
        }),
      )
      .meta({ description: 'how far each data file got in the latest submission' }),
  })
  .meta({ id: 'StudySubmissionStatus', description: 'where the study’s submission to a repository stands' });
export type StudySubmissionStatus = z.infer<typeof StudySubmissionStatusSchema>;

/** Flat rows: the components' identifiers and foreign keys and their repository columns (docs/api-behaviour.md §3.3.6). */
export const AccessionRowsSchema = z.array(z.record(z.string(), z.string())).meta({
  description: 'one row per repository, or per row of a component it takes row by row (ENA: reads)',
  example: [{ study_id: 'STUDY001', repository: 'ena', study_status_ena: 'accepted', study_accession_ena: 'PRJEB76543' }],
});
export type AccessionRow = z.infer<typeof AccessionRowsSchema>[number];

const EnaPublishAnswerSchema = z.object({
  status: z.literal('success'),
  message: z.string().meta({ example: 'Study STUDY001 has been released successfully to ENA.' }),
  accession: z.string(),
  state: z.enum(['PRIVATE', 'PUBLIC']),
  release_date: z.string(),
});
const ZenodoPublishAnswerSchema = z.object({
  status: z.literal('success'),
  message: z.string().meta({ example: 'STUDY001 has been published to Zenodo.' }),
  doi: z.string(),
});
export const StudyPublishAnswerSchema = z
  .union([EnaPublishAnswerSchema, ZenodoPublishAnswerSchema])
  .meta({ id: 'StudyPublishAnswer', description: 'ENA: the project released (or its hold date set); Zenodo: the DOI' });
export type StudyPublishAnswer = z.infer<typeof StudyPublishAnswerSchema>;

// ---- what was made from the samples, at ENA: reads, assemblies, sequence annotations ----

export const SEQUENCE_DATA_KINDS = ['read', 'assembly', 'annotation'] as const;
export const SequenceDataKindSchema = z.enum(SEQUENCE_DATA_KINDS).meta({ description: 'reads, assemblies or sequence annotations' });
export type SequenceDataKind = z.infer<typeof SequenceDataKindSchema>;

export const SequenceDataQuerySchema = z.object({
  kind: SequenceDataKindSchema.optional().meta({ description: 'one kind only; default: all three' }),
});

export const SequenceDataItemSchema = z
  .object({
    kind: SequenceDataKindSchema,
    study_id: z.string(),
    schema_name: z.string(),
    row_id: z.string().meta({ description: 'the row’s identifier in its sheet', example: 'FILE001' }),
    name: z.string().meta({ description: 'the read files, the assembly’s name or the annotation’s title' }),
    sample: z.string().meta({ description: 'the BioSample the row names', example: 'SAMEA7524530' }),
    state: z
      .enum(['pending', 'processing', 'waiting', 'accepted', 'rejected'])
      .meta({ description: 'pending: not sent; waiting: cannot be sent yet (detail says why); then ENA’s answer' }),
    detail: z.string().meta({ description: 'why it waits or was refused; empty otherwise' }),
    accessions: z
      .object({
        experiment: z.string().optional().meta({ example: 'ERX1234567' }),
        run: z.string().optional().meta({ example: 'ERR1234567' }),
        analysis: z.string().optional().meta({ description: 'annotations and assemblies', example: 'ERZ1234567' }),
      })
      .meta({ description: 'what ENA gave the row' }),
    archive: z.enum(['unknown', ...ARCHIVE_FILE_STATES]).meta({
      description: 'ENA’s processing of the row’s files taken together: failed or processing while any is, archived when all are',
    }),
    files: z.array(ArchiveFileSchema),
    checked_at: z.string().optional().meta({ description: 'when ENA was last asked about the files' }),
  })
  .meta({
    id: 'SequenceDataItem',
    description: 'a read row, an assembly or a sequence annotation of a study, with where it stands at ENA',
  });
export type SequenceDataItem = z.infer<typeof SequenceDataItemSchema>;

export const SequenceDataListSchema = z
  .object({ number_found: z.number().int(), data: z.array(SequenceDataItemSchema) })
  .meta({ id: 'SequenceDataList', description: 'the reads, assemblies and sequence annotations of a profile’s studies' });
export type SequenceDataList = z.infer<typeof SequenceDataListSchema>;

export const ReleasedSequenceDataListSchema = z
  .object({
    number_found: z.number().int(),
    data: z.array(
      z.object({
        biosampleAccession: z.string(),
        kind: SequenceDataKindSchema,
        name: z.string(),
        study_accession: z.string().meta({ example: 'PRJEB76543' }),
        experiment_accession: z.string().optional(),
        run_accession: z.string().optional(),
        analysis_accession: z.string().optional().meta({ description: 'assemblies and annotations', example: 'ERZ1234567' }),
      }),
    ),
  })
  .meta({ id: 'ReleasedSequenceDataList', description: 'runs, assemblies and annotations of studies ENA has made public, by sample' });
