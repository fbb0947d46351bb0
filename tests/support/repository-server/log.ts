import type { Logger } from 'pino';
import { createLogger } from '@/lib/logger';

/** A debug-level logger whose JSON lines are kept, raw and parsed, for assertions on what clients log. */
export function captureLogger(): { logger: Logger; lines: Record<string, unknown>[]; raw: string[] } {
  const lines: Record<string, unknown>[] = [];
  const raw: string[] = [];
  const logger = createLogger('debug', {
    write(line: string) {
      raw.push(line);
      lines.push(JSON.parse(line) as Record<string, unknown>);
    },
  });
  return { logger, lines, raw };
}

/** Retry settings that keep tests fast. */
export const FAST = { retries: 2, retryDelayMs: 1, maxRetryDelayMs: 5, timeoutMs: 3_000 } as const;
