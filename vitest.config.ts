import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    include: ['tests/**/*.test.ts', 'lib/**/*.test.ts'],
    pool: 'forks',
    // a file per core: vitest's default (cores − 1) ran this suite one file at a time on a two-core machine; more
    // files than cores made the password-hashing tests (scrypt at OWASP's cost) slow enough to reach their timeouts
    maxWorkers: Math.max(2, availableParallelism()),
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env: { NEXT_TELEMETRY_DISABLED: '1' },
  },
});
