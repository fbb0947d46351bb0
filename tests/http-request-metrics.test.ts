import fc from 'fast-check';
import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { HTTP_DURATION_BUCKETS, HttpRequestMetrics } from '@/lib/metrics/http-requests';

/**
 * The API's request metrics are counted without prom-client's Counter and Histogram (lib/metrics/http-requests.ts):
 * for any requests, the scraped text is what those two would have written.
 */

const NAMES = { requests: 'rmb_http_requests_total', duration: 'rmb_http_request_duration_seconds' };

const request = fc.record({
  method: fc.constantFrom('GET', 'POST', 'HEAD'),
  route: fc.constantFrom('/api/sample/svc_id/:svc_ids', '/api/manifest/:id', 'unmatched'),
  status: fc.constantFrom(200, 400, 404, 503),
  // around and on the buckets' bounds
  seconds: fc.oneof(fc.double({ min: 0, max: 60, noNaN: true }), fc.constantFrom(...HTTP_DURATION_BUCKETS)),
});

describe('the API request metrics', () => {
  it("scrape as prom-client's Counter and Histogram would have, for any requests", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(request, { maxLength: 40 }), async (requests) => {
        const ours = new Registry();
        const http = new HttpRequestMetrics().registerIn(ours);
        const theirs = new Registry();
        const counter = new Counter({
          name: NAMES.requests,
          help: (await ours.getSingleMetric(NAMES.requests)?.get())?.help ?? '',
          labelNames: ['method', 'route', 'status'] as const,
          registers: [theirs],
        });
        const histogram = new Histogram({
          name: NAMES.duration,
          help: (await ours.getSingleMetric(NAMES.duration)?.get())?.help ?? '',
          labelNames: ['method', 'route'] as const,
          buckets: [...HTTP_DURATION_BUCKETS],
          registers: [theirs],
        });
        for (const r of requests) {
          http.record(r.method, r.route, r.status, r.seconds);
          counter.inc({ method: r.method, route: r.route, status: r.status });
          histogram.observe({ method: r.method, route: r.route }, r.seconds);
        }
        // the same lines, in another order: prom-client lists label sets as first met, these by route (Prometheus reads either)
        const lines = (text: string) => text.split('\n').sort();
        expect(lines(await ours.metrics())).toEqual(lines(await theirs.metrics()));
      }),
      { numRuns: 200 },
    );
  });
});
