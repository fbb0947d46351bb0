import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { type Database, openDatabase } from '@/db/client';
import { parseConfig } from '@/lib/config';
import { startJobQueue } from '@/lib/jobs/queue';
import { createLogger } from '@/lib/logger';
import { seedReferenceData } from '@/lib/seed';
import { jobDefinitions } from '@/lib/server/jobs';
import { NO_TAXONOMY } from './no-taxonomy';

declare module 'vitest' {
  export interface ProvidedContext {
    /** a dump of a migrated, seeded PGlite database that each test database starts from */
    pgliteTemplate: string;
    /** the name of a migrated, seeded database on the TEST_DATABASE_URL server that each test database copies */
    postgresTemplate: string;
    /** server/api.ts bundled as `npm run build` bundles it: what tests/support/service-process.ts starts and kills */
    serviceBundle: string;
  }
}

const root = path.resolve(import.meta.dirname, '..', '..');

/**
 * The API server bundled once for the suite (scripts/build-server.mjs), into a directory of its own under .next so
 * that its packages resolve from node_modules and a build running beside the suite is not overwritten. The tests that
 * start the service as a process start this: under tsx each start compiled the service's TypeScript again (2.4-3.1 s
 * to a first answer against 1.3 s), some twenty starts a suite.
 */
function bundleService(): { file: string; remove: () => void } {
  mkdirSync(path.join(root, '.next'), { recursive: true });
  const dir = mkdtempSync(path.join(root, '.next', 'test-service-'));
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-server.mjs'), dir], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { file: path.join(dir, 'api-server.mjs'), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * The database every test database copies, as the service leaves it after its first start: migrated, seeded, and with
 * the job queue's tables and queues, which pg-boss makes on its first start (0.2-0.3 s of each PGlite harness's
 * set-up when every test database made them again).
 */
async function prepareTemplate(database: Database): Promise<void> {
  await seedReferenceData(database.db);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'rmb-template-queue-'));
  try {
    const logger = createLogger('error');
    const config = parseConfig({ DATA_DIR: dataDir, NEXTAUTH_SECRET: `template-${randomBytes(8).toString('hex')}` });
    const queue = await startJobQueue(
      database,
      logger,
      (jobs) => jobDefinitions({ db: database.db, config, logger, taxonomy: NO_TAXONOMY, jobs }),
      {
        workers: false,
      },
    );
    await queue.stop();
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** What the suite's set-up made, for every project's tests, and how to remove it. */
interface SuiteResources {
  provided: { pgliteTemplate: string; postgresTemplate: string; serviceBundle: string };
  remove: () => Promise<void>;
}

/**
 * Makes the suite's database once: migrated and seeded, as every test's fresh database starts. Each test file then
 * copies it (PGlite: loads the dump; PostgreSQL: CREATE DATABASE … TEMPLATE) instead of running PGlite's initdb and
 * every migration again, which was most of the cost of a file's set-up (tests/support/harness.ts).
 */
async function makeResources(): Promise<SuiteResources> {
  const service = bundleService();
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `rmb_test_template_${randomBytes(6).toString('hex')}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const u = new URL(serverUrl);
    u.pathname = `/${name}`;
    const database = await openDatabase({ url: u.toString(), max: 2 });
    await prepareTemplate(database);
    await database.close();
    return {
      provided: { pgliteTemplate: '', postgresTemplate: name, serviceBundle: service.file },
      async remove() {
        service.remove();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'rmb-template-'));
  const database = await openDatabase({});
  await prepareTemplate(database);
  // no test database is made from PGlite's template databases, and their files were a third of each copy's (12 of 40
  // MB, 600 of 1,200 files): a copy starts in 1.0 s of CPU without them, 1.4 s with them
  for (const name of ['template0', 'template1']) {
    await database.pglite!.query(`alter database ${name} is_template false`);
    await database.pglite!.query(`drop database ${name}`);
  }
  const dump = await database.pglite!.dumpDataDir('none');
  await database.close();
  const file = path.join(dir, 'pglite.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  return {
    provided: { pgliteTemplate: file, postgresTemplate: '', serviceBundle: service.file },
    async remove() {
      service.remove();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// vitest calls this set-up for the root config and again for each project that inherits it (vitest.config.ts), each
// time with a fresh copy of this module: the resources are made by the first call and shared through the process's
// global object, and removed by the last teardown (made three times, they cost a run of the whole suite some 10 s)
const SHARED = Symbol.for('rmb.tests.suite-resources');
type Shared = { resources: Promise<SuiteResources>; users: number };

export default async function setup(project: TestProject) {
  const holder = globalThis as { [SHARED]?: Shared };
  holder[SHARED] ??= { resources: makeResources(), users: 0 };
  const shared = holder[SHARED];
  shared.users++;
  const { provided, remove } = await shared.resources;
  project.provide('pgliteTemplate', provided.pgliteTemplate);
  project.provide('postgresTemplate', provided.postgresTemplate);
  project.provide('serviceBundle', provided.serviceBundle);
  return async () => {
    if (--shared.users > 0) return;
    delete holder[SHARED];
    await remove();
  };
}
