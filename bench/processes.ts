import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { RepositoryServer } from '../tests/support/repository-server';
import { forEachLine, freePort } from '../tests/support/service-process';

/** The processes a benchmark measures (the built service, a bare server): started, watched, stopped. */

const root = path.resolve(import.meta.dirname, '..');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A process's resident memory, in bytes (VmRSS). */
export const rssOf = (pid: number) => {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? 0) * 1024;
};

export interface Proc {
  url: string;
  pid: number;
  lines: string[];
  stop(): Promise<void>;
}

const children = new Set<ChildProcess>();

/** A Node process answering HTTP on a free port; up once `readyPath` answers 200. */
export async function startProcess(args: string[], env: Record<string, string>, readyPath: string): Promise<Proc> {
  const port = await freePort();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  const lines: string[] = [];
  forEachLine(child, (line) => lines.push(line));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    const ok = await fetch(url + readyPath).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null || i > 1200) {
      child.kill('SIGKILL');
      throw new Error(`${args.join(' ')} did not start; last lines:\n${lines.slice(-20).join('\n')}`);
    }
    await sleep(100);
  }
  return {
    url,
    pid: child.pid as number,
    lines,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
        await exited;
        clearTimeout(killer);
      }
      children.delete(child);
    },
  };
}

/** Kills whatever is still running (a benchmark that fails half-way). */
export function killProcesses(): void {
  for (const child of children) child.kill('SIGKILL');
}

/**
 * The service's settings for the repositories' local stand-ins: every archive and service it reaches, and no Webin
 * account, so that nothing a benchmark does is registered.
 */
export const standInUrls = (repositories: RepositoryServer): Record<string, string> => ({
  ENA_WEBIN_URL: repositories.enaUrl,
  ENA_TAXONOMY_URL: repositories.taxonomyUrl,
  ENA_BROWSER_URL: repositories.browserUrl,
  ENA_FTP_URL: repositories.ftpUrl,
  TOLID_URL: repositories.tolidUrl,
  ZENODO_URL: repositories.zenodoUrl,
  SMTP_URL: repositories.smtpUrl,
});

/**
 * The service bundled as `npm run start:api` runs it, into `.next/<name>` (a directory of each bench's own, so as not
 * to race other builds); returns the bundle's path.
 */
export function buildService(name: string): string {
  const root = path.resolve(import.meta.dirname, '..');
  const dir = path.join(root, '.next', name);
  execFileSync(process.execPath, ['scripts/build-server.mjs', dir], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  return path.join(dir, 'api-server.mjs');
}

/** Kills the children when the benchmark is interrupted (Ctrl-C, a kill), and exits as interrupted. */
export function killProcessesOnSignal(): void {
  const killChildren = () => {
    killProcesses();
    process.exit(130);
  };
  process.once('SIGINT', killChildren);
  process.once('SIGTERM', killChildren);
}
