import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import type { Config } from '@/lib/config';
import type { TaxonomyLookup } from '@/lib/manifests';
import { runValidation } from '@/lib/reports/reports';
import type { JobData } from './queue';

/** What jobs need from the outside world. */
export interface JobDeps {
  db: Db;
  config: Config;
  logger: Logger;
  taxonomy: TaxonomyLookup;
}

export function jobHandlers(deps: JobDeps) {
  return {
    'manifest.validate': (data: JobData['manifest.validate']) => runValidation(deps, data.reportId),
  };
}
