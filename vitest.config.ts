import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import { SERVICE_ENV } from './scripts/node-flags.mjs';
import { TEST_NODE_FLAGS } from './tests/support/node-flags.ts';

// The C allocator's settings the service runs with (scripts/node-flags.mjs, set by `npm start`): glibc reads them when
// a process starts, so they are set here, before vitest forks its workers, for the tests that bound the memory of the
// service's work (tests/hostile-uploads.test.ts) to measure it as it runs. A value already in the environment stays.
for (const [name, value] of Object.entries(SERVICE_ENV)) process.env[name] ??= value;

/**
 * Files that need a worker of their own: the hostile-uploads test bounds the growth of the process's memory while a
 * workbook is read, which another file's garbage in the same heap would blur past its bound (docs/benchmarks.md).
 */
const OWN_HEAP = ['tests/hostile-uploads.test.ts'];

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    pool: 'forks',
    // a file per core: vitest's default (cores − 1) ran this suite one file at a time on a two-core machine; more
    // files than cores made the password-hashing tests (scrypt at OWASP's cost) slow enough to reach their timeouts
    maxWorkers: Math.max(2, availableParallelism()),
    globalSetup: ['tests/support/global-setup.ts'],
    execArgv: [...TEST_NODE_FLAGS],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NEXT_TELEMETRY_DISABLED: '1' },
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['tests/**/*.test.ts', 'lib/**/*.test.ts'],
          exclude: OWN_HEAP,
          // a worker keeps the modules it imported from one file to the next: importing the service (the API app, its
          // routes and schemas, drizzle, pg-boss, exceljs, …) afresh for every file was much of the suite's time
          // (docs/benchmarks.md). Each file still makes its own database, app and servers (tests/support/harness.ts)
          // and closes them in afterAll; module-level caches are of immutable things (definitions, compiled patterns)
          // or keyed by database, and the metrics test reads differences, so a file does not see what one before it
          // did.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'own heap', include: OWN_HEAP, isolate: true } },
    ],
  },
});
