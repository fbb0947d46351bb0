import { createHmac, timingSafeEqual } from 'node:crypto';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { z } from 'zod';
import { Conflict, Invalid, NotFound } from '@/lib/errors';
import { CORRECTION_LINK_MINUTES } from './corrections-contract';

/**
 * The confirmation link of a corrections preview, with no table behind it: the corrections themselves, who previewed
 * them, when, and a hash of the diff they were shown, compressed and signed with a key derived from the service's
 * secret (as password-reset links are, lib/auth/password-reset.ts). The confirmation recomputes the diff from the
 * corrections and applies it only when its hash is the one signed, so the link applies exactly what was previewed.
 */

/** One correction as the link carries it: its row number, accession, field and value. */
export type SignedCorrection = [row: number, accession: string, field: string, value: string];

export interface CorrectionGrant {
  userId: number;
  corrections: SignedCorrection[];
  /** the hash of the previewed diff (corrections-diff.ts diffHash) */
  diffHash: string;
  /** unix seconds */
  issuedAt: number;
  expires: number;
}

const PayloadSchema = z.object({
  v: z.literal(1),
  u: z.number().int(),
  c: z.array(z.tuple([z.number().int(), z.string(), z.string(), z.string()])),
  h: z.string(),
  t: z.number().int(),
  e: z.number().int(),
});

/** The API refuses a URL over 8 KiB (lib/api/malformed-url.ts): the link's path must fit in it. */
export const TOKEN_MAX_CHARS = 8_000;

export const LINK_INVALID =
  'This confirmation link does not work: it was not made for you, or was not copied whole. Preview the corrections again.';

// a key of its own, so that a corrections link can never stand for anything else signed with the service's secret
const keyCache = new Map<string, Buffer>();
function linkKey(secret: string): Buffer {
  let key = keyCache.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update('rmb/sample-corrections/v1').digest();
    keyCache.set(secret, key);
  }
  return key;
}

const sign = (secret: string, payload: string) => createHmac('sha256', linkKey(secret)).update(payload).digest('base64url');

/** `<payload>.<signature>`, both base64url. */
export function signCorrections(
  secret: string,
  grant: Omit<CorrectionGrant, 'issuedAt' | 'expires'>,
  now = new Date(),
): { token: string; expires: Date } {
  const issuedAt = Math.floor(now.getTime() / 1000);
  const expires = issuedAt + CORRECTION_LINK_MINUTES * 60;
  const body = { v: 1, u: grant.userId, c: grant.corrections, h: grant.diffHash, t: issuedAt, e: expires };
  const payload = deflateRawSync(Buffer.from(JSON.stringify(body))).toString('base64url');
  const token = `${payload}.${sign(secret, payload)}`;
  if (token.length > TOKEN_MAX_CHARS) {
    throw Invalid('These corrections are too many, or their values too long, for one confirmation link: send them in smaller parts.');
  }
  return { token, expires: new Date(expires * 1000) };
}

/**
 * The grant a link carries, when its signature holds and it is the caller's (404 otherwise, as for a link that never
 * existed); an expired one is refused with 409, since it was real.
 */
export function verifyCorrections(secret: string, token: string, userId: number, now = new Date()): CorrectionGrant {
  const [payload, signature, ...rest] = token.trim().split('.');
  if (!payload || !signature || rest.length) throw NotFound(LINK_INVALID);
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw NotFound(LINK_INVALID);
  let body: z.infer<typeof PayloadSchema>;
  try {
    body = PayloadSchema.parse(JSON.parse(inflateRawSync(Buffer.from(payload, 'base64url'), { maxOutputLength: 1024 * 1024 }).toString()));
  } catch {
    throw NotFound(LINK_INVALID);
  }
  if (body.u !== userId) throw NotFound(LINK_INVALID);
  if (body.e * 1000 <= now.getTime()) {
    throw Conflict(`This confirmation link expired (it works for ${CORRECTION_LINK_MINUTES} minutes): preview the corrections again.`);
  }
  return { userId: body.u, corrections: body.c, diffHash: body.h, issuedAt: body.t, expires: body.e };
}
