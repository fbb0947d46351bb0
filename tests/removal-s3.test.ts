import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents } from '@/db/schema';
import { s3Client } from '@/lib/files/s3';
import { createProfile } from './fixtures/studies/api';
import { uploadFiles } from './fixtures/studies/data-files';
import { createHarness, type Harness } from './support/harness';
import { expectProblem } from './support/http';
import { type S3Server, startS3Server } from './support/s3-server';

/**
 * Removal on S3 storage (a real S3-compatible server): deleting a data file deletes its object, and deleting a
 * profile deletes every object under its prefix, after the profile itself is gone.
 */

let s3: S3Server;
let h: Harness;
let owner: Awaited<ReturnType<Harness['user']>>;

beforeAll(async () => {
  s3 = await startS3Server();
  h = await createHarness(s3.env);
  owner = await h.user();
});
afterAll(async () => {
  await h.close();
  await s3.close();
});

const keysUnder = async (profileId: string) =>
  ((await s3Client(h.config).send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `${profileId}/` }))).Contents ?? []).map(
    (o) => o.Key,
  );

describe('removal on S3', () => {
  it('deletes a data file’s object, then a profile’s every object', async () => {
    const profileId = await createProfile(h, owner.key, 'Objects to remove');
    await uploadFiles(
      h,
      owner.key,
      profileId,
      new Map([
        ['keep.bin', Buffer.from('keep')],
        ['dir/drop.bin', Buffer.from('drop')],
      ]),
    );
    expect((await keysUnder(profileId)).sort()).toEqual([`${profileId}/dir/drop.bin`, `${profileId}/keep.bin`]);

    await expectProblem(await h.request(`/api/profiles/${profileId}/files/missing.bin`, { method: 'DELETE', key: owner.key }), 404);
    expect((await h.request(`/api/profiles/${profileId}/files/dir/drop.bin`, { method: 'DELETE', key: owner.key })).status).toBe(204);
    expect(await keysUnder(profileId)).toEqual([`${profileId}/keep.bin`]);
    const listed = (await (await h.request(`/api/profiles/${profileId}/files`, { key: owner.key })).json()) as { file_name: string }[];
    expect(listed.map((f) => f.file_name)).toEqual(['keep.bin']);

    expect((await h.request(`/api/profiles/${profileId}`, { method: 'DELETE', key: owner.key })).status).toBe(204);
    expect(await keysUnder(profileId)).toEqual([]);
    const [event] = await h.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.objectType, 'profile'), eq(auditEvents.objectId, profileId)));
    expect(event?.detail).toMatchObject({ title: 'Objects to remove', data_files: 1 });
  });
});
