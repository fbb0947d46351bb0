import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountAndQueryCases } from './contract/cases-accounts-query';
import { biodataCases } from './contract/cases-biodata';
import { correctionCases } from './contract/cases-corrections';
import { buildImageWorld, imageCases } from './contract/cases-images';
import { referenceCases } from './contract/cases-reference';
import { buildRemovalWorld, removalCases } from './contract/cases-removal';
import { buildSharingWorld, sharingCases } from './contract/cases-sharing';
import { studyCases } from './contract/cases-studies';
import { treeOfLifeCases } from './contract/cases-tree-of-life';
import { buildWorld, keys } from './contract/world';
import type { Harness } from './support/harness';
import type { RepositoryServer } from './support/repository-server';

/**
 * The API against its own OpenAPI document: every operation the document lists is called — on its happy path and
 * on its main errors, with the cases of tests/contract/ — and every answer must have a documented status, a
 * documented content type, and (for JSON) a body that its documented schema accepts, with no field the schema does
 * not name. An operation of the document with no case fails the test, so the document and the cases grow together.
 */

interface Operation {
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

let server: RepositoryServer;
let h: Harness;
let doc: OpenApiDocument;
const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  ({ h, server } = await buildWorld());
  await buildRemovalWorld(h);
  await buildImageWorld(h);
  await buildSharingWorld(h);
  doc = (await (await h.request('/api/openapi.json')).json()) as OpenApiDocument;
}, 240_000);
afterAll(async () => {
  await h?.close();
  await server?.close();
});

/** Every object schema without a word on extra properties gets `additionalProperties: false`: no undocumented field passes. */
function strict(schema: unknown, inAllOf = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => strict(s, inAllOf));
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === '$ref' && typeof v === 'string') out[k] = v.replace('#/components/schemas/', 'openapi#/components/schemas/');
    else if (k === 'allOf') out[k] = strict(v, true);
    else if (k === 'properties' && v && typeof v === 'object')
      out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, strict(s)]));
    else out[k] = strict(v);
  }
  const isObject = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object'));
  if (isObject && out.properties && !('additionalProperties' in out) && !inAllOf) out.additionalProperties = false;
  return out;
}

const mediaOf = (contentType: string | null) => (contentType ?? '').split(';')[0]!.trim();

/** Where a schema lets anything through: `{}`, an object open to any property, or an untyped map. */
function openPlaces(schema: unknown, components: Record<string, unknown>, at = '', seen = new Set<string>()): string[] {
  if (!schema || typeof schema !== 'object') return [];
  const s = schema as Record<string, unknown>;
  if (typeof s.$ref === 'string') {
    const name = s.$ref.split('/').pop()!;
    if (seen.has(name)) return [];
    return openPlaces(components[name], components, `${at}→${name}`, new Set([...seen, name]));
  }
  const keys = Object.keys(s).filter((k) => !['description', 'example', 'examples', 'title', 'default', 'deprecated'].includes(k));
  if (!keys.length) return [at || '(root)'];
  const out: string[] = [];
  const isObject = s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'));
  if (isObject && !s.properties && (s.additionalProperties === undefined || s.additionalProperties === true)) out.push(at || '(root)');
  if (s.additionalProperties && typeof s.additionalProperties === 'object')
    out.push(...openPlaces(s.additionalProperties, components, `${at}{*}`, seen));
  if (s.properties && typeof s.properties === 'object') {
    for (const [k, v] of Object.entries(s.properties)) out.push(...openPlaces(v, components, `${at}.${k}`, seen));
  }
  if (s.items) out.push(...openPlaces(s.items, components, `${at}[]`, seen));
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (!Array.isArray(s[k])) continue;
    for (const [i, v] of (s[k] as unknown[]).entries()) out.push(...openPlaces(v, components, `${at}<${k}${i}>`, seen));
  }
  return out;
}

describe('the API against its OpenAPI document', () => {
  it('has a case for every operation, and every answer is documented exactly', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'openapi', components: { schemas: strict(doc.components.schemas) } });
    // removals last: they delete what they name
    const table = {
      ...treeOfLifeCases(),
      ...correctionCases(),
      ...referenceCases(),
      ...imageCases(),
      ...studyCases(),
      ...biodataCases(),
      ...accountAndQueryCases(),
      ...sharingCases(),
      ...removalCases(),
    };
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    );
    const missing = operations.filter((op) => !table[op]?.length);
    expect(missing, 'operations of the document without a case here').toEqual([]);
    const stale = Object.keys(table).filter((op) => !operations.includes(op));
    expect(stale, 'cases for operations the document does not list').toEqual([]);

    const problems: string[] = [];
    const validators = new Map<string, ValidateFunction>();
    let calls = 0;
    for (const [op, list] of Object.entries(table)) {
      const [method, path] = op.split(' ') as [string, string];
      const documented = doc.paths[path]![method.toLowerCase()]!;
      const hasSuccess = list.some((c) => c.status < 300);
      if (!hasSuccess && !/^(POST|PUT|PATCH|DELETE) /.test(op)) problems.push(`${op}: no happy-path case`);
      for (const c of list) {
        const k = c.key ?? 'none';
        const init: RequestInit & { key?: string } = {
          method: c.method ?? method,
          ...(k !== 'none' && { key: keys[k] }),
          headers: { ...(c.json !== undefined && json), ...c.headers },
          ...(c.json !== undefined && { body: JSON.stringify(c.json) }),
          ...(c.form && { body: c.form() }),
          ...(c.body !== undefined && { body: c.body }),
        };
        const res = await h.request(c.path, init);
        calls += 1;
        const where = `${op} (${c.name}): ${res.status}`;
        if (res.status !== c.status) {
          problems.push(`${where}, expected ${c.status}: ${(await res.text()).slice(0, 200)}`);
          continue;
        }
        const response = documented.responses[String(res.status)];
        if (!response) {
          problems.push(`${where} is not a documented status (${Object.keys(documented.responses).join(', ')})`);
          continue;
        }
        const media = mediaOf(res.headers.get('content-type'));
        const content = response.content ?? {};
        if (!Object.keys(content).length) {
          if (media && media !== 'text/plain' && (await res.clone().text()).length)
            problems.push(`${where} has a ${media} body, documented as none`);
          continue;
        }
        const documentedMedia = content[media];
        if (!documentedMedia) {
          problems.push(`${where} answers ${media || 'no content type'}, documented: ${Object.keys(content).join(', ')}`);
          continue;
        }
        if (!media.endsWith('json')) continue;
        const body = (await res.json()) as unknown;
        const id = `${op} ${res.status} ${media}`;
        let validate = validators.get(id);
        if (!validate) {
          validate = ajv.compile(strict(documentedMedia.schema ?? {}) as object);
          validators.set(id, validate);
        }
        if (!validate(body)) {
          problems.push(`${where} body does not match its schema: ${ajv.errorsText(validate.errors?.slice(0, 4), { separator: '; ' })}`);
        }
      }
    }
    // a documented JSON answer is exact: no place in it takes anything at all
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(op.responses)) {
          for (const [media, content] of Object.entries(response.content ?? {})) {
            if (!media.endsWith('json')) continue;
            for (const place of openPlaces(content.schema, doc.components.schemas)) {
              problems.push(`${method.toUpperCase()} ${path} ${status} ${media}: open schema at ${place}`);
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(calls).toBeGreaterThan(150);
  }, 300_000);
});
