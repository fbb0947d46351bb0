import http from 'node:http';

/**
 * What bench/http.ts and bench/measures.ts both measure: the endpoints of issue 28's latency table beside the natural
 * SQL a person would write for the same rows, and the keep-alive client they are read with.
 */

/** the framework's floor: a route that reads no database */
export const FLOOR_PATH = '/api/manifest/current_version';

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

// A keep-alive HTTP client: one socket per server, reused, so connection setup is not measured

export const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

export function request(
  base: string,
  p: string,
  opts: { onChunk?: (chunk: Buffer) => void; signal?: AbortSignal; keep?: boolean; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Buffer; bytes: number }> {
  const u = new URL(p, base);
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        agent: opts.signal ? undefined : agent,
        signal: opts.signal,
        headers: opts.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (chunk: Buffer) => {
          bytes += chunk.length;
          if (opts.onChunk) opts.onChunk(chunk);
          if (opts.keep !== false) chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks), bytes }));
        res.on('error', reject);
        // cut short (an abort, a reset): settles the promise whatever Node emitted before
        res.on('close', () => {
          if (!res.complete) reject(new Error(`${p}: the response was cut short`));
        });
      },
    );
    req.on('error', reject);
    opts.signal?.addEventListener('abort', () => reject(new Error(`${p}: aborted`)), { once: true });
  });
}

/** Rows of a list answer: `{number_found, data}`, its one-element-array form, or a bare array. */
export function rowsOf(body: Buffer): number {
  const parsed = JSON.parse(body.toString('utf8')) as unknown;
  const inner = Array.isArray(parsed) && parsed.length === 1 && (parsed[0] as { data?: unknown })?.data ? parsed[0] : parsed;
  if (Array.isArray(inner)) return inner.length;
  const data = (inner as { data?: unknown }).data;
  if (Array.isArray(data)) return data.length;
  throw new Error(`not a list answer: ${body.toString('utf8').slice(0, 200)}`);
}

export const countNewlines = (chunk: Buffer) => {
  let n = 0;
  for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
  return n;
};

export interface Probe {
  svcId: string;
  biosampleAccession: string;
  taxonId: string;
  manifestId: string;
  scientificName: string;
}

/** The values looked up, as seeded: the first sample's id, accession, taxon, manifest and name. */
export async function probeOf(query: Query): Promise<Probe> {
  const [p] = (await query(`
    select id, biosample_accession, taxon_id, manifest_id::text as manifest_id, scientific_name
    from samples where id = substr(md5('1'), 1, 24)`)) as Record<string, unknown>[];
  if (!p) throw new Error('the seeded probe sample is missing');
  return {
    svcId: String(p.id),
    biosampleAccession: String(p.biosample_accession),
    taxonId: String(p.taxon_id),
    manifestId: String(p.manifest_id),
    scientificName: String(p.scientific_name),
  };
}

/** One natural SQL statement with positional parameters, on the engine under test: its rows. */
export type Query = (text: string, params?: unknown[]) => Promise<readonly unknown[]>;

/** Which line of issue 28's table a request belongs to. */
export type Group = 'lookup' | 'point-list' | 'list';

export interface Case {
  name: string;
  /** the name in the summary */
  short: string;
  group: Group;
  path: string;
  text: string;
  params: unknown[];
}

export function casesOf(p: Probe): Case[] {
  const day = ['2020-01-02T00:00:00+00:00', '2020-01-03T00:00:00+00:00'] as const;
  const enc = encodeURIComponent;
  // whole samples by one column's value: a lookup finds one, a list is in id order
  const samplesBy = (short: string, group: Group, route: string, column: string, value: string): Case => ({
    name: `\`${route}\``,
    short,
    group,
    path: `/api/${route.replace(/\{\w+\}/, value)}`,
    text: `select * from samples where ${column} = $1${group === 'list' ? ' order by id' : ''}`,
    params: [value],
  });
  return [
    samplesBy('svc_id', 'lookup', 'sample/svc_id/{id}', 'id', p.svcId),
    samplesBy('biosampleAccessions', 'lookup', 'sample/biosampleAccessions/{acc}', 'biosample_accession', p.biosampleAccession),
    {
      name: '`manifest/{id}/sample_status`',
      short: 'sample_status',
      group: 'point-list',
      path: `/api/manifest/${p.manifestId}/sample_status`,
      text: 'select id, manifest_id, status, time_created, time_updated from samples where manifest_id = $1 order by id',
      params: [p.manifestId],
    },
    {
      name: '`audit/sample/manifest_id/{id}`',
      short: 'audit manifest_id',
      group: 'point-list',
      path: `/api/audit/sample/manifest_id/${p.manifestId}`,
      // each change with the sample's current identifiers and its profile's title, newest first
      text: `
        select u.field, u.old_value, u.new_value, u.update_type, u.time_updated, u.manifest_id, u.project, u.sample_id,
               s.rack_or_plate_id, s.specimen_id, s.tube_or_well_id, s.biosample_accession, s.public_name, s.sra_accession,
               p.title
        from sample_updates u
        left join samples s on s.id = u.sample_id
        left join profiles p on p.id = s.profile_id
        where u.manifest_id = $1
        order by u.time_updated desc, u.id desc`,
      params: [p.manifestId],
    },
    samplesBy('taxon_id', 'list', 'sample/taxon_id/{id}', 'taxon_id', p.taxonId),
    samplesBy('manifest', 'list', 'manifest/{id}', 'manifest_id', p.manifestId),
    {
      name: '`sample/{from}/{to}` (one day)',
      short: 'day list',
      group: 'list',
      path: `/api/sample/${day[0]}/${day[1]}`,
      text: `
        select * from samples where time_created >= $1::timestamptz and time_created < $2::timestamptz
        order by time_created desc, id desc`,
      params: [...day],
    },
    {
      name: '`sample/sample_field/SCIENTIFIC_NAME/{v}`',
      short: 'sample_field',
      group: 'list',
      path: `/api/sample/sample_field/SCIENTIFIC_NAME/${enc(p.scientificName)}`,
      text: 'select * from samples where scientific_name ilike $1 order by id',
      params: [`%${p.scientificName}%`],
    },
  ];
}
