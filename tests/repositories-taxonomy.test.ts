import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { taxonomyCache } from '@/db/schema';
import { RepositoryHttpError } from '@/lib/repositories/errors';
import { createTaxonomyClient, readTaxa, scientificNameKey, type TaxonomyClient, taxIdKey } from '@/lib/repositories/taxonomy';
import { createHarness, type Harness } from './support/harness';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';
import { captureLogger, FAST } from './support/repository-server/log';

let h: Harness;
let server: RepositoryServer;
let clock: Date;
let taxonomy: TaxonomyClient;

const DAY = 86_400_000;
const lookups = () => server.requests.filter((r) => r.service === 'taxonomy').length;

beforeAll(async () => {
  [h, server] = await Promise.all([createHarness(), startRepositoryServer()]);
});
afterAll(async () => {
  await Promise.all([h?.close(), server?.close()]);
});
beforeEach(async () => {
  server.faults.clear();
  clock = new Date('2030-01-01T00:00:00Z');
  taxonomy = createTaxonomyClient({
    baseUrl: server.taxonomyUrl,
    db: h.database.db,
    logger: captureLogger().logger,
    now: () => clock,
    ...FAST,
  });
  await taxonomy.forget();
});

describe('ENA taxonomy client with the database cache', () => {
  it('looks a taxon up by id once, then answers from the cache', async () => {
    const before = lookups();
    const human = await taxonomy.byTaxId('9606');
    expect(human).toEqual({
      taxId: '9606',
      scientificName: 'Homo sapiens',
      commonName: 'human',
      formalName: 'true',
      rank: 'species',
      division: 'HUM',
      lineage: expect.stringMatching(/^Eukaryota; Metazoa; .*Homo; $/),
      geneticCode: '1',
      mitochondrialGeneticCode: '2',
      submittable: 'true',
      binomial: 'true',
    });
    expect(lookups() - before).toBe(1);
    expect(server.requests.at(-1)?.path).toBe('/ena/taxonomy/rest/tax-id/9606');

    // a new client (another instance, another job) uses the same rows
    const other = createTaxonomyClient({
      baseUrl: server.taxonomyUrl,
      db: h.database.db,
      logger: captureLogger().logger,
      now: () => clock,
    });
    expect(await other.byTaxId(' 9606 ')).toEqual(human);
    expect(lookups() - before).toBe(1);
    const [row] = await h.database.db.select().from(taxonomyCache).where(eq(taxonomyCache.key, 'tax-id:9606'));
    expect(readTaxa(row?.response)).toEqual([human]);
  });

  it('looks names up case-insensitively under one key', async () => {
    const before = lookups();
    const found = await taxonomy.byScientificName('Drosophila melanogaster');
    expect(found.map((t) => t.taxId)).toEqual(['7227']);
    expect(await taxonomy.byScientificName('  DROSOPHILA   melanogaster ')).toEqual(found);
    expect(lookups() - before).toBe(1);
    expect(server.requests.at(-1)?.path).toBe('/ena/taxonomy/rest/scientific-name/Drosophila%20melanogaster');
    const rows = await h.database.db
      .select()
      .from(taxonomyCache)
      .where(eq(taxonomyCache.key, scientificNameKey('drosophila melanogaster')));
    expect(rows).toHaveLength(1);
    expect(scientificNameKey(' Drosophila  Melanogaster')).toBe('scientific-name:drosophila melanogaster');
    expect(taxIdKey('9606')).toBe('tax-id:9606');
  });

  it('returns genus and non-submittable entries as ENA describes them', async () => {
    expect(await taxonomy.byTaxId('7215')).toMatchObject({ rank: 'genus', submittable: 'false' });
    expect(await taxonomy.byTaxId('32644')).toMatchObject({ scientificName: 'unidentified', submittable: 'false' });
    expect((await taxonomy.byScientificName('Bos taurus'))[0]).toMatchObject({ taxId: '9913', commonName: 'cattle' });
  });

  it('caches "unknown" for a shorter time, then asks again', async () => {
    const before = lookups();
    expect(await taxonomy.byTaxId('123456789')).toBeNull();
    expect(await taxonomy.byScientificName('Nonexistent species')).toEqual([]);
    expect(lookups() - before).toBe(3); // scientific-name, then the any-name fallback
    expect(await taxonomy.byTaxId('123456789')).toBeNull();
    expect(lookups() - before).toBe(3);
    server.taxonomy.add({
      taxId: '123456789',
      scientificName: 'Novus taxon',
      rank: 'species',
      division: 'INV',
      lineage: '',
      submittable: 'true',
    });
    clock = new Date(clock.getTime() + 2 * DAY);
    expect(await taxonomy.byTaxId('123456789')).toMatchObject({ scientificName: 'Novus taxon' });
    expect(lookups() - before).toBe(4);
  });

  it('refreshes a found taxon after its TTL', async () => {
    await taxonomy.byTaxId('9913');
    const before = lookups();
    clock = new Date(clock.getTime() + 29 * DAY);
    await taxonomy.byTaxId('9913');
    expect(lookups()).toBe(before);
    clock = new Date(clock.getTime() + 2 * DAY);
    await taxonomy.byTaxId('9913');
    expect(lookups()).toBe(before + 1);
  });

  it('finds a synonym through any-name, but not a common name', async () => {
    const io = await taxonomy.byScientificName('Inachis io');
    expect(io.map((t) => t.scientificName)).toEqual(['Aglais io']);
    expect(await taxonomy.byScientificName('human')).toEqual([]);
    const strict = createTaxonomyClient({
      baseUrl: server.taxonomyUrl,
      db: h.database.db,
      logger: captureLogger().logger,
      anyNameFallback: false,
      now: () => clock,
    });
    await strict.forget([scientificNameKey('Inachis io')]);
    expect(await strict.byScientificName('Inachis io')).toEqual([]);
  });

  it('never sends an id that cannot exist', async () => {
    const before = lookups();
    expect(await taxonomy.byTaxId('9606/../x')).toBeNull();
    expect(await taxonomy.byTaxId('')).toBeNull();
    expect(await taxonomy.byScientificName('   ')).toEqual([]);
    expect(lookups()).toBe(before);
  });

  it('asks once for concurrent look-ups of one key', async () => {
    const before = lookups();
    const results = await Promise.all([taxonomy.byTaxId('7227'), taxonomy.byTaxId('7227'), taxonomy.byTaxId('7227')]);
    expect(new Set(results.map((r) => r?.scientificName))).toEqual(new Set(['Drosophila melanogaster']));
    expect(lookups() - before).toBe(1);
  });

  it('retries an outage, then serves a stale entry rather than failing', async () => {
    server.faults.fail(2, { service: 'taxonomy' });
    expect(await taxonomy.byTaxId('9606')).toMatchObject({ scientificName: 'Homo sapiens' });

    clock = new Date(clock.getTime() + 60 * DAY);
    server.faults.fail(10, { service: 'taxonomy' });
    expect(await taxonomy.byTaxId('9606')).toMatchObject({ scientificName: 'Homo sapiens' });

    // nothing cached: the outage is the caller's to handle
    const err = await taxonomy.byTaxId('9913').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RepositoryHttpError);
    expect(err).toMatchObject({ status: 500, service: 'taxonomy' });
    server.faults.clear();
  });

  it('reads ENA answers tolerantly', () => {
    expect(readTaxa({ taxId: 9606, scientificName: 'Homo sapiens', submittable: true })).toEqual([
      { taxId: '9606', scientificName: 'Homo sapiens', rank: '', division: '', lineage: '', submittable: 'true' },
    ]);
    expect(readTaxa([])).toEqual([]);
    expect(readTaxa('No results.')).toEqual([]);
    expect(readTaxa([{ nope: 1 }, { taxId: '1' }])).toHaveLength(1);
  });
});
