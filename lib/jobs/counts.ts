import { sql } from 'drizzle-orm';

/**
 * What the health check and the metrics both count, said once: a job is waiting when pg-boss holds it as created or
 * retrying and it is due (one put off until later is delayed, not waiting), and a dead letter counts until it is
 * retried.
 */
export const QUEUED_JOB = sql.raw(`state in ('created', 'retry')`);
export const DUE_JOB = sql.raw('start_after <= now()');
export const UNRETRIED_DEAD_LETTER = sql.raw('retried_at is null');
