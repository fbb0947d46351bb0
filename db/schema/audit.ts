import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { users } from './users';

/** What a removal names: the kind of thing removed. */
export const AUDITED_OBJECTS = ['sample', 'specimen', 'validation_report', 'data_file', 'study', 'profile'] as const;
export type AuditedObject = (typeof AUDITED_OBJECTS)[number];

/** What an administrator's change of the reference data names (lib/reference). */
export type ReferenceObject = 'associated_type' | 'sequencing_centre';

/**
 * Events that change no sample field and so have no row in `sample_updates`: changes of who may use a profile
 * (shares, transfers), removals of a sample, a report, a data file, a study or a profile, and administrators' changes of
 * the associated types and sequencing centres. The row outlives what it names (no foreign keys to it), so a removal can still be
 * read after the thing is gone; `detail` keeps what identified it (file name, tube, specimen…).
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** who did it; null for the service itself */
    actorId: integer('actor_id').references(() => users.id, { onDelete: 'set null' }),
    /**
     * delete: a removal; share, unshare, transfer: a change of who may use a profile (lib/audit/events.ts); create,
     * update: an administrator's change of the reference data (lib/reference/admin.ts)
     */
    action: text('action').$type<'delete' | 'share' | 'unshare' | 'transfer' | 'create' | 'update'>().notNull(),
    objectType: text('object_type').$type<AuditedObject | ReferenceObject>().notNull(),
    objectId: text('object_id').notNull(),
    /** the profile it belonged to (kept as text: the profile may be gone too) */
    profileId: text('profile_id'),
    detail: jsonb('detail').$type<Record<string, string | number | null>>().notNull().default(sql`'{}'::jsonb`),
    time: timestamp('time', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_events_object_idx').on(t.objectType, t.objectId), index('audit_events_profile_idx').on(t.profileId, t.time)],
);

/**
 * The last outcome of a scheduled look-up at an external service that no request waits on (the Local Contexts Hub),
 * so /api/health can say whether it answers without asking it on every call.
 */
export const serviceChecks = pgTable('service_checks', {
  /** `local_contexts` */
  service: text('service').primaryKey(),
  ok: boolean('ok').notNull(),
  detail: text('detail').notNull(),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
});
