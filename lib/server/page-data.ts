import { notFound } from 'next/navigation';
import type { Db } from '@/db/client';
import { AppError } from '@/lib/errors';
import type { UserRecord } from '@/lib/users/users';
import { signedInOrRedirect } from './auth-options';
import { getDb } from './runtime';

/** Runs a domain read for a signed-in page; not-found (including "not yours") becomes the page's 404. */
export async function pageData<T>(read: (db: Db, user: UserRecord) => Promise<T>): Promise<T & { user: UserRecord }> {
  const user = await signedInOrRedirect();
  try {
    return { ...(await read(await getDb(), user)), user };
  } catch (err) {
    if (err instanceof AppError && err.code === 'not_found') notFound();
    throw err;
  }
}

/**
 * A list's first answer read with its page, or nothing when the API would refuse the page's filter (a field or a
 * centre it does not know): the page's client list then asks, and shows the refusal beside its field.
 */
export async function unlessRefused<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof AppError && err.code === 'invalid') return undefined;
    throw err;
  }
}
