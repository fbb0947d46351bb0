import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { inject } from 'vitest';
import { openDatabase } from '@/db/client';
import { TEST_NODE_FLAGS } from './node-flags';

/**
 * The service as a real process (server/api.ts: the API and its job workers), for the tests that kill it with
 * SIGKILL and start it again on the same database and storage, and for two instances side by side.
 */
export interface ServiceProcess {
  url: string;
  pid: number;
  /** every line the process wrote to stdout and stderr */
  lines: string[];
  /** resolves with the first line (present or future) matching */
  waitForLine(pattern: RegExp, timeoutMs?: number): Promise<string>;
  /** SIGKILL: no shutdown of any kind */
  kill(): Promise<void>;
  /** SIGTERM, and wait for it to exit */
  stop(): Promise<void>;
}

const root = path.resolve(import.meta.dirname, '..', '..');

/** Each whole line a child process writes, stdout and stderr alike, as it arrives. */
export function forEachLine(child: ChildProcess, onLine: (line: string) => void): void {
  for (const stream of [child.stdout, child.stderr]) {
    if (!stream) continue;
    let buffered = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      parts.forEach(onLine);
    });
  }
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

/**
 * A new DATA_DIR for a service process. Given the suite's PGlite template (a dump of a migrated, seeded database,
 * tests/support/global-setup.ts), its embedded database starts as a copy of it, so that the process's first start
 * skips PGlite's initdb and every migration, as its later starts do; without one (PostgreSQL) it is empty.
 */
export async function serviceDataDir(prefix: string, pgliteTemplate?: string): Promise<string> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  if (pgliteTemplate) {
    const database = await openDatabase({ pgliteDir: path.join(dir, 'pglite'), pgliteFrom: new Blob([readFileSync(pgliteTemplate)]) });
    await database.close();
  }
  return dir;
}

/**
 * The service's API server in a process of its own: `bundle`, or the suite's bundle of server/api.ts
 * (tests/support/global-setup.ts), as `npm run start:api` runs it. A bench, with no test runner, gives its own.
 */
export async function startService(env: Record<string, string>, bundle?: string): Promise<ServiceProcess> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [...TEST_NODE_FLAGS, bundle ?? inject('serviceBundle')], {
    cwd: root,
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'info', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const waiters: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const onLine = (line: string) => {
    lines.push(line);
    for (const w of [...waiters]) {
      if (w.pattern.test(line)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(line);
      }
    }
  };
  forEachLine(child, onLine);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const waitForLine = (pattern: RegExp, timeoutMs = 60_000) => {
    const seen = lines.find((l) => pattern.test(l));
    if (seen) return Promise.resolve(seen);
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`no line matching ${pattern} within ${timeoutMs} ms; last lines:\n${lines.slice(-15).join('\n')}`)),
        timeoutMs,
      );
      waiters.push({
        pattern,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
      void exited.then(() => {
        clearTimeout(timer);
        reject(new Error(`the service exited before a line matching ${pattern}; last lines:\n${lines.slice(-15).join('\n')}`));
      });
    });
  };
  // up when it answers (whatever its log level)
  for (let i = 0; ; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || i > 600) throw new Error(`the service did not start; last lines:\n${lines.slice(-15).join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    lines,
    waitForLine,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
