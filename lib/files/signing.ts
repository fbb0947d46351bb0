import { createHmac, timingSafeEqual } from 'node:crypto';

/** Upload URLs of local storage are valid this long, like the reference system's S3 URLs. */
export const UPLOAD_URL_TTL_SECONDS = 24 * 60 * 60;

export interface UploadGrant {
  method: 'PUT';
  profileId: string;
  fileName: string;
  /** unix seconds */
  expires: number;
  /** the exact size the uploader declared, when it did */
  size?: number;
}

// a key of its own, so an upload signature can never be replayed as some other HMAC made from the auth secret
const keyCache = new Map<string, Buffer>();
function uploadKey(secret: string): Buffer {
  let key = keyCache.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update('rmb/upload-url/v1').digest();
    keyCache.set(secret, key);
  }
  return key;
}

// file names never contain control characters (names.ts), so newline-separated fields cannot be confused; a grant
// without a size signs what it always did
const message = (g: UploadGrant) =>
  `${g.method}\n${g.profileId}\n${g.fileName}\n${g.expires}${g.size === undefined ? '' : `\nsize=${g.size}`}`;

export const signUpload = (secret: string, grant: UploadGrant): string =>
  createHmac('sha256', uploadKey(secret)).update(message(grant)).digest('base64url');

/** Whether the signature is the one for this grant and the grant has not expired. */
export function verifyUpload(secret: string, grant: UploadGrant, signature: string, now = Date.now()): boolean {
  if (!Number.isSafeInteger(grant.expires) || grant.expires * 1000 < now) return false;
  const expected = Buffer.from(signUpload(secret, grant));
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
