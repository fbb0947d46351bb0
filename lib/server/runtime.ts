import path from 'node:path';
import type { Logger } from 'pino';
import { type Database, openDatabase } from '@/db/client';
import { createApiApp } from '@/lib/api/app';
import type { ApiApp } from '@/lib/api/context';
import { type Config, config } from '@/lib/config';
import { type RunningQueue, startJobQueue } from '@/lib/jobs/queue';
import { createLogger } from '@/lib/logger';
import { createTaxonomyClient } from '@/lib/repositories/taxonomy';
import { seedReferenceData } from '@/lib/seed';
import { jobDefinitions } from '@/lib/server/jobs';
import { ensureFirstAdmin } from '@/lib/users/users';
import { announceFirstAdmin } from './first-admin';

export interface Runtime {
  config: Config;
  logger: Logger;
  database: Database;
  jobs: RunningQueue;
  api: ApiApp;
}

// Next.js bundles each route separately, so a module-level singleton would exist once per bundle and open the
// embedded database twice; one per process lives on globalThis instead.
const KEY = Symbol.for('rmb.runtime');
type Holder = { [KEY]?: Promise<Runtime> };

export function getRuntime(): Promise<Runtime> {
  const g = globalThis as Holder;
  g[KEY] ??= start().catch((err: unknown) => {
    delete g[KEY];
    throw err;
  });
  return g[KEY];
}

async function start(): Promise<Runtime> {
  const cfg = config();
  const logger = createLogger(cfg.LOG_LEVEL);
  const database = await openDatabase({
    url: cfg.DATABASE_URL,
    pgliteDir: cfg.DATABASE_URL ? undefined : path.join(cfg.dataDir, 'pglite'),
  });
  await seedReferenceData(database.db);
  logger.info({ database: database.kind, data_dir: cfg.dataDir }, 'database ready: migrations applied, reference data loaded');
  const admin = await ensureFirstAdmin(database.db, { username: cfg.ADMIN_USERNAME, password: cfg.ADMIN_PASSWORD });
  announceFirstAdmin(cfg.dataDir, logger, admin);
  const taxonomy = createTaxonomyClient({ baseUrl: cfg.ENA_TAXONOMY_URL, db: database.db, logger });
  const jobs = await startJobQueue(database, logger, (queue) =>
    jobDefinitions({ db: database.db, config: cfg, logger, taxonomy, jobs: queue }),
  );
  const api = createApiApp({ db: database.db, config: cfg, logger, jobs: jobs.queue, databaseKind: database.kind });
  return { config: cfg, logger, database, jobs, api };
}

export const getDb = async () => (await getRuntime()).database.db;
export const getJobQueue = async () => (await getRuntime()).jobs.queue;
