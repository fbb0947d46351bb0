import { and, eq, sql } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { emails } from '@/db/schema';
import type { Config } from '@/lib/config';
import type { JobQueue } from '@/lib/jobs/queue';
import { type RowJobData, reopenFailed, rowJobSpec } from '@/lib/jobs/row-job';

const transports = new Map<string, Transporter>();

/**
 * The body an email keeps once it is settled (sent, refused, given up): a password reset's link is a credential
 * until it is used or expires, so only the message around it stays on record (lib/auth/password-reset.ts).
 */
const settledBody = sql`case when ${emails.kind} = 'password_reset'
  then regexp_replace(${emails.body}, 'token=[^[:space:]]+', 'token=(removed once the email was settled)', 'g')
  else ${emails.body} end`;

/** One pooled transport per SMTP_URL (smtp://user:pass@host:port, smtps:// for TLS). */
function transportFor(url: string): Transporter {
  let t = transports.get(url);
  if (!t) {
    t = nodemailer.createTransport(url);
    transports.set(url, t);
  }
  return t;
}

interface SmtpError extends Error {
  responseCode?: number;
}

/**
 * The `email.send` job: one recorded email to its recipients. A permanent refusal (SMTP 5xx) is recorded at once;
 * anything else is thrown, so the queue runs it again, and the give-up of its last run (giveUpEmail) records it failed.
 */
export async function sendEmail(deps: { db: Db; config: Config; logger: Logger }, emailId: string): Promise<void> {
  const { db, config } = deps;
  const [email] = await db
    .update(emails)
    .set({ attempts: sql`${emails.attempts} + 1` })
    .where(and(eq(emails.id, emailId), eq(emails.status, 'queued')))
    .returning();
  if (!email) return;
  if (!config.SMTP_URL) {
    await db
      .update(emails)
      .set({ status: 'not_sent', result: 'SMTP_URL is not set: no email is sent.', body: settledBody })
      .where(eq(emails.id, emailId));
    return;
  }
  try {
    const info = await transportFor(config.SMTP_URL).sendMail({
      from: config.MAIL_FROM,
      to: email.to,
      ...(email.cc.length ? { cc: email.cc } : {}),
      subject: email.subject,
      text: email.body,
      ...(email.html ? { html: email.html } : {}),
    });
    await db
      .update(emails)
      .set({ status: 'sent', result: String(info.messageId ?? ''), sentAt: sql`now()`, body: settledBody })
      .where(eq(emails.id, emailId));
  } catch (err) {
    const e = err as SmtpError;
    const permanent = (e.responseCode ?? 0) >= 500;
    if (permanent) {
      deps.logger.error({ err, email_id: emailId }, 'email refused by the SMTP server');
      await db.update(emails).set({ status: 'failed', result: e.message, body: settledBody }).where(eq(emails.id, emailId));
      return;
    }
    throw err;
  }
}

/** The give-up of `email.send`: recorded as failed with the last error, if it is still queued. */
export async function giveUpEmail(db: Db, emailId: string, reason: string): Promise<void> {
  await db
    .update(emails)
    .set({ status: 'failed', result: reason, body: settledBody })
    .where(and(eq(emails.id, emailId), eq(emails.status, 'queued')));
}

declare module '@/lib/jobs/contract' {
  interface JobDataByName {
    'email.send': RowJobData<'emailId'>;
  }
}

/** `email.send`: one queued email, through the SMTP relay the settings name. */
export const sendEmailJob = rowJobSpec({
  name: 'email.send',
  key: 'emailId',
  label: 'Email',
  expireSeconds: 10 * 60,
  open: sql`select id::text as id from emails where status = 'queued'`,
  run: (deps: { db: Db; config: Config; logger: Logger; jobs: JobQueue }, emailId) => sendEmail(deps, emailId),
  giveUp: (deps, emailId, reason) => giveUpEmail(deps.db, emailId, reason),
  requeue: {
    noun: 'email',
    refused: 'The email is no longer failed; nothing to retry.',
    reopen: (tx, emailId) => reopenFailed(tx, emails, emailId, { status: 'queued', result: null, attempts: 0 }),
  },
});
