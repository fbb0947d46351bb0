import type { ProfileOptions, ProfileTypeOption } from '@/lib/profiles/contract';
import { profileOptionsJson, profileTypesJson } from '@/lib/profiles/json';
import type { UserRecord } from '@/lib/users/users';
import { getDb } from './runtime';

/** What the profile forms offer this user: the API's answers to GET /api/profiles/types and /api/profiles/options. */
export const profileFormOptions = async (user: UserRecord): Promise<{ types: ProfileTypeOption[]; choices: ProfileOptions }> => ({
  types: profileTypesJson(user),
  choices: await profileOptionsJson(await getDb()),
});
