import { createRoute, z } from '@hono/zod-openapi';
import { browseSamples } from '@/lib/browse/samples';
import { DEFAULT_PAGE, sampleBrowseParams } from '@/lib/browse/params';
import type { SampleRecord } from '@/lib/standards/render';
import { requireAuth } from '../auth';
import type { ApiApp } from '../context';
import { sendRows } from '../formats';
import { pick, security } from '../schemas';

const browse = createRoute({
  method: 'get',
  path: '/samples/browse',
  tags: ['Portal'],
  summary: 'Samples, filtered, sorted and paged (the portal’s sample browser)',
  description:
    'Every filter may be combined: project and status (comma lists), manifest_id, sequencing_centre (label or short ' +
    'name), taxon_id (comma list, exact), scientific_name (case-insensitive substring), and field + contains (a sample ' +
    'field containing the text, case-insensitively and literally; commas separate alternatives, as in ' +
    'sample/sample_field). sort: time_created (default, newest first), svc_id, project, status, taxon_id, ' +
    'scientific_name or tube; order asc or desc. JSON answers one page (limit, default 50, at most 500; offset) with ' +
    '`columns`, the browser’s columns under their names in the standard; `return_type=csv` streams every match ' +
    '(or the page asked for) with all fields. Records are rendered as by the query API, `standard` renaming them.',
  security,
  middleware: [requireAuth] as const,
  request: { query: sampleBrowseParams },
  responses: {
    200: {
      description: 'One page of sample records, or CSV',
      content: {
        'application/json': {
          schema: z.object({
            status: z.literal('OK'),
            number_found: z.number().int(),
            data: z.array(z.record(z.string(), z.string())),
            columns: z.array(z.object({ field: z.string(), key: z.string(), label: z.string(), sort: z.string().optional() })),
            standard: z.string(),
            sort: z.string(),
            order: z.string(),
            limit: z.number().int(),
            offset: z.number().int(),
          }),
        },
        'text/csv': { schema: z.string() },
      },
    },
    ...pick(400, 401),
  },
});

export function registerSampleBrowserRoutes(app: ApiApp) {
  app.openapi(browse, async (c) => {
    const p = c.req.valid('query');
    const result = await browseSamples(c.get('deps').db, p);
    if (p.return_type === 'csv') return sendRows(c, result, { returnType: 'csv', standard: p.standard });
    // a page is at most MAX_PAGE records: read at once, so the answer can carry the columns after the rows
    const data: SampleRecord[] = [];
    for await (const r of result.rows) data.push(r);
    return c.json(
      {
        status: 'OK' as const,
        number_found: result.total,
        data,
        columns: result.display,
        standard: p.standard,
        sort: p.sort,
        order: p.order,
        limit: p.limit ?? DEFAULT_PAGE,
        offset: p.offset ?? 0,
      },
      200,
    );
  });
}
