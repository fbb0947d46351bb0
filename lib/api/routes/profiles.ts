import { createRoute, z } from '@hono/zod-openapi';
import { ASSOCIATED_TYPES, SEQUENCING_CENTRES } from '@/lib/profiles/enums';
import {
  createProfile,
  getProfile,
  listProfiles,
  profileTypeOptions,
  updateProfile,
  type ProfileInput,
  type ProfileRecord,
} from '@/lib/profiles/profiles';
import { requireAuth } from '../auth';
import type { ApiApp } from '../context';
import { openapiConstrained, PATH_PATTERNS } from '../openapi';
import { jsonResponse, pick, security } from '../schemas';

export const ProfileSchema = z
  .object({
    id: z.string().openapi({ example: '6650f1c2a4b1e2d3c4b5a697' }),
    title: z.string(),
    description: z.string(),
    type: z.string().openapi({ example: 'erga' }),
    associated_type: z.array(z.string()).openapi({ example: ['BGE', 'SANGER'] }),
    sequencing_centre: z.array(z.string()).openapi({ example: ['SANGER'] }),
    date_created: z.string(),
    date_modified: z.string(),
  })
  .openapi('Profile');

export const profileJson = (p: ProfileRecord) => ({
  id: p.id,
  title: p.title,
  description: p.description,
  type: p.type,
  associated_type: p.associatedTypes,
  sequencing_centre: p.sequencingCentres,
  date_created: p.createdAt.toISOString(),
  date_modified: p.updatedAt.toISOString(),
});

const names = z.union([z.string(), z.array(z.string())]);
const ProfileBody = z
  .object({
    title: z.string().optional(),
    description: z.string().optional(),
    type: z.string().optional().openapi({ description: 'asg, dtol, dtolenv, erga or biodata (any case)' }),
    associated_type: names.optional().openapi({
      description: 'ERGA only: sub-projects (GET /api/profiles/options); fixed for asg, dtol and dtolenv',
    }),
    sequencing_centre: names.optional().openapi({ description: 'ERGA only: centre short names or labels' }),
  })
  .openapi('ProfileInput');

const toInput = (b: z.infer<typeof ProfileBody>): ProfileInput => ({
  title: b.title,
  description: b.description,
  type: b.type,
  associatedTypes: b.associated_type === undefined ? undefined : [b.associated_type].flat(),
  sequencingCentres: b.sequencing_centre === undefined ? undefined : [b.sequencing_centre].flat(),
});

export const ProfileIdParam = z.object({
  profile_id: z
    .string()
    .regex(/^[0-9a-f]{24}$/)
    .openapi({ param: { name: 'profile_id', in: 'path' }, example: '6650f1c2a4b1e2d3c4b5a697' }),
});

const tags = ['Profiles'];
const auth = [requireAuth];

const ProfileTypeSchema = z
  .object({
    type: z.string(),
    label: z.string(),
    tol: z.boolean(),
    allowed: z.boolean().openapi({ description: 'whether the caller may create profiles of this type' }),
    associated_type: z.array(z.string()).openapi({ description: 'fixed associated types of the type' }),
    choose_associated_type: z.boolean(),
    choose_sequencing_centre: z.boolean(),
  })
  .openapi('ProfileType');

const OptionsSchema = z
  .object({
    associated_types: z.array(
      z.object({ name: z.string(), label: z.string(), approval_required: z.boolean(), selectable: z.boolean() }),
    ),
    sequencing_centres: z.array(z.object({ name: z.string(), label: z.string(), approval_required: z.boolean() })),
  })
  .openapi('ProfileOptions');

const types = createRoute({
  method: 'get',
  path: '/profiles/types',
  tags,
  summary: 'Profile types offered for new profiles, and whether the caller may use each',
  security,
  middleware: auth,
  responses: { 200: jsonResponse('Types', z.array(ProfileTypeSchema)), ...pick(401) },
});

