import type { Logger } from 'pino';
import { z } from 'zod';
import { RepositoryProtocolError } from './errors';
import { type HttpOptions, httpRequest, joinUrl, plumbingOf } from './http';

/**
 * Sanger's ToLID service (docs/tol-manifests.md §3.3): a Tree of Life identifier for each specimen, asked for before the
 * specimen is registered at ENA. `POST {TOLID_URL}/request/create` with `[{requested_taxonomy_id, specimen_id}]`
 * and the header `token`; each answer is a ToLID (approved), a request still waiting for a curator (pending), or a
 * refusal with its reason (rejected). Asking again for the same specimen and taxon is how a pending request is
 * followed up.
 */

export interface TolidRequest {
  specimenId: string;
  /** NCBI taxon id */
  taxonId: string;
}

export type TolidAnswer =
  | { specimenId: string; taxonId: string; status: 'approved'; tolid: string }
  | { specimenId: string; taxonId: string; status: 'pending' }
  | { specimenId: string; taxonId: string; status: 'rejected'; reason: string };

export interface TolidClient {
  request(items: TolidRequest[]): Promise<TolidAnswer[]>;
}

export interface TolidClientOptions extends Omit<HttpOptions, 'service'> {
  /** e.g. https://id.tol.sanger.ac.uk/api/v3 */
  baseUrl: string;
  token: string;
}

const str = z.union([z.string(), z.number()]).transform(String);
const Answer = z.object({
  data: z.array(
    z.object({
      id: str.nullish(),
      attributes: z.object({ status: z.string().nullish(), specimen_id: str.nullish(), species_id: str.nullish() }).partial().nullish(),
      reason: z.string().nullish(),
    }),
  ),
});

// the service takes lists; a long manifest is asked in slices
const BATCH = 100;

export function createTolidClient(options: TolidClientOptions): TolidClient {
  const http = plumbingOf(options, 'tolid');
  const url = joinUrl(options.baseUrl, 'request/create');

  const ask = async (items: TolidRequest[]): Promise<TolidAnswer[]> => {
    const body = items.map((i) => ({ requested_taxonomy_id: Number(i.taxonId), specimen_id: i.specimenId }));
    const res = await httpRequest(http, {
      method: 'POST',
      url,
      headers: { token: options.token, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      // a request already made is found again by specimen and taxon: asking twice is harmless
      idempotent: true,
    });
    let parsed: z.infer<typeof Answer>;
    try {
      parsed = Answer.parse(JSON.parse(res.body));
    } catch {
      throw new RepositoryProtocolError('tolid', 'the ToLID service answered with something that is not its JSON', res.body);
    }
    return items.map((item, i) => {
      const a =
        parsed.data.find(
          (d) => d.attributes?.specimen_id === item.specimenId && (d.attributes?.species_id ?? item.taxonId) === item.taxonId,
        ) ?? parsed.data[i];
      const status = (a?.attributes?.status ?? '').toLowerCase();
      if (!a || status === 'pending' || (!status && !a.id)) return { ...item, status: 'pending' };
      if (status === 'rejected') return { ...item, status: 'rejected', reason: a.reason || 'The ToLID service rejected the request.' };
      if (!a.id) throw new RepositoryProtocolError('tolid', `the ToLID service approved ${item.specimenId} without a ToLID`, res.body);
      return { ...item, status: 'approved', tolid: a.id };
    });
  };

  return {
    async request(items) {
      const out: TolidAnswer[] = [];
      for (let i = 0; i < items.length; i += BATCH) out.push(...(await ask(items.slice(i, i + BATCH))));
      return out;
    },
  };
}

/** The client for the service settings, or null when TOLID_TOKEN is unset (registration goes on without ToLIDs). */
export function tolidClientFromConfig(
  config: { TOLID_URL: string; TOLID_TOKEN?: string },
  logger: Logger,
  extra: Partial<TolidClientOptions> = {},
): TolidClient | null {
  if (!config.TOLID_TOKEN) return null;
  return createTolidClient({ baseUrl: config.TOLID_URL, token: config.TOLID_TOKEN, logger, ...extra });
}
