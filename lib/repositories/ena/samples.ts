import { eq } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import { enaSampleCache } from '@/db/schema';
import { RepositoryHttpError, RepositoryProtocolError, RepositoryUnavailableError } from '../errors';
import { basicAuth, type HttpOptions, httpRequest, joinUrl, plumbingOf } from '../http';
import { webinRoot } from './webin-url';
import { arrayOf, attrOf, childOf, createXmlParser, textOf } from './xml';

/**
 * What ENA says about a BioSample that a study sheet references (docs/studies-and-checklists.md §9, "biosample terms"):
 * first the broker's own Webin account (`GET {ENA_WEBIN_URL}/drop-box/samples/{accession}`, which also sees its
 * private samples), then ENA's public browser API (`GET {ENA_BROWSER_URL}/xml/{accession}`). Answers are kept in
 * `ena_sample_cache`, found ones for a month and "unknown" for an hour, since a sample may be registered meanwhile.
 */

export interface EnaSampleRecord {
  /** SAMEA…, SAMN… or SAMD…: the BioSamples accession */
  biosampleAccession: string;
  /** ERS…, when ENA gives it */
  enaAccession?: string;
  taxonId: string;
  scientificName: string;
  title?: string;
  /** who answered: the broker's Webin account (its own samples, private ones too) or the public browser API */
  source: 'webin' | 'browser';
}

export interface EnaSampleLookup {
  /** the sample, or null when ENA has none by that accession; throws RepositoryUnavailableError when ENA is down */
  byAccession(accession: string): Promise<EnaSampleRecord | null>;
}

export interface EnaSampleLookupOptions extends Omit<HttpOptions, 'service'> {
  db: Db;
  /** ENA's browser API root, e.g. https://www.ebi.ac.uk/ena/browser/api */
  browserUrl: string;
  /** the Webin account, when the service has one */
  webin?: { baseUrl: string; username: string; password: string };
  ttlMs?: number;
  negativeTtlMs?: number;
  now?: () => Date;
}

const DAY = 24 * 60 * 60 * 1000;
// BioSamples (SAMEA/SAMN/SAMD, with an optional letter) and ENA sample accessions (ERS/SRS/DRS)
const SAMPLE_ACCESSION = /^(?:SAM(?:E|N|D)A?\d+|[EDS]RS\d+)$/;

export const isSampleAccession = (value: string): boolean => SAMPLE_ACCESSION.test(value.trim());

const parser = createXmlParser((name) => name === 'SAMPLE' || name === 'EXTERNAL_ID' || name === 'SECONDARY_ID');

/** The first SAMPLE of a SAMPLE_SET document, as a record; null when the document holds none. */
export function parseSampleXml(xml: string, source: EnaSampleRecord['source']): EnaSampleRecord | null {
  let doc: unknown;
  try {
    doc = parser.parse(xml);
  } catch (err) {
    throw new RepositoryProtocolError('ena', `ENA answered a sample look-up with XML that does not parse: ${(err as Error).message}`, xml);
  }
  const sample = arrayOf(childOf(childOf(doc, 'SAMPLE_SET'), 'SAMPLE'))[0];
  if (!sample) return null;
  const ids = childOf(sample, 'IDENTIFIERS');
  const external = arrayOf(childOf(ids, 'EXTERNAL_ID'));
  const biosample = external.map((e) => (/biosample/i.test(attrOf(e, 'namespace') ?? '') ? textOf(e).trim() : '')).find(Boolean);
  const enaAccession = attrOf(sample, 'accession') ?? (textOf(childOf(ids, 'PRIMARY_ID')).trim() || undefined);
  const name = childOf(sample, 'SAMPLE_NAME');
  const taxonId = textOf(childOf(name, 'TAXON_ID')).trim();
  if (!taxonId) throw new RepositoryProtocolError('ena', 'ENA answered a sample without a TAXON_ID', xml);
  const title = textOf(childOf(sample, 'TITLE')).trim();
  return {
    biosampleAccession: biosample || (enaAccession?.startsWith('SAM') ? enaAccession : '') || '',
    ...(enaAccession && { enaAccession }),
    taxonId,
    scientificName: textOf(childOf(name, 'SCIENTIFIC_NAME')).trim(),
    ...(title && { title }),
    source,
  };
}

