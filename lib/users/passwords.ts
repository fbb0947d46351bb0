import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';

/** scrypt's cost parameters; stored with each hash, so that a hash is checked at the cost it was made with */
export interface ScryptCost {
  N: number;
  r: number;
  p: number;
}

// OWASP's scrypt floor: N=2^17, r=8, p=1 (a hash needs 128·N·r bytes, within MAXMEM); the parameters are stored with
// each hash so they can grow later.
const OWASP_COST: ScryptCost = { N: 2 ** 17, r: 8, p: 1 };
const KEYLEN = 64;
const MAXMEM = 256 * 1024 * 1024;

function scryptAsync(password: string, salt: Buffer, keylen: number, opts: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, keylen, opts, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

/** `scrypt$N$r$p$salt$hash` with base64url parts, at OWASP's cost unless the caller names another */
export async function hashPassword(password: string, cost: ScryptCost = OWASP_COST): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = cost;
  const key = await scryptAsync(password, salt, KEYLEN, { N, r, p, maxmem: MAXMEM });
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * What an account made by signing in with ORCID holds instead of a hash: not of the scrypt form, so no password
 * matches it, until an admin sets one.
 */
export const NO_PASSWORD = 'none';

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash) {
    // an account without a password (NO_PASSWORD) costs what a wrong password costs, so timing does not tell it apart
    await verifyPassword(password, DUMMY_HASH);
    return false;
  }
  const expected = Buffer.from(hash, 'base64url');
  const key = await scryptAsync(password, Buffer.from(salt, 'base64url'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAXMEM,
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A password hash no password matches; used so an unknown username costs as much as a known one. */
export const DUMMY_HASH = `scrypt$131072$8$1$AAAAAAAAAAAAAAAAAAAAAA$${Buffer.alloc(64).toString('base64url')}`;
