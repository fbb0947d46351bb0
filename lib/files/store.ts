import type { Readable } from 'node:stream';
import type { Db } from '@/db/client';
import type { Config } from '@/lib/config';

export interface FileDeps {
  db: Db;
  config: Config;
}

export interface StoredFile {
  /** the name as uploaded, sub-folders included (`dir/b.fastq.gz`) */
  fileName: string;
  sizeInBytes: number;
  lastUploaded: Date;
  /** without quotes; MD5 hex for single-part uploads, `<hex>-<parts>` for S3 multipart ones */
  etag: string;
}

/** Where a profile's data files live: the local data directory by default, an S3 bucket when configured. */
export interface FileStore {
  readonly kind: 'local' | 's3';
  /**
   * A URL that accepts one HTTP PUT of the file's bytes until `expiresAt`; with `size`, only a body of exactly that
   * many bytes (S3 checks the signed Content-Length, local storage the bytes it receives).
   */
  presignUpload(profileId: string, fileName: string, expiresAt: Date, size?: number): Promise<string>;
  /** every file of the profile, by name */
  list(profileId: string): Promise<StoredFile[]>;
  /** one file of the profile; null when there is none by that name */
  stat(profileId: string, fileName: string): Promise<StoredFile | null>;
  /** the file's bytes from `start` (0 by default), streamed; NotFound when there is no such file */
  read(profileId: string, fileName: string, opts?: { start?: number }): Promise<Readable>;
  /**
   * Stores bytes the service checked or made itself (a specimen image, its thumbnail) under `fileName`, which must be
   * in SERVICE_FOLDER (lib/files/names.ts): such files are never listed as data files. A file of that name is
   * replaced whole.
   */
  put(profileId: string, fileName: string, bytes: Uint8Array, contentType: string): Promise<void>;
  /** the file's bytes gone; a file that is not there is not an error (a removal may be repeated) */
  remove(profileId: string, fileName: string): Promise<void>;
  /** every file of the profile gone (the profile is being deleted) */
  removeAll(profileId: string): Promise<void>;
  /** throws when the storage cannot be reached or written (for /api/health) */
  check(): Promise<void>;
}

export const usesS3 = (config: Config) => Boolean(config.S3_ENDPOINT && config.S3_BUCKET);

/** An upload URL for one file name, as the store signed it. */
export interface PresignedUpload {
  name: string;
  url: string;
  method: 'PUT';
  expiresAt: Date;
  /** the size the URL takes, when one was declared */
  size?: number;
}
