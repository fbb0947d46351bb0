import { createMiddleware } from 'hono/factory';
import type { AppEnv } from './context';
import { databaseBreaker } from './database-breaker';
import { DATABASE_RETRY_AFTER_SECONDS, problem } from './errors';

// how long a read may wait for a database that has gone away before it is answered 503
const READ_WAIT_MS = 4_000;

// While the database is away, answer at once (health says why); the breaker closes on the database's first answer.
// A read that was waiting while it was away is answered 503 too once it has waited READ_WAIT_MS: it changes
// nothing, so what it would have read can be dropped. A write is left to finish, so that its answer is true.
export const waitForDatabase = createMiddleware<AppEnv>(async (c, next) => {
  const deps = c.get('deps');
  if (c.req.path === '/api/health') return next();
  const breaker = databaseBreaker(deps.db, deps.logger);
  const unavailable = () =>
    problem(c, 503, 'The database is not answering (it may be restarting); nothing was changed. Try again in a few seconds.', {
      headers: { 'retry-after': DATABASE_RETRY_AFTER_SECONDS },
    });
  if (breaker.open) {
    c.res = unavailable();
    return;
  }
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') return next();
  const started = Date.now();
  const handled = next();
  let timer: NodeJS.Timeout | undefined;
  const waitedOut = new Promise<'waited'>((resolve) => {
    const check = () => {
      if (breaker.openedSince(started)) resolve('waited');
      else timer = setTimeout(check, 250);
    };
    timer = setTimeout(check, READ_WAIT_MS);
  });
  const first = await Promise.race([handled.then(() => 'handled' as const), waitedOut]).finally(() => clearTimeout(timer));
  if (first === 'waited') {
    // what the read does next no longer reaches anyone; its failure is logged, not thrown at nobody
    handled.catch((err: unknown) =>
      deps.logger.warn({ err, request_id: c.get('requestId') }, 'a read dropped while the database was away failed'),
    );
    c.res = unavailable();
  }
});
