/** Client-side calls to our own API with the session cookie; problem+json errors become ApiError. */
export interface FieldProblem {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldProblem[] = [],
  ) {
    super(message);
  }
  /** the server's message for one field, to show beside it */
  forField(path: string): string | undefined {
    return this.errors.find((e) => e.path === path)?.message;
  }
}

export async function apiFetch<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  return (await apiResponse<T>(path, init)).body;
}

/** Every page of a list whose body is a bare array, following its `Link: rel="next"` (lib/api/paging.ts). */
export async function apiFetchAll<T>(path: string): Promise<T[]> {
  const out: T[] = [];
  let next: string | null = path.includes('?') ? `${path}&limit=1000` : `${path}?limit=1000`;
  while (next) {
    const page: { body: T[]; headers: Headers } = await apiResponse<T[]>(next);
    out.push(...page.body);
    next = /<([^<>]+)>;\s*rel="next"/.exec(page.headers.get('link') ?? '')?.[1] ?? null;
  }
  return out;
}

async function apiResponse<T>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<{ body: T; headers: Headers }> {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  headers.set('accept', 'application/json');
  if (json !== undefined) headers.set('content-type', 'application/json');
  const res = await fetch(path, {
    ...rest,
    headers,
    body: json !== undefined ? JSON.stringify(json) : rest.body,
    credentials: 'same-origin',
  });
  if (!res.ok) {
    let detail = `${res.status} ${res.statusText}`;
    let errors: FieldProblem[] = [];
    try {
      const body = (await res.json()) as { detail?: string; errors?: FieldProblem[] };
      detail = body.detail ?? detail;
      errors = body.errors ?? [];
    } catch {
      // not a problem body: keep the status line
    }
    throw new ApiError(res.status, detail, errors);
  }
  if (res.status === 204) return { body: undefined as T, headers: res.headers };
  return { body: (await res.json()) as T, headers: res.headers };
}
