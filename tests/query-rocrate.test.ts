import { readFileSync } from 'node:fs';
import path from 'node:path';
import jsonld from 'jsonld';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RO_CRATE_CONTEXT, RO_CRATE_SPEC } from '@/lib/standards/rocrate';
import { type QuerySeed, seedQueryData } from './query-seed';
import { expectNoPrivateData, queryClient } from './query-support';
import { createHarness, type Harness } from './support/harness';

type Entity = Record<string, unknown> & { '@id': string; '@type'?: string | string[] };
interface Crate {
  '@context': unknown;
  '@graph': Entity[];
}

let h: Harness;
let seed: QuerySeed;
const { problem } = queryClient(() => h);

beforeAll(async () => {
  h = await createHarness();
  seed = await seedQueryData(h.deps.db);
});
afterAll(() => h.close());

// the published RO-Crate 1.2 context (CC0), so that expansion needs no network
const CONTEXT = JSON.parse(readFileSync(path.join(import.meta.dirname, 'fixtures/rocrate/ro-crate-1.2-context.json'), 'utf8')) as object;
const documentLoader = async (url: string) => {
  if (url !== RO_CRATE_CONTEXT) throw new Error(`unexpected remote document ${url}`);
  return { contextUrl: undefined, document: CONTEXT, documentUrl: url };
};

async function crateOf(manifestId: string): Promise<{ crate: Crate; body: string }> {
  const res = await h.request(`/api/manifest/${manifestId}?return_type=rocrate`);
  const body = await res.text();
  expect(res.status, body.slice(0, 300)).toBe(200);
  expect(res.headers.get('content-type')).toContain('application/ld+json');
  expect(res.headers.get('content-disposition')).toBe(`attachment; filename=${manifestId}-ro-crate-metadata.json`);
  return { crate: JSON.parse(body) as Crate, body };
}

const types = (e: Entity) => [e['@type'] ?? []].flat();
const refs = (v: unknown): string[] =>
  Array.isArray(v) ? v.flatMap(refs) : v && typeof v === 'object' && '@id' in v ? [(v as { '@id': string })['@id']] : [];

/** The RO-Crate 1.2 rules that can be checked without the validator (docs/repositories.md §7). */
function expectValidCrate(crate: Crate) {
  expect([crate['@context']].flat()).toContain(RO_CRATE_CONTEXT);
  const graph = crate['@graph'];
  const ids = graph.map((e) => e['@id']);
  expect(new Set(ids).size, 'every @id is unique').toBe(ids.length);
  const byId = new Map(graph.map((e) => [e['@id'], e]));

  const descriptor = byId.get('ro-crate-metadata.json') as Entity;
  expect(types(descriptor)).toContain('CreativeWork');
  expect(descriptor.conformsTo).toEqual({ '@id': RO_CRATE_SPEC });
  const rootId = (descriptor.about as { '@id': string })['@id'];
  const root = byId.get(rootId) as Entity;
  expect(root, 'the root data entity is in the graph').toBeDefined();
  expect(types(root)).toContain('Dataset');
  for (const key of ['name', 'description', 'datePublished', 'license']) expect(root[key], key).toBeTruthy();
  expect(String(root.datePublished)).toMatch(/^\d{4}-\d{2}-\d{2}/);

  for (const e of graph) {
    expect(typeof e['@id']).toBe('string');
    expect(types(e).length, `${e['@id']} has a @type`).toBeGreaterThan(0);
    for (const [key, value] of Object.entries(e)) {
      if (key.startsWith('@')) continue;
      // flattened: objects are references only
      for (const v of [value].flat()) {
        if (v && typeof v === 'object') expect(Object.keys(v), `${e['@id']}.${key} is a reference`).toEqual(['@id']);
      }
      // references resolve inside the crate, except the spec itself and same-as links to public records
      if (key === 'conformsTo' || key === 'sameAs') continue;
      for (const r of refs(value)) expect(byId.has(r), `${e['@id']}.${key} -> ${r} resolves`).toBe(true);
    }
  }
  return { byId, root };
}

