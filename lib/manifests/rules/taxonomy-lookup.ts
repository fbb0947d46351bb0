import { TaxonomyUnavailableError } from '../errors';
import type { TaxonomyLookup, TaxonRecord } from '../types';

/**
 * One validation's view of the taxonomy: every distinct id and name is looked up once (the promise is memoised, so
 * concurrent callers share it), and a failing service becomes TaxonomyUnavailableError.
 */
export class TaxonomyCache {
  private readonly ids = new Map<string, Promise<TaxonRecord | null>>();
  private readonly names = new Map<string, Promise<TaxonRecord[]>>();

  constructor(private readonly lookup: TaxonomyLookup) {}

  byTaxId(taxId: string): Promise<TaxonRecord | null> {
    let p = this.ids.get(taxId);
    if (!p) {
      p = this.lookup.byTaxId(taxId).catch((err: unknown) => {
        throw new TaxonomyUnavailableError(err);
      });
      this.ids.set(taxId, p);
    }
    return p;
  }

  byScientificName(name: string): Promise<TaxonRecord[]> {
    const key = name.trim().toLowerCase();
    let p = this.names.get(key);
    if (!p) {
      p = this.lookup.byScientificName(name.trim()).catch((err: unknown) => {
        throw new TaxonomyUnavailableError(err);
      });
      this.names.set(key, p);
    }
    return p;
  }

  /** How many distinct look-ups were made (for tests of the de-duplication). */
  get calls(): { ids: number; names: number } {
    return { ids: this.ids.size, names: this.names.size };
  }
}

export const isTrue = (v: string | undefined): boolean => String(v).toLowerCase() === 'true';

/** Lineage names, highest first: "Eukaryota; Metazoa; …; Aglais; " → ['Eukaryota', 'Metazoa', …, 'Aglais']. */
export const lineageNames = (lineage: string): string[] =>
  lineage
    .split(';')
    .map((n) => n.trim())
    .filter(Boolean);

/** Ordinal of the Linnaean ranks that bound the search; unranked clades ("no rank", "clade") are skipped. */
const RANK_LEVEL: Record<string, number> = {
  'species subgroup': 11,
  'species group': 12,
  series: 14,
  subsection: 14,
  section: 15,
  subgenus: 16,
  genus: 20,
  subtribe: 21,
  tribe: 22,
  subfamily: 23,
  family: 30,
  superfamily: 31,
  parvorder: 35,
  infraorder: 36,
  suborder: 37,
  order: 40,
  superorder: 41,
  subcohort: 42,
  cohort: 43,
  infraclass: 45,
  subclass: 46,
  class: 50,
  superclass: 51,
  subphylum: 55,
  phylum: 60,
  superphylum: 61,
  subkingdom: 65,
  kingdom: 70,
  superkingdom: 80,
  domain: 80,
  realm: 80,
};

const FAMILY_LEVEL = 30;
const ORDER_LEVEL = 40;

export interface RankedLineage {
  /** the lineage's name at that rank; null when the lineage has none */
  genus: string | null;
  family: string | null;
  order: string | null;
}

/**
 * GENUS, FAMILY and ORDER of a taxon. ENA's lineage lists names without ranks, so each ancestor's rank is looked up
 * by name, nearest first, stopping at the order (or at a higher rank, meaning there is none). Homonyms in other
 * kingdoms are told apart by their own lineage being a prefix of the taxon's.
 */
export async function rankedLineage(record: TaxonRecord, taxonomy: TaxonomyCache): Promise<RankedLineage> {
  const names = lineageNames(record.lineage);
  const found: { genus?: string | null; family?: string | null; order?: string | null } = {};
  for (let i = names.length - 1; i >= 0; i--) {
    const name = names[i] ?? '';
    const ancestors = names.slice(0, i);
    const candidates = await taxonomy.byScientificName(name);
    const node =
      candidates.find((c) => c.scientificName.toLowerCase() === name.toLowerCase() && sameLineage(lineageNames(c.lineage), ancestors)) ??
      (candidates.length === 1 ? candidates[0] : undefined);
    const level = node ? RANK_LEVEL[node.rank.toLowerCase()] : undefined;
    if (level === undefined || !node) continue;
    if (level >= FAMILY_LEVEL && found.genus === undefined) found.genus = null;
    if (level >= ORDER_LEVEL && found.family === undefined) found.family = null;
    if (level > ORDER_LEVEL) break;
    const rank = node.rank.toLowerCase();
    if (rank === 'genus' && found.genus === undefined) found.genus = name;
    if (rank === 'family' && found.family === undefined) found.family = name;
    if (rank === 'order') {
      found.order = name;
      break;
    }
  }
  return { genus: found.genus ?? null, family: found.family ?? null, order: found.order ?? null };
}

const sameLineage = (a: string[], b: string[]): boolean =>
  a.length === b.length && a.every((n, i) => n.toLowerCase() === (b[i] ?? '').toLowerCase());
