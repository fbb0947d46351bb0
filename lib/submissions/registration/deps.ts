import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import type { JobQueue } from '@/lib/jobs/queue';
import type { MailContext } from '@/lib/mail/outbox';
import type { EnaClient } from '@/lib/repositories/ena';

/** What the registration job needs from the outside world. */
export interface RegistrationDeps {
  db: Db;
  logger: Logger;
  ena: () => EnaClient;
  /** to schedule the next try after an outage */
  jobs: JobQueue;
  mail: MailContext;
}
