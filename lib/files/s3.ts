import { Readable } from 'node:stream';
import {
  CreateBucketCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  NotFound as S3NotFound,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Logger } from 'pino';
import type { Config } from '@/lib/config';
import { NotFound } from '@/lib/errors';
import { assertServiceFile, SERVICE_FOLDER } from './names';
import type { FileStore, StoredFile } from './store';

/** The configured bucket; callers choose S3 only when one is configured (usesS3), so its absence is a bug. */
function bucketOf(config: Config): string {
  if (!config.S3_BUCKET) throw new Error('expected S3_BUCKET to be configured');
  return config.S3_BUCKET;
}

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

const buckets = new WeakMap<Config, Promise<void>>();

/**
 * The configured bucket, created when it does not exist yet (once per process and configuration; a failure is
 * not remembered, so the next call tries again). Another instance creating it at the same moment is fine.
 */
export function ensureBucket(config: Config): Promise<void> {
  let ready = buckets.get(config);
  if (!ready) {
    const client = s3Client(config);
    const Bucket = bucketOf(config);
    ready = (async () => {
      try {
        await client.send(new HeadBucketCommand({ Bucket }));
        return;
      } catch (err) {
        if (!isMissing(err)) throw err;
      }
      try {
        await client.send(
          new CreateBucketCommand({
            Bucket,
            // us-east-1 is the one region that takes no location constraint
            ...(config.S3_REGION !== 'us-east-1' && { CreateBucketConfiguration: { LocationConstraint: config.S3_REGION as never } }),
          }),
        );
      } catch (err) {
        if (!(err instanceof S3ServiceException && (err.name === 'BucketAlreadyOwnedByYou' || err.name === 'BucketAlreadyExists')))
          throw err;
      }
    })();
    ready.catch(() => buckets.delete(config));
    buckets.set(config, ready);
  }
  return ready;
}

/**
 * Objects live in the one configured bucket under `<profile_id>/<file name>`. An upload URL for a declared size
 * signs its Content-Length, so S3 itself refuses another length; an upload URL without one cannot bound the body,
 * so an object found larger than UPLOAD_MAX_BYTES is removed on sight and never listed, read or used: the end state
 * local storage reaches by refusing the upload.
 */
export function createS3Store(config: Config, logger?: Logger): FileStore {
  const bucket = bucketOf(config);
  const client = s3Client(config);
  const max = config.UPLOAD_MAX_BYTES;

  const removeOversized = async (key: string, size: number) => {
    logger?.warn({ bucket, key, size, max }, 'an object over UPLOAD_MAX_BYTES was uploaded without a declared size; removed');
    await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key })).catch((err: unknown) => {
      logger?.error({ err, bucket, key }, 'could not remove an oversized object');
    });
  };

  const stat = async (profileId: string, fileName: string): Promise<StoredFile | null> => {
    await ensureBucket(config);
    const key = objectKey(profileId, fileName);
    try {
      const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
      if ((head.ContentLength ?? 0) > max) {
        await removeOversized(key, head.ContentLength ?? 0);
        return null;
      }
      return {
        fileName,
        sizeInBytes: head.ContentLength ?? 0,
        lastUploaded: head.LastModified ?? new Date(0),
        etag: (head.ETag ?? '').replace(/"/g, ''),
      };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  };

  return {
    kind: 's3',
    async check() {
      // a fresh deployment's bucket is made here too, so the service is not `degraded` until its first upload
      await ensureBucket(config);
      await client.send(new HeadBucketCommand({ Bucket: bucket }));
    },
    async presignUpload(profileId, fileName, expiresAt, size) {
      await ensureBucket(config);
      const expiresIn = Math.max(1, Math.floor((expiresAt.getTime() - Date.now()) / 1000));
      const command = new PutObjectCommand({
        Bucket: bucket,
        Key: objectKey(profileId, fileName),
        ...(size !== undefined && { ContentLength: size }),
      });
      return getSignedUrl(client, command, { expiresIn });
    },
    async list(profileId) {
      await ensureBucket(config);
      const prefix = `${profileId}/`;
      const files: StoredFile[] = [];
      let token: string | undefined;
      try {
        do {
          const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
          for (const o of page.Contents ?? []) {
            // the service's own files (lib/files/names.ts) are not data files
            if (!o.Key || o.Key.endsWith('/') || o.Key.startsWith(`${prefix}${SERVICE_FOLDER}/`)) continue;
            if ((o.Size ?? 0) > max) {
              await removeOversized(o.Key, o.Size ?? 0);
              continue;
            }
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
    stat,
    async read(profileId, fileName, opts = {}) {
      if (!(await stat(profileId, fileName))) throw NotFound(`File ${fileName} is not in the profile's storage`);
      try {
        const start = opts.start ?? 0;
        const object = await client.send(
          new GetObjectCommand({ Bucket: bucket, Key: objectKey(profileId, fileName), ...(start > 0 && { Range: `bytes=${start}-` }) }),
        );
        if (!(object.Body instanceof Readable)) throw new Error(`S3 answered ${fileName} without a readable body`);
        return object.Body;
      } catch (err) {
        if (isMissing(err)) throw NotFound(`File ${fileName} is not in the profile's storage`);
        throw err;
      }
    },
    async put(profileId, fileName, bytes, contentType) {
      await ensureBucket(config);
      await client.send(
        new PutObjectCommand({
          Bucket: bucket,
          Key: objectKey(profileId, assertServiceFile(fileName)),
          Body: bytes,
          ContentLength: bytes.byteLength,
          ContentType: contentType,
        }),
      );
    },
    async remove(profileId, fileName) {
      // S3 answers a delete of a missing key with success, which is what a repeated removal needs
      await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: objectKey(profileId, fileName) }));
    },
    async removeAll(profileId) {
      const prefix = `${profileId}/`;
      let token: string | undefined;
      try {
        do {
          // a page holds at most 1,000 keys, which is also the most one DeleteObjects takes
          const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: prefix, ContinuationToken: token }));
          const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
          if (keys.length) {
            const answer = await client.send(new DeleteObjectsCommand({ Bucket: bucket, Delete: { Objects: keys, Quiet: true } }));
            const failed = answer.Errors ?? [];
            if (failed.length)
              throw new Error(`S3 kept ${failed.length} objects under ${prefix}: ${failed[0]?.Code} ${failed[0]?.Message}`);
          }
          token = page.IsTruncated ? page.NextContinuationToken : undefined;
        } while (token);
      } catch (err) {
        if (err instanceof S3ServiceException && err.name === 'NoSuchBucket') return;
        throw err;
      }
    },
  };
}

const isMissing = (err: unknown) =>
  err instanceof NoSuchKey ||
  err instanceof S3NotFound ||
  (err instanceof S3ServiceException && (err.name === 'NoSuchKey' || err.name === 'NotFound' || err.name === 'NoSuchBucket'));