const options = createRoute({
  method: 'get',
  path: '/profiles/options',
  tags,
  summary: 'Associated profile types and sequencing centres an ERGA profile chooses from',
  security,
  middleware: auth,
  responses: { 200: jsonResponse('Choices', OptionsSchema), ...pick(401) },
});

const list = createRoute({
  method: 'get',
  path: '/profiles',
  tags,
  summary: 'The caller’s profiles (an admin’s: all), most recently changed first',
  security,
  middleware: auth,
  responses: { 200: jsonResponse('Profiles', z.array(ProfileSchema)), ...pick(401) },
});

const create = createRoute({
  method: 'post',
  path: '/profiles',
  tags,
  summary: 'Create a profile',
  description:
    'Tree of Life types (asg, dtol, dtolenv, erga) need the caller’s membership of the project. ERGA profiles ' +
    'choose associated types and sequencing centres; a centre that needs approval (SANGER) is added as an ' +
    'associated type. Titles are unique per owner.',
  security,
  middleware: auth,
  request: { body: { required: true, content: { 'application/json': { schema: ProfileBody } } } },
  responses: { 201: jsonResponse('The new profile', ProfileSchema), ...pick(400, 401, 403, 409) },
});

const read = createRoute({
  method: 'get',
  path: '/profiles/{profile_id}',
  tags,
  summary: 'One profile',
  security,
  middleware: auth,
  request: { params: ProfileIdParam },
  responses: { 200: jsonResponse('The profile', ProfileSchema), ...pick(401, 403, 404) },
});

const update = createRoute({
  method: 'put',
  path: '/profiles/{profile_id}',
  tags,
  summary: 'Update a profile; the type must be resent unchanged',
  description: 'A different type answers 409 and leaves the profile unchanged. Fields not sent are kept.',
  security,
  middleware: auth,
  request: {
    params: ProfileIdParam,
    body: { required: true, content: { 'application/json': { schema: ProfileBody } } },
  },
  responses: { 200: jsonResponse('The updated profile', ProfileSchema), ...pick(400, 401, 403, 404, 409) },
});

const idPattern = { profile_id: PATH_PATTERNS.profile_id };

export function registerProfileRoutes(app: ApiApp) {
  app.openapi(types, (c) =>
    c.json(
      profileTypeOptions(c.get('user')).map((t) => ({
        type: t.type,
        label: t.label,
        tol: t.tol,
        allowed: t.allowed,
        associated_type: [...t.fixedAssociatedTypes],
        choose_associated_type: t.choosesAssociatedTypes,
        choose_sequencing_centre: t.choosesSequencingCentres,
      })),
      200,
    ),
  );
  app.openapi(options, (c) =>
    c.json(
      {
        associated_types: ASSOCIATED_TYPES.map((a) => ({
          name: a.name,
          label: a.label,
          approval_required: a.approvalRequired,
          selectable: a.selectable,
        })),
        sequencing_centres: SEQUENCING_CENTRES.map((s) => ({
          name: s.name,
          label: s.label,
          approval_required: s.approvalRequired,
        })),
      },
      200,
    ),
  );
  app.openapi(list, async (c) => c.json((await listProfiles(c.get('deps').db, c.get('user'))).map(profileJson), 200));
  app.openapi(create, async (c) => {
    const profile = await createProfile(c.get('deps').db, c.get('user'), toInput(c.req.valid('json')));
    return c.json(profileJson(profile), 201);
  });
  openapiConstrained(app, read, idPattern, async (c) => {
    const profile = await getProfile(c.get('deps').db, c.get('user'), c.req.valid('param').profile_id);
    return c.json(profileJson(profile), 200);
  });
  openapiConstrained(app, update, idPattern, async (c) => {
    const { db } = c.get('deps');
    const profile = await updateProfile(db, c.get('user'), c.req.valid('param').profile_id, toInput(c.req.valid('json')));
    return c.json(profileJson(profile), 200);
  });
}
