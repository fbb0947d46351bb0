import type { Metadata } from 'next';
import Link from 'next/link';
import { ProfileForm } from '@/components/profiles/profile-form';
import { loadProfilePage } from '@/lib/server/load-profile';
import { profileFormOptions } from '@/lib/server/profile-options';

export const metadata: Metadata = { title: 'Edit profile' };

export default async function EditProfilePage({ params }: { params: Promise<{ profileId: string }> }) {
  const { profileId } = await params;
  const { user, profile } = await loadProfilePage(profileId);
  return (
    <>
      <p>
        <Link href={`/profiles/${profile.id}`}>← {profile.title}</Link>
      </p>
      <h1>Edit profile</h1>
      <ProfileForm options={await profileFormOptions(user)} profile={profile} />
    </>
  );
}
