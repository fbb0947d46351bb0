import type { Db } from '@/db/client';
import { collaborationOf } from '@/lib/profiles/shares';
import type { AdminUser } from '@/lib/users/contract';
import { listUsers, userJson } from '@/lib/users/users';
import { guessLimits } from './limits';

/**
 * A page of the accounts as an admin sees them (GET /api/admin/users): each user with the groups they belong to, the
 * profiles shared with them, and until when failed sign-ins keep them out.
 */
export async function adminUsersPage(
  db: Db,
  page: { limit: number; offset: number; q?: string },
): Promise<{ rows: AdminUser[]; total: number }> {
  const { rows, total } = await listUsers(db, page);
  const [together, locked] = await Promise.all([
    collaborationOf(
      db,
      rows.map((u) => u.id),
    ),
    guessLimits(db).lockedAccounts(rows.map((u) => u.username)),
  ]);
  return {
    total,
    rows: rows.map((u) => {
      const t = together.get(u.id);
      return {
        ...userJson(u),
        groups: t?.groups ?? [],
        shared_profiles: t?.sharedProfiles ?? [],
        locked_until: locked.get(u.username.toLowerCase())?.toISOString() ?? null,
      };
    }),
  };
}
