import { createHash, randomBytes } from 'node:crypto';
import { HeadBucketCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileStore } from '@/lib/files/files';
import { s3Client } from '@/lib/files/s3';
import { signUpload } from '@/lib/files/signing';
import { bytesOf, createProfile, definition, registerSamples, SAMPLES, studiesApi } from './fixtures/studies/api';
import { fillTemplate, fixtureComponents, workbookBytes } from './fixtures/studies/fill';
import { createHarness, type Harness } from './support/harness';
import { expectProblem, jsonBody } from './support/http';
import { type S3Server, startS3Server } from './support/s3-server';

/**
 * The S3 storage mode against a real S3-compatible server (s3rver) started here without a bucket: the service
 * creates it, hands out presigned PUT URLs (with the declared size signed), lists, reads and ranges objects, and
 * keeps UPLOAD_MAX_BYTES.
 */

const MAX = 64 * 1024;
let s3: S3Server;
let h: Harness;
let owner: Awaited<ReturnType<Harness['user']>>;
let profileId: string;

beforeAll(async () => {
  s3 = await startS3Server();
  h = await createHarness({ ...s3.env, UPLOAD_MAX_BYTES: String(MAX) });
  owner = await h.user();
  profileId = await createProfile(h, owner.key, 'Objects in S3');
});
afterAll(async () => {
  await h.close();
  await s3.close();
});

const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');
const store = () => fileStore({ db: h.database.db, config: h.config });

interface UploadUrl {
  name: string;
  url: string;
  size?: number;
  max_bytes: number;
}

async function presign(files: { name: string; size?: number }[]): Promise<UploadUrl[]> {
  const body = {
    file_names: files.map((f) => f.name),
    ...(files.every((f) => f.size !== undefined) && { file_sizes: files.map((f) => f.size!) }),
  };
  const res = await h.request(`/api/profiles/${profileId}/files/presignedurls`, { ...jsonBody('POST', body), key: owner.key });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as UploadUrl[];
}

const put = (url: string, bytes: Uint8Array) => fetch(url, { method: 'PUT', body: bytes as Uint8Array<ArrayBuffer> });

