import type { TaxonRecord } from '@/lib/manifests/types';
import { type Incoming, json, type Outgoing, text } from './http';

/**
 * ENA's taxonomy REST service over a small table of real taxa, in its JSON shape (every member a string).
 * Tests add their own taxa (e.g. the manifest fixtures' lineage nodes) through the server options.
 */

const METAZOA = 'Eukaryota; Metazoa; ';
const MAMMALIA = `${METAZOA}Chordata; Craniata; Vertebrata; Euteleostomi; Mammalia; Eutheria; `;
const INSECTA = `${METAZOA}Ecdysozoa; Arthropoda; Hexapoda; Insecta; Pterygota; Neoptera; Endopterygota; `;

export const DEFAULT_TAXA: TaxonRecord[] = [
  {
    taxId: '9606',
    scientificName: 'Homo sapiens',
    commonName: 'human',
    formalName: 'true',
    rank: 'species',
    division: 'HUM',
    lineage: `${MAMMALIA}Euarchontoglires; Primates; Haplorrhini; Catarrhini; Hominidae; Homo; `,
    geneticCode: '1',
    mitochondrialGeneticCode: '2',
    submittable: 'true',
    binomial: 'true',
  },
  {
    taxId: '171585',
    scientificName: 'Aglais io',
    commonName: 'peacock',
    formalName: 'true',
    rank: 'species',
    division: 'INV',
    lineage: `${INSECTA}Lepidoptera; Glossata; Ditrysia; Papilionoidea; Nymphalidae; Nymphalinae; Nymphalini; Aglais; `,
    geneticCode: '1',
    mitochondrialGeneticCode: '5',
    submittable: 'true',
    binomial: 'true',
  },
  {
    taxId: '7227',
    scientificName: 'Drosophila melanogaster',
    commonName: 'fruit fly',
    formalName: 'true',
    rank: 'species',
    division: 'INV',
    lineage: `${INSECTA}Diptera; Brachycera; Muscomorpha; Ephydroidea; Drosophilidae; Drosophila; Sophophora; `,
    geneticCode: '1',
    mitochondrialGeneticCode: '5',
    submittable: 'true',
    binomial: 'true',
  },
  {
    taxId: '9913',
    scientificName: 'Bos taurus',
    commonName: 'cattle',
    formalName: 'true',
    rank: 'species',
    division: 'MAM',
    lineage: `${MAMMALIA}Laurasiatheria; Artiodactyla; Ruminantia; Pecora; Bovidae; Bovinae; Bos; `,
    geneticCode: '1',
    mitochondrialGeneticCode: '2',
    submittable: 'true',
    binomial: 'true',
  },
  {
    taxId: '7215',
    scientificName: 'Drosophila',
    formalName: 'false',
    rank: 'genus',
    division: 'INV',
    lineage: `${INSECTA}Diptera; Brachycera; Muscomorpha; Ephydroidea; Drosophilidae; `,
    geneticCode: '1',
    mitochondrialGeneticCode: '5',
    submittable: 'false',
    binomial: 'false',
  },
  {
    taxId: '32644',
    scientificName: 'unidentified',
    formalName: 'false',
    rank: 'species',
    division: 'UNC',
    lineage: '',
    geneticCode: '1',
    mitochondrialGeneticCode: '2',
    submittable: 'false',
    binomial: 'false',
  },
];

/** Names ENA also matches in an any-name search, by lower-case synonym. */
export const DEFAULT_SYNONYMS: Record<string, string> = { 'inachis io': '171585' };

export class TaxonomyTable {
  private readonly byId = new Map<string, TaxonRecord>();
  private readonly synonyms = new Map<string, string>();

  constructor(taxa: TaxonRecord[] = [], synonyms: Record<string, string> = {}) {
    for (const t of [...DEFAULT_TAXA, ...taxa]) this.byId.set(t.taxId, t);
    for (const [name, id] of Object.entries({ ...DEFAULT_SYNONYMS, ...synonyms })) this.synonyms.set(name.toLowerCase(), id);
  }

  add(taxon: TaxonRecord): void {
    this.byId.set(taxon.taxId, taxon);
  }

  get(taxId: string): TaxonRecord | undefined {
    return this.byId.get(taxId);
  }

  scientificName(name: string): TaxonRecord[] {
    const n = name.trim().toLowerCase();
    return [...this.byId.values()].filter((t) => t.scientificName.toLowerCase() === n);
  }

  anyName(name: string): TaxonRecord[] {
    const n = name.trim().toLowerCase();
    const syn = this.synonyms.get(n);
    return [...this.byId.values()].filter(
      (t) => t.scientificName.toLowerCase() === n || t.commonName?.toLowerCase() === n || t.taxId === syn,
    );
  }
}

/** `/tax-id/{id}`, `/scientific-name/{name}`, `/any-name/{name}` under the taxonomy root. */
export function handleTaxonomy(table: TaxonomyTable, incoming: Incoming, rest: string): Outgoing {
  if (incoming.method !== 'GET') return json(405, { message: 'Method not allowed' });
  const m = /^\/(tax-id|scientific-name|any-name)\/(.+)$/.exec(rest);
  if (!m?.[1] || !m[2]) return text(404, 'No results.');
  const value = decodeURIComponent(m[2]);
  if (m[1] === 'tax-id') {
    const t = table.get(value.trim());
    return t ? json(200, t) : text(404, 'No results.');
  }
  const found = m[1] === 'scientific-name' ? table.scientificName(value) : table.anyName(value);
  return found.length ? json(200, found) : text(404, 'No results.');
}
