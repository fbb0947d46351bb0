import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  BARCODE_CHECKLISTS,
  BARCODE_STATUSES,
  type BarcodeChecklist,
  type BarcodeFields,
  type BarcodeStatus,
} from '../../lib/barcodes/contract';
import { sqlList } from '../../lib/projects/contract';
import { profiles } from './profiles';
import { users } from './users';

/**
 * A DNA barcode of a Tree of Life profile's specimen (lib/barcodes): its checklist's values, its sequence, and where it
 * stands at ENA. Barcodes sent together (one Webin-CLI submission, one TAB file) share a batch; Webin-CLI gives the
 * submission one analysis accession, which each of them keeps.
 */
export const barcodes = pgTable(
  'barcodes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    /** the SPECIMEN_ID of one of the profile's samples, as the samples spell it */
    specimenId: text('specimen_id').notNull(),
    checklistId: text('checklist_id').$type<BarcodeChecklist>().notNull(),
    /** ENTRYNUMBER: its name in the TAB file, unique in the profile (how a re-upload finds it) */
    entryNumber: text('entry_number').notNull(),
    studyAccession: text('study_accession').notNull(),
    fields: jsonb('fields').$type<BarcodeFields>().notNull(),
    sequence: text('sequence').notNull(),
    status: text('status').$type<BarcodeStatus>().notNull().default('pending'),
    /** why it waits, or ENA's words when it refused it */
    error: text('error'),
    /** the submission holding it while `processing`, and the one that sent it */
    batchId: uuid('batch_id'),
    /** the analysis accession (ERZ…) Webin-CLI gave its submission */
    accession: text('accession'),
    createdBy: integer('created_by').references(() => users.id),
    timeCreated: timestamp('time_created', { withTimezone: true }).notNull().defaultNow(),
    timeUpdated: timestamp('time_updated', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('barcodes_status', sql`${t.status} in (${sql.raw(sqlList(BARCODE_STATUSES))})`),
    check('barcodes_checklist', sql`${t.checklistId} in (${sql.raw(sqlList(BARCODE_CHECKLISTS))})`),
    uniqueIndex('barcodes_entry_idx').on(t.profileId, t.entryNumber),
    index('barcodes_profile_idx').on(t.profileId, t.timeCreated),
    index('barcodes_batch_idx').on(t.batchId),
  ],
);
