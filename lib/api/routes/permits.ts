import {
  PermitUploadAnswerSchema,
  PermitUploadFormSchema,
  SamplePermitParamsSchema,
  SamplePermitSchema,
  SamplePermitsParamsSchema,
} from '@/lib/permits/contract';
import { PERMIT_MAX_BYTES, readSamplePermit, samplePermits } from '@/lib/permits/permits';
import { uploadPermits } from '@/lib/reports/permits';
import type { ApiApp } from '../context';
import { openapiConstrained } from '../openapi';
import { route } from '../policy';
import { fileResponse, jsonResponse, pick, problemResponses } from '../schemas';

const tags = ['Permits'];
// a request carries a few permits; more go in further requests
const PERMITS_REQUEST_MAX_BYTES = 50 * 1024 * 1024;

const upload = route(
  {
    method: 'post',
    path: '/manifest/validate/permits',
    tags,
    summary: 'Upload the permit PDFs a validated ERGA manifest names, before confirming it',
    description:
      'Each file must be named as the manifest’s `*_PERMITS_FILENAME` names it (where `*_PERMITS_REQUIRED` is Y), be a ' +
      `real PDF (its content is checked) and at most ${PERMIT_MAX_BYTES} bytes. All are checked before any is stored; a ` +
      'file sent again replaces the earlier one. Permits are stored as `<name>_YYYYMMDD.pdf`. A re-upload of a manifest ' +
      'asks only for permits whose file name or REQUIRED changed. `manifest/validate/confirm` answers 409 naming every ' +
      'permit still missing.',
    request: { body: { required: true, content: { 'multipart/form-data': { schema: PermitUploadFormSchema } } } },
    responses: {
      200: jsonResponse('What the manifest needs, and what has arrived', PermitUploadAnswerSchema),
      ...pick(400, 401, 404, 409, 413, 415),
      422: { ...problemResponses[422], description: 'A file is not a PDF' },
    },
  },
  {
    access: { profile: 'contribute', of: 'report' },
    rateLimit: 'uploads',
    body: {
      maxBytes: () => PERMITS_REQUEST_MAX_BYTES,
      tooLarge: () => `Send at most ${PERMITS_REQUEST_MAX_BYTES} bytes of permits per request (each permit at most ${PERMIT_MAX_BYTES}).`,
    },
  },
);

// the router takes a svc_id in either case, as the other sample routes do; the permits are looked up in lower case
const patterns = { svc_id: '[0-9a-fA-F]{24}', stored_name: '[^/]+' };

const list = route(
  {
    method: 'get',
    path: '/sample/{svc_id}/permits',
    tags,
    summary: 'The permits of a sample (ERGA): its project’s sample managers, the profile’s owner and admins',
    description: 'Anyone else is answered 404, as for an unknown sample.',
    request: { params: SamplePermitsParamsSchema },
    responses: { 200: jsonResponse('The sample’s permits', SamplePermitSchema.array()), ...pick(401, 404) },
  },
  { access: { profile: 'view', of: 'sample', reviewers: true } },
);

const download = route(
  {
    method: 'get',
    path: '/sample/{svc_id}/permits/{stored_name}',
    tags,
    summary: 'One permit PDF of a sample',
    request: { params: SamplePermitParamsSchema },
    responses: { 200: fileResponse('The PDF', 'application/pdf'), ...pick(401, 404) },
  },
  { access: { profile: 'view', of: 'sample', reviewers: true } },
);

export function registerPermitRoutes(app: ApiApp) {
  app.openapi(upload, async (c) => {
    const form = c.req.valid('form');
    const files = [form.file].flat();
    const parts = await Promise.all(files.map(async (f) => ({ name: f.name, bytes: new Uint8Array(await f.arrayBuffer()) })));
    const permits = await uploadPermits(c.get('deps').db, c.get('user'), form.validation_report_id, parts);
    return c.json({ report_id: form.validation_report_id.toLowerCase(), permits }, 200);
  });
  openapiConstrained(app, list, patterns, async (c) => {
    const { svc_id } = c.req.valid('param');
    const rows = await samplePermits(c.get('deps').db, c.get('user'), svc_id);
    const base = `/api/sample/${svc_id.toLowerCase()}/permits`;
    return c.json(
      rows.map((p) => ({ ...p, url: `${base}/${encodeURIComponent(p.stored_name)}` })),
      200,
    );
  });
  openapiConstrained(app, download, patterns, async (c) => {
    const { svc_id, stored_name } = c.req.valid('param');
    const permit = await readSamplePermit(c.get('deps').db, c.get('user'), svc_id, stored_name);
    return c.body(new Uint8Array(permit.content), 200, {
      'content-type': 'application/pdf',
      'content-disposition': `attachment; filename="${permit.name.replace(/["\\\r\n]/g, '_')}"`,
    });
  });
}
