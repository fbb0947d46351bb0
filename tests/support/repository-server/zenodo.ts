import { createHash, randomUUID } from 'node:crypto';
import { bearerToken, type Incoming, json, type Outgoing } from './http';

/**
 * Zenodo's deposition API (docs/repositories.md §6) in memory: drafts with buckets, metadata validation, publish with a
 * sandbox DOI (10.5072/zenodo.N), new versions sharing a concept id. Tokens own their depositions.
 */

const UPLOAD_TYPES = [
  'publication',
  'poster',
  'presentation',
  'dataset',
  'image',
  'video',
  'software',
  'lesson',
  'physicalobject',
  'other',
];
const ACCESS_RIGHTS = ['open', 'embargoed', 'restricted', 'closed'];

export interface StoredFile {
  id: string;
  key: string;
  size: number;
  checksum: string;
  mimetype: string;
  data: Buffer;
  created: string;
}

export interface StoredDeposition {
  id: number;
  owner: string;
  conceptrecid: number;
  bucketId: string;
  state: 'unsubmitted' | 'inprogress' | 'done';
  submitted: boolean;
  editing: boolean;
  metadata: Record<string, unknown>;
  files: Map<string, StoredFile>;
  doi?: string;
  created: string;
  modified: string;
  /** the open draft of a newer version, on a published deposition */
  latestDraftId?: number;
}

export class ZenodoState {
  readonly depositions = new Map<number, StoredDeposition>();
  private nextId = 1000;

  constructor(readonly tokens: Set<string>) {}

  /** Published DOIs, in order. */
  get dois(): string[] {
    return [...this.depositions.values()].flatMap((d) => (d.doi ? [d.doi] : []));
  }

  create(owner: string, metadata: Record<string, unknown>, conceptrecid?: number): StoredDeposition {
    const id = this.nextId++;
    const now = new Date().toISOString();
    const d: StoredDeposition = {
      id,
      owner,
      conceptrecid: conceptrecid ?? this.nextId++,
      bucketId: randomUUID(),
      state: 'unsubmitted',
      submitted: false,
      editing: false,
      metadata: { ...metadata, prereserve_doi: { doi: `10.5072/zenodo.${id}`, recid: id } },
      files: new Map(),
      created: now,
      modified: now,
    };
    this.depositions.set(id, d);
    return d;
  }

  byBucket(bucketId: string): StoredDeposition | undefined {
    return [...this.depositions.values()].find((d) => d.bucketId === bucketId);
  }
}

const problem = (status: number, message: string, errors?: { field?: string; message: string; code?: number }[]): Outgoing =>
  json(status, { status, message, ...(errors ? { errors } : {}) });

function fileJson(api: string, d: StoredDeposition, f: StoredFile) {
  return {
    key: f.key,
    mimetype: f.mimetype,
    checksum: `md5:${f.checksum}`,
    size: f.size,
    created: f.created,
    updated: f.created,
    version_id: f.id,
    is_head: true,
    delete_marker: false,
    links: {
      self: `${api}/files/${d.bucketId}/${encodeURIComponent(f.key)}`,
      version: `${api}/files/${d.bucketId}/${encodeURIComponent(f.key)}?versionId=${f.id}`,
      uploads: `${api}/files/${d.bucketId}/${encodeURIComponent(f.key)}?uploads`,
    },
  };
}

function depositionJson(api: string, d: StoredDeposition) {
  const self = `${api}/deposit/depositions/${d.id}`;
  const origin = new URL(api).origin;
  const links: Record<string, string> = {
    self,
    html: `${origin}/deposit/${d.id}`,
    bucket: `${api}/files/${d.bucketId}`,
    files: `${self}/files`,
    publish: `${self}/actions/publish`,
    edit: `${self}/actions/edit`,
    discard: `${self}/actions/discard`,
    newversion: `${self}/actions/newversion`,
    latest_draft: `${api}/deposit/depositions/${d.latestDraftId ?? d.id}`,
    latest_draft_html: `${origin}/deposit/${d.latestDraftId ?? d.id}`,
  };
  if (d.doi) {
    links.record = `${api}/records/${d.id}`;
    links.record_html = `${origin}/records/${d.id}`;
    links.doi = `https://doi.org/${d.doi}`;
  }
  return {
    id: d.id,
    record_id: d.id,
    conceptrecid: String(d.conceptrecid),
    created: d.created,
    modified: d.modified,
    owner: 1,
    state: d.state,
    submitted: d.submitted,
    title: typeof d.metadata.title === 'string' ? d.metadata.title : '',
    doi: d.doi ?? '',
    ...(d.doi ? { doi_url: `https://doi.org/${d.doi}`, conceptdoi: `10.5072/zenodo.${d.conceptrecid}` } : {}),
    metadata: { ...d.metadata, ...(d.doi ? { doi: d.doi } : {}) },
    links,
    files: [...d.files.values()].map((f) => ({
      id: f.id,
      filename: f.key,
      filesize: f.size,
      checksum: f.checksum,
      links: { self: `${self}/files/${f.id}`, download: `${api}/files/${d.bucketId}/${encodeURIComponent(f.key)}` },
    })),
  };
}

