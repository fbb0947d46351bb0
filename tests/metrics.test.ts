import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emails } from '@/db/schema';
import { recordDeadLetter } from '@/lib/jobs/dead-letters';
import { createLogger } from '@/lib/logger';
import { httpRequest } from '@/lib/repositories/http';
import { createHarness, type Harness } from './support/harness';

/**
 * GET /api/metrics as Prometheus scrapes it. Counters are per process and tests share a process, so each check
 * reads a figure before and after what it does.
 */

const METRICS_TOKEN = 'scraper-token-0123456789';
let h: Harness;
let admin: Awaited<ReturnType<Harness['user']>>;
let researcher: Awaited<ReturnType<Harness['user']>>;

beforeAll(async () => {
  h = await createHarness({ METRICS_TOKEN });
  admin = await h.user({ username: 'metrics-admin', isAdmin: true });
  researcher = await h.user({ username: 'metrics-researcher' });
});
afterAll(() => h.close());

const scrape = async () => {
  const res = await h.request('/api/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  expect(res.status).toBe(200);
  return res.text();
};

/** The value of one sample of the text format, by its name and its exact labels (0 when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((l) => [l[1], l[2]]));
    if (Object.keys(got).length === Object.keys(labels).length && Object.entries(labels).every(([k, v]) => got[k] === v))
      return Number(m[3]);
  }
  return 0;
}

describe('who may scrape', () => {
  it('answers the scraper with METRICS_TOKEN and an admin, in the Prometheus text format', async () => {
    const byToken = await h.request('/api/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(byToken.status).toBe(200);
    expect(byToken.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await byToken.text();
    expect(text).toContain('# TYPE rmb_http_requests_total counter');
    expect(text).toContain('# TYPE rmb_http_request_duration_seconds histogram');
    expect(text).toContain('# TYPE process_resident_memory_bytes gauge');
    const byAdmin = await h.request('/api/metrics', { key: admin.key });
    expect(byAdmin.status).toBe(200);
  });

  it('refuses anyone else as an admin route does: 401 without or with wrong credentials, 404 for a non-admin', async () => {
    expect((await h.request('/api/metrics')).status).toBe(401);
    const wrong = await h.request('/api/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}x` } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('content-type')).toContain('application/problem+json');
    expect((await h.request('/api/metrics', { key: researcher.key })).status).toBe(404);
  });
});

describe('what it counts', () => {
  it('counts requests by route pattern and status, and times them', async () => {
    const route = { method: 'GET', route: '/api/manifest/current_version', status: '200' };
    const before = await scrape();
    for (let i = 0; i < 3; i++) expect((await h.request('/api/manifest/current_version')).status).toBe(200);
    expect((await h.request('/api/no/such/thing')).status).toBe(404);
    const after = await scrape();
    expect(sample(after, 'rmb_http_requests_total', route) - sample(before, 'rmb_http_requests_total', route)).toBe(3);
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    expect(sample(after, 'rmb_http_requests_total', unmatched) - sample(before, 'rmb_http_requests_total', unmatched)).toBe(1);
    const count = { method: 'GET', route: '/api/manifest/current_version' };
    expect(
      sample(after, 'rmb_http_request_duration_seconds_count', count) - sample(before, 'rmb_http_request_duration_seconds_count', count),
    ).toBe(3);
    expect(sample(after, 'rmb_http_request_duration_seconds_bucket', { ...count, le: '+Inf' })).toBe(
      sample(after, 'rmb_http_request_duration_seconds_count', count),
    );
    // a path parameter is a pattern, not a value per sample
    expect((await h.request('/api/sample/svc_id/0123456789abcdef01234567')).status).toBe(200);
    expect(await scrape()).toMatch(/rmb_http_requests_total\{method="GET",route="\/api\/sample\/svc_id\/:svc_ids",status="200"\} \d+/);
  });

  it('reads the jobs waiting per queue with the oldest wait, the dead letters and the emails waiting from the database', async () => {
    const before = await scrape();
    const waiting = { queue: 'jobs.sweep', state: 'waiting' };
    // no workers in this harness: the job stays waiting
    await h.deps.jobs.send('jobs.sweep', {});
    await recordDeadLetter(h.database.db, { jobId: null, name: 'jobs.sweep', data: {}, reason: 'a test', attempts: 4 });
    await h.database.db.insert(emails).values({ kind: 'manifest_confirmed', to: ['a@example.org'], userIds: [], subject: 's', body: 'b' });
    const after = await scrape();
    expect(sample(after, 'rmb_jobs', waiting) - sample(before, 'rmb_jobs', waiting)).toBe(1);
    expect(sample(after, 'rmb_job_oldest_waiting_seconds', { queue: 'jobs.sweep' })).toBeGreaterThanOrEqual(0);
    expect(after).toMatch(/^rmb_jobs\{queue="manifest\.validate",state="active"\} 0$/m);
    expect(sample(after, 'rmb_dead_letters') - sample(before, 'rmb_dead_letters')).toBe(1);
    expect(sample(after, 'rmb_emails_waiting') - sample(before, 'rmb_emails_waiting')).toBe(1);
  });

  it('counts attempts refused by a guessing limit, by limit', async () => {
    const limit = { limit: 'api_key_client' };
    const before = sample(await scrape(), 'rmb_throttled_attempts_total', limit);
    const client = { 'x-rmb-client-address': 'metrics-guesser' };
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) {
      statuses.push((await h.request('/api/profiles', { headers: { ...client, authorization: `token wrong-key-${i}` } })).status);
    }
    const refused = statuses.filter((s) => s === 429).length;
    expect(refused).toBeGreaterThan(0);
    expect(sample(await scrape(), 'rmb_throttled_attempts_total', limit) - before).toBe(refused);
  });

  it('counts calls to a repository that does not answer as unavailable, by service', async () => {
    const labels = { service: 'ena', outcome: 'unavailable' };
    const before = sample(await scrape(), 'rmb_repository_calls_total', labels);
    const logger = createLogger('silent');
    await expect(
      httpRequest({ service: 'ena', logger, retries: 0 }, { method: 'GET', url: 'http://127.0.0.1:9/ena/submit' }),
    ).rejects.toThrow(/failed after 1 attempt/);
    expect(sample(await scrape(), 'rmb_repository_calls_total', labels) - before).toBe(1);
  });
});
