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
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { FieldChange, Issue, ManifestDefinition, StoredReportRows } from '../../lib/manifests/contract';
import type { RequiredPermit } from '../../lib/permits/contract';
import type { ReportCounts, ReportMode, ReportProject, ReportStatus } from '../../lib/reports/contract';
import { profiles } from './profiles';
import { type TolProject, users } from './users';

const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** A versioned Tree of Life manifest definition (fields, rules) loaded from the reference data. */
export const manifestDefinitions = pgTable(
  'manifest_definitions',
  {
    project: text('project').$type<TolProject>().notNull(),
    version: text('version').notNull(),
    isCurrent: boolean('is_current').notNull().default(false),
    definition: jsonb('definition').$type<ManifestDefinition>().notNull(),
    /** when the stored definition last changed (a start that loads the same definition leaves it) */
    loadedAt: timestamp('loaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.project, t.version] })],
);

/** One validation of an uploaded manifest file (docs/architecture.md, Decision 12). */
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
    project: text('project').$type<ReportProject>().notNull(),
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
    summary: jsonb('summary').$type<ReportCounts>().notNull().default(sql`'{"rows":0,"errors":0,"warnings":0}'::jsonb`),
    errors: jsonb('errors').$type<Issue[]>().notNull().default(sql`'[]'::jsonb`),
    warnings: jsonb('warnings').$type<Issue[]>().notNull().default(sql`'[]'::jsonb`),
    /** parsed rows kept for confirmation, so confirming does not parse again */
    rows: jsonb('rows').$type<StoredReportRows>(),
    /** create | update, and for updates the field changes found (preview) */
    mode: text('mode').$type<ReportMode>(),
    changes: jsonb('changes').$type<FieldChange[]>().notNull().default(sql`'[]'::jsonb`),
    /** ERGA: the permit files the manifest asks for, by file name, with the specimens that need each */
    permits: jsonb('permits').$type<RequiredPermit[]>().notNull().default(sql`'[]'::jsonb`),
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

/**
 * An ERGA permit PDF, uploaded for a validation report under the file name the manifest gives, and tied to the
 * manifest when the report is confirmed. Kept in the database: permits are small, and belong with their manifest.
 */
export const permits = pgTable(
  'permits',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    reportId: uuid('report_id')
      .notNull()
      .references(() => validationReports.id, { onDelete: 'cascade' }),
    /** set when the report is confirmed */
    manifestId: uuid('manifest_id'),
    /** as the manifest names it, e.g. test_permit.pdf */
    fileName: text('file_name').notNull(),
    /** as the reference stores it: the name with the upload date, e.g. test_permit_20261124.pdf */
    storedName: text('stored_name').notNull(),
    sizeInBytes: integer('size_in_bytes').notNull(),
    sha256: text('sha256').notNull(),
    content: bytea('content').notNull(),
    uploadedBy: integer('uploaded_by').references(() => users.id),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('permits_report_file_key').on(t.reportId, t.fileName), index('permits_profile_file_idx').on(t.profileId, t.fileName)],
);
