import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import styles from '@/components/profiles/profile-hub.module.css';
import { PROFILES_PAGE, PROFILES_PAGE_KEY } from '@/components/profiles/profile-query';
import { ProfilesTable } from '@/components/profiles/profiles-table';
import { pageOffset } from '@/components/ui/api-pages';
import { DeletedNotice } from '@/components/ui/delete-action';
import { asSent, Prefetched } from '@/components/ui/prefetched';
import { profileJson } from '@/lib/profiles/json';
import { listProfiles } from '@/lib/profiles/profiles';
import { pageData } from '@/lib/server/page-data';

export const metadata: Metadata = { title: 'Profiles' };

export default async function ProfilesPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const offset = pageOffset((await searchParams).offset);
  // the first page comes with the page, so that the list is drawn with it
  const { first } = await pageData(async (db, u) => {
    if (!Number.isSafeInteger(offset)) return { first: undefined };
    const { rows, total } = await listProfiles(db, u, { limit: PROFILES_PAGE, offset });
    return { first: { rows: rows.map(profileJson), total } };
  });
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
      <Prefetched answers={first ? [[[...PROFILES_PAGE_KEY, offset], asSent(first)]] : []}>
        <ProfilesTable />
      </Prefetched>
    </>
  );
}
