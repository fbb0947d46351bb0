import { createHash, randomBytes } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, mkdir, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { and, asc, eq, sql } from 'drizzle-orm';
import { one } from '@/db/rows';
import { profileFiles, profiles } from '@/db/schema';
import { AppError, Conflict, Forbidden, Invalid, NotFound, TooLarge } from '@/lib/errors';
import { isProfileId } from '@/lib/identifiers/contract';
import { assertFileName, assertServiceFile } from './names';
import { signUpload, verifyUpload } from './signing';
import { type FileDeps, type FileStore, type StoredFile, usesS3 } from './store';

export const filesRoot = (dataDir: string) => path.join(dataDir, 'files');
// beside the profile folders (24-hex names), so a rename into place never crosses file systems
const tmpDir = (dataDir: string) => path.join(filesRoot(dataDir), '.tmp');

/** Where a profile's file lives on disk; the name is checked again here so nothing can escape the profile folder. */
export function localFilePath(dataDir: string, profileId: string, fileName: string): string {
  if (!isProfileId(profileId)) throw NotFound('Profile not found');
  assertFileName(fileName);
  const base = path.join(filesRoot(dataDir), profileId);
  const full = path.resolve(base, ...fileName.split('/'));
  if (!full.startsWith(base + path.sep)) throw Forbidden('File name leaves the profile folder');
  return full;
}

/** The service's own upload endpoint, signed for one PUT of one name. */
export function localUploadUrl(deps: FileDeps, profileId: string, fileName: string, expiresAt: Date, size?: number): string {
  const expires = Math.floor(expiresAt.getTime() / 1000);
  const signature = signUpload(deps.config.authSecret, {
    method: 'PUT',
    profileId,
    fileName,
    expires,
    ...(size !== undefined && { size }),
  });
  // also the characters encodeURIComponent leaves alone, so the URL can sit inside single quotes in a shell
  const encoded = fileName
    .split('/')
    .map((s) => encodeURIComponent(s).replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`))
    .join('/');
  const query = new URLSearchParams({ expires: String(expires), ...(size !== undefined && { size: String(size) }), signature });
  return `${deps.config.baseUrl}/api/uploads/${profileId}/${encoded}?${query}`;
}

export function createLocalStore(deps: FileDeps): FileStore {
  return {
    kind: 'local',
    async check() {
      await mkdir(deps.config.dataDir, { recursive: true });
      await access(deps.config.dataDir, constants.W_OK);
    },
    presignUpload: async (profileId, fileName, expiresAt, size) => localUploadUrl(deps, profileId, fileName, expiresAt, size),
    async list(profileId) {
      const rows = await deps.db
        .select()
        .from(profileFiles)
        .where(eq(profileFiles.profileId, profileId))
        .orderBy(asc(profileFiles.fileName));
      return rows.map(storedFile);
    },
    async stat(profileId, fileName) {
      const [row] = await deps.db
        .select()
        .from(profileFiles)
        .where(and(eq(profileFiles.profileId, profileId), eq(profileFiles.fileName, fileName)));
      return row ? storedFile(row) : null;
    },
    async read(profileId, fileName, opts = {}) {
      const file = localFilePath(deps.config.dataDir, profileId, fileName);
      const stream = createReadStream(file, { start: opts.start ?? 0 });
      // open errors (a file deleted behind our back) surface here, not on the first read
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', (err: NodeJS.ErrnoException) =>
          reject(err.code === 'ENOENT' ? NotFound(`File ${fileName} is not in the profile's storage`) : err),
        );
      });
      return stream;
    },
    async put(profileId, fileName, bytes) {
      const target = localFilePath(deps.config.dataDir, profileId, assertServiceFile(fileName));
      await mkdir(tmpDir(deps.config.dataDir), { recursive: true });
      const tmp = path.join(tmpDir(deps.config.dataDir), `${randomBytes(12).toString('hex')}.part`);
      try {
        await writeFile(tmp, bytes, { flag: 'wx' });
        await mkdir(path.dirname(target), { recursive: true });
        await rename(tmp, target);
      } finally {
        await rm(tmp, { force: true });
      }
    },
    async remove(profileId, fileName) {
      const file = localFilePath(deps.config.dataDir, profileId, fileName);
      await rm(file, { force: true });
      // folders the name made are removed once empty, so a later file may take a folder's name
      const base = path.join(filesRoot(deps.config.dataDir), profileId);
      for (let dir = path.dirname(file); dir.startsWith(base + path.sep); dir = path.dirname(dir)) {
        try {
          await rmdir(dir);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'ENOTEMPTY' || code === 'EEXIST' || code === 'ENOENT') break;
          throw err;
        }
      }
    },
    async removeAll(profileId) {
      if (!isProfileId(profileId)) throw NotFound('Profile not found');
      await rm(path.join(filesRoot(deps.config.dataDir), profileId), { recursive: true, force: true });
    },
  };
}

