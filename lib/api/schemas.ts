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
} as const;

export const pick = <K extends keyof typeof problemResponses>(...codes: K[]) =>
  Object.fromEntries(codes.map((k) => [k, problemResponses[k]])) as Pick<typeof problemResponses, K>;

export const security = [{ Token: [] }];
