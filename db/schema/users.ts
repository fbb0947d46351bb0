import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';

import { sqlList, TOL_PROJECTS, type TolProject } from '../../lib/projects/contract';

// the tables and the API share one list of projects (lib/projects/contract.ts)
export { TOL_PROJECTS, type TolProject } from '../../lib/projects/contract';

export const PROJECT_ROLES = ['member', 'sample_manager'] as const;
export type ProjectRole = (typeof PROJECT_ROLES)[number];

export const users = pgTable('users', {
  id: serial('id').primaryKey(),
  username: text('username').notNull().unique(),
  email: text('email').notNull().default(''),
  passwordHash: text('password_hash').notNull(),
  isAdmin: boolean('is_admin').notNull().default(false),
  isActive: boolean('is_active').notNull().default(true),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** when this approver was last sent a digest of the samples waiting for them (lib/samples/reminders.ts) */
  approvalRemindedAt: timestamp('approval_reminded_at', { withTimezone: true }),
  /** the person's ORCID iD (0000-0002-1825-0097), set by signing in with ORCID or linking it from the account page */
  orcidId: text('orcid_id').unique(),
  /** the name the person goes by, as ORCID gives it; '' when unknown */
  fullName: text('full_name').notNull().default(''),
  /**
   * The generation of the person's portal sessions: each session carries the one it began in, and counts only while
   * it is still this one. Raised by a new password and by "sign out everywhere" (lib/auth/sessions.ts).
   */
  sessionVersion: integer('session_version').notNull().default(0),
});

/**
 * Portal sessions ended by signing out before they expired, by the id each session carries: the session itself is a
 * signed cookie, so ending one is remembering it here until it would have expired anyway.
 */
export const endedSessions = pgTable(
  'ended_sessions',
  {
    sessionId: text('session_id').primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('ended_sessions_expiry_idx').on(t.expiresAt)],
);

/**
 * The associated project types (BGE, ERGA_COMMUNITY, SANGER…: the associated_types table) whose approval this user gives:
 * a sample of a type flagged "approval required" waits until an approver of that type has accepted it.
 */
export const userApproverTypes = pgTable(
  'user_approver_types',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    associatedType: text('associated_type').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.associatedType] }), index('user_approver_types_type_idx').on(t.associatedType)],
);

/** Membership of, and the sample-manager role in, a Tree of Life project. */
export const userProjectRoles = pgTable(
  'user_project_roles',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    project: text('project').$type<TolProject>().notNull(),
    role: text('role').$type<ProjectRole>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.project, t.role] }),
    check('user_project_roles_project', sql`${t.project} in (${sql.raw(sqlList(TOL_PROJECTS))})`),
    check('user_project_roles_role', sql`${t.role} in ('member', 'sample_manager')`),
    index('user_project_roles_project_idx').on(t.project, t.role),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the whole key, hex; the key itself is never stored */
    keyHash: text('key_hash').notNull().unique(),
    /** the first characters of the key, shown in the portal so people can tell keys apart */
    prefix: text('prefix').notNull(),
    name: text('name').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_keys_user_idx').on(t.userId)],
);