describe('S3 storage', () => {
  it('answers the health check as ok on a fresh deployment, making the bucket that does not exist yet', async () => {
    const fresh = await startS3Server();
    const other = await createHarness(fresh.env);
    try {
      const res = await other.request('/api/health');
      const health = (await res.json()) as { status: string; storage: { ok: boolean; kind: string } };
      expect(health.storage).toMatchObject({ ok: true, kind: 's3' });
      await s3Client(other.config).send(new HeadBucketCommand({ Bucket: fresh.env.S3_BUCKET }));
    } finally {
      await other.close();
      await fresh.close();
    }
  });

  it('creates its bucket on first use, then takes presigned PUTs that the profile lists with size and MD5 ETag', async () => {
    await expect(s3Client(h.config).send(new HeadBucketCommand({ Bucket: s3.bucket }))).rejects.toThrow();
    const a = randomBytes(5000);
    const b = randomBytes(7000);
    const urls = await presign([{ name: 'run1_R1.fastq.gz' }, { name: 'dir/run1_R2.fastq.gz' }]);
    expect(urls.map((u) => new URL(u.url).pathname)).toEqual([
      `/${s3.bucket}/${profileId}/run1_R1.fastq.gz`,
      `/${s3.bucket}/${profileId}/dir/run1_R2.fastq.gz`,
    ]);
    expect(urls[0]!.max_bytes).toBe(MAX);
    await s3Client(h.config).send(new HeadBucketCommand({ Bucket: s3.bucket }));
    expect((await put(urls[0]!.url, a)).status).toBe(200);
    expect((await put(urls[1]!.url, b)).status).toBe(200);

    const res = await h.request(`/api/profiles/${profileId}/files`, { key: owner.key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual([
      { file_name: 'dir/run1_R2.fastq.gz', size_in_bytes: 7000, last_uploaded: expect.any(String), S3_ETag: md5(b), used_by: [] },
      { file_name: 'run1_R1.fastq.gz', size_in_bytes: 5000, last_uploaded: expect.any(String), S3_ETag: md5(a), used_by: [] },
    ]);
  });

  it('reads a file back whole and from an offset, and says NotFound for a missing one', async () => {
    const bytes = randomBytes(10_000);
    const [u] = await presign([{ name: 'reads.fastq.gz', size: bytes.length }]);
    expect((await put(u!.url, bytes)).status).toBe(200);
    const collect = async (r: AsyncIterable<unknown>) => {
      const parts: Buffer[] = [];
      for await (const c of r) parts.push(c as Buffer);
      return Buffer.concat(parts);
    };
    expect((await store().stat(profileId, 'reads.fastq.gz'))?.sizeInBytes).toBe(bytes.length);
    expect((await collect(await store().read(profileId, 'reads.fastq.gz'))).equals(bytes)).toBe(true);
    expect((await collect(await store().read(profileId, 'reads.fastq.gz', { start: 6000 }))).equals(bytes.subarray(6000))).toBe(true);
    expect(await store().stat(profileId, 'nothing.fastq.gz')).toBeNull();
    await expect(store().read(profileId, 'nothing.fastq.gz')).rejects.toMatchObject({ code: 'not_found' });
  });

  it('signs a declared size into the URL, and refuses with 413 a declared size over the limit, making no URL', async () => {
    const [u] = await presign([{ name: 'sized.fastq.gz', size: 1234 }]);
    expect(u!.size).toBe(1234);
    // real S3 refuses a body of another length because content-length is signed (s3rver does not check V4 signatures)
    expect(new URL(u!.url).searchParams.get('X-Amz-SignedHeaders')).toBe('content-length;host');
    const res = await h.request(`/api/profiles/${profileId}/files/presignedurls`, {
      ...jsonBody('POST', { file_names: ['ok.fastq.gz', 'huge.fastq.gz'], file_sizes: [10, MAX + 1] }),
      key: owner.key,
    });
    const body = await expectProblem(res, 413);
    expect(body.detail).toBe(`Larger than the upload limit of ${MAX} bytes: huge.fastq.gz (${MAX + 1}).`);
    await expectProblem(
      await h.request(`/api/profiles/${profileId}/files/presignedurls?file_names=a,b&file_sizes=1`, { key: owner.key }),
      400,
    );
    await expectProblem(
      await h.request(`/api/profiles/${profileId}/files/presignedurls?file_names=a&file_sizes=-4`, { key: owner.key }),
      400,
    );
  });

  it('removes an object over the limit that was uploaded without a declared size, and never lists or reads it', async () => {
    const [u] = await presign([{ name: 'too-big.fastq.gz' }]);
    expect((await put(u!.url, randomBytes(MAX + 10))).status).toBe(200);
    const listed = (await (await h.request(`/api/profiles/${profileId}/files`, { key: owner.key })).json()) as { file_name: string }[];
    expect(listed.map((f) => f.file_name)).not.toContain('too-big.fastq.gz');
    const left = await s3Client(h.config).send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${profileId}/too-big` }));
    expect(left.Contents ?? []).toEqual([]);
    // placed behind the service's back, it is not read either
    await s3Client(h.config).send(
      new PutObjectCommand({ Bucket: s3.bucket, Key: `${profileId}/late.fastq.gz`, Body: randomBytes(MAX + 1) }),
    );
    expect(await store().stat(profileId, 'late.fastq.gz')).toBeNull();
  });

  it('does not take uploads at the local endpoint', async () => {
    const expires = Math.floor(Date.now() / 1000) + 600;
    const signature = signUpload(h.config.authSecret, { method: 'PUT', profileId, fileName: 'a.txt', expires });
    await expectProblem(
      await h.request(`/api/uploads/${profileId}/a.txt?expires=${expires}&signature=${signature}`, { method: 'PUT', body: 'x' }),
      404,
    );
  });

  it('answers 404 for another user’s profile', async () => {
    const other = await h.user();
    await expectProblem(await h.request(`/api/profiles/${profileId}/files`, { key: other.key }), 404);
    await expectProblem(await h.request(`/api/profiles/${profileId}/files/presignedurls?file_names=x`, { key: other.key }), 404);
  });

  it('lets a study upload warn only about files not in the bucket', async () => {
    await registerSamples(h, profileId);
    const api = studiesApi(h, owner.key, profileId);
    const def = await definition(h, 'svc_single_cell', 'version_dwc_sc_rnaseq');
    const components = fixtureComponents(def, { studyId: 'S3STUDY', samples: SAMPLES });
    const uploaded = components.file![0]!.read_1_file!;
    const [u] = await presign([{ name: uploaded }]);
    expect((await put(u!.url, randomBytes(100))).status).toBe(200);
    const tpl = await bytesOf(await api.template('svc_single_cell', 'version_dwc_sc_rnaseq'));
    const res = await api.upload('svc_single_cell', 'version_dwc_sc_rnaseq', await workbookBytes(await fillTemplate(tpl, def, components)));
    expect(res.status).toBe(200);
    const { warnings } = (await res.json()) as { warnings: { value: string }[] };
    expect(warnings.length).toBeGreaterThan(0);
    expect(warnings.map((w) => w.value)).not.toContain(uploaded);
  });
});
