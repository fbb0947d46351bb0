import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { profiles } from './profiles';

export const EMAIL_KINDS = [
  'manifest_confirmed',
  'manifest_updated',
  'samples_accepted',
  'samples_rejected',
  'samples_registered',
  'registration_failed',
  /** a digest of the samples that waited for an approver too long (lib/samples/reminders.ts); a text column, no migration */
  'approval_reminder',
  /** a "forgot password" link (lib/auth/password-reset.ts); a text column, no migration */
  'password_reset',
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/** queued → sent | failed (the SMTP error); not_sent when no SMTP server is configured or nobody has an address */
export const EMAIL_STATUSES = ['queued', 'sent', 'failed', 'not_sent'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

/** Every email the service meant to send: who, what, when, and whether it was delivered. */
export const emails = pgTable(
  'emails',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<EmailKind>().notNull(),
    /** addresses, and the users they belong to */
    to: text('to').array().notNull(),
    userIds: integer('user_ids').array().notNull(),
    subject: text('subject').notNull(),
    /** the plain-text part */
    body: text('body').notNull(),
    /** an HTML part beside `body`, when the email has one (an acceptance email's next steps, lib/mail/acceptance.ts) */
    html: text('html'),
    /** addresses copied (Cc), who have no account: a sequencing centre's contacts */
    cc: text('cc').array().notNull().default(sql`'{}'::text[]`),
    profileId: text('profile_id').references(() => profiles.id, { onDelete: 'set null' }),
    manifestId: uuid('manifest_id'),
    status: text('status').$type<EmailStatus>().notNull().default('queued'),
    /** the SMTP server's answer: its message id when sent, the error when not */
    result: text('result'),
    attempts: integer('attempts').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('emails_created_idx').on(t.createdAt), index('emails_manifest_idx').on(t.manifestId)],
);
