import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import type { SchemaName } from '../../lib/checklists/contract';
import type { StudyAccessions, StudyComponents } from '../../lib/studies/contract';
import { profiles } from './profiles';
import { users } from './users';

/** A single-cell or imaging study: the spreadsheet's components (sheet name → rows of term_name → value). */
export const studies = pgTable(
  'studies',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    schemaName: text('schema_name').$type<SchemaName>().notNull(),
    checklistId: text('checklist_id').notNull(),
    /** letters, digits, _ - . ; unique within a profile */
    studyId: text('study_id').notNull(),
    components: jsonb('components').$type<StudyComponents>().notNull(),
    /** accessions per repository and per row identifier, e.g. {"ena": {"study": "PRJEB…"}, "zenodo": {"doi": "…"}} */
    accessions: jsonb('accessions').$type<StudyAccessions>().notNull().default(sql`'{}'::jsonb`),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('studies_profile_study_key').on(t.profileId, t.studyId),
    index('studies_profile_schema_idx').on(t.profileId, t.schemaName),
  ],
);
