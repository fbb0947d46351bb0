import { Invalid, TooLarge } from '@/lib/errors';
import { fileStore } from '@/lib/files/files';
import { checkFileNames } from '@/lib/files/names';
import { UPLOAD_URL_TTL_SECONDS } from '@/lib/files/signing';
import type { FileDeps, PresignedUpload, StoredFile } from '@/lib/files/store';
import type { UserRecord } from '@/lib/users/users';
import { getProfile } from './profiles';

/** A profile's data files: its listing and the URLs its files are uploaded through, for those who may see it. */

export const MAX_NAMES_PER_REQUEST = 1000;

export async function listProfileFiles(deps: FileDeps, user: UserRecord, profileId: string): Promise<StoredFile[]> {
  const profile = await getProfile(deps.db, user, profileId);
  return fileStore(deps).list(profile.id);
}

/** One upload URL per name, valid for 24 hours. */
export async function presignUploads(
  deps: FileDeps,
  user: UserRecord,
  profileId: string,
  fileNames: readonly string[],
  /** declared sizes, one per name, when the uploader gives them */
  sizes?: readonly number[],
): Promise<PresignedUpload[]> {
  const profile = await getProfile(deps.db, user, profileId, 'contribute');
  if (!fileNames.length) {
    throw Invalid("'file_names' is required but not provided.", [{ path: 'file_names', message: 'Required' }]);
  }
  if (fileNames.length > MAX_NAMES_PER_REQUEST) {
    throw Invalid(`At most ${MAX_NAMES_PER_REQUEST} file names per request`, [{ path: 'file_names', message: 'Too many' }]);
  }
  if (sizes && sizes.length !== fileNames.length) {
    throw Invalid(`'file_sizes' must give one size per name: ${fileNames.length} names, ${sizes.length} sizes.`, [
      { path: 'file_sizes', message: 'One size per name' },
    ]);
  }
  const max = deps.config.UPLOAD_MAX_BYTES;
  const over = fileNames.flatMap((name, i) => {
    const size = sizes?.[i];
    return size !== undefined && size > max ? [{ size, name }] : [];
  });
  if (over.length) throw TooLarge(`Larger than the upload limit of ${max} bytes: ${over.map((f) => `${f.name} (${f.size})`).join(', ')}.`);
  const sizeOf = new Map(fileNames.map((n, i) => [n, sizes?.[i]]));
  const names = checkFileNames(fileNames);
  const store = fileStore(deps);
  // whole seconds, so the expiry in the URL and in the response agree
  const expiresAt = new Date((Math.floor(Date.now() / 1000) + UPLOAD_URL_TTL_SECONDS) * 1000);
  return Promise.all(
    names.map(async (name) => {
      const size = sizeOf.get(name);
      return {
        name,
        url: await store.presignUpload(profile.id, name, expiresAt, size),
        method: 'PUT' as const,
        expiresAt,
        ...(size !== undefined && { size }),
      };
    }),
  );
}
