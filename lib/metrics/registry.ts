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
  const counter = <L extends string>(name: string, help: string, labelNames: readonly L[]) =>
    new Counter<L>({ name, help, labelNames, registers });
  const gauge = <L extends string = never>(name: string, help: string, labelNames: readonly L[] = []) =>
    new Gauge<L>({ name, help, labelNames, registers });
  return {
    registry,
    http: new HttpRequestMetrics().registerIn(registry),
    throttled: counter('rmb_throttled_attempts_total', 'Attempts refused with 429 by a guessing limit, by limit.', ['limit']),
    repositoryCalls: counter(
      'rmb_repository_calls_total',
      'Calls to a repository or outside service (ena, zenodo, tolid, …) by outcome: ok, refused (a 4xx answer) or unavailable (no answer, a timeout or a 5xx after the retries).',
      ['service', 'outcome'],
    ),
    repositoryOutages: counter(
      'rmb_repository_outages_total',
      'Submissions put off because their repository could not be reached (each is tried again later, and given up after two days).',
      ['service'],
    ),
    jobs: gauge(
      'rmb_jobs',
      'Background jobs by queue and state: waiting (due, not started), delayed (due later), active, failed (kept by the queue for a while).',
      ['queue', 'state'],
    ),
    jobOldestWait: gauge('rmb_job_oldest_waiting_seconds', 'How long the oldest due job of each queue has waited to start.', ['queue']),
    deadLetters: gauge('rmb_dead_letters', 'Jobs given up for good and not retried yet (the portal Jobs page).'),
    emailsWaiting: gauge('rmb_emails_waiting', 'Emails queued and not yet sent or given up.'),
    emailOldestWait: gauge('rmb_email_oldest_waiting_seconds', 'How long the oldest queued email has waited.'),
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
