import { integer, text, timestamp } from 'drizzle-orm/pg-core';
import type { UpdateType } from '../../lib/query/contract';
import { users } from './users';

/**
 * A history row's columns after those that name its sample: one changed field, who changed it and when. Shared by
 * the histories of Tree of Life samples (sample_updates) and of checklist samples (biodata_sample_updates), so that
 * the two read alike; a function, since each table needs columns of its own.
 */
export const fieldChangeColumns = () => ({
  updateType: text('update_type').$type<UpdateType>().notNull(),
  field: text('field').notNull(),
  oldValue: text('old_value'),
  newValue: text('new_value'),
  /** the user who caused a `user` update (an upload, a decision, a correction); never returned by the API */
  actorId: integer('actor_id').references(() => users.id),
  timeUpdated: timestamp('time_updated', { withTimezone: true }).notNull().defaultNow(),
});
