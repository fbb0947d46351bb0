import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { taxonomyCache } from '@/db/schema';
import type { TaxonomyLookup, TaxonRecord } from '@/lib/manifests/contract';
import { RepositoryHttpError, RepositoryProtocolError, RepositoryUnavailableError } from './errors';
import { type HttpOptions, httpRequest, joinUrl, plumbingOf } from './http';

/**
 * ENA's taxonomy REST service (docs/repositories.md §5) behind the `taxonomy_cache` table, so a manifest's taxa are asked
 * of ENA once per TTL whichever instance validates it. Unknown ids and names are cached too, for a shorter time,
 * since ENA adds taxa on request.
 */

export interface TaxonomyClientOptions extends Omit<HttpOptions, 'service'> {
  /** e.g. https://www.ebi.ac.uk/ena/taxonomy/rest */
  baseUrl: string;
  db: Db;
  /** how long a found taxon is trusted; default 30 days */
  ttlMs?: number;
  /** how long "ENA knows nothing" is trusted; default 1 day */
  negativeTtlMs?: number;
  /**
   * When `/scientific-name/` finds nothing, ask `/any-name/` so that a synonym still finds its taxon (common-name
   * matches are left out). Default true.
   */
  anyNameFallback?: boolean;
  now?: () => Date;
}

const DAY = 24 * 60 * 60 * 1000;

// ENA sends every member as a string; accept numbers and booleans too rather than fail a validation over it
const str = z.union([z.string(), z.number(), z.boolean()]).transform(String);
const TaxonSchema = z.looseObject({
  taxId: str,
  scientificName: str.optional(),
  commonName: str.optional(),
  formalName: str.optional(),
  rank: str.optional(),
  division: str.optional(),
  lineage: str.optional(),
  geneticCode: str.optional(),
  mitochondrialGeneticCode: str.optional(),
  submittable: str.optional(),
  binomial: str.optional(),
});

function toRecord(raw: z.infer<typeof TaxonSchema>): TaxonRecord {
  const record: TaxonRecord = {
    taxId: raw.taxId,
    scientificName: raw.scientificName ?? '',
    rank: raw.rank ?? '',
    division: raw.division ?? '',
    lineage: raw.lineage ?? '',
    submittable: raw.submittable ?? 'false',
  };
  const optional = ['commonName', 'formalName', 'geneticCode', 'mitochondrialGeneticCode', 'binomial'] as const;
  for (const k of optional) if (raw[k] !== undefined) record[k] = raw[k];
  return record;
}

/** Records from an ENA answer or a cache row: an object, an array of them, or nothing. */
export function readTaxa(json: unknown): TaxonRecord[] {
  const items = Array.isArray(json) ? json : json && typeof json === 'object' ? [json] : [];
  return items.flatMap((item) => {
    const parsed = TaxonSchema.safeParse(item);
    return parsed.success ? [toRecord(parsed.data)] : [];
  });
}

const normaliseName = (name: string): string => name.trim().replace(/\s+/g, ' ');

export const taxIdKey = (id: string): string => `tax-id:${id.trim()}`;
export const scientificNameKey = (name: string): string => `scientific-name:${normaliseName(name).toLowerCase()}`;

export interface TaxonomyClient extends TaxonomyLookup {
  /** drops the cached answers for these keys (or all), e.g. after ENA created a requested taxon */
  forget(keys?: string[]): Promise<void>;
}

export function createTaxonomyClient(options: TaxonomyClientOptions): TaxonomyClient {
  const http = plumbingOf(options, 'taxonomy');
  const ttl = options.ttlMs ?? 30 * DAY;
  const negativeTtl = options.negativeTtlMs ?? DAY;
  const now = options.now ?? (() => new Date());
  const inFlight = new Map<string, Promise<TaxonRecord[]>>();
  const log = options.logger.child({ service: 'taxonomy' });

  /** GET one path; 404/400 and ENA's "No results." body mean nothing found. */
  const fetchTaxa = async (...path: string[]): Promise<TaxonRecord[]> => {
    const res = await httpRequest(http, {
      method: 'GET',
      url: joinUrl(options.baseUrl, ...path),
      headers: { accept: 'application/json' },
      accept: [400, 404],
    });
    const body = res.body.trim();
    if (res.status !== 200 || !body || /^no results\.?$/i.test(body)) return [];
    let json: unknown;
    try {
      json = JSON.parse(body);
    } catch {
      throw new RepositoryProtocolError('taxonomy', 'ENA taxonomy answered with something that is not JSON', res.body);
    }
    return readTaxa(json);
  };

  const fromEna = async (key: string, kind: 'id' | 'name', value: string): Promise<TaxonRecord[]> => {
    if (kind === 'id') return fetchTaxa('tax-id', encodeURIComponent(value));
    const found = await fetchTaxa('scientific-name', encodeURIComponent(value));
    if (found.length || options.anyNameFallback === false) return found;
    const lower = value.toLowerCase();
    const any = await fetchTaxa('any-name', encodeURIComponent(value));
    log.debug({ key, matches: any.length }, 'taxonomy any-name fallback');
    return any.filter((t) => t.commonName?.toLowerCase() !== lower || t.scientificName.toLowerCase() === lower);
  };

  const lookup = (key: string, kind: 'id' | 'name', value: string): Promise<TaxonRecord[]> => {
    const pending = inFlight.get(key);
    if (pending) return pending;
    const run = (async () => {
      const [row] = await options.db.select().from(taxonomyCache).where(eq(taxonomyCache.key, key)).limit(1);
      const cached = row ? readTaxa(row.response) : undefined;
      if (row && cached) {
        const age = now().getTime() - row.fetchedAt.getTime();
        if (age < (cached.length ? ttl : negativeTtl)) return cached;
      }
      let fresh: TaxonRecord[];
      try {
        fresh = await fromEna(key, kind, value);
      } catch (err) {
        // an outage should not fail validation of taxa we have seen before
        const transient = err instanceof RepositoryUnavailableError || (err instanceof RepositoryHttpError && err.transient);
        if (cached && transient) {
          log.warn({ key, error: (err as Error).message }, 'taxonomy service unavailable, using a stale cache entry');
          return cached;
        }
        throw err;
      }
      const response = kind === 'id' ? (fresh[0] ?? []) : fresh;
      const fetchedAt = now();
      await options.db
        .insert(taxonomyCache)
        .values({ key, response, fetchedAt })
        .onConflictDoUpdate({ target: taxonomyCache.key, set: { response, fetchedAt } });
      return fresh;
    })().finally(() => inFlight.delete(key));
    inFlight.set(key, run);
    return run;
  };

  return {
    async byTaxId(taxId) {
      const id = taxId.trim();
      // ENA ids are positive integers; anything else cannot exist, and must not reach the URL
      if (!/^\d+$/.test(id)) return null;
      const [first] = await lookup(taxIdKey(id), 'id', id);
      return first ?? null;
    },
    async byScientificName(name) {
      const n = normaliseName(name);
      if (!n) return [];
      return lookup(scientificNameKey(n), 'name', n);
    },
    async forget(keys) {
      if (!keys) {
        await options.db.delete(taxonomyCache);
        return;
      }
      for (const key of keys) await options.db.delete(taxonomyCache).where(eq(taxonomyCache.key, key));
    },
  };
}
