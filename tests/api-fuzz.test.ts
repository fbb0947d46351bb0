import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProfile } from './support/flows';
import { createHarness, type Harness } from './support/harness';

/**
 * Every operation of the OpenAPI document, called with generated bad input: hostile path segments and query values
 * (percent-encoding that does not decode, NUL, ids of the right length and the wrong shape, huge numbers, unicode),
 * and bodies that are not what the operation takes (wrong JSON, broken multipart, garbage). No answer may be a 5xx
 * (a documented 503 with Retry-After excepted), and every error carries the documented shape.
 */

interface Operation {
  method: string;
  path: string;
  parameters: { name: string; in: 'path' | 'query' | 'header'; required?: boolean }[];
  bodyTypes: string[];
  documented: Set<string>;
}

interface OpenApiDoc {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: Operation['parameters'];
        requestBody?: { content?: Record<string, unknown> };
        responses?: Record<string, unknown>;
      }
    >
  >;
}

// operations that reach an outside service (stood in here by a closed port), answered 503 by design
const OUTSIDE_SERVICES = /taxonomy|biosamples|ena|zenodo/i;

let h: Harness;
let key: string;
let adminKey: string;
let profileId: string;
let operations: Operation[];

beforeAll(async () => {
  h = await createHarness();
  const u = await h.user({ memberOf: ['dtol', 'erga'], managerOf: ['dtol'] });
  key = u.key;
  adminKey = (await h.user({ isAdmin: true })).key;
  profileId = await createProfile(h, key, { title: 'Fuzzed', description: '', type: 'dtol' });
  const doc = (await (await h.request('/api/openapi.json')).json()) as OpenApiDoc;
  operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      parameters: op.parameters ?? [],
      bodyTypes: Object.keys(op.requestBody?.content ?? {}),
      documented: new Set(Object.keys(op.responses ?? {})),
    })),
  );
}, 60_000);
afterAll(() => h.close());

// raw (already encoded) URL pieces a careless or hostile client sends
const hostileSegment = fc.oneof(
  fc.constantFrom(
    '%C0%AF',
    '%E0%A4%A',
    '%ZZ',
    '%',
    '%00',
    'a%00b',
    '------------------------------------',
    '00000000-0000-0000-0000-00000000000g',
    '99999999999999999999999999',
    '-1',
    '1e309',
    'NaN',
    '..%2F..%2Fetc%2Fpasswd',
    '%2e%2e',
    'ffffffffffffffffffffffff',
    'FFFFFFFFFFFFFFFFFFFFFFFF',
    '6650f1c2a4b1e2d3c4b5a697',
    "'%20OR%201=1--",
    '%F0%9F%A6%8B',
    'x'.repeat(3000),
    '2024-13-45T99:99:99%2B00:00',
    'true',
    '',
  ),
  fc.string({ maxLength: 40 }).map((s) => encodeURIComponent(s)),
  fc.stringMatching(/^[0-9a-f-]{1,40}$/),
);

const hostileBody = fc.oneof(
  fc.constantFrom('{bad', '[]', 'null', '"text"', '{"svc_ids":[null]}', '{"title":"a\\u0000b"}', '{"limit":1e400}', '\u0000\u0001', ''),
  fc.json({ maxDepth: 3 }),
  fc.string({ maxLength: 200 }),
);

const contentTypes = fc.constantFrom(
  'application/json',
  'multipart/form-data; boundary=xyz',
  'multipart/form-data',
  'application/x-www-form-urlencoded',
  'text/plain',
  'application/octet-stream',
);

const caller = fc.constantFrom<'user' | 'admin' | 'none' | 'garbage'>('user', 'user', 'admin', 'none', 'garbage');

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function buildPath(op: Operation, segments: string[]): string {
  let i = 0;
  return op.path.replace(/\{[^}]+\}/g, () => {
    const s = segments[i++ % segments.length] ?? '';
    // a real profile id now and then, so that checks past the first are reached
    return s === 'PROFILE' ? profileId : s;
  });
}

describe('the API under generated bad input', () => {
  it('never answers 5xx, and every error is a problem document with a request id', async () => {
    const failures: string[] = [];
    const called = new Set<string>();
    const statuses = new Map<number, number>();
    const property = fc.asyncProperty(
      fc.nat(),
      fc.array(fc.oneof(hostileSegment, fc.constant('PROFILE')), { minLength: 1, maxLength: 4 }),
      fc.array(fc.tuple(fc.nat(), hostileSegment), { maxLength: 4 }),
      hostileBody,
      contentTypes,
      caller,
      async (pick, segments, query, body, type, who) => {
        const op = operations[pick % operations.length]!;
        const queryNames = op.parameters.filter((p) => p.in === 'query').map((p) => p.name);
        const names = queryNames.length ? queryNames : ['x'];
        const qs = query.map(([n, v]) => `${names[n % names.length]}=${v}`).join('&');
        const url = buildPath(op, segments) + (qs ? `?${qs}` : '');
        const headers: Record<string, string> = {};
        if (who === 'garbage') headers.authorization = `token rmb_${'A'.repeat(43)}`;
        const hasBody = !['GET', 'HEAD', 'DELETE'].includes(op.method);
        if (hasBody) headers['content-type'] = type;
        const res = await h.request(url, {
          method: op.method,
          headers,
          ...(hasBody && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
          ...(who === 'user' && { key }),
          ...(who === 'admin' && { key: adminKey }),
        });
        const status = res.status;
        const text = await res.text();
        called.add(`${op.method} ${op.path}`);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const where = `${op.method} ${url.slice(0, 120)} → ${status}`;
        if (status >= 500) {
          const allowed = status === 503 && res.headers.get('retry-after') && (op.documented.has('503') || OUTSIDE_SERVICES.test(text));
          if (!allowed) failures.push(`${where}: ${text.slice(0, 200)}`);
          return;
        }
        if (status >= 400 && op.method !== 'HEAD') {
          const type = res.headers.get('content-type') ?? '';
          const problem = parseJson(text) as { status?: unknown; detail?: unknown; request_id?: unknown } | null;
          if (
            !type.includes('json') ||
            !problem ||
            problem.status !== status ||
            typeof problem.detail !== 'string' ||
            !problem.request_id
          ) {
            failures.push(`${where}: not a problem document (${type}): ${text.slice(0, 200)}`);
          }
        }
      },
    );
    await fc.assert(property, { seed: 20261124, numRuns: 10_000 });
    expect(failures.slice(0, 25)).toEqual([]);
    // every operation was reached, and not only by refusals at the door
    expect(called.size).toBe(operations.length);
    expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
    console.log(
      `fuzz: ${operations.length} operations, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`,
    );
  }, 600_000);
});
