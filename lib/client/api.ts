/**
 * The portal's calls to our own API, with the session cookie, typed by the API's own OpenAPI document
 * (lib/client/api-paths.ts, written by `npm run api:types`): a path, a parameter or a use of an answer that the
 * document does not allow fails `tsc`. A refusal's problem+json body becomes ApiError.
 */
import createClient, { type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
import type { components, paths } from './api-paths';

export interface FieldProblem {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldProblem[] = [],
    /** the refusal's body as it came, for an answer that carries more than field problems (a sheet's report) */
    readonly problem: unknown = undefined,
  ) {
    super(message);
  }
  /** the server's message for one field, to show beside it */
  forField(path: string): string | undefined {
    return this.errors.find((e) => e.path === path)?.message;
  }
}

/** A schema of the API's document by its name, e.g. `Schema<'Profile'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
/** the paths of the document that take `method` */
export type ApiPath<M extends Method> = { [P in keyof paths]: paths[P][M] extends undefined ? never : P }[keyof paths];
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
/** what a call takes beside its path: its parameters and body, optional when nothing in them is required */
type Init<P extends keyof paths, M extends Method> = MaybeOptionalInit<paths[P], M>;
type InitParam<I> = undefined extends I ? [init?: I] : [init: I];
/**
 * The answer of a call that succeeded: its JSON (or what `parseAs` asked for); undefined when the operation answers
 * with no body (204).
 */
export type ApiAnswer<P extends keyof paths, M extends Method, I = undefined> =
  Exclude<FetchResponse<Operation<P, M>, I, 'application/json'>['data'], undefined> extends infer D
    ? [D] extends [never]
      ? undefined
      : D
    : never;

type Call<M extends Method> = <P extends ApiPath<M>, I extends Init<P, M>>(path: P, ...init: InitParam<I>) => Promise<ApiAnswer<P, M, I>>;

// same-origin: the session cookie goes with every call, as the portal and the API share the host
const client = createClient<paths>({ credentials: 'same-origin', headers: { accept: 'application/json' } });

/** the untyped core under every call: `path` is the document's, or a URL of ours with nothing left to fill in */
type Sent = { data?: unknown; error?: unknown; response: Response };
const send = (method: Method, path: string, init?: object): Promise<Sent> =>
  client.request(method, path as never, init as never) as Promise<Sent>;

/** the answer's body, or the refusal as ApiError */
function answerOf({ data, error, response }: Sent): unknown {
  if (response.ok) return data;
  const problem = typeof error === 'object' && error !== null ? (error as { detail?: unknown; errors?: unknown }) : {};
  const detail = typeof problem.detail === 'string' ? problem.detail : `${response.status} ${response.statusText}`;
  throw new ApiError(response.status, detail, Array.isArray(problem.errors) ? (problem.errors as FieldProblem[]) : [], error);
}

// each signature is the typed one above; openapi-fetch's own is the same with the answer left wrapped
const call = <M extends Method>(method: M): Call<M> =>
  (async (path: string, init?: object) => answerOf(await send(method, path, init))) as Call<M>;

/**
 * `api.GET('/api/profiles/{profile_id}', { params: { path: { profile_id } } })` answers the profile, or throws
 * ApiError. A multipart body is given as its fields with `bodySerializer: formData`; `parseAs: 'blob'` (or 'text')
 * reads a download.
 */
export const api = { GET: call('get'), POST: call('post'), PUT: call('put'), PATCH: call('patch'), DELETE: call('delete') };

/**
 * A multipart body's fields as FormData, for a call's `bodySerializer`: a file goes as it is, a list as one part per
 * item (the field repeated), an absent field not at all.
 */
export function formData(body: object | undefined): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body ?? {})) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined || item === null) continue;
      form.append(name, item instanceof Blob ? item : String(item));
    }
  }
  return form;
}

/** `path` with every `{parameter}` filled in: a URL of ours that the document describes */
export type FilledPath<P extends string> = P extends `${infer Head}{${string}}${infer Tail}` ? `${Head}${string}${FilledPath<Tail>}` : P;

/** DELETE at a URL already filled in, for the one button that deletes whatever its page names. */
export async function deleteAt(url: FilledPath<ApiPath<'delete'>>): Promise<void> {
  answerOf(await send('delete', url));
}

type ListPath = { [P in ApiPath<'get'>]: ApiAnswer<P, 'get'> extends readonly unknown[] ? P : never }[ApiPath<'get'>];
type Row<P extends ListPath> = ApiAnswer<P, 'get'> extends readonly (infer R)[] ? R : never;
type ListInit<P extends ListPath> = Init<P, 'get'>;

/** `init` asking for the query's parameters and more */
function withQuery(init: { params?: { query?: object } } | undefined, more: Record<string, number>) {
  return { ...init, params: { ...init?.params, query: { ...init?.params?.query, ...more } } };
}

/** One page of a list answered as a bare array, with the true total from its `X-Total-Count` (lib/api/paging.ts). */
export async function apiPage<P extends ListPath, I extends ListInit<P>>(
  path: P,
  page: { offset: number; limit: number },
  ...init: InitParam<I>
): Promise<{ rows: Row<P>[]; total: number }> {
  const sent = await send('get', path, withQuery(init[0], page));
  const rows = answerOf(sent) as Row<P>[];
  const total = Number(sent.response.headers.get('x-total-count') ?? Number.NaN);
  if (!Number.isFinite(total)) throw new ApiError(500, 'The list came without its total.');
  return { rows, total: Math.max(total, rows.length) };
}

/** Every page of a list answered as a bare array, following its `Link: rel="next"` (lib/api/paging.ts). */
export async function apiAll<P extends ListPath, I extends ListInit<P>>(path: P, ...init: InitParam<I>): Promise<Row<P>[]> {
  const out: Row<P>[] = [];
  let sent = await send('get', path, withQuery(init[0], { limit: 1000 }));
  for (;;) {
    out.push(...(answerOf(sent) as Row<P>[]));
    // the next page's URL is whole, its query included: sent as it is
    const next = /<([^<>]+)>;\s*rel="next"/.exec(sent.response.headers.get('link') ?? '')?.[1];
    if (!next) return out;
    sent = await send('get', next);
  }
}
