import type { Metadata } from 'next';
import Link from 'next/link';
import { ProfilesTable } from '@/components/profiles/profiles-table';

export const metadata: Metadata = { title: 'Profiles' };

export default function ProfilesPage() {
  return (
    <>
      <div className="inline" style={{ justifyContent: 'space-between' }}>
        <h1>Profiles</h1>
        <Link className="button primary" href="/profiles/new">
          New profile
        </Link>
      </div>
      <p className="muted">A profile groups the manifests, samples, studies and data files of one piece of work.</p>
      <ProfilesTable />
    </>
  );
}
