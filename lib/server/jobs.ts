import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import type { Config } from '@/lib/config';
import { fileStore } from '@/lib/files/files';
import type { JobData, JobDefinitions, JobGiveUps, JobQueue, JobRun } from '@/lib/jobs/queue';
import { mailContext } from '@/lib/mail/outbox';
import { giveUpEmail, sendEmail } from '@/lib/mail/send';
import type { TaxonomyLookup } from '@/lib/manifests';
import { giveUpValidation, runValidation } from '@/lib/reports/reports';
import {
  createEnaClient,
  createUploadArea,
  type EnaClient,
  enaClientOptionsFromConfig,
  type UploadArea,
  uploadAreaOptionsFromConfig,
} from '@/lib/repositories/ena';
import { localContextsClientFromConfig } from '@/lib/repositories/local-contexts';
import { type TolidClient, tolidClientFromConfig } from '@/lib/repositories/tolid';
import { createZenodoClient, type ZenodoClient, zenodoClientOptionsFromConfig } from '@/lib/repositories/zenodo';
import { registrationQueue, sweepRegistrations } from '@/lib/samples/registration';
import { remindApprovers } from '@/lib/samples/reminders';
import { checkDueRights } from '@/lib/samples/rights';
import { giveUpTolids, requestTolids } from '@/lib/samples/tolids';
import { giveUpRegistration, runSampleRegistration } from '@/lib/submissions/registration';
import { giveUpStudySubmission, runStudySubmission } from '@/lib/submissions/study';

/** What jobs need from the outside world. */
export interface JobDeps {
  db: Db;
  config: Config;
  logger: Logger;
  taxonomy: TaxonomyLookup;
  /** a Webin client from the settings; throws 409 naming the missing setting when there is no account */
  ena?: () => EnaClient;
  /** a Zenodo client from the settings; throws 409 naming ZENODO_TOKEN when it is unset */
  zenodo?: () => ZenodoClient;
  /** the Webin file upload area (FTP) from the settings */
  uploadArea?: () => UploadArea;
  /** the ToLID service from the settings; null without TOLID_TOKEN */
  tolid?: () => TolidClient | null;
}

// the hourly rights check asks up to a hundred projects: a hub that hangs must not hold it for long
const HUB_JOB_TIMING = { timeoutMs: 15_000, retries: 2 };

export const enaFromConfig = (config: Config, logger: Logger) => () => createEnaClient(enaClientOptionsFromConfig(config, logger));

export const zenodoFromConfig = (config: Config, logger: Logger) => () => createZenodoClient(zenodoClientOptionsFromConfig(config, logger));

export function jobHandlers(deps: JobDeps & { jobs: JobQueue }) {
  const ena = deps.ena ?? enaFromConfig(deps.config, deps.logger);
  const zenodo = deps.zenodo ?? zenodoFromConfig(deps.config, deps.logger);
  const uploadArea = deps.uploadArea ?? (() => createUploadArea(uploadAreaOptionsFromConfig(deps.config, deps.logger)));
  const files = fileStore({ db: deps.db, config: deps.config, logger: deps.logger });
  const tolid = deps.tolid ?? (() => tolidClientFromConfig(deps.config, deps.logger));
  const registration = () => registrationQueue(deps.config, deps.jobs);
  return {
    'manifest.validate': (data: JobData['manifest.validate']) => runValidation(deps, data.reportId),
    'samples.register': (data: JobData['samples.register'], run?: JobRun) =>
      runSampleRegistration(
        { db: deps.db, logger: deps.logger, ena, jobs: deps.jobs, mail: mailContext(deps.config, deps.jobs) },
        data.submissionId,
        run,
      ),
    'tolids.request': (data: JobData['tolids.request']) =>
      requestTolids(
        { db: deps.db, logger: deps.logger, tolid, registration: registration(), mail: mailContext(deps.config, deps.jobs) },
        data.sampleIds,
      ),
    'email.send': (data: JobData['email.send']) => sendEmail(deps, data.emailId),
    'registrations.sweep': async () => {
      const sent = await sweepRegistrations(deps.db, registration());
      if (sent) deps.logger.info({ samples: sent }, 'registration sweep sent samples on');
    },
    'rights.check': async () => {
      const done = await checkDueRights({
        db: deps.db,
        logger: deps.logger,
        hub: localContextsClientFromConfig(deps.config, deps.logger, HUB_JOB_TIMING),
        mail: mailContext(deps.config, deps.jobs),
      });
      // an unreachable hub ends the job normally: the samples stay private and are asked about at the next run
      if (done.projects) deps.logger.info({ ...done }, 'rights check asked the Local Contexts Hub');
    },
    'approvals.remind': async () => {
      const sent = await remindApprovers({ db: deps.db, mail: mailContext(deps.config, deps.jobs), days: deps.config.REMINDER_DAYS });
      if (sent) deps.logger.info({ approvers: sent }, 'approvers reminded of the samples waiting for them');
    },
    'study.submit': (data: JobData['study.submit'], run?: JobRun) =>
      runStudySubmission(
        { db: deps.db, logger: deps.logger, baseUrl: deps.config.baseUrl, jobs: deps.jobs, ena, zenodo, files, uploadArea },
        data.submissionId,
        run,
      ),
  };
}

/** What ends each job's work when it will not run again (lib/jobs/queue.ts JobGiveUps). */
export function jobGiveUps(deps: Pick<JobDeps, 'db' | 'config'> & { jobs: JobQueue }) {
  return {
    'manifest.validate': (data: JobData['manifest.validate'], reason: string) => giveUpValidation(deps.db, data.reportId, reason),
    'samples.register': (data: JobData['samples.register'], reason: string) =>
      giveUpRegistration({ db: deps.db, mail: mailContext(deps.config, deps.jobs) }, data.submissionId, reason),
    'tolids.request': (data: JobData['tolids.request'], reason: string) => giveUpTolids(deps.db, data.sampleIds, reason),
    'study.submit': (data: JobData['study.submit'], reason: string) => giveUpStudySubmission(deps.db, data.submissionId, reason),
    'email.send': (data: JobData['email.send'], reason: string) => giveUpEmail(deps.db, data.emailId, reason),
  } satisfies JobGiveUps;
}

export const jobDefinitions = (deps: JobDeps & { jobs: JobQueue }): JobDefinitions => ({
  handlers: jobHandlers(deps),
  giveUps: jobGiveUps(deps),
});
