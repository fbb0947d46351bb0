import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getRequestListener } from '@hono/node-server';
import postgres from 'postgres';
import { inject } from 'vitest';
import { type Database, openDatabase } from '@/db/client';
import { createApiApp } from '@/lib/api/app';
import type { ApiApp, ApiDeps } from '@/lib/api/context';
import { createApiKey } from '@/lib/auth/api-keys';
import { CLIENT_ADDRESS_HEADER } from '@/lib/auth/client-address';
import { type Config, parseConfig } from '@/lib/config';
import { type RunningQueue, startJobQueue } from '@/lib/jobs/queue';
import { createLogger } from '@/lib/logger';
import type { TaxonomyLookup } from '@/lib/manifests';
import { seedReferenceData } from '@/lib/seed';
import { type JobDeps, jobDefinitions, jobGiveUps, jobHandlers } from '@/lib/server/jobs';
import { createUser, type NewUser, type UserRecord } from '@/lib/users/users';
import { NO_TAXONOMY } from './no-taxonomy';
import { pooledPglite } from './pglite-pool';

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
  /** what ends each job's work when its last run fails */
  giveUps: ReturnType<typeof jobGiveUps>;
  /** the queue: its sweep, run by hand */
  queue: RunningQueue;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** run the pg-boss workers, as the service does (off: jobs are only enqueued) */
  workers?: boolean;
  /** the taxonomy look-up the validation job uses (default: none answers, so taxonomy checks fail loudly) */
  taxonomy?: TaxonomyLookup;
  /** replaces parts of what jobs get (e.g. repository clients) */
  jobDeps?: Partial<JobDeps>;
  /** seconds before a failed job runs again (the queue's default: 5, doubling) */
  retryDelaySeconds?: number;
  /** seconds between a worker's looks for jobs nobody announced (default 0.5) */
  pollingIntervalSeconds?: number;
}

/**
 * The cost of the password hash of the accounts `user()` makes (lib/users/passwords.ts stores it with the hash and
 * sign-in reads it from there): at OWASP's, each of the suite's ~280 such accounts took 0.45 s of CPU (a quarter of
 * the suite's), most of them never signed in with. Accounts made through the API, and the service's own admin, are
 * hashed at OWASP's cost, as tests/users.test.ts checks.
 */
const FIXTURE_HASH_COST = { N: 2 ** 10, r: 8, p: 1 };

/**
 * Every external service at a closed local port unless a test points it at a stand-in: no test reaches the
 * internet by accident, and one that forgets its stand-in fails at once (connection refused).
 */
const OFFLINE = {
  ENA_WEBIN_URL: 'http://127.0.0.1:9/ena/submit',
  ENA_TAXONOMY_URL: 'http://127.0.0.1:9/ena/taxonomy/rest',
  ENA_BROWSER_URL: 'http://127.0.0.1:9/ena/browser/api',
  ENA_FTP_URL: 'ftp://127.0.0.1:9',
  ZENODO_URL: 'http://127.0.0.1:9/api',
  TOLID_URL: 'http://127.0.0.1:9/tolid/api/v3',
  LOCAL_CONTEXTS_URL: 'http://127.0.0.1:9/localcontexts/api/v1',
  OLS_URL: 'http://127.0.0.1:9/ols4/api',
};

/**
 * The app behind a real HTTP server on a free local port: requests that arrive as a client's do, over a socket, for
 * tests of what other requests meet while the process works. (A request made in the process, as `request` does,
 * runs its whole answer as promise continuations, between which nothing else gets a turn.)
 */
export async function serveOverHttp(api: ApiApp): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(getRequestListener((request) => api.fetch(request)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A new, empty database on the PostgreSQL server named by TEST_DATABASE_URL, with a way to drop it; no URL (the
 * embedded database) without that variable.
 */
export async function freshTestDatabase(): Promise<{ url?: string; drop(): Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { drop: async () => {} };
  const name = `rmb_test_${randomBytes(6).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  // a copy of the suite's migrated database (tests/support/global-setup.ts), when the suite made one
  const template = inject('postgresTemplate');
  await admin.unsafe(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const u = new URL(serverUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const a = postgres(serverUrl, { max: 1, onnotice: () => {} });
      await a.unsafe(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/**
 * A fresh database per suite: in-memory PGlite by default, or a new database on the PostgreSQL server named by
 * TEST_DATABASE_URL (dropped afterwards), with the real migrations and the real app on top.
 */
export async function createHarness(env: Record<string, string> = {}, opts: HarnessOptions = {}): Promise<Harness> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rmb-test-'));
  const config = parseConfig({ ...OFFLINE, DATA_DIR: dataDir, NEXTAUTH_SECRET: `test-secret-${randomBytes(8).toString('hex')}`, ...env });
  const logs: Record<string, unknown>[] = [];
  const logger = createLogger('info', { write: (line: string) => void logs.push(JSON.parse(line)) });

  const { url, drop: dropDatabase } = await freshTestDatabase();
  const template = url ? '' : inject('pgliteTemplate');
  const database = url || !template ? await openDatabase({ url, max: 4 }) : await pooledPglite(template);
  // a copy of the suite's template was seeded when the template was made (tests/support/make-template.ts): seeding it
  // again took ~0.1 s a harness; a database made empty is seeded here
  if (!(url ? inject('postgresTemplate') : template)) await seedReferenceData(database.db);
  const jobDeps: JobDeps = { db: database.db, config, logger, taxonomy: opts.taxonomy ?? NO_TAXONOMY, ...opts.jobDeps };
  let handlers: ReturnType<typeof jobHandlers> | undefined;
  let giveUps: ReturnType<typeof jobGiveUps> | undefined;
  const queue: RunningQueue = await startJobQueue(
    database,
    logger,
    (jobs) => {
      // one job context for the queue and for the jobs run by hand
      const definitions = jobDefinitions({ ...jobDeps, jobs });
      handlers = jobHandlers(definitions);
      giveUps = jobGiveUps(definitions);
      return definitions;
    },
    {
      workers: opts.workers ?? false,
      pollingIntervalSeconds: opts.pollingIntervalSeconds ?? 0.5,
      retryDelaySeconds: opts.retryDelaySeconds,
    },
  );
  const deps: ApiDeps = { db: database.db, config, logger, jobs: queue.queue, databaseKind: database.kind };
  const api = createApiApp(deps);
  let n = 0;
  let clients = 0;

  return {
    api,
    deps,
    jobs: handlers!,
    giveUps: giveUps!,
    queue,
    database,
    config,
    logs,
    request(p, init = {}) {
      const { key, ...rest } = init;
      const headers = new Headers(rest.headers);
      if (key) headers.set('authorization', `token ${key}`);
      // as the service's server would set it; each request its own client unless a test names one (rate limits)
      if (!headers.has(CLIENT_ADDRESS_HEADER)) headers.set(CLIENT_ADDRESS_HEADER, `test-client-${++clients}`);
      return Promise.resolve(api.request(p, { ...rest, headers }));
    },
    async user(input = {}) {
      n += 1;
      const password = input.password ?? `password-${n}-${randomBytes(4).toString('hex')}`;
      const user = await createUser(
        database.db,
        { username: `user${n}_${randomBytes(3).toString('hex')}`, ...input, password },
        FIXTURE_HASH_COST,
      );
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
