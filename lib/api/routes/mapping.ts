import { MappingItemSchema, type MappingPair, MappingQuerySchema } from '@/lib/query/contract';
import { mappingList } from '@/lib/query/field-lists';
import { parseReturnType, parseStandard, single } from '@/lib/query/params';
import { fromArray } from '@/lib/query/stream';
import type { ApiApp } from '../context';
import { arrayWrappedResponse, sendRows } from '../formats';
import { route } from '../policy';
import { pick } from '../schemas';

const mapping = route(
  {
    method: 'get',
    path: '/mapping',
    tags: ['Mapping'],
    summary: 'Fields of the current manifest version of a project, named in a standard',
    description:
      'The reference’s one-element array around the wrapper; `data` lists the names in template order, fields without ' +
      'a name in the standard left out. With `pairs=true` each item is `{"tol": <field>, "<standard>": <name>}`. ' +
      'CSV: one column, `field` (or `tol` and the standard with pairs).',
    request: { query: MappingQuerySchema },
    responses: { 200: arrayWrappedResponse('Field names, or pairs', MappingItemSchema), ...pick(400) },
  },
  { access: 'anyone' },
);

export function registerMappingRoutes(app: ApiApp) {
  app.openapi(mapping, (c) => {
    const query = c.req.valid('query');
    const returnType = parseReturnType(query.return_type, ['json', 'csv']);
    const standard = parseStandard(query.standard);
    const pairs = ['true', '1', 'yes'].includes((single(query.pairs) ?? '').toLowerCase());
    const data = mappingList({ project: query.project, standard, pairs });
    const columns = pairs ? ['tol', standard] : ['field'];
    return sendRows(c, fromArray<string | MappingPair>(data, columns), {
      returnType,
      standard,
      arrayWrapped: returnType === 'json',
    });
  });
}
