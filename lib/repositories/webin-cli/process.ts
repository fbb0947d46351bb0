import { spawn } from 'node:child_process';

/** how long Java has after SIGTERM to stop before it is killed */
const KILL_GRACE_MS = 10_000;
/** Webin-CLI logs every file it uploads: only the end of its output says how the run ended */
const OUTPUT_LIMIT = 64 * 1024;

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  output: string;
  startError?: Error;
}

/** Runs a program without a shell and keeps the end of its output; after `timeoutMs` it is stopped. */
export function execute(
  command: string,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs: number },
): Promise<Ended> {
  return new Promise((resolve) => {
    let tail = Buffer.alloc(0);
    const keep = (chunk: Buffer) => {
      tail = Buffer.concat([tail, chunk]);
      if (tail.length > OUTPUT_LIMIT) tail = tail.subarray(tail.length - OUTPUT_LIMIT);
    };
    let timedOut = false;
    let killer: NodeJS.Timeout | undefined;
    let startError: Error | undefined;
    // Next's types make NODE_ENV a member every environment has; Java's has no use for it
    const env = options.env as NodeJS.ProcessEnv;
    const child = spawn(command, args, { cwd: options.cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      killer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
    }, options.timeoutMs);
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    // a command that cannot be started has no pid, and emits 'error' and then 'close'
    child.on('error', (err) => {
      if (child.pid === undefined) startError ??= err;
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(killer);
      resolve({ code, signal, timedOut, output: tail.toString('utf8'), startError });
    });
  });
}
