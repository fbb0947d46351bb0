import { z } from 'zod';
import { PATTERNS } from '../identifiers/contract';
import { AuditRecordSchema, parseDate, SampleRecordSchema, UPDATE_TYPES, wrapped } from '../query/contract';
import { BROWSE_PROJECTS, BROWSE_STANDARDS, BROWSE_STATUSES, DEFAULT_PAGE, MAX_PAGE } from './lists';

/**
 * The portal's browsers (GET /api/samples/browse, GET /api/audit/browse): their query parameters, which the routes
 * validate requests with and the portal's filter forms validate with before they send, and their answers.
 */

export { BROWSE_STATUSES, DEFAULT_PAGE } from './lists';

export const BROWSE_UPDATE_TYPES = UPDATE_TYPES;
/** whose samples: those of the reader's own and shared profiles, or every sample the broker shows */
const BROWSE_WHOSE = ['mine', 'all'] as const;

/** Sort keys of the sample browser; each is served by an index whose first column it is. */
export const SAMPLE_SORTS = ['time_created', 'svc_id', 'project', 'status', 'taxon_id', 'scientific_name', 'tube'] as const;
export const SampleSortSchema = z.enum(SAMPLE_SORTS, { message: `Sort by ${SAMPLE_SORTS.join(', ')}.` });
export type SampleSort = z.infer<typeof SampleSortSchema>;

// one or more taxon ids, commas between them (a trailing one is forgiven)
const TAXON_ID_LIST = new RegExp(`^\\s*${PATTERNS.taxonId}(?:\\s*,\\s*${PATTERNS.taxonId})*\\s*,?\\s*$`);

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
        const values = [
          ...new Set(
            raw
              .split(',')
              .map((v) => v.trim().toLowerCase())
              .filter(Boolean),
          ),
        ];
        const bad = values.filter((v) => !(allowed as readonly string[]).includes(v));
        if (bad.length) {
          ctx.addIssue({ code: 'custom', message: `Unknown ${what}: ${bad.join(', ')}. Use ${allowed.join(', ')}.` });
          return z.NEVER;
        }
        return values as T[];
      }),
  ).meta({ description: `a comma list of ${allowed.join(', ')}` });
}

const text = (max: number) => optional(z.string().trim().max(max, `At most ${max} characters.`));

const pageParams = {
  limit: optional(
    z.coerce
      .number({ message: 'Must be a whole number.' })
      .int('Must be a whole number.')
      .min(1, 'At least 1.')
      .max(MAX_PAGE, `At most ${MAX_PAGE}.`),
  ).meta({ description: `rows per page (JSON: default ${DEFAULT_PAGE}; CSV: default all)` }),
  offset: optional(
    z.coerce.number({ message: 'Must be a whole number.' }).int('Must be a whole number.').min(0, 'Cannot be negative.').max(1e9),
  ),
  return_type: optional(z.enum(['json', 'csv'], { message: 'Use json or csv.' })).default('json'),
};

export const SampleBrowseQuerySchema = z
  .object({
    profiles: optional(z.enum(BROWSE_WHOSE, { message: 'Use mine or all.' }))
      .default('all')
      .meta({ description: 'mine: only the samples of profiles the reader owns or that are shared with them; all (default)' }),
    project: listOf(BROWSE_PROJECTS, 'project'),
    status: listOf(BROWSE_STATUSES, 'status'),
    manifest_id: optional(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(new RegExp(`^${PATTERNS.uuid}$`), 'Must be a manifest id (a UUID).'),
    ),
    /** a label or short name, checked by the server, which knows the centres */
    sequencing_centre: text(200),
    taxon_id: optional(z.string().max(1000).regex(TAXON_ID_LIST, 'NCBI taxon ids are digits; separate several with commas.')),
    scientific_name: text(200),
    /** a sample field's name (checked by the server, which knows every manifest version's fields) */
    field: text(100),
    contains: text(200),
    standard: optional(z.enum(BROWSE_STANDARDS, { message: `Use ${BROWSE_STANDARDS.join(', ')}.` })).default('tol'),
    sort: optional(SampleSortSchema).default('time_created'),
    order: optional(z.enum(['asc', 'desc'], { message: 'Use asc or desc.' })).default('desc'),
    ...pageParams,
  })
  .superRefine((v, ctx) => {
    if (v.contains !== undefined && v.field === undefined)
      ctx.addIssue({ code: 'custom', path: ['field'], message: 'Choose the field to search.' });
    if (v.field !== undefined && v.contains === undefined)
      ctx.addIssue({ code: 'custom', path: ['contains'], message: 'Enter the text to look for.' });
  });
export type SampleBrowseQuery = z.output<typeof SampleBrowseQuerySchema>;

const date = optional(
  z
    .string()
    .trim()
    .refine((v) => parseDate(v) !== null, 'Use a date such as 2025-01-31 or 2025-01-31T12:00:00+00:00.'),
);

export const AuditBrowseQuerySchema = z
  .object({
    from: date.meta({ description: 'inclusive' }),
    to: date.meta({ description: 'exclusive' }),
    update_type: optional(z.enum(BROWSE_UPDATE_TYPES, { message: 'Use user or system.' })),
    project: listOf(BROWSE_PROJECTS, 'project'),
    /** the changed field's name (checked by the server) */
    field: text(100),
    svc_id: optional(
      z
        .string()
        .trim()
        .toLowerCase()
        .regex(new RegExp(`^${PATTERNS.objectId}$`), 'Must be a sample id (svc_id: 24 hexadecimal characters).'),
    ).meta({ description: 'one sample’s svc_id' }),
    tube: text(200).meta({ description: 'a TUBE_OR_WELL_ID, exactly' }),
    specimen: text(200).meta({ description: 'a SPECIMEN_ID, exactly' }),
    ...pageParams,
  })
  .superRefine((v, ctx) => {
    const from = v.from ? parseDate(v.from) : null;
    const to = v.to ? parseDate(v.to) : null;
    if (from && to && from.getTime() > to.getTime())
      ctx.addIssue({ code: 'custom', path: ['to'], message: 'Must not be before the start.' });
  });
export type AuditBrowseQuery = z.output<typeof AuditBrowseQuerySchema>;

/** A column of the sample browser: a ToL field under its key in the standard of the records. */
export const DisplayColumnSchema = z
  .object({
    field: z.string().meta({ description: 'the ToL name' }),
    key: z.string().meta({ description: 'its key in the records of this standard' }),
    label: z.string(),
    sort: SampleSortSchema.optional().meta({ description: 'the sort key that orders by it' }),
  })
  .meta({ id: 'DisplayColumn' });
export type DisplayColumn = z.infer<typeof DisplayColumnSchema>;

export const SampleBrowsePageSchema = wrapped(SampleRecordSchema)
  .extend({
    columns: z.array(DisplayColumnSchema),
    standard: z.enum(BROWSE_STANDARDS),
    sort: SampleSortSchema,
    order: z.enum(['asc', 'desc']),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .meta({ id: 'SampleBrowsePage', description: 'One page of sample records, with the columns the browser shows' });
export type SampleBrowsePage = z.infer<typeof SampleBrowsePageSchema>;

export const AuditBrowsePageSchema = wrapped(AuditRecordSchema).meta({ id: 'AuditBrowsePage' });
