import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import type { Config } from '@/lib/config';
import type { TaxonomyLookup } from '@/lib/manifests';
import { createEnaClient, enaClientOptionsFromConfig, type EnaClient } from '@/lib/repositories/ena';
import { runValidation } from '@/lib/reports/reports';
import { runSampleRegistration } from '@/lib/submissions/register-samples';
import type { JobData } from './queue';

/** What jobs need from the outside world. */
export interface JobDeps {
  db: Db;
  config: Config;
  logger: Logger;
  taxonomy: TaxonomyLookup;
  /** a Webin client from the settings; throws 409 naming the missing setting when there is no account */
  ena?: () => EnaClient;
}

export const enaFromConfig = (config: Config, logger: Logger) => () => createEnaClient(enaClientOptionsFromConfig(config, logger));

export function jobHandlers(deps: JobDeps) {
  const ena = deps.ena ?? enaFromConfig(deps.config, deps.logger);
  return {
    'manifest.validate': (data: JobData['manifest.validate']) => runValidation(deps, data.reportId),
    'samples.register': (data: JobData['samples.register']) =>
      runSampleRegistration({ db: deps.db, logger: deps.logger, ena }, data.submissionId),
  };
}
