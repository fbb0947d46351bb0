import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/**
 * An S3-compatible server for the tests (s3rver, objects in a temporary folder), with no bucket yet: the service
 * must create its own. Its default account is S3RVER/S3RVER.
 */
export interface S3Server {
  endpoint: string;
  bucket: string;
  /** the settings that point the service at it */
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'rmb-data'): Promise<S3Server> {
  const directory = await mkdtemp(path.join(tmpdir(), 'rmb-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    bucket,
    env: { S3_ENDPOINT: endpoint, S3_BUCKET: bucket, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
