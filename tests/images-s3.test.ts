import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { createProfile, dtolRows, uploadManifest } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { type S3Server, startS3Server } from './support/s3-server';

/**
 * Specimen images with the profile's files in an S3 bucket (s3rver): stored and read back with their thumbnails,
 * and never listed among the profile's data files.
 */

let s3: S3Server;
let h: Harness;

beforeAll(async () => {
  s3 = await startS3Server();
  h = await createHarness(s3.env, { taxonomy: fakeTaxonomy() });
}, 120_000);
afterAll(async () => {
  await h?.close();
  await s3?.close();
});

describe('specimen images in S3', () => {
  it('are stored with their thumbnails, read back whole, and kept out of the data files', async () => {
    const owner = await h.user({ memberOf: ['dtol'] });
    const profileId = await createProfile(h, owner.key, { title: 'Images in S3', description: '', type: 'dtol' });
    const rows = dtolRows(1, 90);
    const { manifest_id } = await uploadManifest(h, owner.key, profileId, rows, { validateHere: true });
    const jpeg = await sharp({ create: { width: 500, height: 300, channels: 3, background: '#225588' } })
      .jpeg()
      .toBuffer();
    const fd = new FormData();
    fd.append('files', new File([new Uint8Array(jpeg)], `${rows[0]!.SPECIMEN_ID}-1.jpg`));
    const res = await h.request(`/api/manifest/${manifest_id}/images`, { method: 'POST', key: owner.key, body: fd });
    expect(res.status, await res.clone().text()).toBe(201);
    const [image] = ((await res.json()) as { data: { url: string; thumbnail_url: string }[] }).data;
    const bytes = Buffer.from(await (await h.request(image!.url, { key: owner.key })).arrayBuffer());
    expect(bytes.equals(jpeg)).toBe(true);
    const thumb = await sharp(Buffer.from(await (await h.request(image!.thumbnail_url, { key: owner.key })).arrayBuffer())).metadata();
    expect([thumb.format, thumb.width, thumb.height]).toEqual(['jpeg', 256, 154]);
    const files = (await (await h.request(`/api/profiles/${profileId}/files`, { key: owner.key })).json()) as unknown[];
    expect(files).toEqual([]);
  });
});
