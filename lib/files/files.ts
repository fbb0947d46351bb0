import { Invalid } from '@/lib/errors';
import { getProfile } from '@/lib/profiles/profiles';
import type { UserRecord } from '@/lib/users/users';
import { createLocalStore } from './local';
import { checkFileNames } from './names';
import { createS3Store } from './s3';
import { UPLOAD_URL_TTL_SECONDS } from './signing';
import { usesS3, type FileDeps, type FileStore, type StoredFile } from './store';

export const MAX_NAMES_PER_REQUEST = 1000;

export const fileStore = (deps: FileDeps): FileStore =>
  usesS3(deps.config) ? createS3Store(deps.config) : createLocalStore(deps);

export async function listProfileFiles(deps: FileDeps, user: UserRecord, profileId: string): Promise<StoredFile[]> {
  const profile = await getProfile(deps.db, user, profileId);
  return fileStore(deps).list(profile.id);
}

export interface PresignedUpload {
  name: string;
  url: string;
  method: 'PUT';
  expiresAt: Date;
}

/** One upload URL per name, valid for 24 hours. */
export async function presignUploads(
  deps: FileDeps,
  user: UserRecord,
  profileId: string,
  fileNames: readonly string[],
): Promise<PresignedUpload[]> {
  const profile = await getProfile(deps.db, user, profileId);
  if (!fileNames.length) {
    throw Invalid("'file_names' is required but not provided.", [{ path: 'file_names', message: 'Required' }]);
  }
  if (fileNames.length > MAX_NAMES_PER_REQUEST) {
    throw Invalid(`At most ${MAX_NAMES_PER_REQUEST} file names per request`, [{ path: 'file_names', message: 'Too many' }]);
  }
  const names = checkFileNames(fileNames);
  const store = fileStore(deps);
  // whole seconds, so the expiry in the URL and in the response agree
  const expiresAt = new Date((Math.floor(Date.now() / 1000) + UPLOAD_URL_TTL_SECONDS) * 1000);
  return Promise.all(
    names.map(async (name) => ({
      name,
      url: await store.presignUpload(profile.id, name, expiresAt),
      method: 'PUT' as const,
      expiresAt,
    })),
  );
}
