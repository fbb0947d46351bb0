import { randomBytes } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_MAX_BYTES } from '@/lib/images/limits';
import { fakeTaxonomy } from './fixtures/manifests/taxa';
import { createProfile, dtolRows, uploadManifest } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { expectProblem } from './support/http';

/**
 * Specimen images as cameras and microscopes make them: a 12-megapixel JPEG of about 11 MB with its EXIF, and an
 * uncompressed 40 MB TIFF, taken whole (up to IMAGE_MAX_BYTES each), with thumbnails; one over the limit refused in
 * words. A list of exempt paths once left every such photograph refused at the API's 2 MB body limit.
 */

let h: Harness;
let owner: Awaited<ReturnType<Harness['user']>>;
let manifestId: string;
let specimen: string;

beforeAll(async () => {
  h = await createHarness({}, { workers: true, taxonomy: fakeTaxonomy() });
  owner = await h.user({ memberOf: ['dtol'] });
  const profileId = await createProfile(h, owner.key, { title: 'Camera photographs', description: '', type: 'dtol' });
  const rows = dtolRows(1, 70);
  manifestId = (await uploadManifest(h, owner.key, profileId, rows)).manifest_id;
  specimen = rows[0]!.SPECIMEN_ID!;
}, 120_000);
afterAll(() => h?.close());

/** Noise: what a sensor's detail is to a compressor, so the files are as large as real ones. */
const noise = (width: number, height: number) => sharp(randomBytes(width * height * 3), { raw: { width, height, channels: 3 } });

const send = (files: { name: string; bytes: Buffer }[]) => {
  const fd = new FormData();
  for (const f of files) fd.append('files', new File([new Uint8Array(f.bytes)], f.name));
  return h.request(`/api/manifest/${manifestId}/images`, { method: 'POST', key: owner.key, body: fd });
};

describe('a camera’s photographs', () => {
  it('takes a 12-megapixel JPEG and a 40 MB TIFF whole, with their thumbnails', async () => {
    const photo = await noise(4000, 3000)
      .jpeg({ quality: 92 })
      .withExif({ IFD0: { Make: 'Canon', Model: 'EOS 5D Mark IV' } })
      .toBuffer();
    const scan = await noise(4000, 3334).tiff({ compression: 'none' }).toBuffer();
    expect(photo.length).toBeGreaterThan(10 * 1024 * 1024);
    expect(scan.length).toBeGreaterThan(40 * 1000 * 1000);

    const res = await send([
      { name: `${specimen}-dorsal.jpg`, bytes: photo },
      { name: `${specimen}-scan.tif`, bytes: scan },
    ]);
    expect(res.status, await res.clone().text()).toBe(201);
    const { data } = (await res.json()) as { data: { url: string; thumbnail_url: string; file_name: string }[] };
    expect(data.map((i) => i.file_name)).toEqual([`${specimen}-dorsal.jpg`, `${specimen}-scan.tif`]);
    for (const [image, bytes] of [
      [data[0]!, photo],
      [data[1]!, scan],
    ] as const) {
      const original = Buffer.from(await (await h.request(image.url, { key: owner.key })).arrayBuffer());
      expect(original.equals(bytes)).toBe(true);
      const thumb = await sharp(Buffer.from(await (await h.request(image.thumbnail_url, { key: owner.key })).arrayBuffer())).metadata();
      expect(Math.max(thumb.width ?? 0, thumb.height ?? 0)).toBe(256);
    }
  }, 60_000);

  it('refuses an image over the limit, saying the limit, and stores nothing', async () => {
    const before = (await (await h.request(`/api/manifest/${manifestId}/images`, { key: owner.key })).json()) as { number_found: number };
    const huge = await noise(4200, 4200).tiff({ compression: 'none' }).toBuffer();
    expect(huge.length).toBeGreaterThan(IMAGE_MAX_BYTES);
    const body = await expectProblem(await send([{ name: `${specimen}-huge.tif`, bytes: huge }]), 413);
    expect(body.detail).toMatch(new RegExp(`^${specimen}-huge\\.tif is 50\\.5 MB; the limit is 50 MB an image\\.`));
    const after = (await (await h.request(`/api/manifest/${manifestId}/images`, { key: owner.key })).json()) as { number_found: number };
    expect(after.number_found).toBe(before.number_found);
  }, 60_000);
});
