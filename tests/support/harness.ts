import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { openDatabase, type Database } from '@/db/client';
import { seedReferenceData } from '@/db/seed';
import { createApiApp } from '@/lib/api/app';
import type { ApiApp, ApiDeps } from '@/lib/api/context';
import { createApiKey } from '@/lib/auth/api-keys';
import { parseConfig, type Config } from '@/lib/config';
import { jobHandlers, type JobDeps } from '@/lib/jobs/handlers';
import { startJobQueue, type RunningQueue } from '@/lib/jobs/queue';
import { createLogger } from '@/lib/logger';
import type { TaxonomyLookup } from '@/lib/manifests';
import { createUser, type NewUser, type UserRecord } from '@/lib/users/users';

export interface Harness {
  api: ApiApp;
  deps: ApiDeps;
  database: Database;
  config: Config;
  /** every JSON log line the app wrote */
  logs: Record<string, unknown>[];
  /** a request to the real Hono app, as a client would send it */
  request(path: string, init?: RequestInit & { key?: string }): Promise<Response>;
  /** a user with a fresh API key */
  user(input?: Partial<NewUser>): Promise<{ user: UserRecord; key: string; password: string }>;
  /** the job handlers on this harness's database, to run a job by hand */
  jobs: ReturnType<typeof jobHandlers>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** run the pg-boss workers, as the service does (off: jobs are only enqueued) */
  workers?: boolean;
  /** the taxonomy look-up the validation job uses (default: none answers, so taxonomy checks fail loudly) */
  taxonomy?: TaxonomyLookup;
  /** replaces parts of what jobs get (e.g. repository clients) */
  jobDeps?: Partial<JobDeps>;
}

const NO_TAXONOMY: TaxonomyLookup = {
  byTaxId: () => Promise.reject(new Error('no taxonomy service in this test')),
  byScientificName: () => Promise.reject(new Error('no taxonomy service in this test')),
};

/**
 * A fresh database per suite: in-memory PGlite by default, or a new database on the PostgreSQL server named by
 * TEST_DATABASE_URL (dropped afterwards), with the real migrations and the real app on top.
 */
export async function createHarness(env: Record<string, string> = {}, opts: HarnessOptions = {}): Promise<Harness> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rmb-test-'));
  const config = parseConfig({ DATA_DIR: dataDir, NEXTAUTH_SECRET: 'test-secret-' + randomBytes(8).toString('hex'), ...env });
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger('info', { write: (line: string) => void logs.push(JSON.parse(line)) });

  const serverUrl = process.env.TEST_DATABASE_URL;
  let dropDatabase = async () => {};
  let url: string | undefined;
  if (serverUrl) {
    const name = `rmb_test_${randomBytes(6).toString('hex')}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    await admin.end();
    const u = new URL(serverUrl);
    u.pathname = `/${name}`;
    url = u.toString();
    dropDatabase = async () => {
      const a = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    };
  }
  const database = await openDatabase({ url, max: 4 });
  await seedReferenceData(database.db);
  const jobDeps: JobDeps = { db: database.db, config, logger, taxonomy: opts.taxonomy ?? NO_TAXONOMY, ...opts.jobDeps };
  const handlers = jobHandlers(jobDeps);
  const queue: RunningQueue = await startJobQueue(database, logger, handlers, {
    workers: opts.workers ?? false,
    pollingIntervalSeconds: 0.5,
  });
  const deps: ApiDeps = { db: database.db, config, logger, jobs: queue.queue };
  const api = createApiApp(deps);
  let n = 0;

  return {
    api,
    deps,
    jobs: handlers,
    database,
    config,
    logs,
    request(p, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key) headers.set('authorization', `token ${key}`);
      return Promise.resolve(api.request(p, { ...rest, headers }));
    },
    async user(input = {}) {
      n += 1;
      const password = input.password ?? `password-${n}-${randomBytes(4).toString('hex')}`;
      const user = await createUser(database.db, { username: `user${n}_${randomBytes(3).toString('hex')}`, ...input, password });
      const { key } = await createApiKey(database.db, user.id);
      return { user, key, password };
    },
    async close() {
      await queue.stop();
      await database.close();
      await dropDatabase();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
