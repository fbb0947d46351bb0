import type { Logger } from 'pino';
import { Conflict } from '@/lib/errors';
import { RepositoryError, RepositoryHttpError, RepositoryProtocolError } from '../errors';
import { type HttpMethod, type HttpOptions, type HttpRequest, httpRequest, joinUrl, plumbingOf } from '../http';
import {
  BucketFileSchema,
  DepositionSchema,
  type PublishedDeposition,
  type ZenodoDeposition,
  type ZenodoErrorBody,
  ZenodoErrorBodySchema,
  type ZenodoFile,
  type ZenodoFileContent,
  type ZenodoMetadata,
} from './types';

/**
 * Zenodo's deposition API (docs/repositories.md §6): create a draft, PUT files into its bucket, PUT its metadata, publish
 * (DOI), and later open a new version. Personal access token as `Authorization: Bearer`.
 */

export interface ZenodoClientOptions extends Omit<HttpOptions, 'service'> {
  /** the API root, e.g. https://sandbox.zenodo.org/api */
  baseUrl: string;
  token: string;
}

/** Zenodo refused a request; `zenodo` is its error JSON ({message, status, errors: [{field, message}]}). */
export class ZenodoError extends RepositoryHttpError {
  constructor(
    cause: RepositoryHttpError,
    readonly zenodo: ZenodoErrorBody | undefined,
  ) {
    super('zenodo', cause.method, cause.url, cause.status, cause.body, zenodoMessage(cause.status, zenodo));
    this.name = 'ZenodoError';
  }

  /** field → messages, for reporting validation failures */
  get fieldErrors(): { field?: string; message: string }[] {
    return (this.zenodo?.errors ?? []).map((e) => ({
      ...(e.field ? { field: e.field } : {}),
      message: e.message ?? e.messages?.join(' ') ?? '',
    }));
  }
}

function zenodoMessage(status: number, body: ZenodoErrorBody | undefined): string {
  const details = (body?.errors ?? []).map((e) => [e.field, e.message ?? e.messages?.join(' ')].filter(Boolean).join(': ')).filter(Boolean);
  const head = body?.message ?? `Zenodo answered ${status}`;
  return details.length ? `${head} (${details.join('; ')})` : head;
}

export interface ZenodoClient {
  createDeposition(metadata?: ZenodoMetadata): Promise<ZenodoDeposition>;
  getDeposition(id: number | string): Promise<ZenodoDeposition>;
  updateMetadata(id: number | string, metadata: ZenodoMetadata): Promise<ZenodoDeposition>;
  /**
   * PUT into the deposition's bucket (raw bytes, not multipart). For a stream, `size` is sent as Content-Length so
   * the bucket knows the length up front rather than reading a chunked body.
   */
  uploadFile(
    target: ZenodoDeposition | string,
    name: string,
    content: ZenodoFileContent,
    contentType?: string,
    size?: number,
  ): Promise<ZenodoFile>;
  deleteFile(target: ZenodoDeposition | string, name: string): Promise<void>;
  publish(id: number | string): Promise<PublishedDeposition>;
  /** a new draft version of a published deposition: the draft itself (links.latest_draft), not the old record */
  newVersion(id: number | string): Promise<ZenodoDeposition>;
  /** unlocks a published deposition's metadata */
  edit(id: number | string): Promise<ZenodoDeposition>;
  discard(id: number | string): Promise<ZenodoDeposition>;
}

function toDeposition(body: unknown): ZenodoDeposition {
  const parsed = DepositionSchema.safeParse(body);
  if (!parsed.success)
    throw new RepositoryProtocolError('zenodo', 'Zenodo answered with something that is not a deposition', JSON.stringify(body));
  const d = parsed.data;
  const links: ZenodoDeposition['links'] = {};
  for (const [k, v] of Object.entries(d.links ?? {})) if (typeof v === 'string') links[k] = v;
  return {
    id: d.id,
    state: d.state ?? 'unsubmitted',
    submitted: d.submitted ?? false,
    ...(d.doi ? { doi: d.doi } : {}),
    ...(d.doi_url ? { doiUrl: d.doi_url } : {}),
    ...(d.record_id !== undefined ? { recordId: d.record_id } : {}),
    ...(d.conceptdoi ? { conceptDoi: d.conceptdoi } : {}),
    metadata: d.metadata ?? {},
    links,
    files: (d.files ?? []).map((f) => ({
      ...(f.id ? { id: f.id } : {}),
      filename: f.filename ?? '',
      ...(f.filesize !== undefined ? { size: f.filesize } : {}),
      ...(f.checksum ? { checksum: f.checksum } : {}),
    })),
    raw: d as Record<string, unknown>,
  };
}