/** Field-level checks: shapes always, required members only when `complete` (at publish). */
function metadataErrors(m: Record<string, unknown>, complete: boolean): { field: string; message: string }[] {
  const errors: { field: string; message: string }[] = [];
  const need = (field: string, ok: boolean) => {
    if (!ok) errors.push({ field: `metadata.${field}`, message: 'Missing data for required field.' });
  };
  const str = (v: unknown) => typeof v === 'string' && v.trim() !== '';
  if (m.upload_type !== undefined && !UPLOAD_TYPES.includes(String(m.upload_type)))
    errors.push({ field: 'metadata.upload_type', message: `Invalid upload type: ${String(m.upload_type)}.` });
  if (m.access_right !== undefined && !ACCESS_RIGHTS.includes(String(m.access_right)))
    errors.push({ field: 'metadata.access_right', message: `Invalid access right: ${String(m.access_right)}.` });
  if (m.creators !== undefined) {
    const ok = Array.isArray(m.creators) && m.creators.every((c) => c && typeof c === 'object' && str((c as Record<string, unknown>).name));
    if (!ok) errors.push({ field: 'metadata.creators', message: 'Each creator needs a name.' });
  }
  if (m.publication_date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(String(m.publication_date)))
    errors.push({ field: 'metadata.publication_date', message: 'Not a valid date.' });
  if (complete) {
    need('upload_type', str(m.upload_type));
    need('title', str(m.title));
    need('description', str(m.description));
    need('creators', Array.isArray(m.creators) && m.creators.length > 0);
    const access = String(m.access_right ?? 'open');
    if (access === 'open' || access === 'embargoed') need('license', str(m.license));
  }
  return errors;
}

function parseJsonBody(incoming: Incoming): { ok: true; value: Record<string, unknown> } | { ok: false; out: Outgoing } {
  const type = incoming.headers['content-type'] ?? '';
  if (!/^application\/json/i.test(type)) return { ok: false, out: problem(415, 'The request Content-Type must be application/json.') };
  try {
    const value: unknown = incoming.body.length ? JSON.parse(incoming.body.toString('utf8')) : {};
    if (!value || typeof value !== 'object' || Array.isArray(value))
      return { ok: false, out: problem(400, 'Request body must be a JSON object.') };
    return { ok: true, value: value as Record<string, unknown> };
  } catch {
    return { ok: false, out: problem(400, 'Could not parse the JSON body.') };
  }
}

const metadataOf = (body: Record<string, unknown>): Record<string, unknown> =>
  body.metadata && typeof body.metadata === 'object' && !Array.isArray(body.metadata) ? (body.metadata as Record<string, unknown>) : {};

