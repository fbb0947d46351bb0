import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ASSOCIATED_TYPES_KEY } from '@/components/admin/reference-query';
import { UsersAdmin } from '@/components/admin/users-admin';
import { USERS_PAGE, usersKey, usersSearch } from '@/components/admin/users-query';
import { pageOffset } from '@/components/ui/api-pages';
import { asSent, Prefetched } from '@/components/ui/prefetched';
import { adminUsersPage } from '@/lib/auth/admin-users';
import { searchOf } from '@/lib/client/search';
import { associatedTypeJson } from '@/lib/reference/admin';
import { associatedTypes } from '@/lib/reference/read';
import { currentUser } from '@/lib/server/auth-options';
import { pageData } from '@/lib/server/page-data';
import { UserSearchSchema } from '@/lib/users/contract';

export const metadata: Metadata = { title: 'Users' };

export default async function UsersPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (!user?.isAdmin) notFound();
  const search = searchOf(await searchParams);
  const q = usersSearch(search);
  const offset = pageOffset(search.get('offset'));
  const parsed = UserSearchSchema.safeParse(q ? { q } : {});
  // the first page comes with the page, so that the list is drawn with it, and the associated types the add form
  // offers, so that its last fields are not pushed down once loaded; a search the API would refuse is left to the
  // list, which asks and says why
  const { answers } = await pageData(async (db) => {
    const types = [ASSOCIATED_TYPES_KEY, asSent((await associatedTypes(db)).map(associatedTypeJson))] as const;
    if (!parsed.success || !Number.isSafeInteger(offset)) return { answers: [types] };
    const first = asSent(await adminUsersPage(db, { limit: USERS_PAGE, offset, q: parsed.data.q }));
    return { answers: [types, [[...usersKey(q), offset], first] as const] };
  });
  return (
    <>
      <h1>Users</h1>
      <p>
        Members of a Tree of Life project may create profiles of that project; its sample managers accept or reject the samples uploaded to
        it.
      </p>
      <Prefetched answers={answers}>
        <UsersAdmin selfId={user.id} />
      </Prefetched>
    </>
  );
}