const storedFile = (r: typeof profileFiles.$inferSelect): StoredFile => ({
  fileName: r.fileName,
  sizeInBytes: r.sizeInBytes,
  lastUploaded: r.lastUploaded,
  etag: r.etag,
});

export interface UploadInput {
  profileId: string;
  fileName: string;
  expires: string | undefined;
  /** the size the URL was made for, if any */
  size: string | undefined;
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
  const declared = input.size === undefined ? undefined : /^\d{1,15}$/.test(input.size) ? Number(input.size) : NaN;
  const grant = {
    method: 'PUT' as const,
    profileId: input.profileId,
    fileName,
    expires,
    ...(declared !== undefined && { size: declared }),
  };
  if (
    !input.signature ||
    !/^\d{1,12}$/.test(input.expires ?? '') ||
    Number.isNaN(declared) ||
    !verifyUpload(config.authSecret, grant, input.signature)
  ) {
    throw Forbidden('The upload URL is invalid or has expired; ask for a new one.');
  }
  const [profile] = await db.select({ id: profiles.id }).from(profiles).where(eq(profiles.id, input.profileId));
  if (!profile) throw NotFound('Profile not found');

  // a URL made for a declared size takes exactly that many bytes
  const max = declared ?? config.UPLOAD_MAX_BYTES;
  const tooLarge = () =>
    declared === undefined
      ? TooLarge(`The file is larger than the upload limit of ${max} bytes`)
      : TooLarge(`The upload URL was made for ${declared} bytes; the body is larger.`);
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
  const sink = createWriteStream(tmp, { flags: 'wx' });
  try {
    const source = input.body ? Readable.fromWeb(input.body as WebReadableStream<Uint8Array>) : Readable.from([]);
    await pipeline(source, meter, sink);
    if (declared !== undefined && size !== declared) {
      throw Invalid(`The upload URL was made for ${declared} bytes; the body has ${size}.`, [
        { path: 'body', message: 'Shorter than declared' },
      ]);
    }
    await mkdir(path.dirname(target), { recursive: true });
    await rename(tmp, target);
  } catch (err) {
    // a body refused while the partial file is still being opened (libuv's threads busy) fails the pipeline before
    // the file exists, and a removal then could run beside the opening and miss it: the suite once found a .part
    // left so. It waits until the stream is closed, when the file either is there to remove or never will be.
    if (!sink.closed) await new Promise<void>((resolve) => sink.once('close', () => resolve()));
    await rm(tmp, { force: true });
    if (err instanceof AppError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EISDIR' || code === 'ENOTDIR' || code === 'EEXIST' || code === 'ENOTEMPTY') {
      throw Conflict(`A file and a folder cannot share the name ${JSON.stringify(fileName)}`);
    }
    throw err;
  }

  const etag = md5.digest('hex');
  const row = one(
    await db
      .insert(profileFiles)
      .values({ profileId: input.profileId, fileName, sizeInBytes: size, etag, lastUploaded: sql`now()` })
      .onConflictDoUpdate({
        target: [profileFiles.profileId, profileFiles.fileName],
        set: { sizeInBytes: size, etag, lastUploaded: sql`now()` },
      })
      .returning(),
    'the upserted file row',
  );
  return { fileName, sizeInBytes: size, etag, lastUploaded: row.lastUploaded };
}
