import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { pageWithTotal } from '@/db/rows';
import { apiKeys } from '@/db/schema';
import { NotFound } from '@/lib/errors';

/** Recognisable in logs, secret scanners and support tickets. */
export const API_KEY_PREFIX = 'rmb_';
const KEY_PATTERN = /^rmb_[A-Za-z0-9_-]{43}$/;

export const hashApiKey = (key: string) => createHash('sha256').update(key).digest('hex');
export const looksLikeApiKey = (value: string) => KEY_PATTERN.test(value);

export interface ApiKeyInfo {
  id: number;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** Creates a key; the only moment the key itself exists outside the client. */
export async function createApiKey(db: Db, userId: number, name = ''): Promise<{ key: string; info: ApiKeyInfo }> {
  const key = API_KEY_PREFIX + randomBytes(32).toString('base64url');
  const [row] = await db
    .insert(apiKeys)
    .values({ userId, keyHash: hashApiKey(key), prefix: key.slice(0, API_KEY_PREFIX.length + 6), name })
    .returning();
  if (!row) throw new Error('api key insert returned nothing');
  return { key, info: toInfo(row) };
}

/** A page of the user's keys, newest first, with the true total. */
export async function listApiKeys(
  db: Db,
  userId: number,
  page: { limit: number; offset: number },
): Promise<{ rows: ApiKeyInfo[]; total: number }> {
  const { rows, total } = await pageWithTotal(
    db,
    db.select().from(apiKeys).where(eq(apiKeys.userId, userId)).$dynamic(),
    [desc(apiKeys.id)],
    page,
  );
  return { rows: rows.map(toInfo), total };
}

export async function revokeApiKey(db: Db, userId: number, keyId: number): Promise<ApiKeyInfo> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`coalesce(${apiKeys.revokedAt}, now())` })
    .where(and(eq(apiKeys.id, keyId), eq(apiKeys.userId, userId)))
    .returning();
  if (!row) throw NotFound('No such API key');
  return toInfo(row);
}

// a key's last use is written at most this often: a busy pipeline does not write a row per request
const LAST_USED_RESOLUTION_MS = 60_000;

/** The user id a live key belongs to, or null; records the use, to the minute. */
export async function resolveApiKey(db: Db, key: string): Promise<number | null> {
  if (!looksLikeApiKey(key)) return null;
  const [row] = await db
    .select({ id: apiKeys.id, userId: apiKeys.userId, lastUsedAt: apiKeys.lastUsedAt })
    .from(apiKeys)
    .where(and(eq(apiKeys.keyHash, hashApiKey(key)), isNull(apiKeys.revokedAt)));
  if (!row) return null;
  if (!row.lastUsedAt || Date.now() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: sql`now()` })
      .where(
        and(
          eq(apiKeys.id, row.id),
          or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, sql`now() - make_interval(secs => ${LAST_USED_RESOLUTION_MS / 1000})`)),
        ),
      );
  }
  return row.userId;
}

function toInfo(row: typeof apiKeys.$inferSelect): ApiKeyInfo {
  const { id, name, prefix, createdAt, lastUsedAt, revokedAt } = row;
  return { id, name, prefix, createdAt, lastUsedAt, revokedAt };
}
