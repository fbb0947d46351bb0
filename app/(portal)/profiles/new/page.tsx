import type { Metadata } from 'next';
import { ProfileForm } from '@/components/profiles/profile-form';
import { signedInOrRedirect } from '@/lib/server/auth-options';
import { profileFormOptions } from '@/lib/server/profile-options';

export const metadata: Metadata = { title: 'New profile' };

/** `?type=biodata` (the Studies page's link) opens the form with that type chosen, when the user may create it */
export default async function NewProfilePage({ searchParams }: { searchParams: Promise<{ type?: string }> }) {
  const { type } = await searchParams;
  const user = await signedInOrRedirect();
  return (
    <>
      <h1>New profile</h1>
      <p className="muted">The type cannot be changed once the profile exists.</p>
      <ProfileForm options={await profileFormOptions(user)} initialType={type} />
    </>
  );
}
