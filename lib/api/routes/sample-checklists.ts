import {
  ChecklistDetailSchema,
  ChecklistListQuerySchema,
  ChecklistListSchema,
  ChecklistParamsSchema,
} from '@/lib/sample-checklists/contract';
import { checklistDetail, listChecklists } from '@/lib/sample-checklists/store';
import type { ApiApp } from '../context';
import { route } from '../policy';
import { jsonResponse, pick } from '../schemas';

const tags = ['Sample checklists'];

const list = route(
  {
    method: 'get',
    path: '/sample/checklists',
    tags,
    summary: 'The sample checklists samples are registered against (or, with kind=sequence, the sequence checklists)',
    description:
      'ENA’s checklists as its reports service last published them (read daily; /api/health says when, and why not ' +
      'when ENA could not be reached, the last copy read being kept), and COPO’s Darwin Core and FAANG checklists, ' +
      'whose samples are registered under ERC000011. `q` narrows to those whose id, name or description holds it.',
    request: { query: ChecklistListQuerySchema },
    responses: { 200: jsonResponse('The checklists, ENA’s then COPO’s', ChecklistListSchema), ...pick(400) },
  },
  { access: 'anyone' },
);

const one = route(
  {
    method: 'get',
    path: '/sample/checklists/{checklist_id}',
    tags,
    summary: 'One checklist with its fields, in its order',
    request: { params: ChecklistParamsSchema },
    responses: { 200: jsonResponse('The checklist', ChecklistDetailSchema), ...pick(400, 404) },
  },
  { access: 'anyone' },
);

export function registerSampleChecklistRoutes(app: ApiApp) {
  app.openapi(list, async (c) => {
    const data = await listChecklists(c.get('deps').db, c.req.valid('query'));
    return c.json({ number_found: data.length, data }, 200);
  });
  app.openapi(one, async (c) => c.json(await checklistDetail(c.get('deps').db, c.req.valid('param').checklist_id), 200));
}
