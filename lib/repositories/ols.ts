import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Db } from '@/db/client';
import { ontologyTermCache } from '@/db/schema';
import { isTransient, RepositoryProtocolError } from './errors';
import { type HttpOptions, httpRequest, joinUrl, plumbingOf } from './http';

/**
 * EBI's Ontology Lookup Service (OLS4, `OLS_URL`), behind the `ontology_term_cache` table: whether a value is a term
 * of an ontology under an ancestor, as a study's `ontology` terms require (docs/studies-and-checklists.md §9). One
 * search per value: `GET {OLS_URL}/search?q=…&ontology=cl&exact=true&queryFields=label,synonym,obo_id&allChildrenOf=<IRI
 * of the ancestor>`, the value matching a term's label, one of its synonyms or its CURIE, in any case.
 */

export interface OntologyTerm {
  iri: string;
  label: string;
  curie: string;
}

export interface OlsClient {
  /** The term `value` names under `ancestor` (a CURIE such as CL:0000000), or null when the ontology has none. */
  termUnder(ancestor: string, value: string): Promise<OntologyTerm | null>;
}

export interface OlsClientOptions extends Omit<HttpOptions, 'service'> {
  /** e.g. https://www.ebi.ac.uk/ols4/api */
  baseUrl: string;
  db: Db;
  /** how long a found term is trusted; default 30 days */
  ttlMs?: number;
  /** how long "no such term" is trusted; default 1 day, since ontologies gain terms with each release */
  negativeTtlMs?: number;
  now?: () => Date;
}

const DAY = 24 * 60 * 60 * 1000;
const CURIE = /^([A-Za-z][A-Za-z0-9_]*):([A-Za-z0-9_.-]+)$/;

/** The OBO IRI of a CURIE (CL:0000000 → http://purl.obolibrary.org/obo/CL_0000000), and its ontology's id (cl). */
export function oboTerm(curie: string): { iri: string; ontology: string } | null {
  const m = CURIE.exec(curie.trim());
  if (!m?.[1] || !m[2]) return null;
  return { iri: `http://purl.obolibrary.org/obo/${m[1]}_${m[2]}`, ontology: m[1].toLowerCase() };
}

const text = z.union([z.string(), z.array(z.string())]).transform((v) => (Array.isArray(v) ? v : [v]));
const SearchAnswer = z.object({
  response: z.object({
    docs: z.array(
      z.looseObject({
        iri: z.string(),
        label: z.string(),
        obo_id: z.string().nullish(),
        synonym: text.nullish(),
      }),
    ),
  }),
});

const normalise = (v: string) => v.trim().replace(/\s+/g, ' ').toLowerCase();

export function createOlsClient(options: OlsClientOptions): OlsClient {
  const http = plumbingOf(options, 'ols');
  const ttl = options.ttlMs ?? 30 * DAY;
  const negativeTtl = options.negativeTtlMs ?? DAY;
  const now = options.now ?? (() => new Date());
  const inFlight = new Map<string, Promise<OntologyTerm | null>>();

  const search = async (ancestor: { iri: string; ontology: string }, value: string): Promise<OntologyTerm | null> => {
    const url = new URL(joinUrl(options.baseUrl, 'search'));
    url.search = new URLSearchParams({
      q: value,
      ontology: ancestor.ontology,
      exact: 'true',
      queryFields: 'label,synonym,obo_id',
      allChildrenOf: ancestor.iri,
      fieldList: 'iri,label,obo_id,synonym',
      rows: '20',
    }).toString();
    const res = await httpRequest(http, { method: 'GET', url, headers: { accept: 'application/json' } });
    let parsed: z.infer<typeof SearchAnswer>;
    try {
      parsed = SearchAnswer.parse(JSON.parse(res.body));
    } catch {
      throw new RepositoryProtocolError('ols', 'the Ontology Lookup Service answered with something that is not a search result', res.body);
    }
    const wanted = normalise(value);
    // an exact search may still answer near misses (another case, a longer label): only an equal name counts
    const doc = parsed.response.docs.find(
      (d) =>
        normalise(d.label) === wanted || normalise(d.obo_id ?? '') === wanted || (d.synonym ?? []).some((s) => normalise(s) === wanted),
    );
    return doc ? { iri: doc.iri, label: doc.label, curie: doc.obo_id ?? '' } : null;
  };

  return {
    termUnder(ancestorCurie, value) {
      const ancestor = oboTerm(ancestorCurie);
      if (!ancestor) throw new RepositoryProtocolError('ols', `${ancestorCurie} is not an ontology term's CURIE`, '');
      const key = `${ancestorCurie.trim()}|${normalise(value)}`;
      const pending = inFlight.get(key);
      if (pending) return pending;
      const run = (async () => {
        const [row] = await options.db.select().from(ontologyTermCache).where(eq(ontologyTermCache.key, key)).limit(1);
        if (row && now().getTime() - row.fetchedAt.getTime() < (row.term ? ttl : negativeTtl)) return row.term;
        let term: OntologyTerm | null;
        try {
          term = await search(ancestor, value.trim());
        } catch (err) {
          // an outage should not leave unchecked a term seen before
          if (row && isTransient(err)) return row.term;
          throw err;
        }
        const fetchedAt = now();
        await options.db
          .insert(ontologyTermCache)
          .values({ key, term, fetchedAt })
          .onConflictDoUpdate({ target: ontologyTermCache.key, set: { term, fetchedAt } });
        return term;
      })().finally(() => inFlight.delete(key));
      inFlight.set(key, run);
      return run;
    },
  };
}

/**
 * The client for the service's settings. A study upload waits for its answers, so an OLS that cannot be reached is
 * given up on quickly: the report then says which cells were not checked.
 */
export function olsFromConfig(config: { OLS_URL: string }, db: Db, logger: Logger): OlsClient {
  return createOlsClient({ baseUrl: config.OLS_URL, db, logger, retries: 1, retryDelayMs: 250, timeoutMs: 10_000 });
}
