import type { z } from 'zod';

// the tests' names for the contract's
export { BROWSE_STATUSES, SAMPLE_SORTS, SampleBrowseQuerySchema as sampleBrowseParams, type SampleSort } from './contract';

/** Zod's issues as `{param: message}`, the first message per parameter, for a form to show beside each field. */
export function issuesByField(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    out[key] ??= issue.message;
  }
  return out;
}