describe('GET manifest/{manifest_id}?return_type=rocrate', () => {
  it('is a valid RO-Crate 1.2 with one BioSample per sample, and its people, taxa and places once each', async () => {
    const { crate, body } = await crateOf(seed.manifests.erga);
    const { byId, root } = expectValidCrate(crate);
    expect(root).toMatchObject({
      name: 'CNAG ERGA pilot',
      description: 'Catalan reference genomes',
      datePublished: '2025-01-03T10:00:00+00:00',
    });
    expect(root['@id']).toBe(`${h.config.baseUrl}/api/manifest/${seed.manifests.erga}/`);
    expect(byId.get('https://creativecommons.org/publicdomain/zero/1.0/')).toMatchObject({ '@type': 'CreativeWork' });

    const samples = crate['@graph'].filter((e) => types(e).includes('BioSample'));
    const expected = seed.samples.filter((s) => s.manifestId === seed.manifests.erga);
    expect(samples.map((s) => s['@id']).sort()).toEqual(expected.map((s) => `${h.config.baseUrl}/api/sample/svc_id/${s.id}`).sort());
    expect(refs(root.mentions).sort()).toEqual(samples.map((s) => s['@id']).sort());

    const accessioned = samples.find((s) => s.sameAs) as Entity;
    expect((accessioned.sameAs as { '@id': string })['@id']).toMatch(/^https:\/\/identifiers\.org\/biosample:SAMEA\d+$/);
    const taxon = byId.get(`https://identifiers.org/taxonomy:${expected[0]!.fields.TAXON_ID}`) as Entity;
    expect(taxon).toMatchObject({ '@type': 'Taxon', name: expected[0]!.fields.SCIENTIFIC_NAME });
    expect(byId.get((taxon.parentTaxon as { '@id': string })['@id'])).toMatchObject({ '@type': 'Taxon', taxonRank: 'order' });

    const people = crate['@graph'].filter((e) => types(e).includes('Person'));
    const names = people.map((p) => p.name);
    expect(new Set(names).size).toBe(names.length);
    // Jane Smith collects and identifies: one person, two roles
    expect(names).toContain('Jane Smith');
    expect(refs(samples[0]!.collector)).toContain('#person-jane-smith');
    expect(people.find((p) => p.name === 'Ana García')!['@id']).toBe('#person-ana-garcia');
    const places = crate['@graph'].filter((e) => types(e).includes('Place'));
    expect(places).toEqual([
      { '@id': '#place-1', '@type': 'Place', name: 'Spain | Catalonia | Montseny', latitude: 41.7676, longitude: 2.4014 },
    ]);

    const props = crate['@graph'].filter((e) => types(e).includes('PropertyValue'));
    expect(props.find((p) => p['@id'] === `#${expected[0]!.id}/SCIENTIFIC_NAME`)).toMatchObject({
      value: expected[0]!.fields.SCIENTIFIC_NAME,
    });
    expectNoPrivateData(body);
  });

  it('expands as JSON-LD with no term dropped', async () => {
    for (const id of [seed.manifests.erga, seed.manifests.dtol, seed.manifests.asg]) {
      const { crate } = await crateOf(id);
      // safe mode throws on anything lost in expansion (an undefined term, a bad IRI)
      const expanded = await jsonld.expand(
        crate as unknown as jsonld.JsonLdDocument,
        {
          documentLoader,
          base: `${h.config.baseUrl}/api/manifest/${id}/ro-crate-metadata.json`,
          safe: true,
        } as jsonld.Options.Expand,
      );
      expect(expanded.length).toBe(crate['@graph'].length);
      const root = expanded.find((e) => e['@id'] === `${h.config.baseUrl}/api/manifest/${id}/`) as Record<string, unknown>;
      expect(root['@type']).toEqual(['http://schema.org/Dataset']);
      expect(root).toHaveProperty(['http://schema.org/datePublished']);
      const sample = expanded.find((e) => (e['@type'] as string[] | undefined)?.includes('https://bioschemas.org/BioSample')) as Record<
        string,
        unknown
      >;
      expect(sample).toHaveProperty(['https://bioschemas.org/collector']);
      expect(sample).toHaveProperty(['http://schema.org/additionalProperty']);
    }
  });

  it('is the same crate every time', async () => {
    expect((await crateOf(seed.manifests.dtol)).body).toBe((await crateOf(seed.manifests.dtol)).body);
  });

  it('leaves embargoed samples out, and answers 400 when nothing is left', async () => {
    const { crate } = await crateOf(seed.manifests.tk);
    expectValidCrate(crate);
    const samples = crate['@graph'].filter((e) => types(e).includes('BioSample'));
    expect(samples).toHaveLength(1);
    expect(JSON.stringify(crate)).not.toContain(seed.embargoed);
    await problem(
      '/api/manifest/00000000-0000-4000-8000-000000000000?return_type=rocrate',
      "Only one 'manifest_id' can be processed at a time.",
    );
  });
});
