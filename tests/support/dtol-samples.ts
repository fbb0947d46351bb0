import { currentDefinition } from '@/lib/manifests';
import { validRows } from '../fixtures/manifests/generate';
import { toXlsx } from '../fixtures/manifests/workbook';

/**
 * DTOL samples made through a running service's API as a sample manager makes them: a manifest of `samples` valid
 * rows uploaded, validated and confirmed, then every sample accepted in one decision. Shared by the registration
 * resume (./registration-resume.ts) and the registration benchmark (bench/registration.ts). No test runner here, so
 * the benchmarks can run it.
 */

const json = { 'content-type': 'application/json' };

/** The service's API at `url()` (read at each call: a restarted service answers on a new port). */
export interface ServiceApi {
  call<T>(path: string, init?: RequestInit, key?: string): Promise<{ status: number; body: T }>;
  /** the answer's body, or an error naming `what` when its status is not `status` */
  must<T>(answer: { status: number; body: T }, status: number, what: string): T;
}

export function serviceApi(url: () => string): ServiceApi {
  return {
    async call<T>(p: string, init: RequestInit = {}, key?: string) {
      const headers = new Headers(init.headers);
      if (key) headers.set('authorization', `token ${key}`);
      const res = await fetch(url() + p, { ...init, headers });
      return { status: res.status, body: (await res.json().catch(() => null)) as T };
    },
    must<T>(r: { status: number; body: T }, status: number, what: string): T {
      if (r.status !== status) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
      return r.body;
    },
  };
}

/** Reads until done; a refused connection is read again (a process busy resuming may drop one), up to the time limit. */
export async function until<T>(
  read: () => Promise<T>,
  done: (v: T) => boolean,
  what: string,
  timeoutMs: number,
  log?: () => string[],
  intervalMs = 250,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await read();
      if (done(v)) return v;
    } catch (err) {
      if (!(err instanceof TypeError)) throw err;
      lastError = err;
    }
    if (Date.now() > end) {
      const tail = log?.().slice(-20).join('\n') ?? '';
      throw new Error(`timed out waiting for ${what}${lastError ? ` (last: ${String(lastError)})` : ''}\n${tail}`);
    }
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

/** An API key of the service's first admin (ADMIN_USERNAME, ADMIN_PASSWORD). */
export async function adminKey(api: ServiceApi, admin: { username: string; password: string }): Promise<string> {
  const answer = await api.call<{ token: string }>('/api/apiKey', { method: 'POST', headers: json, body: JSON.stringify(admin) });
  return api.must(answer, 200, 'sign-in').token;
}

/** Every sample of a manifest as the portal's browser lists them, a page of 100 at a time. */
export async function browseManifest<Row>(api: ServiceApi, key: string, manifestId: string): Promise<Row[]> {
  const rows: Row[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = api.must(
      await api.call<{ data: Row[] }>(`/api/samples/browse?manifest_id=${manifestId}&limit=100&offset=${offset}`, {}, key),
      200,
      'browse',
    );
    rows.push(...page.data);
    if (page.data.length < 100) break;
  }
  return rows;
}

/** A new DTOL profile with a confirmed manifest of `samples` valid rows: the samples' svc_ids, still pending. */
export async function pendingDtolSamples(
  api: ServiceApi,
  key: string,
  opts: { samples: number; title: string; timeoutMs: number; log?: () => string[] },
): Promise<{ manifestId: string; ids: string[] }> {
  const { call, must } = api;
  const profile = must(
    await call<{ id: string }>(
      '/api/profiles',
      { method: 'POST', headers: json, body: JSON.stringify({ title: opts.title, description: '', type: 'dtol' }) },
      key,
    ),
    201,
    'profile',
  );
  const dtol = currentDefinition('dtol');
  const fd = new FormData();
  fd.set('profile_id', profile.id);
  const workbook = await toXlsx(
    dtol.fields.map((f) => f.name),
    validRows(dtol, opts.samples),
    { typed: true },
  );
  fd.set('file', new File([new Uint8Array(workbook)], 'dtol.xlsx'));
  const { report_id } = must(await call<{ report_id: string }>('/api/manifest/validate', { method: 'POST', body: fd }, key), 202, 'upload');
  const report = await until(
    async () => (await call<{ status: string; errors: unknown[] }>(`/api/manifest/validate/report/${report_id}`, {}, key)).body,
    (r) => r.status === 'complete' || r.status === 'failed',
    'the validation',
    opts.timeoutMs,
    opts.log,
  );
  if (report.status !== 'complete' || report.errors.length) throw new Error(`validation: ${JSON.stringify(report).slice(0, 500)}`);
  const { manifest_id } = must(
    await call<{ manifest_id: string }>(
      '/api/manifest/validate/confirm',
      { method: 'POST', headers: json, body: JSON.stringify({ validation_report_id: report_id }) },
      key,
    ),
    200,
    'confirm',
  );
  const ids = (await browseManifest<{ svc_id: string }>(api, key, manifest_id)).map((s) => s.svc_id);
  if (ids.length !== opts.samples) throw new Error(`expected ${opts.samples} samples, browsed ${ids.length}`);
  return { manifestId: manifest_id, ids };
}

/** The sample manager's acceptance of these samples, in one decision: the last approval, so they go on to ENA. */
export async function acceptSamples(api: ServiceApi, key: string, ids: string[]): Promise<void> {
  api.must(
    await api.call(
      '/api/sample/decision',
      { method: 'POST', headers: json, body: JSON.stringify({ svc_ids: ids, decision: 'accept' }) },
      key,
    ),
    200,
    'acceptance',
  );
}