export function createZenodoClient(options: ZenodoClientOptions): ZenodoClient {
  const http = plumbingOf(options, 'zenodo');
  const origin = new URL(options.baseUrl).origin;
  const auth = `Bearer ${options.token}`;
  const deposition = (id: number | string, ...rest: string[]) =>
    joinUrl(options.baseUrl, 'deposit/depositions', encodeURIComponent(String(id)), ...rest);

  const send = async (req: Omit<HttpRequest, 'headers'> & { headers?: Record<string, string> }): Promise<unknown> => {
    // the token goes to the configured Zenodo only, whatever URL an answer pointed us to
    if (new URL(String(req.url)).origin !== origin) {
      throw new RepositoryError('zenodo', `refusing to send the Zenodo token to ${new URL(String(req.url)).origin}`);
    }
    try {
      const res = await httpRequest(http, {
        ...req,
        headers: { authorization: auth, accept: 'application/json', ...req.headers },
      });
      if (!res.body.trim()) return undefined;
      try {
        return JSON.parse(res.body) as unknown;
      } catch {
        throw new RepositoryProtocolError('zenodo', 'Zenodo answered with something that is not JSON', res.body);
      }
    } catch (err) {
      if (err instanceof RepositoryHttpError && !(err instanceof ZenodoError)) throw new ZenodoError(err, parseErrorBody(err.body));
      throw err;
    }
  };

  const json = (method: HttpMethod, url: string, body: unknown, idempotent?: boolean) =>
    send({
      method,
      url,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      ...(idempotent === undefined ? {} : { idempotent }),
    });

  const bucketOf = (target: ZenodoDeposition | string): string => {
    const bucket = typeof target === 'string' ? target : target.links.bucket;
    if (!bucket)
      throw new RepositoryProtocolError('zenodo', `deposition ${typeof target === 'string' ? '' : target.id} has no bucket link`, '');
    return bucket;
  };

  const action = async (id: number | string, name: string) => toDeposition(await json('POST', deposition(id, 'actions', name), {}, false));

  return {
    // POST creates a new draft each time: not repeated after a timeout (an orphan draft is harmless, two are noise)
    createDeposition: async (metadata) =>
      toDeposition(await json('POST', joinUrl(options.baseUrl, 'deposit/depositions'), metadata ? { metadata } : {}, false)),

    getDeposition: async (id) => toDeposition(await send({ method: 'GET', url: deposition(id) })),

    updateMetadata: async (id, metadata) => toDeposition(await json('PUT', deposition(id), { metadata })),

    async uploadFile(target, name, content, contentType = 'application/octet-stream', size) {
      const body = await send({
        method: 'PUT',
        url: joinUrl(bucketOf(target), encodeURIComponent(name)),
        headers: { 'content-type': contentType, ...(size !== undefined && { 'content-length': String(size) }) },
        body:
          typeof content === 'function'
            ? content
            : content instanceof Uint8Array
              ? new Blob([content as Uint8Array<ArrayBuffer>])
              : content,
      });
      const parsed = BucketFileSchema.safeParse(body);
      if (!parsed.success)
        throw new RepositoryProtocolError('zenodo', 'Zenodo answered an upload without a file record', JSON.stringify(body));
      const f = parsed.data;
      return {
        key: f.key,
        ...(f.size !== undefined ? { size: f.size } : {}),
        ...(f.checksum ? { checksum: f.checksum } : {}),
        ...(f.mimetype ? { mimetype: f.mimetype } : {}),
        raw: f as Record<string, unknown>,
      };
    },

    async deleteFile(target, name) {
      await send({ method: 'DELETE', url: joinUrl(bucketOf(target), encodeURIComponent(name)) });
    },

    async publish(id) {
      const published = await action(id, 'publish');
      if (!published.doi)
        throw new RepositoryProtocolError('zenodo', `Zenodo published deposition ${id} without a DOI`, JSON.stringify(published.raw));
      return published as PublishedDeposition;
    },

    async newVersion(id) {
      const old = await action(id, 'newversion');
      const draft = old.links.latest_draft;
      if (!draft)
        throw new RepositoryProtocolError(
          'zenodo',
          `Zenodo opened a new version of ${id} without a latest_draft link`,
          JSON.stringify(old.raw),
        );
      return toDeposition(await send({ method: 'GET', url: draft }));
    },

    edit: (id) => action(id, 'edit'),
    discard: (id) => action(id, 'discard'),
  };
}

function parseErrorBody(body: string): ZenodoErrorBody | undefined {
  try {
    const parsed = ZenodoErrorBodySchema.safeParse(JSON.parse(body));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Client options from the service settings; without a token nothing can be deposited (409, naming the setting). */
export function zenodoClientOptionsFromConfig(
  config: { ZENODO_URL: string; ZENODO_TOKEN?: string },
  logger: Logger,
  extra: Partial<ZenodoClientOptions> = {},
): ZenodoClientOptions {
  if (!config.ZENODO_TOKEN) throw Conflict('Zenodo deposition is not configured: set ZENODO_TOKEN.');
  return { baseUrl: config.ZENODO_URL, token: config.ZENODO_TOKEN, logger, ...extra };
}
