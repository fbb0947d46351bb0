import type { ServerResponse } from 'node:http';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import type { Config } from '@/lib/config';
import type { JobQueue } from '@/lib/jobs/queue';
import type { UserRecord } from '@/lib/users/users';

/** What the API needs from the outside world; tests build their own. */
export interface ApiDeps {
  db: Db;
  config: Config;
  logger: Logger;
  /** enqueues background jobs (validation, submissions) */
  jobs: JobQueue;
  /** which engine is behind `db`, for /api/health */
  databaseKind: 'pglite' | 'postgres';
}

export interface AppEnv {
  /**
   * What @hono/node-server hands the app beside the request when it serves the API (server/http.ts); nothing when the
   * app is called without it (tests, `app.request`).
   */
  Bindings: { outgoing?: ServerResponse } | undefined;
  Variables: {
    deps: ApiDeps;
    requestId: string;
    /** set by requireAuth */
    user: UserRecord;
  };
}

export type ApiApp = OpenAPIHono<AppEnv>;
