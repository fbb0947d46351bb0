import { previewAcceptanceOf } from '@/lib/mail/acceptance-reference';
import { AcceptancePreviewBodySchema, AcceptancePreviewSchema, AssociatedTypeNameParamsSchema } from '@/lib/mail/contract';
import type { ApiApp } from '../context';
import { route } from '../policy';
import { jsonResponse, pick } from '../schemas';

const preview = route(
  {
    method: 'post',
    path: '/admin/associated-types/{name}/acceptance-preview',
    tags: ['Admin'],
    summary: 'The acceptance email an associated type’s text makes, filled with example values, before it is saved',
    description:
      'Answers the subject, the plain-text part and the HTML part of the email an uploader gets when samples of this ' +
      'type are accepted, with made-up samples and a made-up sequencing centre (whose contact the email is copied ' +
      'to). A text naming an unknown placeholder is refused with 400, naming it, as saving it would be.',
    request: {
      params: AssociatedTypeNameParamsSchema,
      body: { required: true, content: { 'application/json': { schema: AcceptancePreviewBodySchema } } },
    },
    responses: { 200: jsonResponse('The email as it would be sent', AcceptancePreviewSchema), ...pick(400, 401, 404, 415) },
  },
  { access: 'admin' },
);

export function registerAdminAcceptanceRoutes(app: ApiApp) {
  app.openapi(preview, async (c) => {
    const { db, config } = c.get('deps');
    const answer = await previewAcceptanceOf(db, c.req.valid('param').name, c.req.valid('json').acceptance_text, config.baseUrl);
    return c.json(answer, 200);
  });
}
