import {
  BarcodeListQuerySchema,
  BarcodeListSchema,
  BarcodeSubmitAnswerSchema,
  BarcodeUploadAnswerSchema,
  BarcodeUploadFormSchema,
  BarcodeUploadReportSchema,
} from '@/lib/barcodes/contract';
import { listBarcodes } from '@/lib/barcodes/read';
import { submitBarcodes } from '@/lib/barcodes/submit';
import { barcodeProfile, uploadBarcodes } from '@/lib/barcodes/upload';
import { ProfileParamsSchema } from '@/lib/profiles/contract';
import type { ApiApp } from '../context';
import { openapiConstrained, PATH_PATTERNS } from '../openapi';
import { route, SHEET_UPLOAD } from '../policy';
import { jsonResponse, PageQuery, pick } from '../schemas';

const tags = ['Barcodes'];
const idPattern = { profile_id: PATH_PATTERNS.profile_id };

const upload = route(
  {
    method: 'post',
    path: '/profiles/{profile_id}/barcodes',
    tags,
    summary: 'Upload the ToL barcoding sheet: DNA barcodes of the profile’s specimens, checked and stored',
    description:
      'For a Tree of Life profile (ASG, DTOL, DTOLENV, ERGA; another type is 409). The ToL barcoding sheet ' +
      '(SPECIMEN_ID, BOLD_ID) with the sequence checklist’s fields as further columns, headed by their ENA names ' +
      '(ENTRYNUMBER, ORGANISM_NAME, …, SEQUENCE): ERT000020 for COI barcodes, ERT000002 for rRNA genes (the form’s ' +
      '`checklist`, else ERT000002 when the sheet has a GENE column). Each SPECIMEN_ID (or ToLID) must be a specimen ' +
      'of the profile’s samples; ENTRYNUMBER defaults to BOLD_ID, ORGANISM_NAME to the specimen’s scientific name. ' +
      'Every rule is checked at once; a sheet that breaks any answers 422 with the errors (sheet, Excel row, column ' +
      'letter, field, value, message) and nothing is stored. A row whose ENTRYNUMBER names a barcode of the profile ' +
      'not yet sent replaces it. Who may add to the profile may upload.',
    request: {
      params: ProfileParamsSchema,
      body: { required: true, content: { 'multipart/form-data': { schema: BarcodeUploadFormSchema } } },
    },
    responses: {
      201: jsonResponse('The barcodes stored', BarcodeUploadAnswerSchema),
      ...pick(400, 401, 403, 404, 409, 413, 415),
      422: { description: 'The sheet breaks rules', content: { 'application/problem+json': { schema: BarcodeUploadReportSchema } } },
    },
  },
  {
    access: { profile: 'contribute', in: 'profile_id' },
    rateLimit: 'uploads',
    // who may not add to it is answered before the body is read
    guard: (c) => barcodeProfile(c.get('deps').db, c.get('user'), c.req.param('profile_id') ?? '', 'contribute'),
    body: SHEET_UPLOAD,
  },
);

const list = route(
  {
    method: 'get',
    path: '/profiles/{profile_id}/barcodes',
    tags,
    summary: 'A page of the profile’s barcodes, newest first, with their state and accession',
    description: 'For those who may see the profile.',
    request: { params: ProfileParamsSchema, query: BarcodeListQuerySchema.extend(PageQuery.shape) },
    responses: { 200: jsonResponse('The barcodes', BarcodeListSchema), ...pick(400, 401, 404, 409) },
  },
  { access: { profile: 'view', in: 'profile_id' } },
);

const submit = route(
  {
    method: 'post',
    path: '/profiles/{profile_id}/barcodes/action/submit',
    tags,
    summary: 'Send the profile’s barcodes not yet at ENA to ENA, through Webin-CLI',
    description:
      'The barcodes pending (or rejected before) go in one Webin-CLI submission per checklist and study (`-context ' +
      'sequence`, a TAB file), run by a job: `-validate`, then `-submit`; each barcode then holds the analysis ' +
      'accession (ERZ…) or ENA’s words. Without WEBIN_CLI_JAR they wait, saying so, and are sent once it is set. 409 ' +
      'without the ENA account’s settings or when no barcode waits to be sent. Who may add to the profile may submit.',
    request: { params: ProfileParamsSchema },
    responses: { 202: jsonResponse('Scheduled, or waiting', BarcodeSubmitAnswerSchema), ...pick(401, 403, 404, 409) },
  },
  { access: { profile: 'contribute', in: 'profile_id' } },
);

export function registerBarcodeRoutes(app: ApiApp) {
  openapiConstrained(app, upload, idPattern, async (c) => {
    const { file, checklist, study_accession } = c.req.valid('form');
    const { db, config } = c.get('deps');
    const answer = await uploadBarcodes({ db, config }, c.get('user'), {
      profileId: c.req.valid('param').profile_id,
      fileName: file.name,
      bytes: new Uint8Array(await file.arrayBuffer()),
      checklist,
      studyAccession: study_accession,
    });
    return c.json(answer, 201);
  });
  openapiConstrained(app, list, idPattern, async (c) => {
    const { db } = c.get('deps');
    const profile = await barcodeProfile(db, c.get('user'), c.req.valid('param').profile_id, 'view');
    const { rows, total } = await listBarcodes(db, profile.id, c.req.valid('query'));
    return c.json({ number_found: total, data: rows }, 200);
  });
  openapiConstrained(app, submit, idPattern, async (c) => {
    const { db, jobs, config } = c.get('deps');
    return c.json(await submitBarcodes({ db, jobs, config }, c.get('user'), c.req.valid('param').profile_id), 202);
  });
}
