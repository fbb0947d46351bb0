import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { profiles } from './profiles';
import { users, type TolProject } from './users';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** A versioned Tree of Life manifest definition (fields, rules) loaded from the reference data. */
export const manifestDefinitions = pgTable(
  'manifest_definitions',
  {
    project: text('project').$type<TolProject>().notNull(),
    version: text('version').notNull(),
    isCurrent: boolean('is_current').notNull().default(false),
    /** the ManifestDefinition object of lib/manifests/definitions.ts */
    definition: jsonb('definition').notNull(),
    loadedAt: timestamp('loaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.project, t.version] })],
);

export const REPORT_STATUSES = ['pending', 'running', 'complete', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** One validation of an uploaded manifest file (ARCHITECTURE.md Decision 12). */
export const validationReports = pgTable(
  'validation_reports',
  {
    id: uuid('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    project: text('project').$type<TolProject>().notNull(),
    version: text('version').notNull(),
    fileName: text('file_name').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    /** the uploaded file until the job has read it */
    upload: bytea('upload'),
    status: text('status').$type<ReportStatus>().notNull().default('pending'),
    /** 0..100 while running */
    progress: integer('progress').notNull().default(0),
    /** runs of the validation job: a taxonomy outage is retried, then the report fails rather than wait forever */
    attempts: integer('attempts').notNull().default(0),
    summary: jsonb('summary').notNull().default(sql`'{"rows":0,"errors":0,"warnings":0}'::jsonb`),
    errors: jsonb('errors').notNull().default(sql`'[]'::jsonb`),
    warnings: jsonb('warnings').notNull().default(sql`'[]'::jsonb`),
    /** parsed rows kept for confirmation, so confirming does not parse again */
    rows: jsonb('rows'),
    /** create | update, and for updates the field changes found (preview) */
    mode: text('mode'),
    changes: jsonb('changes').notNull().default(sql`'[]'::jsonb`),
    /** fingerprint of the profile's samples when validated: confirming a report whose profile changed since is refused */
    samplesFingerprint: text('samples_fingerprint'),
    failure: text('failure'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** set once, by the one confirmation that wins */
    confirmedManifestId: uuid('confirmed_manifest_id'),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  (t) => [index('validation_reports_user_idx').on(t.userId, t.createdAt), index('validation_reports_profile_idx').on(t.profileId)],
);

/** One confirmed upload of a manifest: the samples it created share its id. */
export const manifests = pgTable(
  'manifests',
  {
    id: uuid('id').primaryKey(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id),
    project: text('project').$type<TolProject>().notNull(),
    version: text('version').notNull(),
    /** sequencing centre short names of the profile when the manifest was confirmed */
    sequencingCentres: text('sequencing_centres').array().notNull().default(sql`'{}'::text[]`),
    fileName: text('file_name').notNull().default(''),
    reportId: uuid('report_id'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('manifests_created_idx').on(t.createdAt),
    index('manifests_project_created_idx').on(t.project, t.createdAt),
    index('manifests_profile_idx').on(t.profileId),
    index('manifests_centres_idx').using('gin', t.sequencingCentres),
  ],
);