export function createEnaSampleLookup(options: EnaSampleLookupOptions): EnaSampleLookup {
  const http = plumbingOf(options, 'ena');
  const ttl = options.ttlMs ?? 30 * DAY;
  const negativeTtl = options.negativeTtlMs ?? DAY / 24;
  const now = options.now ?? (() => new Date());
  const log = options.logger.child({ service: 'ena' });
  const inFlight = new Map<string, Promise<EnaSampleRecord | null>>();

  /** One source; undefined when it does not know the accession (404, or a refusal to show it). */
  const ask = async (url: string, source: EnaSampleRecord['source'], headers: Record<string, string>) => {
    const res = await httpRequest(http, {
      method: 'GET',
      url,
      headers: { accept: 'application/xml', ...headers },
      accept: [400, 401, 403, 404],
    });
    if (res.status === 401) log.warn({ url }, 'the Webin account was refused for a sample look-up; asking the public API');
    if (res.status !== 200 || !res.body.trim()) return undefined;
    return parseSampleXml(res.body, source) ?? undefined;
  };

  const fromEna = async (accession: string): Promise<EnaSampleRecord | null> => {
    const id = encodeURIComponent(accession);
    if (options.webin) {
      const own = await ask(joinUrl(webinRoot(options.webin.baseUrl), 'drop-box/samples', id), 'webin', {
        authorization: basicAuth(options.webin.username, options.webin.password),
      });
      if (own) return own;
    }
    return (await ask(joinUrl(options.browserUrl, 'xml', id), 'browser', {})) ?? null;
  };

  const lookup = async (accession: string): Promise<EnaSampleRecord | null> => {
    const [row] = await options.db.select().from(enaSampleCache).where(eq(enaSampleCache.accession, accession)).limit(1);
    if (row) {
      const age = now().getTime() - row.fetchedAt.getTime();
      if (age < (row.record ? ttl : negativeTtl)) return row.record;
    }
    let record: EnaSampleRecord | null;
    try {
      record = await fromEna(accession);
    } catch (err) {
      const transient = err instanceof RepositoryUnavailableError || (err instanceof RepositoryHttpError && err.transient);
      // a sample seen before is still what it was: an outage should not block an upload that references it
      if (transient && row?.record) {
        log.warn({ accession, error: (err as Error).message }, 'ENA unavailable, using a stale sample look-up');
        return row.record;
      }
      throw err;
    }
    const fetchedAt = now();
    await options.db
      .insert(enaSampleCache)
      .values({ accession, record, fetchedAt })
      .onConflictDoUpdate({ target: enaSampleCache.accession, set: { record, fetchedAt } });
    return record;
  };

  return {
    byAccession(raw) {
      const accession = raw.trim();
      // not an accession ENA could hold: no request, and nothing that could reach a URL path
      if (!isSampleAccession(accession)) return Promise.resolve(null);
      let pending = inFlight.get(accession);
      if (!pending) {
        pending = lookup(accession).finally(() => inFlight.delete(accession));
        inFlight.set(accession, pending);
      }
      return pending;
    },
  };
}

/** The look-up for the service settings: the Webin account when configured, the browser API always. */
export function enaSampleLookupFromConfig(
  config: { ENA_WEBIN_URL: string; ENA_USERNAME?: string; ENA_PASSWORD?: string; ENA_BROWSER_URL: string },
  db: Db,
  logger: Logger,
  extra: Partial<EnaSampleLookupOptions> = {},
): EnaSampleLookup {
  const webin =
    config.ENA_USERNAME && config.ENA_PASSWORD
      ? { baseUrl: config.ENA_WEBIN_URL, username: config.ENA_USERNAME, password: config.ENA_PASSWORD }
      : undefined;
  return createEnaSampleLookup({ db, logger, browserUrl: config.ENA_BROWSER_URL, ...(webin && { webin }), ...extra });
}
