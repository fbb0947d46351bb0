import { z } from '@hono/zod-openapi';
import {
  ProfileInputSchema,
  ProfileOptionsSchema,
  ProfileParamsSchema,
  ProfileSchema,
  ProfileTypeOptionSchema,
} from '@/lib/profiles/contract';
import { profileJson, profileOptionsJson, profileTypesJson } from '@/lib/profiles/json';
import { createProfile, getProfile, listProfiles, updateProfile } from '@/lib/profiles/profiles';
import type { ApiApp } from '../context';
import { openapiConstrained, PATH_PATTERNS } from '../openapi';
import { announcePage, PAGE_HEADERS } from '../paging';
import { route } from '../policy';
import { jsonResponse, PageQuery, pick } from '../schemas';

const tags = ['Profiles'];
const body = { required: true, content: { 'application/json': { schema: ProfileInputSchema } } };

const types = route(
  {
    method: 'get',
    path: '/profiles/types',
    tags,
    summary: 'Profile types offered for new profiles, and whether the caller may use each',
    responses: { 200: jsonResponse('Types', z.array(ProfileTypeOptionSchema)), ...pick(401) },
  },
  { access: 'signed-in' },
);

const options = route(
  {
    method: 'get',
    path: '/profiles/options',
    tags,
    summary: 'Associated profile types and sequencing centres an ERGA profile chooses from',
    responses: { 200: jsonResponse('Choices', ProfileOptionsSchema), ...pick(401) },
  },
  { access: 'signed-in' },
);

const list = route(
  {
    method: 'get',
    path: '/profiles',
    tags,
    summary: 'A page of the caller’s profiles (an admin’s: all), most recently changed first',
    request: { query: PageQuery },
    responses: { 200: { ...jsonResponse('Profiles', z.array(ProfileSchema)), headers: PAGE_HEADERS }, ...pick(400, 401) },
  },
  { access: 'signed-in' },
);

const create = route(
  {
    method: 'post',
    path: '/profiles',
    tags,
    summary: 'Create a profile',
    description:
      'Tree of Life types (asg, dtol, dtolenv, erga) need the caller’s membership of the project. ERGA profiles ' +
      'choose associated types and sequencing centres; a centre that needs approval (SANGER) is added as an ' +
      'associated type. Titles are unique per owner.',
    request: { body },
    responses: { 201: jsonResponse('The new profile', ProfileSchema), ...pick(400, 401, 403, 409, 415) },
  },
  { access: 'signed-in' },
);

const read = route(
  {
    method: 'get',
    path: '/profiles/{profile_id}',
    tags,
    summary: 'One profile',
    request: { params: ProfileParamsSchema },
    responses: { 200: jsonResponse('The profile', ProfileSchema), ...pick(401, 403, 404) },
  },
  { access: { profile: 'view', in: 'profile_id' } },
);

const update = route(
  {
    method: 'put',
    path: '/profiles/{profile_id}',
    tags,
    summary: 'Update a profile; the type must be resent unchanged',
    description:
      'A different type answers 400 `It is not possible to modify the profile type` and leaves the profile unchanged; ' +
      'a title the owner already uses is 409. Fields not sent are kept.',
    request: { params: ProfileParamsSchema, body },
    responses: { 200: jsonResponse('The updated profile', ProfileSchema), ...pick(400, 401, 403, 404, 409, 415) },
  },
  { access: { profile: 'own', in: 'profile_id' } },
);

const idPattern = { profile_id: PATH_PATTERNS.profile_id };

export function registerProfileRoutes(app: ApiApp) {
  app.openapi(types, (c) => c.json(profileTypesJson(c.get('user')), 200));
  app.openapi(options, async (c) => c.json(await profileOptionsJson(c.get('deps').db), 200));
  app.openapi(list, async (c) => {
    const page = c.req.valid('query');
    const { rows, total } = await listProfiles(c.get('deps').db, c.get('user'), page);
    announcePage(c, page, rows.length, total);
    return c.json(rows.map(profileJson), 200);
  });
  app.openapi(create, async (c) => {
    const profile = await createProfile(c.get('deps').db, c.get('user'), c.req.valid('json'));
    return c.json(profileJson(profile), 201);
  });
  openapiConstrained(app, read, idPattern, async (c) => {
    const profile = await getProfile(c.get('deps').db, c.get('user'), c.req.valid('param').profile_id);
    return c.json(profileJson(profile), 200);
  });
  openapiConstrained(app, update, idPattern, async (c) => {
    const { db } = c.get('deps');
    const profile = await updateProfile(db, c.get('user'), c.req.valid('param').profile_id, c.req.valid('json'));
    return c.json(profileJson(profile), 200);
  });
}
