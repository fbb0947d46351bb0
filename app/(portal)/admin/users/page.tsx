import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { UsersAdmin } from '@/components/admin/users-admin';
import { currentUser } from '@/lib/server/auth-options';

export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage() {
  const user = await currentUser();
  if (!user?.isAdmin) notFound();
  return (
    <>
      <h1>Users</h1>
      <p>
        Members of a Tree of Life project may create profiles of that project; its sample managers accept or reject the samples uploaded to
        it.
      </p>
      <UsersAdmin selfId={user.id} />
    </>
  );
}
