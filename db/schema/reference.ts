import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { CentreContact } from '../../lib/reference/contract';

/**
 * The associated project types (sub-projects: BGE, ERGA_COMMUNITY, SANGER…) that administrators keep (lib/reference).
 * Profiles and samples name them in their `associated_types` / `associated_tol_projects` arrays; a name is never
 * deleted, only retired (`selectable` false), so what old profiles and samples carry stays known.
 */
export const associatedTypes = pgTable('associated_types', {
  name: text('name').primaryKey(),
  label: text('label').notNull(),
  /** a sample carrying it waits for an approver of it (lib/approvals/approvals.ts) */
  approvalRequired: boolean('approval_required').notNull().default(false),
  /** a changed re-upload of an approved sample clears this type's approval, so it is asked for again */
  approvalRequiredOnUpdate: boolean('approval_required_on_update').notNull().default(true),
  /** a user may pick it on a profile; false: retired, or fixed by a profile type (DTOL, ASG…) */
  selectable: boolean('selectable').notNull().default(true),
  /** what the acceptance email of its samples says */
  acceptanceText: text('acceptance_text').notNull().default(''),
  /** the order lists show it in: the reference system's, new ones last */
  position: integer('position').notNull(),
  timeUpdated: timestamp('time_updated', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The sequencing centres an ERGA profile names. A centre that needs approval brings the associated type of its own
 * name onto the profile, so its samples wait for that type's approvers too.
 */
export const sequencingCentres = pgTable('sequencing_centres', {
  name: text('name').primaryKey(),
  /** what the query API's `sequencing_centre` parameter and a sample's GAL name it by */
  label: text('label').notNull(),
  approvalRequired: boolean('approval_required').notNull().default(false),
  /** the people to write to about the centre's samples */
  contacts: jsonb('contacts').$type<CentreContact[]>().notNull().default(sql`'[]'::jsonb`),
  /** a user may pick it on a profile; false: retired */
  selectable: boolean('selectable').notNull().default(true),
  /** the order lists show it in: the reference system's, new ones last */
  position: integer('position').notNull(),
  timeUpdated: timestamp('time_updated', { withTimezone: true }).notNull().defaultNow(),
});
