import { z } from '@hono/zod-openapi';
import { AppError } from '@/lib/errors';
import { confirmCorrections, correctionDeps, previewCorrections, requireCurator } from '@/lib/samples/corrections';
import {
  CORRECTION_COLUMNS,
  CORRECTION_LINK_MINUTES,
  CORRECTIONS_MAX,
  CorrectionsConfirmedSchema,
  CorrectionsFormSchema,
  CorrectionsPreviewSchema,
  CorrectionsRequestSchema,
  CorrectionTokenParamsSchema,
} from '@/lib/samples/corrections-contract';
import { fromCsv, fromJson, type InputRow } from '@/lib/samples/corrections-input';
import type { ApiApp } from '../context';
import { type RoutePolicy, route } from '../policy';
import { jsonResponse, pick } from '../schemas';

const tags = ['Sample corrections'];

// the caller must approve some samples before their body is read; which samples is the domain's (lib/samples/corrections.ts)
const policy: RoutePolicy = {
  access: 'approver',
  guard: (c) => requireCurator(c.get('deps').db, c.get('user')),
};

const preview = route(
  {
    method: 'post',
    path: '/admin/samples/corrections',
    tags,
    summary: 'Preview corrections of registered samples by BioSample accession (admins and the samples’ approvers)',
    description:
      `At most ${CORRECTIONS_MAX} corrections, as JSON, as a CSV body (\`text/csv\`) or as a CSV file in a form (\`file\`); a CSV has a ` +
      `header row of exactly ${CORRECTION_COLUMNS.join(', ')}. Each corrected sample is validated by its manifest’s rules as a ` +
      're-upload of its row would be (the same rules and messages); an unknown accession, a sample the caller does not approve, ' +
      'an unknown field or one the service owns are errors of their row. Nothing changes: the answer is the diff (per sample, each ' +
      'field’s old and new value, and what will be sent to ENA: a MODIFY of the sample and of its specimen’s record, a new ToLID ' +
      `first when the taxon changes) and, when there is no error, a \`confirm_url\` that applies exactly this diff, valid for ${CORRECTION_LINK_MINUTES} minutes.`,
    request: {
      body: {
        // not `required`: each media type's validator runs for its own content type only (see routes/api-key.ts)
        required: false,
        content: {
          'application/json': { schema: CorrectionsRequestSchema },
          'multipart/form-data': { schema: CorrectionsFormSchema },
          'text/csv': {
            schema: z.string().openapi({ description: `a header row ${CORRECTION_COLUMNS.join(',')}, then one correction a row` }),
          },
        },
      },
    },
    responses: {
      200: jsonResponse('The diff, with errors beside their rows', CorrectionsPreviewSchema),
      ...pick(400, 401, 404, 413, 415, 503),
    },
  },
  policy,
);

const confirm = route(
  {
    method: 'post',
    path: '/admin/samples/corrections/{token}',
    tags,
    summary: 'Apply a preview of corrections: its confirm_url',
    description:
      'Recomputes the diff and applies it only if it is the one previewed (409 if the samples changed since, or the link expired): ' +
      'each change is recorded in the sample’s history as the caller’s, and the samples go on to ENA as a registration does — a ' +
      'new ToLID first where the taxon changed, then one MODIFY of the sample and of its specimen’s record. A link confirmed ' +
      'before answers `already_applied` and does nothing; a link that is not the caller’s is 404.',
    request: { params: CorrectionTokenParamsSchema },
    responses: { 200: jsonResponse('What was corrected and sent', CorrectionsConfirmedSchema), ...pick(401, 404, 409, 503) },
  },
  policy,
);

const mediaOf = (header: string | undefined) => (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

export function registerSampleCorrectionRoutes(app: ApiApp) {
  app.openapi(preview, async (c) => {
    const media = mediaOf(c.req.header('content-type'));
    // each media type's validator checked its own body (the document types the three bodies as one union)
    const json = media === 'application/json' ? c.req.valid('json') : null;
    const form = media === 'multipart/form-data' ? c.req.valid('form') : null;
    let input: InputRow[];
    if (typeof json === 'object' && json && 'corrections' in json) input = fromJson(json.corrections);
    else if (typeof form === 'object' && form && 'file' in form) input = await fromCsv(new Uint8Array(await form.file.arrayBuffer()));
    else if (media === 'text/csv') input = await fromCsv(new TextEncoder().encode(await c.req.text()));
    else {
      throw new AppError(
        'unsupported_media_type',
        'Send the corrections as JSON ({"corrections": [...]}), as a CSV body (text/csv) or as a CSV file in a multipart form (file).',
      );
    }
    return c.json(await previewCorrections(correctionDeps(c.get('deps')), c.get('user'), input), 200);
  });
  app.openapi(confirm, async (c) =>
    c.json(await confirmCorrections(correctionDeps(c.get('deps')), c.get('user'), c.req.valid('param').token), 200),
  );
}
