import { profileJson } from '@/lib/profiles/json';
import { getProfile } from '@/lib/profiles/profiles';
import { pageData } from './page-data';

/** The signed-in user and the profile of a page, or the same 404 the API gives for unknown and foreign ids. */
export const loadProfilePage = (profileId: string) =>
  pageData(async (db, user) => ({ profile: profileJson(await getProfile(db, user, profileId)) }));
