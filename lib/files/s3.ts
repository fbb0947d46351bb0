import { ListObjectsV2Command, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '@/lib/config';
import type { FileStore, StoredFile } from './store';

const clients = new WeakMap<Config, S3Client>();

/** One client per configuration: it holds the connection pool. */
export function s3Client(config: Config): S3Client {
  let client = clients.get(config);
  if (!client) {
    client = new S3Client({
      endpoint: config.S3_ENDPOINT,
      region: config.S3_REGION,
      // S3-compatible stores (MinIO, Ceph, …) address buckets by path, not by host name
      forcePathStyle: true,
      ...(config.S3_ACCESS_KEY_ID &&
        config.S3_SECRET_ACCESS_KEY && {
          credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY },
        }),
      // otherwise presigned PUTs carry a checksum of an empty body, which a plain `curl -T` upload then fails
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    clients.set(config, client);
  }
  return client;
}

/** Objects live in the one configured bucket under `<profile_id>/<file name>`. */
export const objectKey = (profileId: string, fileName: string) => `${profileId}/${fileName}`;

export function createS3Store(config: Config): FileStore {
  const bucket = config.S3_BUCKET!;
  const client = s3Client(config);
  return {
    kind: 's3',
    async presignUpload(profileId, fileName, expiresAt) {
      const expiresIn = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
      const command = new PutObjectCommand({ Bucket: bucket, Key: objectKey(profileId, fileName) });
      return getSignedUrl(client, command, { expiresIn });
    },
    async list(profileId) {
      const prefix = `${profileId}/`;
      const files: StoredFile[] = [];
      let token: string | undefined;
      try {
        do {
          const page = await client.send(
            new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }),
          );
          for (const o of page.Contents ?? []) {
            if (!o.Key || o.Key.endsWith('/')) continue;
            files.push({
              fileName: o.Key.slice(prefix.length),
              sizeInBytes: o.Size ?? 0,
              lastUploaded: o.LastModified ?? new Date(0),
              etag: (o.ETag ?? '').replace(/"/g, ''),
            });
          }
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
      } catch (err) {
        // nothing uploaded yet to a bucket that does not exist: an empty listing, as in the reference
        if (err instanceof S3ServiceException && err.name === 'NoSuchBucket') return [];
        throw err;
      }
      return files.sort((a, b) => (a.fileName < b.fileName ? -1 : a.fileName > b.fileName ? 1 : 0));
    },
  };
}
