import type { DataFile, UploadUrl } from './contract';
import type { PresignedUpload, StoredFile } from './store';

export const fileJson = (f: StoredFile): DataFile => ({
  file_name: f.fileName,
  size_in_bytes: f.sizeInBytes,
  last_uploaded: f.lastUploaded.toISOString(),
  S3_ETag: f.etag,
});

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** An upload URL, with the curl command that uses it (quoted for a POSIX shell) and the upload limit. */
export const uploadUrlJson = (u: PresignedUpload, maxBytes: number): UploadUrl => ({
  name: u.name,
  file_name: u.name,
  url: u.url,
  method: u.method,
  expires: u.expiresAt.toISOString(),
  ...(u.size !== undefined && { size: u.size }),
  max_bytes: maxBytes,
  curl: `curl -T ${shellQuote(u.name)} ${shellQuote(u.url)}`,
});
