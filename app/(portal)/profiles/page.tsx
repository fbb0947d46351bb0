import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import styles from '@/components/profiles/profile-hub.module.css';
import { ProfilesTable } from '@/components/profiles/profiles-table';
import { DeletedNotice } from '@/components/ui/delete-action';

export const metadata: Metadata = { title: 'Profiles' };

export default function ProfilesPage() {
  return (
    <>
      <div className={styles.head}>
        <h1>Profiles</h1>
        <Link className="button primary" href="/profiles/new">
          New profile
        </Link>
      </div>
      <p className="muted">
        A profile groups the manifests, samples, studies and data files of one piece of work. Open one to see what it holds and what to do
        next.
      </p>
      <Suspense>
        <DeletedNotice />
      </Suspense>
      <ProfilesTable />
    </>
  );
}
