import { sql } from 'drizzle-orm';
import { bigserial, check, date, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { BIODATA_SAMPLE_STATUSES, type BiodataFields, type BiodataSampleStatus } from '../../lib/biodata-samples/contract';
import { PATTERNS } from '../../lib/identifiers/contract';
import { sqlList } from '../../lib/projects/contract';
import { fieldChangeColumns } from './field-changes';
import { profiles } from './profiles';
import { users } from './users';

/**
 * A sample registered against one of ENA's sample checklists (lib/biodata-samples): its values by the checklist's
 * field names, the researcher's alias for it (unique in its profile, how a re-upload finds it), and where it stands
 * at ENA. Its svc_id is also its alias at ENA.
 */
export const biodataSamples = pgTable(
  'biodata_samples',
  {
    id: text('id').primaryKey(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id),
    checklistId: text('checklist_id').notNull(),
    alias: text('alias').notNull(),
    taxonId: text('taxon_id').notNull(),
    scientificName: text('scientific_name').notNull(),
    fields: jsonb('fields').$type<BiodataFields>().notNull(),
    status: text('status').$type<BiodataSampleStatus>().notNull().default('confirmed'),
    /** why it waits, or ENA's words when it refused it */
    statusDetail: text('status_detail'),
    /** held private at ENA until this day (HOLD); null: released (RELEASE) */
    releaseDate: date('release_date'),
    biosampleAccession: text('biosample_accession'),
    sraAccession: text('sra_accession'),
    /** the ENA submission that last added or modified it */
    submissionAccession: text('submission_accession'),
    /** the validation report it was last confirmed from */
    reportId: uuid('report_id'),
    createdBy: integer('created_by').references(() => users.id),
    timeCreated: timestamp('time_created', { withTimezone: true }).notNull().defaultNow(),
    timeUpdated: timestamp('time_updated', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('biodata_samples_id_shape', sql`${t.id} ~ ${sql.raw(`'^${PATTERNS.objectId}$'`)}`),
    check('biodata_samples_status', sql`${t.status} in (${sql.raw(sqlList(BIODATA_SAMPLE_STATUSES))})`),
    uniqueIndex('biodata_samples_alias_idx').on(t.profileId, t.alias),
    index('biodata_samples_profile_idx').on(t.profileId, t.timeCreated),
    index('biodata_samples_biosample_idx').on(t.biosampleAccession),
  ],
);

/** A biodata sample's history: one row per changed field, written in the transaction that changed it. */
export const biodataSampleUpdates = pgTable(
  'biodata_sample_updates',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sampleId: text('sample_id')
      .notNull()
      .references(() => biodataSamples.id, { onDelete: 'cascade' }),
    ...fieldChangeColumns(),
  },
  (t) => [
    check('biodata_sample_updates_type', sql`${t.updateType} in ('system', 'user')`),
    index('biodata_sample_updates_sample_idx').on(t.sampleId, t.timeUpdated),
  ],
);
