import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  REPOSITORIES,
  type Repository,
  type SubmissionAccessions,
  type SubmissionAction,
  type SubmissionKind,
  type SubmissionProgress,
  type SubmissionStatus,
} from '../../lib/submissions/contract';
import { profiles } from './profiles';
import { studies } from './studies';
import { users } from './users';

// the tables and the API share these lists (lib/submissions/contract.ts)
export { REPOSITORIES, type Repository, type SubmissionStatus };

/** One brokering job to a public repository: a study, or a batch of accepted ToL samples. */
export const submissions = pgTable(
  'submissions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<SubmissionKind>().notNull(),
    repository: text('repository').$type<Repository>().notNull(),
    action: text('action').$type<SubmissionAction>().notNull().default('submit'),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id),
    studyRowId: uuid('study_row_id').references(() => studies.id, { onDelete: 'cascade' }),
    sampleIds: text('sample_ids').array().notNull().default(sql`'{}'::text[]`),
    status: text('status').$type<SubmissionStatus>().notNull().default('pending'),
    /** accessions returned: {"study": "PRJEB1", "samples": {"<svc_id>": {...}}, "doi": "10.5072/zenodo.1"} */
    accessions: jsonb('accessions').$type<SubmissionAccessions>().notNull().default(sql`'{}'::jsonb`),
    /** state a resumed job needs, e.g. the Zenodo deposition id once created */
    progress: jsonb('progress').$type<SubmissionProgress>().notNull().default(sql`'{}'::jsonb`),
    attempts: integer('attempts').notNull().default(0),
    error: text('error'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    index('submissions_profile_idx').on(t.profileId, t.createdAt),
    index('submissions_study_idx').on(t.studyRowId, t.repository),
    index('submissions_status_idx').on(t.status),
    // at most one running submission per study and repository
    uniqueIndex('submissions_one_active_per_study')
      .on(t.studyRowId, t.repository)
      .where(sql`${t.status} in ('pending', 'processing') and ${t.studyRowId} is not null`),
  ],
);

/**
 * A submission's history: each repository answer (or step of the job) one row, appended and never rewritten, so a
 * resumed registration of thousands of samples adds rows instead of rewriting one growing document (issue 27).
 * `seq` is the answer's place from 0, the `n` of /api/submissions/{id}/receipts/{n}.
 */
export const submissionReceipts = pgTable(
  'submission_receipts',
  {
    submissionId: uuid('submission_id')
      .notNull()
      .references(() => submissions.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    at: timestamp('at', { withTimezone: true, precision: 3 }).notNull().defaultNow(),
    kind: text('kind').notNull(),
    alias: text('alias'),
    objects: text('objects'),
    success: boolean('success').notNull(),
    submission: text('submission'),
    errors: jsonb('errors').$type<string[]>(),
    infos: jsonb('infos').$type<string[]>(),
    deposition: text('deposition'),
    /** ENA's RECEIPT document as received */
    xml: text('xml'),
  },
  (t) => [primaryKey({ columns: [t.submissionId, t.seq] })],
);
