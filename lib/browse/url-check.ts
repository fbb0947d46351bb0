import type { z } from 'zod';

/** Zod's issues as `{param: message}`, the first message per parameter, for a form to show beside each field. */
export function issuesByField(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    out[key] ??= issue.message;
  }
  return out;
}

/**
 * A page URL's filter as its page's server checked it, with the schema the API applies: what the page's client part
 * shows and asks for (components/ui/url-check.tsx), so that the browser needs no schema to read the address.
 */
export type UrlCheck<T> = { success: true; data: T } | { success: false; errors: Record<string, string> };

/** `schema` is the API's own for the address's endpoint; it is passed in, so that this module loads no zod of its own. */
export function checkUrl<S extends z.ZodType>(schema: S, input: Record<string, string | undefined>): UrlCheck<z.output<S>> {
  const parsed = schema.safeParse(input);
  return parsed.success ? { success: true, data: parsed.data } : { success: false, errors: issuesByField(parsed.error) };
}
