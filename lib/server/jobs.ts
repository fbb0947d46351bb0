import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { submitBarcodesJob } from '@/lib/barcodes/submit';
import { registerBiodataSamplesJob } from '@/lib/biodata-samples/registration-job';
import type { Config } from '@/lib/config';
import { fileStore } from '@/lib/files/files';
import { submitImagesJob } from '@/lib/images/submit';
import type { JobData, JobName } from '@/lib/jobs/contract';
import type { JobDefinitions, JobQueue } from '@/lib/jobs/queue';
import { type AnyJobSpec, bindJobs, FIRST_RUN, type JobRun } from '@/lib/jobs/spec';
import { mailContext } from '@/lib/mail/outbox';
import { sendEmailJob } from '@/lib/mail/send';
import { vacuumJob } from '@/lib/maintenance/vacuum';
import type { TaxonomyLookup } from '@/lib/manifests';
import { validateManifestJob } from '@/lib/reports/job';
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
import { webinCliSettings } from '@/lib/repositories/webin-cli';
import { createZenodoClient, type ZenodoClient, zenodoClientOptionsFromConfig } from '@/lib/repositories/zenodo';
import { refreshChecklistsJob } from '@/lib/sample-checklists/refresh';
import { registrationQueue } from '@/lib/samples/registration';
import { registrationsSweepJob } from '@/lib/samples/registrations-sweep';
import { remindApproversJob } from '@/lib/samples/reminders';
import { rightsCheckJob } from '@/lib/samples/rights';
import { requestTolidsJob } from '@/lib/samples/tolids';
import { registerSamplesJob } from '@/lib/submissions/registration';
import { archiveStatusJob, submitStudyJob } from '@/lib/submissions/study';

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

/**
 * Everything a job may need, made once from the settings: each job's spec names the part it uses, and the listing
 * below checks that this context has it.
 */
export function jobContext(deps: JobDeps & { jobs: JobQueue }) {
  const mail = mailContext(deps.config, deps.jobs);
  return {
    db: deps.db,
    config: deps.config,
    logger: deps.logger,
    taxonomy: deps.taxonomy,
    jobs: deps.jobs,
    mail,
    baseUrl: deps.config.baseUrl,
    ena: deps.ena ?? enaFromConfig(deps.config, deps.logger),
    zenodo: deps.zenodo ?? zenodoFromConfig(deps.config, deps.logger),
    uploadArea: deps.uploadArea ?? (() => createUploadArea(uploadAreaOptionsFromConfig(deps.config, deps.logger))),
    files: fileStore({ db: deps.db, config: deps.config, logger: deps.logger }),
    // read at each use, like the registration's settings
    webinCli: () => webinCliSettings(deps.config),
    tolid: deps.tolid ?? (() => tolidClientFromConfig(deps.config, deps.logger)),
    // read at each use: what the settings say about where approved samples can go
    get registration() {
      return registrationQueue(deps.config, deps.jobs);
    },
    hub: localContextsClientFromConfig(deps.config, deps.logger, HUB_JOB_TIMING),
    reminderDays: deps.config.REMINDER_DAYS,
  };
}

type JobContext = ReturnType<typeof jobContext>;

/**
 * Every job the service runs: one line each, the spec (its data, its name in words, its run) beside its domain's code.
 * The queue makes the jobs' queues, schedules and workers from this list, and the admin API its failed jobs.
 */
const JOBS = [
  validateManifestJob,
  registerSamplesJob,
  requestTolidsJob,
  registrationsSweepJob,
  submitStudyJob,
  rightsCheckJob,
  remindApproversJob,
  sendEmailJob,
  submitImagesJob,
  refreshChecklistsJob,
  registerBiodataSamplesJob,
  submitBarcodesJob,
  archiveStatusJob,
  vacuumJob,
] as const satisfies readonly AnyJobSpec<JobContext>[];

/** The jobs bound to one context made from the settings. */
export const jobDefinitions = (deps: JobDeps & { jobs: JobQueue }): JobDefinitions => ({ jobs: bindJobs(JOBS, jobContext(deps)) });

type ListedJob = (typeof JOBS)[number]['name'];
/** The jobs declared in a domain (JobDataByName) and not listed above, which must be none: a job forgotten is named here. */
type Unlisted<Forgotten extends never> = Forgotten;
/** What tests and tools run by hand: every job but the queue's own sweep (each listed, or this does not compile). */
type RunnableJob = Exclude<JobName, 'jobs.sweep' | Unlisted<Exclude<JobName, ListedJob | 'jobs.sweep'>>>;
type Handler<N extends RunnableJob> = (
  ...args: Record<string, never> extends JobData[N] ? [data?: JobData[N], run?: JobRun] : [data: JobData[N], run?: JobRun]
) => Promise<void>;

/** Each job's run, by name, as if it were its first (tests and tools run jobs by hand with these). */
export function jobHandlers(definitions: JobDefinitions): { [N in RunnableJob]: Handler<N> } {
  const bound = new Map(definitions.jobs.map((j) => [j.name, j]));
  const handler = (name: RunnableJob) => {
    const job = bound.get(name);
    if (!job) throw new Error(`no job is declared for ${name}`);
    return (data: unknown = {}, run: JobRun = FIRST_RUN) => job.run(data, run);
  };
  return Object.fromEntries(JOBS.map(({ name }) => [name, handler(name)])) as {
    [N in RunnableJob]: Handler<N>;
  };
}

/** What ends each job's work when it will not run again, by name (for tests). */
export function jobGiveUps(definitions: JobDefinitions): { [N in JobName]?: (data: JobData[N], reason: string) => Promise<void> } {
  return Object.fromEntries(definitions.jobs.flatMap((j) => (j.giveUp ? [[j.name, j.giveUp]] : [])));
}