/** Requests under `/api`; `api` is the API root URL for links. */
export function handleZenodo(state: ZenodoState, incoming: Incoming, rest: string, api: string): Outgoing {
  const token = bearerToken(incoming);
  if (!token || !state.tokens.has(token))
    return problem(
      401,
      'The server could not verify that you are authorized to access the URL requested. You either supplied the wrong credentials (e.g. a bad password), or your browser does not understand how to supply the credentials required.',
    );
  const method = incoming.method;

  const files = /^\/files\/([^/]+)\/(.+)$/.exec(rest);
  if (files?.[1] && files[2]) {
    const d = state.byBucket(files[1]);
    if (!d || d.owner !== token) return problem(404, 'Bucket does not exist.');
    const key = decodeURIComponent(files[2]);
    if (method === 'PUT') {
      // files of a published record never change: that takes a new version
      if (d.submitted) return problem(403, 'Bucket is locked for modifications.');
      const f: StoredFile = {
        id: randomUUID(),
        key,
        size: incoming.body.length,
        checksum: createHash('md5').update(incoming.body).digest('hex'),
        mimetype: incoming.headers['content-type'] ?? 'application/octet-stream',
        data: incoming.body,
        created: new Date().toISOString(),
      };
      d.files.set(key, f);
      d.modified = f.created;
      return json(201, fileJson(api, d, f));
    }
    if (method === 'DELETE') {
      if (d.submitted) return problem(403, 'Bucket is locked for modifications.');
      return d.files.delete(key) ? { status: 204 } : problem(404, 'Object does not exist.');
    }
    if (method === 'GET') {
      const f = d.files.get(key);
      return f ? { status: 200, headers: { 'content-type': f.mimetype }, body: f.data } : problem(404, 'Object does not exist.');
    }
    return problem(405, 'Method not allowed.');
  }

  if (rest === '/deposit/depositions' || rest === '/deposit/depositions/') {
    if (method === 'GET')
      return json(
        200,
        [...state.depositions.values()].filter((d) => d.owner === token).map((d) => depositionJson(api, d)),
      );
    if (method !== 'POST') return problem(405, 'Method not allowed.');
    const body = parseJsonBody(incoming);
    if (!body.ok) return body.out;
    const metadata = metadataOf(body.value);
    const errors = metadataErrors(metadata, false);
    if (errors.length) return problem(400, 'Validation error.', errors);
    return json(201, depositionJson(api, state.create(token, metadata)));
  }

  const dep = /^\/deposit\/depositions\/(\d+)(?:\/actions\/(publish|newversion|edit|discard))?\/?$/.exec(rest);
  if (!dep?.[1]) return problem(404, 'The requested URL was not found on the server.');
  const d = state.depositions.get(Number(dep[1]));
  if (!d) return problem(404, 'PID does not exist.');
  if (d.owner !== token) return problem(403, 'You do not have permission to access this deposition.');
  const act = dep[2];

  if (!act) {
    if (method === 'GET') return json(200, depositionJson(api, d));
    if (method === 'DELETE') {
      if (d.submitted) return problem(403, 'Published depositions cannot be deleted.');
      state.depositions.delete(d.id);
      return { status: 204 };
    }
    if (method !== 'PUT') return problem(405, 'Method not allowed.');
    if (d.state === 'done' && !d.editing) return problem(400, 'Deposition is published: open it for editing first (actions/edit).');
    const body = parseJsonBody(incoming);
    if (!body.ok) return body.out;
    const metadata = metadataOf(body.value);
    const errors = metadataErrors(metadata, true);
    if (errors.length) return problem(400, 'Validation error.', errors);
    d.metadata = { ...metadata, prereserve_doi: d.metadata.prereserve_doi };
    d.modified = new Date().toISOString();
    if (d.state === 'unsubmitted') d.state = 'inprogress';
    return json(200, depositionJson(api, d));
  }

  if (method !== 'POST') return problem(405, 'Method not allowed.');
  if (act === 'publish') {
    if (d.state === 'done' && !d.editing) return problem(400, 'Deposition has already been published.');
    const errors: { field?: string; message: string; code?: number }[] = metadataErrors(d.metadata, true);
    if (!d.files.size) errors.push({ message: 'Minimum one file must be provided.', code: 10 });
    if (errors.length) return problem(400, 'Validation error.', errors);
    d.doi ??= `10.5072/zenodo.${d.id}`;
    d.state = 'done';
    d.submitted = true;
    d.editing = false;
    d.modified = new Date().toISOString();
    return json(202, depositionJson(api, d));
  }
  if (act === 'newversion') {
    if (!d.submitted) return problem(400, 'A new version can only be created from a published deposition.');
    const open = d.latestDraftId !== undefined ? state.depositions.get(d.latestDraftId) : undefined;
    if (!open || open.submitted) {
      const { prereserve_doi: _reserved, doi: _doi, ...metadata } = d.metadata;
      const draft = state.create(token, metadata, d.conceptrecid);
      for (const f of d.files.values()) draft.files.set(f.key, { ...f, id: randomUUID() });
      d.latestDraftId = draft.id;
    }
    return json(201, depositionJson(api, d));
  }
  if (act === 'edit') {
    if (!d.submitted) return problem(400, 'Deposition is not published.');
    d.editing = true;
    d.state = 'inprogress';
    return json(201, depositionJson(api, d));
  }
  // discard: drops unpublished edits of a published deposition
  if (!d.editing) return problem(400, 'Deposition is not being edited.');
  d.editing = false;
  d.state = 'done';
  return json(201, depositionJson(api, d));
}
