import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, serial, text, timestamp, unique, uniqueIndex } from 'drizzle-orm/pg-core';
import { SHARE_ROLES, type ShareRole } from '../../lib/profiles/contract';
import { sqlList } from '../../lib/projects/contract';
import { profiles } from './profiles';
import { users } from './users';

/** A set of people a profile can be shared with at once: made by any user, who adds and removes its members. */
export const groups = pgTable(
  'groups',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('groups_owner_name_key').on(t.ownerId, t.name)],
);

/** The members of a group; its owner is one from its creation. */
export const groupMembers = pgTable(
  'group_members',
  {
    groupId: integer('group_id')
      .notNull()
      .references(() => groups.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addedAt: timestamp('added_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.groupId, t.userId] }), index('group_members_user_idx').on(t.userId)],
);

/**
 * A profile shared with one person or with a group (whoever is its member at the time of asking), with a role.
 * Exactly one of user and group is set; a profile is shared at most once with each.
 */
export const profileShares = pgTable(
  'profile_shares',
  {
    id: serial('id').primaryKey(),
    profileId: text('profile_id')
      .notNull()
      .references(() => profiles.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    groupId: integer('group_id').references(() => groups.id, { onDelete: 'cascade' }),
    role: text('role').$type<ShareRole>().notNull(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('profile_shares_one_grantee', sql`(${t.userId} is null) <> (${t.groupId} is null)`),
    // what a share lets its people do with a profile (lib/profiles/access.ts): see it, or also add to it
    check('profile_shares_role', sql`${t.role} in (${sql.raw(sqlList(SHARE_ROLES))})`),
    uniqueIndex('profile_shares_profile_user_key').on(t.profileId, t.userId),
    uniqueIndex('profile_shares_profile_group_key').on(t.profileId, t.groupId),
    index('profile_shares_user_idx').on(t.userId),
    index('profile_shares_group_idx').on(t.groupId),
  ],
);
