import { z } from '@hono/zod-openapi';

export const ProblemSchema = z
  .object({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    message: z.string(),
    request_id: z.string().optional(),
    errors: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .openapi('Problem');

/** A JSON response in the OpenAPI document; the schema also types what the handler may return. */
export const jsonResponse = <T extends z.ZodType>(description: string, schema: T) => ({
  description,
  content: { 'application/json': { schema } },
});

const problemContent = { 'application/problem+json': { schema: ProblemSchema } };
export const problemResponses = {
  400: { description: 'Bad request', content: problemContent },
  401: { description: 'Missing, malformed, unknown or revoked API key', content: problemContent },
  403: { description: 'Not allowed (e.g. not a member of the Tree of Life project)', content: problemContent },
  404: { description: 'Unknown, or not the caller’s', content: problemContent },
  409: { description: 'Conflicts with the current state', content: problemContent },
  413: { description: 'Larger than the upload limit', content: problemContent },
  415: { description: 'Not a type of file (or body) this operation takes', content: problemContent },
  422: { description: 'Read, but not valid: the errors say where', content: problemContent },
  429: {
    description: 'Too many failed attempts (passwords, API keys) from this client or for this account; wait `Retry-After` seconds',
    content: problemContent,
  },
  503: {
    description: 'A service the request needs (e.g. ENA) cannot be reached; nothing changed. Retry after `Retry-After` seconds.',
    content: problemContent,
  },
} as const;

export const pick = <K extends keyof typeof problemResponses>(...codes: K[]) =>
  Object.fromEntries(codes.map((k) => [k, problemResponses[k]])) as Pick<typeof problemResponses, K>;

export const security = [{ Token: [] }];

export const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** A file answer (xlsx, PDF, CSV): its bytes, documented as binary of that media type. */
export const fileResponse = (description: string, media: string) => ({
  description,
  content: { [media]: { schema: z.string().openapi({ format: 'binary' }) } },
});

/** A CSV answer beside a JSON one, for the operations that take `return_type=csv`. */
export const CSV_CONTENT = { 'text/csv': { schema: z.string().openapi({ description: 'CSV with a header row' }) } } as const;

/** An uploaded file in a multipart form (binary in the OpenAPI document, a `File` to the handler). */
export const UploadedFileSchema = z.instanceof(File).openapi({ type: 'string', format: 'binary' });

/** One paging contract for every list: at most `limit` items from `offset`, with the true total in `number_found`. */
export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100).openapi({ description: 'items per page (1–1000)' }),
  offset: z.coerce.number().int().min(0).max(1_000_000_000).default(0).openapi({ description: 'items to skip' }),
});
