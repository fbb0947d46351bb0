import { parse } from 'csv-parse/sync';
import { expect } from 'vitest';
import type { Harness } from './support/harness';
import { expectProblem } from './support/http';

/** Helpers shared by the query API suites. */

export interface Wrapper<T = Record<string, string>> {
  status: 'OK';
  number_found: number;
  data: T[];
}

export const EMPTY = '{"status":"OK","number_found":0,"data":[]}';

export function queryClient(h: () => Harness) {
  const wrapper = async <T = Record<string, string>>(path: string): Promise<Wrapper<T>> => {
    const res = await h().request(path);
    const text = await res.text();
    expect(res.status, `${path}: ${text.slice(0, 500)}`).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = JSON.parse(text) as Wrapper<T>;
    expect(Object.keys(body)).toEqual(['status', 'number_found', 'data']);
    expect(body.status).toBe('OK');
    return body;
  };
  const arrayWrapper = async <T = string>(path: string): Promise<Wrapper<T>> => {
    const res = await h().request(path);
    const text = await res.text();
    expect(res.status, `${path}: ${text.slice(0, 500)}`).toBe(200);
    const body = JSON.parse(text) as Wrapper<T>[];
    expect(body).toHaveLength(1);
    return body[0] as Wrapper<T>;
  };
  const text = async (path: string): Promise<string> => {
    const res = await h().request(path);
    expect(res.status, path).toBe(200);
    return res.text();
  };
  const csv = async (path: string, filename = 'tol_export.csv'): Promise<{ header: string[]; rows: Record<string, string>[] }> => {
    const res = await h().request(path);
    const body = await res.text();
    expect(res.status, `${path}: ${body.slice(0, 300)}`).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename=${filename}`);
    const lines = parse(body) as string[][];
    const header = lines[0] ?? [];
    return { header, rows: lines.slice(1).map((l) => Object.fromEntries(header.map((k, i) => [k, l[i] ?? '']))) };
  };
  const problem = async (path: string, detail: string | RegExp, status = 400, init?: RequestInit) => {
    const body = await expectProblem(await h().request(path, init), status);
    if (typeof detail === 'string') expect(body.detail).toBe(detail);
    else expect(body.detail).toMatch(detail);
    return body;
  };
  return { wrapper, arrayWrapper, text, csv, problem };
}

/** Nothing that must stay inside the service appears anywhere in a body. */
export function expectNoPrivateData(body: string) {
  for (const s of [
    'ORCID',
    '0000-0002-1825-0097',
    'TRADITIONAL_KNOWLEDGE_CONTACT',
    'elder@example.org',
    '@example.org',
    'Sample rejected by curator.',
    'rejection',
    'approvals',
    'created_by',
    'createdBy',
    'actor',
    'profile_id',
    'password',
  ]) {
    expect(body, `leaks ${s}`).not.toContain(s);
  }
}
