import { z } from 'zod';
import type { SampleStatus, TolProject, UpdateType } from '@/db/schema';
import { findSequencingCentre } from '@/lib/profiles/enums';
import { parseDate } from '@/lib/query/dates';
import type { Standard } from '@/lib/query/params';

/**
 * The query parameters of the portal's browse endpoints (GET /api/samples/browse, GET /api/audit/browse), shared by
 * the routes, which validate requests with them, and by the portal's filter forms, which validate before they send.
 * Client code imports this module, so it holds no runtime import of the database schema or of server-only modules:
 * the enumerations below are checked against the schema's types at compile time instead.
 */

export const BROWSE_PROJECTS = ['asg', 'dtol', 'dtolenv', 'erga'] as const satisfies readonly TolProject[];
export const BROWSE_STATUSES = ['pending', 'private', 'processing', 'sending', 'accepted', 'rejected'] as const satisfies readonly SampleStatus[];
export const BROWSE_UPDATE_TYPES = ['user', 'system'] as const satisfies readonly UpdateType[];
export const BROWSE_STANDARDS = ['tol', 'dwc', 'ena', 'mixs'] as const satisfies readonly Standard[];

// a value added to the schema's enumerations without being added here fails to compile
type Missing<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : never;
const complete: [
  Missing<TolProject, (typeof BROWSE_PROJECTS)[number]>,
  Missing<SampleStatus, (typeof BROWSE_STATUSES)[number]>,
  Missing<UpdateType, (typeof BROWSE_UPDATE_TYPES)[number]>,
  Missing<Standard, (typeof BROWSE_STANDARDS)[number]>,
] = [true, true, true, true];
void complete;

/** Sort keys of the sample browser; each is served by an index whose first column it is. */
export const SAMPLE_SORTS = ['time_created', 'svc_id', 'project', 'status', 'taxon_id', 'scientific_name', 'tube'] as const;
export type SampleSort = (typeof SAMPLE_SORTS)[number];

export const MAX_PAGE = 500;
export const DEFAULT_PAGE = 50;

// An empty form field arrives as `name=`: it means "no filter", not "match the empty string".
const blank = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : Array.isArray(v) ? v.join(',') : v);
const optional = <T extends z.ZodType>(schema: T) => z.preprocess(blank, schema.optional());

/** A comma list whose items must all be in `allowed` (any case); de-duplicated, first-seen order. */
function listOf<T extends string>(allowed: readonly T[], what: string) {
  return optional(
    z
      .string()
      .max(1000)
      .transform((raw, ctx) => {
        const values = [...new Set(raw.split(',').map((v) => v.trim().toLowerCase()).filter(Boolean))];
        const bad = values.filter((v) => !(allowed as readonly string[]).includes(v));
        if (bad.length) {
          ctx.addIssue({ code: 'custom', message: `Unknown ${what}: ${bad.join(', ')}. Use ${allowed.join(', ')}.` });
          return z.NEVER;
        }
        return values as T[];
      }),
  );
}

const text = (max: number) => optional(z.string().trim().max(max, `At most ${max} characters.`));

const pageParams = {
  limit: optional(
    z.coerce.number({ message: 'Must be a whole number.' }).int('Must be a whole number.').min(1, 'At least 1.').max(MAX_PAGE, `At most ${MAX_PAGE}.`),
  ),
  offset: optional(z.coerce.number({ message: 'Must be a whole number.' }).int('Must be a whole number.').min(0, 'Cannot be negative.').max(1e9)),
  return_type: optional(z.enum(['json', 'csv'], { message: 'Use json or csv.' })).default('json'),
};

export const sampleBrowseParams = z
  .object({
    project: listOf(BROWSE_PROJECTS, 'project'),
    status: listOf(BROWSE_STATUSES, 'status'),
    manifest_id: optional(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, 'Must be a manifest id (a UUID).'),
    ),
    sequencing_centre: optional(
      z
        .string()
        .trim()
        .refine((v) => findSequencingCentre(v) !== undefined, 'Unknown sequencing centre.'),
    ),
    taxon_id: optional(
      z
        .string()
        .max(1000)
        .regex(/^\s*\d+\s*(,\s*\d+\s*)*,?\s*$/, 'NCBI taxon ids are digits; separate several with commas.'),
    ),
    scientific_name: text(200),
    /** a sample field's name (checked by the server, which knows every manifest version's fields) */
    field: text(100),
    contains: text(200),
    standard: optional(z.enum(BROWSE_STANDARDS, { message: `Use ${BROWSE_STANDARDS.join(', ')}.` })).default('tol'),
    sort: optional(z.enum(SAMPLE_SORTS, { message: `Sort by ${SAMPLE_SORTS.join(', ')}.` })).default('time_created'),
    order: optional(z.enum(['asc', 'desc'], { message: 'Use asc or desc.' })).default('desc'),
    ...pageParams,
  })
  .superRefine((v, ctx) => {
    if (v.contains !== undefined && v.field === undefined) ctx.addIssue({ code: 'custom', path: ['field'], message: 'Choose the field to search.' });
    if (v.field !== undefined && v.contains === undefined) ctx.addIssue({ code: 'custom', path: ['contains'], message: 'Enter the text to look for.' });
  });

export type SampleBrowseParams = z.output<typeof sampleBrowseParams>;
/** The filter as the portal's form and URL carry it: every parameter a string. */
export type SampleBrowseInput = Partial<Record<keyof z.input<typeof sampleBrowseParams>, string>>;

const date = optional(
  z
    .string()
    .trim()
    .refine((v) => parseDate(v) !== null, 'Use a date such as 2025-01-31 or 2025-01-31T12:00:00+00:00.'),
);

export const auditBrowseParams = z
  .object({
    /** inclusive */
    from: date,
    /** exclusive */
    to: date,
    update_type: optional(z.enum(BROWSE_UPDATE_TYPES, { message: 'Use user or system.' })),
    project: listOf(BROWSE_PROJECTS, 'project'),
    /** the changed field's name (checked by the server) */
    field: text(100),
    ...pageParams,
  })
  .superRefine((v, ctx) => {
    const from = v.from ? parseDate(v.from) : null;
    const to = v.to ? parseDate(v.to) : null;
    if (from && to && from.getTime() > to.getTime()) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before the start.' });
  });

export type AuditBrowseParams = z.output<typeof auditBrowseParams>;
export type AuditBrowseInput = Partial<Record<keyof z.input<typeof auditBrowseParams>, string>>;

/** Zod's issues as `{param: message}`, the first message per parameter, for a form to show beside each field. */
export function issuesByField(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? '');
    out[key] ??= issue.message;
  }
  return out;
}
