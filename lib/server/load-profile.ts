import { notFound, redirect } from 'next/navigation';
import { profileJson } from '@/lib/api/routes/profiles';
import { AppError } from '@/lib/errors';
import { getProfile } from '@/lib/profiles/profiles';
import { currentUser } from './auth-options';
import { getDb } from './runtime';

/** The signed-in user and the profile of a page, or the same 404 the API gives for unknown and foreign ids. */
export async function loadProfilePage(profileId: string) {
  const user = await currentUser();
  if (!user) redirect('/signin');
  try {
    const profile = await getProfile(await getDb(), user, profileId);
    return { user, profile: profileJson(profile) };
  } catch (err) {
    if (err instanceof AppError && err.code === 'not_found') notFound();
    throw err;
  }
}
