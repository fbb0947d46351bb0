/**
 * V8 flags for every Node process the suite runs: vitest's workers (vitest.config.ts), the service processes the crash
 * and two-instance tests start (service-process.ts), the script that makes the template database (global-setup.ts)
 * and the `user:create` CLI (users.test.ts).
 *
 * `--liftoff-only`: PGlite's PostgreSQL is a large WebAssembly module, and V8 compiles each of its functions that
 * runs often again with its optimizing compiler (TurboFan), on background threads, in every process that starts
 * one. A test process runs a few thousand statements and stops: that compiling is most of what it would gain.
 * Measured here (2 cores): a service process's start 6.0-6.5 → 3.5-3.9 s of CPU (4.3-4.7 → 3.0-3.4 s to a first
 * answer); the fuzzing and registration tests together 92 → 75 s of CPU, 55 → 47 s. The service itself runs with
 * V8's defaults (scripts/node-flags.mjs): a long-lived embedded database is worth optimizing.
 */
export const TEST_NODE_FLAGS: readonly string[] = ['--liftoff-only'];
