import { createRoute, z } from '@hono/zod-openapi';
import { SCHEMA_NAMES } from '@/db/schema';
import { listChecklists, type ChecklistSummary } from '@/lib/checklists/checklists';
import type { ApiApp } from '../context';
import { pick } from '../schemas';

const ChecklistSchema = z
  .object({
    checklist_id: z.string().openapi({ example: 'version_dwc_sc_rnaseq' }),
    name: z.string().openapi({ example: 'Darwin Core metadata' }),
    description: z.string(),
    standard: z.string().openapi({ example: 'dwc' }),
    technology: z.string().openapi({ example: 'sc_rnaseq' }),
  })
  .openapi('Checklist');

const checklistJson = (c: ChecklistSummary) => ({
  checklist_id: c.checklistId,
  name: c.name,
  description: c.description,
  standard: c.standard,
  technology: c.technology,
});

const ok = { description: 'Checklists in workbook order', content: { 'application/json': { schema: z.array(ChecklistSchema) } } };

const singleCell = createRoute({
  method: 'get',
  path: '/profiles/singlecells/checklists',
  tags: ['Checklists'],
  summary: 'Checklists of the single-cell schema (svc_single_cell)',
  responses: { 200: ok },
});

const bySchema = createRoute({
  method: 'get',
  path: '/profiles/schema/{schema_name}/checklists',
  tags: ['Checklists'],
  summary: 'Checklists of a schema',
  request: {
    params: z.object({
      schema_name: z
        .string()
        .openapi({ param: { name: 'schema_name', in: 'path' }, description: `${SCHEMA_NAMES.join(', ')} (any case)` }),
    }),
  },
  responses: { 200: ok, ...pick(404) },
});

export function registerChecklistRoutes(app: ApiApp) {
  app.openapi(singleCell, async (c) =>
    c.json((await listChecklists(c.get('deps').db, 'svc_single_cell')).map(checklistJson), 200),
  );
  app.openapi(bySchema, async (c) =>
    c.json((await listChecklists(c.get('deps').db, c.req.valid('param').schema_name)).map(checklistJson), 200),
  );
}
