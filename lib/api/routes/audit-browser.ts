import { browseAudit } from '@/lib/browse/audit';
import { AuditBrowsePageSchema, AuditBrowseQuerySchema } from '@/lib/browse/contract';
import type { ApiApp } from '../context';
import { sendRows } from '../formats';
import { route } from '../policy';
import { CSV_CONTENT, pick } from '../schemas';

const browse = route(
  {
    method: 'get',
    path: '/audit/browse',
    tags: ['Portal'],
    summary: 'Changes to samples, filtered and paged (the portal’s audit browser)',
    description:
      'Combines the filters of the audit endpoints: from (inclusive) and to (exclusive), either alone or both, as a date ' +
      'or an ISO 8601 date-time; update_type user or system; project (comma list); field, the changed field; svc_id, one sample; tube ' +
      '(TUBE_OR_WELL_ID) or specimen (SPECIMEN_ID), exactly, the changes to the samples that have it now. Newest ' +
      'change first, the audit endpoints’ columns; JSON answers one page (limit, default 50, at most 500; offset), ' +
      '`return_type=csv` streams every match.',
    request: { query: AuditBrowseQuerySchema },
    responses: {
      200: {
        description: 'Changes, newest first, as the audit endpoints list them',
        content: { 'application/json': { schema: AuditBrowsePageSchema }, ...CSV_CONTENT },
      },
      ...pick(400, 401),
    },
  },
  { access: 'signed-in' },
);

export function registerAuditBrowserRoutes(app: ApiApp) {
  app.openapi(browse, async (c) => {
    const p = c.req.valid('query');
    return sendRows(c, await browseAudit(c.get('deps').db, p), { returnType: p.return_type });
  });
}
