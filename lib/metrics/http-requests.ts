/**
 * The API's requests, counted by method, route and status (`rmb_http_requests_total`) and timed by method and route
 * (`rmb_http_request_duration_seconds`), as two metrics of the service's Prometheus registry
 * (lib/metrics/registry.ts).
 *
 * Why not prom-client's Counter and Histogram: they check and hash their labels on every call, a share of each
 * request's CPU worth saving under load (docs/benchmarks.md). Here a request is two Map look-ups and a few additions;
 * the text is made when the metrics are scraped, in prom-client's format.
 */

import type { Metric, Registry } from 'prom-client';

/** Upper bounds of the duration buckets, in seconds. */
export const HTTP_DURATION_BUCKETS: readonly number[] = [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** What one (method, route) has seen. */
interface RouteTally {
  method: string;
  route: string;
  /** answers by status */
  statuses: Map<number, number>;
  /** durations per bucket, not yet summed up: bucket i counts those above bound i - 1 and at most bound i; the last, the rest */
  buckets: Float64Array;
  sum: number;
  count: number;
}

/** A metric as prom-client's registry reads one (Registry.registerMetric). */
interface RegisteredMetric {
  name: string;
  help: string;
  type: 'counter' | 'histogram';
  aggregator: 'sum';
  get(): Promise<{
    name: string;
    help: string;
    type: 'counter' | 'histogram';
    aggregator: 'sum';
    values: { labels: Record<string, string | number>; value: number; metricName?: string }[];
  }>;
  reset(): void;
}

export class HttpRequestMetrics {
  /** route → method → tally: the labels are a bounded set (route patterns, not paths) */
  private readonly tallies = new Map<string, Map<string, RouteTally>>();

  record(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.tallies.get(route);
    if (!byMethod) {
      byMethod = new Map();
      this.tallies.set(route, byMethod);
    }
    let tally = byMethod.get(method);
    if (!tally) {
      tally = { method, route, statuses: new Map(), buckets: new Float64Array(HTTP_DURATION_BUCKETS.length + 1), sum: 0, count: 0 };
      byMethod.set(method, tally);
    }
    tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
    let b = 0;
    while (b < HTTP_DURATION_BUCKETS.length && seconds > (HTTP_DURATION_BUCKETS[b] as number)) b++;
    tally.buckets[b] = (tally.buckets[b] as number) + 1;
    tally.sum += seconds;
    tally.count++;
  }

  /** Registers the two metrics in `registry`, which scrapes them; returns this, to record into. */
  registerIn(registry: Registry): this {
    // the registry asks a metric only for its name, its text (get) and reset: RegisteredMetric gives those
    for (const metric of this.metrics()) registry.registerMetric(metric as unknown as Metric);
    return this;
  }

  /** The two metrics, for a registry to scrape. */
  private metrics(): RegisteredMetric[] {
    const all = () => [...this.tallies.values()].flatMap((byMethod) => [...byMethod.values()]);
    const reset = () => this.tallies.clear();
    const requests = 'rmb_http_requests_total';
    const duration = 'rmb_http_request_duration_seconds';
    return [
      metric(requests, 'API requests answered, by method, route (the pattern, not the path) and status.', 'counter', reset, () =>
        all().flatMap((t) => [...t.statuses].map(([status, value]) => ({ labels: { method: t.method, route: t.route, status }, value }))),
      ),
      metric(
        duration,
        'Time from a request reaching the API to its answer starting (a streamed body may go on after), by method and route.',
        'histogram',
        reset,
        () =>
          all().flatMap((t) => {
            const labels = { method: t.method, route: t.route };
            let below = 0;
            const buckets = [...HTTP_DURATION_BUCKETS, '+Inf' as const].map((le, i) => {
              below += t.buckets[i] as number;
              return { labels: { le, ...labels }, value: below, metricName: `${duration}_bucket` };
            });
            return [
              ...buckets,
              { labels, value: t.sum, metricName: `${duration}_sum` },
              { labels, value: t.count, metricName: `${duration}_count` },
            ];
          }),
      ),
    ];
  }
}

type MetricValue = Awaited<ReturnType<RegisteredMetric['get']>>['values'][number];

/** A metric whose values are made when scraped. */
function metric(
  name: string,
  help: string,
  type: RegisteredMetric['type'],
  reset: () => void,
  values: () => MetricValue[],
): RegisteredMetric {
  return { name, help, type, aggregator: 'sum', get: async () => ({ name, help, type, aggregator: 'sum', values: values() }), reset };
}
