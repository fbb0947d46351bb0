import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { one } from '@/db/rows';
import { type EmailKind, emails, type TolProject, userProjectRoles, users } from '@/db/schema';
import type { Config } from '@/lib/config';
import type { JobQueue } from '@/lib/jobs/queue';

/**
 * Emails are written in the transaction of the event they tell of, and their `email.send` job is queued in the same
 * transaction: the request never talks to an SMTP server, and a rolled-back event sends nothing. Without SMTP_URL
 * the email is still recorded, as not sent, and nothing fails.
 */

export interface MailContext {
  jobs: JobQueue;
  smtpConfigured: boolean;
  /** the portal's address, for links */
  baseUrl: string;
}

export const mailContext = (config: Pick<Config, 'SMTP_URL' | 'baseUrl'>, jobs: JobQueue): MailContext => ({
  jobs,
  smtpConfigured: Boolean(config.SMTP_URL),
  baseUrl: config.baseUrl,
});

export interface Recipient {
  userId: number;
  email: string;
}

export interface OutgoingEmail {
  kind: EmailKind;
  recipients: Recipient[];
  subject: string;
  /** the plain-text part */
  body: string;
  /** an HTML part beside it (the email is then multipart/alternative); only HTML made safe, as lib/mail/markdown.ts makes it */
  html?: string;
  /** addresses copied (Cc), beside the recipients: people without an account, such as a sequencing centre's contacts */
  cc?: string[];
  profileId?: string;
  manifestId?: string;
}

export async function queueEmail(tx: Db, mail: MailContext, email: OutgoingEmail): Promise<void> {
  const addressed = email.recipients.filter((r) => r.email.trim());
  const to = addressed.map((r) => r.email.trim());
  const cc = [...new Set((email.cc ?? []).map((a) => a.trim()).filter((a) => a && !to.includes(a)))];
  const notSent = !mail.smtpConfigured
    ? 'SMTP_URL is not set: no email is sent.'
    : !addressed.length && !cc.length
      ? 'No recipient has an email address.'
      : null;
  const row = one(
    await tx
      .insert(emails)
      .values({
        kind: email.kind,
        to,
        cc,
        userIds: email.recipients.map((r) => r.userId),
        subject: email.subject,
        body: email.body,
        html: email.html ?? null,
        profileId: email.profileId,
        manifestId: email.manifestId,
        status: notSent ? 'not_sent' : 'queued',
        result: notSent,
      })
      .returning({ id: emails.id }),
    'the queued email',
  );
  if (!notSent) await mail.jobs.send('email.send', { emailId: row.id }, { tx });
}

/** The active sample managers of a Tree of Life project. */
export async function managersOf(db: Db, project: TolProject): Promise<Recipient[]> {
  return db
    .select({ userId: users.id, email: users.email })
    .from(users)
    .innerJoin(userProjectRoles, eq(userProjectRoles.userId, users.id))
    .where(and(eq(userProjectRoles.project, project), eq(userProjectRoles.role, 'sample_manager'), eq(users.isActive, true)))
    .orderBy(users.id);
}

/** These users, when active. */
export async function recipientsOf(db: Db, userIds: number[]): Promise<Recipient[]> {
  const ids = [...new Set(userIds)];
  if (!ids.length) return [];
  return db
    .select({ userId: users.id, email: users.email })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.isActive, true)))
    .orderBy(users.id);
}
