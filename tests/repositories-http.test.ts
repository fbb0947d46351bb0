import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RepositoryHttpError, RepositoryUnavailableError } from '@/lib/repositories/errors';
import { basicAuth, httpRequest, joinUrl, redactUrl } from '@/lib/repositories/http';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';
import { captureLogger, FAST } from './support/repository-server/log';

let server: RepositoryServer;
beforeAll(async () => {
  server = await startRepositoryServer();
});
afterAll(() => server.close());

const taxUrl = () => `${server.taxonomyUrl}/tax-id/9606`;

describe('repository http plumbing', () => {
  it('retries 5xx with backoff and returns the first success', async () => {
    const { logger, lines } = captureLogger();
    const delays: number[] = [];
    server.faults.fail(2, { service: 'taxonomy' });
    const before = server.requests.length;
    const res = await httpRequest(
      {
        logger,
        service: 'taxonomy',
        ...FAST,
        retryDelayMs: 100,
        maxRetryDelayMs: 1000,
        random: () => 1,
        sleep: async (ms) => void delays.push(ms),
      },
      { method: 'GET', url: taxUrl() },
    );
    expect(res.status).toBe(200);
    expect(res.attempts).toBe(3);
    expect(server.requests.slice(before).map((r) => r.status)).toEqual([500, 500, 200]);
    // exponential: 100, 200 (random() = 1 gives the full delay)
    expect(delays).toEqual([100, 200]);
    const responses = lines.filter((l) => l.msg === 'repository response');
    expect(responses.map((l) => [l.attempt, l.status])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
    expect(responses.every((l) => typeof l.durationMs === 'number' && l.method === 'GET' && l.service === 'taxonomy')).toBe(true);
    expect(lines.filter((l) => l.msg === 'repository request')).toHaveLength(3);
  });

  it('jitter keeps each delay between half and all of the exponential step, capped', async () => {
    const delays: number[] = [];
    server.faults.fail(3, { service: 'taxonomy' });
    await expect(
      httpRequest(
        {
          logger: captureLogger().logger,
          retries: 3,
          retryDelayMs: 100,
          maxRetryDelayMs: 300,
          random: () => 0,
          sleep: async (ms) => void delays.push(ms),
        },
        { method: 'GET', url: taxUrl() },
      ),
    ).resolves.toMatchObject({ status: 200, attempts: 4 });
    expect(delays).toEqual([50, 100, 150]);
  });

  it('gives up after the configured attempts with the last status', async () => {
    server.faults.fail(5, { service: 'taxonomy', status: 503 });
    const before = server.requests.length;
    const err = await httpRequest({ logger: captureLogger().logger, ...FAST, service: 'taxonomy' }, { method: 'GET', url: taxUrl() }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RepositoryHttpError);
    expect((err as RepositoryHttpError).status).toBe(503);
    expect((err as RepositoryHttpError).transient).toBe(true);
    expect(server.requests.length - before).toBe(FAST.retries + 1);
    server.faults.clear();
  });

  it('does not retry 4xx', async () => {
    server.faults.fail(3, { service: 'taxonomy', status: 400, body: 'bad' });
    const before = server.requests.length;
    const err = await httpRequest({ logger: captureLogger().logger, ...FAST }, { method: 'GET', url: taxUrl() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RepositoryHttpError);
    expect(err).toMatchObject({ status: 400, body: 'bad', transient: false });
    expect(server.requests.length - before).toBe(1);
    server.faults.clear();
  });

  it('hands back accepted non-2xx statuses without retrying', async () => {
    const res = await httpRequest(
      { logger: captureLogger().logger, ...FAST },
      { method: 'GET', url: `${server.taxonomyUrl}/tax-id/1`, accept: [404] },
    );
    expect(res).toMatchObject({ status: 404, body: 'No results.', attempts: 1 });
  });

  it('times out a hanging request and retries it', async () => {
    server.faults.hang(1, { service: 'taxonomy' });
    const { logger, lines } = captureLogger();
    const res = await httpRequest({ logger, ...FAST, timeoutMs: 150 }, { method: 'GET', url: taxUrl() });
    expect(res).toMatchObject({ status: 200, attempts: 2 });
    expect(lines.find((l) => l.msg === 'repository request failed')).toMatchObject({ timedOut: true, attempt: 1, willRetry: true });
  });

  it('reports a service that never answers as unavailable', async () => {
    server.faults.hang(3, { service: 'taxonomy' });
    const err = await httpRequest(
      { logger: captureLogger().logger, ...FAST, timeoutMs: 100, service: 'taxonomy' },
      { method: 'GET', url: taxUrl() },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RepositoryUnavailableError);
    expect(err).toMatchObject({ attempts: 3, timedOut: true, transient: true });
  });

  it('does not repeat a POST that may have reached the server, but does repeat one answered 5xx', async () => {
    server.faults.hang(1, { service: 'zenodo' });
    const before = server.requests.length;
    const url = `${server.zenodoUrl}/deposit/depositions`;
    const err = await httpRequest({ logger: captureLogger().logger, ...FAST, timeoutMs: 100 }, { method: 'POST', url, body: '{}' }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(RepositoryUnavailableError);
    expect(server.requests.length - before).toBe(1);

    server.faults.fail(1, { service: 'zenodo' });
    const res = await httpRequest(
      { logger: captureLogger().logger, ...FAST },
      {
        method: 'POST',
        url,
        body: '{}',
        headers: { authorization: `Bearer ${server.credentials.zenodo.token}`, 'content-type': 'application/json' },
      },
    );
    expect(res).toMatchObject({ status: 201, attempts: 2 });
  });

  it('retries refused connections even for POST', async () => {
    const dead = await startRepositoryServer();
    const url = `${dead.zenodoUrl}/deposit/depositions`;
    await dead.close();
    const err = await httpRequest({ logger: captureLogger().logger, ...FAST }, { method: 'POST', url, body: '{}' }).catch(
      (e: unknown) => e,
    );
    expect(err).toMatchObject({ name: 'RepositoryUnavailableError', attempts: FAST.retries + 1, timedOut: false });
  });

  it('stops at once when the caller aborts', async () => {
    server.faults.hang(1, { service: 'taxonomy' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('job cancelled')), 50);
    await expect(
      httpRequest(
        { logger: captureLogger().logger, ...FAST, timeoutMs: 5_000 },
        { method: 'GET', url: taxUrl(), signal: controller.signal },
      ),
    ).rejects.toThrow('job cancelled');
  });

  it('never logs credentials, headers or secret query values', async () => {
    const { logger, raw } = captureLogger();
    await httpRequest(
      { logger, ...FAST },
      {
        method: 'GET',
        url: `${server.zenodoUrl}/deposit/depositions?access_token=${server.credentials.zenodo.token}&page=2`,
        headers: { authorization: basicAuth('Webin-1', 'hunter2') },
      },
    );
    const all = raw.join('\n');
    expect(all).not.toContain('hunter2');
    expect(all).not.toContain(server.credentials.zenodo.token);
    expect(all).not.toMatch(/authorization/i);
    expect(all).toContain('access_token=redacted');
    expect(all).toContain('page=2');
  });

  it('refuses credentials in a URL at once, without repeating them', async () => {
    const before = server.requests.length;
    const err = await httpRequest(
      { logger: captureLogger().logger, ...FAST },
      { method: 'GET', url: taxUrl().replace('http://', 'http://u:hunter2@') },
    ).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'RepositoryError' });
    expect((err as Error).message).not.toContain('hunter2');
    expect(server.requests.length).toBe(before);
  });

  it('redacts and joins URLs', () => {
    expect(redactUrl('https://u:p@h.org/a?token=x&api_key=y&q=1')).toBe('https://h.org/a?token=redacted&api_key=redacted&q=1');
    expect(redactUrl('not a url')).toBe('[unparsable url]');
    expect(joinUrl('https://h.org/api/', '/deposit/', 'x')).toBe('https://h.org/api/deposit/x');
    expect(basicAuth('a', 'b')).toBe(`Basic ${Buffer.from('a:b').toString('base64')}`);
  });
});
