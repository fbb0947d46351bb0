import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { asc, eq, sql } from 'drizzle-orm';
import { profileFiles, profiles } from '@/db/schema';
import { AppError, Conflict, Forbidden, NotFound, TooLarge } from '@/lib/errors';
import { PROFILE_ID } from '@/lib/profiles/profiles';
import { assertFileName } from './names';
import { signUpload, verifyUpload } from './signing';
import { usesS3, type FileDeps, type FileStore, type StoredFile } from './store';

export const filesRoot = (dataDir: string) => path.join(dataDir, 'files');
// beside the profile folders (24-hex names), so a rename into place never crosses file systems
const tmpDir = (dataDir: string) => path.join(filesRoot(dataDir), '.tmp');

/** Where a profile's file lives on disk; the name is checked again here so nothing can escape the profile folder. */
export function localFilePath(dataDir: string, profileId: string, fileName: string): string {
  if (!PROFILE_ID.test(profileId)) throw NotFound('Profile not found');
  assertFileName(fileName);
  const base = path.join(filesRoot(dataDir), profileId);
  const full = path.resolve(base, ...fileName.split('/'));
  if (!full.startsWith(base + path.sep)) throw Forbidden('File name leaves the profile folder');
  return full;
}

/** The service's own upload endpoint, signed for one PUT of one name. */
export function localUploadUrl(deps: FileDeps, profileId: string, fileName: string, expiresAt: Date): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  const signature = signUpload(deps.config.authSecret, { method: 'PUT', profileId, fileName, expires });
  // also the characters encodeURIComponent leaves alone, so the URL can sit inside single quotes in a shell
  const encoded = fileName
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
  const query = new URLSearchParams({ expires: String(expires), signature });
  return `${deps.config.baseUrl}/api/uploads/${profileId}/${encoded}?${query}`;
}

export function createLocalStore(deps: FileDeps): FileStore {
  return {
    kind: 'local',
    presignUpload: async (profileId, fileName, expiresAt) => localUploadUrl(deps, profileId, fileName, expiresAt),
    async list(profileId) {
      const rows = await deps.db
        .select()
        .from(profileFiles)
        .where(eq(profileFiles.profileId, profileId))
        .orderBy(asc(profileFiles.fileName));
      return rows.map((r) => ({
        fileName: r.fileName,
        sizeInBytes: r.sizeInBytes,
        lastUploaded: r.lastUploaded,
        etag: r.etag,
      }));
    },
  };
}

export interface UploadInput {
  profileId: string;
  fileName: string;
  expires: string | undefined;
  signature: string | undefined;
  /** the Content-Length header, if sent */
  contentLength: string | undefined;
  body: ReadableStream<Uint8Array> | null;
}

/**
 * Receives one upload to local storage. The signature is the credential. The size limit is checked on the declared
 * length before reading and again on the bytes actually received; the file is written beside its destination and
 * renamed into place only when complete, so a refused or broken upload leaves nothing behind.
 */
export async function receiveUpload(deps: FileDeps, input: UploadInput): Promise<StoredFile> {
  const { config, db } = deps;
  if (usesS3(config)) throw NotFound('Uploads go to object storage; ask for a new upload URL');
  const fileName = assertFileName(input.fileName);
  const expires = Number(input.expires);
  const grant = { method: 'PUT' as const, profileId: input.profileId, fileName, expires };
  if (!input.signature || !/^\d{1,12}$/.test(input.expires ?? '') || !verifyUpload(config.authSecret, grant, input.signature)) {
    throw Forbidden('The upload URL is invalid or has expired; ask for a new one.');
  }
  const [profile] = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, input.profileId));
  if (!profile) throw NotFound('Profile not found');

  const max = config.UPLOAD_MAX_BYTES;
  const tooLarge = () => TooLarge(`The file is larger than the upload limit of ${max} bytes`);
  if (input.contentLength !== undefined && Number(input.contentLength) > max) throw tooLarge();

  const target = localFilePath(config.dataDir, input.profileId, fileName);
  await mkdir(tmpDir(config.dataDir), { recursive: true });
  const tmp = path.join(tmpDir(config.dataDir), `${randomBytes(12).toString('hex')}.part`);
  const md5 = createHash('md5');
  let size = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > max) return done(tooLarge());
      md5.update(chunk);
      done(null, chunk);
    },
  });
  try {
    const source = input.body ? Readable.fromWeb(input.body as WebReadableStream<Uint8Array>) : Readable.from([]);
    await pipeline(source, meter, createWriteStream(tmp, { flags: 'wx' }));
    await mkdir(path.dirname(target), { recursive: true });
    await rename(tmp, target);
  } catch (err) {
    await rm(tmp, { force: true });
    if (err instanceof AppError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EISDIR' || code === 'ENOTDIR' || code === 'EEXIST' || code === 'ENOTEMPTY') {
      throw Conflict(`A file and a folder cannot share the name ${JSON.stringify(fileName)}`);
    }
    throw err;
  }

  const etag = md5.digest('hex');
  const [row] = await db
    .insert(profileFiles)
    .values({ profileId: input.profileId, fileName, sizeInBytes: size, etag, lastUploaded: sql`now()` })
    .onConflictDoUpdate({
      target: [profileFiles.profileId, profileFiles.fileName],
      set: { sizeInBytes: size, etag, lastUploaded: sql`now()` },
    })
    .returning();
  return { fileName, sizeInBytes: size, etag, lastUploaded: row!.lastUploaded };
}
