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
  /** a URL that accepts one HTTP PUT of the file's bytes until `expiresAt` */
  presignUpload(profileId: string, fileName: string, expiresAt: Date): Promise<string>;
  /** every file of the profile, by name */
  list(profileId: string): Promise<StoredFile[]>;
}

export const usesS3 = (config: Config) => Boolean(config.S3_ENDPOINT && config.S3_BUCKET);
