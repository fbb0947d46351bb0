import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import type { Config } from '@/lib/config';
import type { TaxonomyLookup } from '@/lib/manifests';
import { createEnaClient, enaClientOptionsFromConfig, type EnaClient } from '@/lib/repositories/ena';
import { createZenodoClient, zenodoClientOptionsFromConfig, type ZenodoClient } from '@/lib/repositories/zenodo';
import { runValidation } from '@/lib/reports/reports';
import { runSampleRegistration } from '@/lib/submissions/register-samples';
import { runStudySubmission } from '@/lib/submissions/study';
import type { JobData } from './queue';

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
}

export const enaFromConfig = (config: Config, logger: Logger) => () => createEnaClient(enaClientOptionsFromConfig(config, logger));

export const zenodoFromConfig = (config: Config, logger: Logger) => () =>
  createZenodoClient(zenodoClientOptionsFromConfig(config, logger));

export function jobHandlers(deps: JobDeps) {
  const ena = deps.ena ?? enaFromConfig(deps.config, deps.logger);
  const zenodo = deps.zenodo ?? zenodoFromConfig(deps.config, deps.logger);
  return {
    'manifest.validate': (data: JobData['manifest.validate']) => runValidation(deps, data.reportId),
    'samples.register': (data: JobData['samples.register']) =>
      runSampleRegistration({ db: deps.db, logger: deps.logger, ena }, data.submissionId),
    'study.submit': (data: JobData['study.submit']) =>
      runStudySubmission({ db: deps.db, logger: deps.logger, baseUrl: deps.config.baseUrl, ena, zenodo }, data.submissionId),
  };
}
