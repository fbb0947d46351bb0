import { z } from '@hono/zod-openapi';
import { listChecklists } from '@/lib/checklists/checklists';
import {
  ChecklistSchema,
  ChecklistsParamsSchema,
  ComponentPageParamsSchema,
  ComponentPageSchema,
  TermPageParamsSchema,
  TermPageSchema,
} from '@/lib/checklists/contract';
import { checklistJson, componentPageJson, termPageJson } from '@/lib/checklists/json';
import { describeComponent, describeTerm } from '@/lib/checklists/terms';
import type { ApiApp } from '../context';
import { route } from '../policy';
import { jsonResponse, pick } from '../schemas';

/** The public pages of the study schemas: their checklists, and the terms and components their JSON-LD IRIs name. */

const listed = jsonResponse('Checklists in workbook order', z.array(ChecklistSchema));

const singleCell = route(
  {
    method: 'get',
    path: '/profiles/singlecells/checklists',
    tags: ['Checklists'],
    summary: 'Checklists of the single-cell schema (svc_single_cell)',
    responses: { 200: listed },
  },
  { access: 'anyone' },
);

const bySchema = route(
  {
    method: 'get',
    path: '/profiles/schema/{schema_name}/checklists',
    tags: ['Checklists'],
    summary: 'Checklists of a schema',
    request: { params: ChecklistsParamsSchema },
    responses: { 200: listed, ...pick(404) },
  },
  { access: 'anyone' },
);

const termPage = route(
  {
    method: 'get',
    path: '/profiles/schema/{schema_name}/terms/{term_name}',
    tags: ['Studies'],
    summary: 'A term of a schema (what the JSON-LD term IRIs of this service resolve to)',
    request: { params: TermPageParamsSchema },
    responses: { 200: jsonResponse('Each definition of the term, per component', TermPageSchema), ...pick(404) },
  },
  { access: 'anyone' },
);

const componentPage = route(
  {
    method: 'get',
    path: '/profiles/schema/{schema_name}/components/{component}',
    tags: ['Studies'],
    summary: 'A component (sheet) of a schema (what the JSON-LD component IRIs resolve to)',
    request: { params: ComponentPageParamsSchema },
    responses: { 200: jsonResponse('The component', ComponentPageSchema), ...pick(404) },
  },
  { access: 'anyone' },
);

export function registerChecklistRoutes(app: ApiApp) {
  app.openapi(singleCell, async (c) => c.json((await listChecklists(c.get('deps').db, 'svc_single_cell')).map(checklistJson), 200));
  app.openapi(bySchema, async (c) =>
    c.json((await listChecklists(c.get('deps').db, c.req.valid('param').schema_name)).map(checklistJson), 200),
  );
  app.openapi(termPage, async (c) => {
    const { schema_name, term_name } = c.req.valid('param');
    const { schema, uses } = await describeTerm(c.get('deps').db, schema_name, term_name);
    return c.json(termPageJson(schema, term_name, uses), 200);
  });
  app.openapi(componentPage, async (c) => {
    const { schema_name, component } = c.req.valid('param');
    return c.json(componentPageJson(await describeComponent(c.get('deps').db, schema_name, component)), 200);
  });
}
