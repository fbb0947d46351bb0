import { biodataSamplesIn, registerBiodataSamples } from '@/lib/biodata-samples/register';
import { RegisterAnswerSchema, RegisterRequestSchema } from '@/lib/samples/contract';
import {
  EnaRefusalsSchema,
  SubmissionIdParamsSchema,
  SubmissionListSchema,
  SubmissionReceiptParamsSchema,
  SubmissionSchema,
} from '@/lib/submissions/contract';
import { enaRefusals } from '@/lib/submissions/refusals';
import { queueSampleRegistration } from '@/lib/submissions/registration';
import { getReceiptXml, getSubmission, submissionJson, submissionsAnswer } from '@/lib/submissions/submissions';
import type { ApiApp } from '../context';
import { route } from '../policy';
import { fileResponse, jsonResponse, PageQuery, pick } from '../schemas';

const tags = ['Submissions'];

const register = route(
  {
    method: 'post',
    path: '/sample/register',
    tags,
    summary: 'Register samples of a checklist at ENA, or retry the registration of approved Tree of Life samples',
    description:
      'Samples of a checklist (a biodata profile’s, confirmed or refused by ENA before) are registered by whoever may ' +
      'add to their profile, with no approval: one SAMPLE_SET per profile, HOLD until `release_date` or RELEASE. ' +
      'Tree of Life samples: approved samples are queued for registration the moment their last approval is recorded; this sends on again ' +
      'those that wait (awaiting_ena, awaiting_tolid, or processing without a running registration) and those whose ' +
      'registration failed after approval. Specimens are registered first (after their ToLIDs), then the samples ' +
      'linked to them (sample derived from / same as / symbiont of). Accessions are written to the samples as `system` ' +
      'updates. Idempotent: samples already on their way are answered with their registration (`created: false`). ' +
      '409 naming the missing setting when no Webin account is configured.',
    request: { body: { required: true, content: { 'application/json': { schema: RegisterRequestSchema } } } },
    responses: {
      202: jsonResponse(
        'The registrations the samples are in, one per profile (samples waiting for a ToLID are in none yet)',
        RegisterAnswerSchema,
      ),
      ...pick(400, 401, 404, 409, 415),
    },
  },
  { access: 'signed-in' },
);

const list = route(
  {
    method: 'get',
    path: '/submissions',
    tags,
    summary: 'A page of the submissions the caller may see, newest first',
    description:
      'The caller’s own (their profiles’, or started by them), and for a sample manager the sample registrations of ' +
      'their projects; all for admins. `number_found` is the total.',
    request: { query: PageQuery },
    responses: { 200: jsonResponse('Submissions', SubmissionListSchema), ...pick(400, 401) },
  },
  { access: 'signed-in' },
);

const refused = route(
  {
    method: 'get',
    path: '/registrations/refused',
    tags,
    summary: 'The registrations of Tree of Life samples ENA refused that still wait for a retry, newest first',
    description:
      'Each with ENA’s message once (rather than on each sample), its samples still refused and what the caller can do: ' +
      'a sample manager of the project sends them again (POST sample/register) once the cause is fixed; the uploader has ' +
      'nothing to upload again. Those the caller may see as GET submissions lists them; all for admins.',
    request: { query: PageQuery },
    responses: { 200: jsonResponse('Refused registrations', EnaRefusalsSchema), ...pick(400, 401) },
  },
  { access: 'signed-in' },
);

const one = route(
  {
    method: 'get',
    path: '/submissions/{submission_id}',
    tags,
    summary: 'One submission with its receipts',
    request: { params: SubmissionIdParamsSchema },
    responses: { 200: jsonResponse('The submission', SubmissionSchema), ...pick(401, 404) },
  },
  { access: { profile: 'view', of: 'submission', reviewers: true } },
);

const receipt = route(
  {
    method: 'get',
    path: '/submissions/{submission_id}/receipts/{n}',
    tags,
    summary: 'ENA’s RECEIPT document of one of a submission’s answers, as ENA sent it',
    description:
      'The n-th entry of the submission’s `receipts` (from 0, oldest first), whose `xml_url` names this address. Sent as ' +
      'a download (`Content-Disposition: attachment`). 404 for an entry that is not an ENA receipt (a Zenodo deposition).',
    request: { params: SubmissionReceiptParamsSchema },
    responses: { 200: fileResponse('The RECEIPT document', 'application/xml'), ...pick(400, 401, 404) },
  },
  { access: { profile: 'view', of: 'submission', reviewers: true } },
);

export function registerSubmissionRoutes(app: ApiApp) {
  app.openapi(register, async (c) => {
    const { db, jobs, config } = c.get('deps');
    const { svc_ids, release_date } = c.req.valid('json');
    const ids = [...new Set(svc_ids.map((s) => s.trim().toLowerCase()))];
    // a checklist's samples are their owner's to send; the others are Tree of Life samples a manager sends again
    const biodata = await biodataSamplesIn(db, ids);
    const tol = ids.filter((id) => !biodata.some((b) => b.id === id));
    const queued = [
      ...(biodata.length ? await registerBiodataSamples({ db, jobs, config }, c.get('user'), biodata, release_date) : []),
      ...(tol.length ? await queueSampleRegistration({ db, jobs, config }, c.get('user'), tol) : []),
    ];
    return c.json(queued, 202);
  });
  app.openapi(list, async (c) => c.json(await submissionsAnswer(c.get('deps').db, c.get('user'), c.req.valid('query')), 200));
  app.openapi(refused, async (c) => c.json(await enaRefusals(c.get('deps').db, c.get('user'), c.req.valid('query')), 200));
  app.openapi(one, async (c) => {
    const row = await getSubmission(c.get('deps').db, c.get('user'), c.req.valid('param').submission_id);
    return c.json(submissionJson(row.submission, row.profileTitle), 200);
  });
  app.openapi(receipt, async (c) => {
    const { submission_id, n } = c.req.valid('param');
    const found = await getReceiptXml(c.get('deps').db, c.get('user'), submission_id, n);
    return c.body(found.xml, 200, {
      'content-type': 'application/xml; charset=utf-8',
      'content-disposition': `attachment; filename="${found.name}"`,
    });
  });
}
