import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { TEST_NODE_FLAGS } from './node-flags';

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
 * to a first answer against 1.3 s), some twenty starts a suite. Beside it, tests/support/make-template.ts, which makes
 * the template database: bundled and run by node, the service's modules load in about a second, where imported by
 * this set-up through vitest (and again by each project's copy of it) they took some 6 s before the first test file.
 */
async function bundle(dir: string): Promise<{ service: string; makeTemplate: string }> {
  await run([path.join(root, 'scripts', 'build-server.mjs'), dir, path.join('tests', 'support', 'make-template.ts')]);
  return { service: path.join(dir, 'api-server.mjs'), makeTemplate: path.join(dir, 'make-template.mjs') };
}

/** `node <args>` in the project's folder, its errors shown; rejects when it fails. */
async function run(args: string[]): Promise<void> {
  await promisify(execFile)(process.execPath, [...TEST_NODE_FLAGS, ...args], { cwd: root }).catch((err: Error & { stderr?: string }) => {
    throw new Error(`node ${args.join(' ')} failed: ${err.stderr || err.message}`);
  });
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
  mkdirSync(path.join(root, '.next'), { recursive: true });
  const bundles = mkdtempSync(path.join(root, '.next', 'test-service-'));
  const removeBundles = () => rmSync(bundles, { recursive: true, force: true });
  const built = await bundle(bundles);
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (serverUrl) {
    const name = `rmb_test_template_${randomBytes(6).toString('hex')}`;
    const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${name}`);
    const u = new URL(serverUrl);
    u.pathname = `/${name}`;
    await run([built.makeTemplate, 'postgres', u.toString()]);
    return {
      provided: { pgliteTemplate: '', postgresTemplate: name, serviceBundle: built.service },
      async remove() {
        removeBundles();
        await admin.unsafe(`drop database if exists ${name} with (force)`);
        await admin.end();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'rmb-template-'));
  const file = path.join(dir, 'pglite.tar');
  await run([built.makeTemplate, 'pglite', file]);
  return {
    provided: { pgliteTemplate: file, postgresTemplate: '', serviceBundle: built.service },
    async remove() {
      removeBundles();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// vitest calls this set-up for the root config and again for each project that inherits it (vitest.config.ts), each
// time with a fresh copy of this module: the resources are made by the first call and shared through the process's
// global object, and removed by the last teardown (made three times, they cost a run of the whole suite some 10 s).
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
