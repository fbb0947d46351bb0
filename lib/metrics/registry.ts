import { Counter, collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import { HttpRequestMetrics } from './http-requests';

/**
 * The service's Prometheus metrics (GET /api/metrics; the names and what to alert on are in docs/operating.md).
 * Counters and histograms count what this process saw; the gauges of jobs and emails are read from the database when
 * scraped (lib/metrics/scrape.ts), so every instance reports the same figures for them.
 */
function createMetrics() {
  const registry = new Registry();
  // the Node process's own: resident memory, heap, event-loop lag, open handles, CPU
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    http: new HttpRequestMetrics().registerIn(registry),
    throttled: new Counter({
      name: 'rmb_throttled_attempts_total',
      help: 'Attempts refused with 429 by a guessing limit, by limit.',
      labelNames: ['limit'] as const,
      registers,
    }),
    repositoryCalls: new Counter({
      name: 'rmb_repository_calls_total',
      help: 'Calls to a repository or outside service (ena, zenodo, tolid, …) by outcome: ok, refused (a 4xx answer) or unavailable (no answer, a timeout or a 5xx after the retries).',
      labelNames: ['service', 'outcome'] as const,
      registers,
    }),
    repositoryOutages: new Counter({
      name: 'rmb_repository_outages_total',
      help: 'Submissions put off because their repository could not be reached (each is tried again later, and given up after two days).',
      labelNames: ['service'] as const,
      registers,
    }),
    jobs: new Gauge({
      name: 'rmb_jobs',
      help: 'Background jobs by queue and state: waiting (due, not started), delayed (due later), active, failed (kept by the queue for a while).',
      labelNames: ['queue', 'state'] as const,
      registers,
    }),
    jobOldestWait: new Gauge({
      name: 'rmb_job_oldest_waiting_seconds',
      help: 'How long the oldest due job of each queue has waited to start.',
      labelNames: ['queue'] as const,
      registers,
    }),
    deadLetters: new Gauge({
      name: 'rmb_dead_letters',
      help: 'Jobs given up for good and not retried yet (the portal Jobs page).',
      registers,
    }),
    emailsWaiting: new Gauge({
      name: 'rmb_emails_waiting',
      help: 'Emails queued and not yet sent or given up.',
      registers,
    }),
    emailOldestWait: new Gauge({
      name: 'rmb_email_oldest_waiting_seconds',
      help: 'How long the oldest queued email has waited.',
      registers,
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

// one set per process: the API and the portal's sign-in are bundled apart by Next.js but count into the same metrics
const KEY = Symbol.for('research-metadata-broker.metrics');
const holder = globalThis as typeof globalThis & { [KEY]?: Metrics };

export function metrics(): Metrics {
  holder[KEY] ??= createMetrics();
  return holder[KEY];
}
