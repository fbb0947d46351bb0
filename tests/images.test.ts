import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditEvents, samples, specimenImages } from '@/db/schema';
import { fileStore } from '@/lib/files/files';
import { buildTaxonRecords, fakeTaxonomy } from './fixtures/manifests/taxa';
import { createProfile, dtolRows, uploadManifest, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';
import { startUploadAreaServer, type UploadAreaServer } from './support/repository-server/ftp';

/**
 * Specimen images (lib/images): uploaded beside a confirmed manifest, checked by their content, stored with
 * thumbnails, and after the specimen's registration at ENA sent to the BioImage Archive's upload area (a local FTP
 * server) as `{biosampleAccession}_{n}.{ext}`, each once; sample/with_submitted_bioimages then lists the sample.
 */

const BIOIMAGE = { username: 'bia-broker', password: 'bia-password' };
const FOLDER = 'upload/a1b2c3d4-bia-submitter';
const json = { 'content-type': 'application/json' };

let server: RepositoryServer;
let archive: UploadAreaServer;
let h: Harness;
let manager: Awaited<ReturnType<Harness['user']>>;
let stranger: Awaited<ReturnType<Harness['user']>>;
let manifestId: string;
let specimenIds: string[];

/** A small real image of the format, in colour, so its thumbnail can be read back. */
const imageOf = (format: 'jpeg' | 'png' | 'tiff', width = 640, height = 480) =>
  sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 60 } } })
    .toFormat(format)
    .toBuffer();

const form = (files: { name: string; bytes: Uint8Array }[]) => {
  const fd = new FormData();
  for (const f of files) fd.append('files', new File([new Uint8Array(f.bytes)], f.name));
  return fd;
};

interface Image {
  id: string;
  file_name: string;
  specimen_id: string;
  url: string;
  thumbnail_url: string;
  state: string;
  submitted: boolean;
  bioimage_name: string | null;
  status_detail: string | null;
}

const manifestImages = async (key = manager.key) =>
  (await (await h.request(`/api/manifest/${manifestId}/images`, { key })).json()) as { number_found: number; data: Image[] };

beforeAll(async () => {
  server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  archive = await startUploadAreaServer({ [BIOIMAGE.username]: BIOIMAGE.password });
  h = await createHarness(
    {
      ENA_WEBIN_URL: server.enaUrl,
      ENA_USERNAME: server.credentials.ena.username,
      ENA_PASSWORD: server.credentials.ena.password,
      // the archive gives each submitter a folder of their own
      BIOIMAGE_FTP_URL: `${archive.url}/${FOLDER}`,
      BIOIMAGE_USERNAME: BIOIMAGE.username,
      BIOIMAGE_PASSWORD: BIOIMAGE.password,
    },
    { workers: true, taxonomy: fakeTaxonomy() },
  );
  manager = await h.user({ username: 'images-lead', memberOf: ['dtol'], managerOf: ['dtol'] });
  stranger = await h.user({ username: 'images-stranger' });
  const profileId = await createProfile(h, manager.key, { title: 'Wytham images', description: '', type: 'dtol' });
  const rows = dtolRows(2, 40);
  ({ manifest_id: manifestId } = await uploadManifest(h, manager.key, profileId, rows));
  specimenIds = rows.map((r) => r.SPECIMEN_ID ?? '');
  expect(new Set(specimenIds).size).toBe(2);
}, 120_000);
afterAll(async () => {
  await h?.close();
  await archive?.close();
  await server?.close();
});

describe('images beside a confirmed manifest', () => {
  it('stores images named for two specimens, any case, with thumbnails, and shows them to the uploader only', async () => {
    const [a, b] = specimenIds as [string, string];
    const jpeg = await imageOf('jpeg');
    const png = await imageOf('png', 300, 900);
    const tiff = await imageOf('tiff', 200, 200);
    const res = await h.request(`/api/manifest/${manifestId}/images`, {
      method: 'POST',
      key: manager.key,
      body: form([
        { name: `${a}-1.jpg`, bytes: jpeg },
        { name: `${a.toLowerCase()}-2.png`, bytes: png },
        { name: `${b}-1.tif`, bytes: tiff },
      ]),
    });
    expect(res.status, await res.clone().text()).toBe(201);
    const stored = (await res.json()) as { number_found: number; data: Image[] };
    expect(stored.data.map((i) => [i.file_name, i.specimen_id])).toEqual([
      [`${a}-1.jpg`, a],
      [`${a.toLowerCase()}-2.png`, a],
      [`${b}-1.tif`, b],
    ]);
    // each image's bytes as sent, and a JPEG thumbnail at most 256 pixels on its longer side, upright
    for (const [image, bytes] of [
      [stored.data[0]!, jpeg],
      [stored.data[1]!, png],
    ] as const) {
      const original = await h.request(image.url, { key: manager.key });
      expect(original.status).toBe(200);
      expect(Buffer.from(await original.arrayBuffer()).equals(bytes)).toBe(true);
      const thumb = await h.request(image.thumbnail_url, { key: manager.key });
      expect(thumb.headers.get('content-type')).toBe('image/jpeg');
      const meta = await sharp(Buffer.from(await thumb.arrayBuffer())).metadata();
      expect(meta.format).toBe('jpeg');
      expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(256);
    }
    // not yet sent: their specimens wait for ENA, and the answer says so
    expect(stored.data.every((i) => i.state === 'waiting' && !i.submitted && i.bioimage_name === null)).toBe(true);
    expect(stored.data[0]!.status_detail).toContain('registration at ENA');
    // someone who may not see the samples is told what an unknown image is told
    expect((await h.request(stored.data[0]!.url, { key: stranger.key })).status).toBe(404);
    expect((await h.request(`/api/manifest/${manifestId}/images`, { key: stranger.key })).status).toBe(404);
  });

  it('refuses an image named for no specimen, and a text file named .jpg, naming them, and stores nothing', async () => {
    const before = await h.database.db.select().from(specimenImages).where(eq(specimenImages.manifestId, manifestId));
    const jpeg = await imageOf('jpeg');
    const unnamed = await h.request(`/api/manifest/${manifestId}/images`, {
      method: 'POST',
      key: manager.key,
      body: form([
        { name: `${specimenIds[1]}-2.jpg`, bytes: jpeg },
        { name: 'NHMUK999999999-1.jpg', bytes: jpeg },
      ]),
    });
    expect(unnamed.status).toBe(400);
    expect(unnamed.headers.get('content-type')).toContain('application/problem+json');
    expect(((await unnamed.json()) as { detail: string }).detail).toContain('NHMUK999999999-1.jpg');

    const text = await h.request(`/api/manifest/${manifestId}/images`, {
      method: 'POST',
      key: manager.key,
      body: form([{ name: `${specimenIds[1]}-3.jpg`, bytes: new TextEncoder().encode('not a picture, only words\n') }]),
    });
    expect(text.status).toBe(422);
    expect(((await text.json()) as { detail: string }).detail).toContain(`${specimenIds[1]}-3.jpg is not a JPEG image`);

    const after = await h.database.db.select().from(specimenImages).where(eq(specimenImages.manifestId, manifestId));
    expect(after.map((r) => r.id).sort()).toEqual(before.map((r) => r.id).sort());
    expect((await manifestImages()).number_found).toBe(3);
  });

  it('replaces an image not yet sent when one of the same name is uploaded again', async () => {
    const [, b] = specimenIds as [string, string];
    const tiff = await imageOf('tiff', 120, 80);
    const res = await h.request(`/api/manifest/${manifestId}/images`, {
      method: 'POST',
      key: manager.key,
      body: form([{ name: `${b}-1.tif`, bytes: tiff }]),
    });
    expect(res.status).toBe(201);
    const images = (await manifestImages()).data.filter((i) => i.specimen_id === b);
    expect(images.map((i) => i.file_name)).toEqual([`${b}-1.tif`]);
    const original = await h.request(images[0]!.url, { key: manager.key });
    expect(Buffer.from(await original.arrayBuffer()).equals(tiff)).toBe(true);
  });
});

describe('after registration, the BioImage Archive', () => {
  it('holds each image once as {biosampleAccession}_{n}.{ext}, and sample/with_submitted_bioimages lists the sample', async () => {
    const ids = (await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifestId))).map((r) => r.id);
    const decided = await h.request('/api/sample/decision', {
      method: 'POST',
      key: manager.key,
      headers: json,
      body: JSON.stringify({ svc_ids: ids, decision: 'accept' }),
    });
    expect(decided.status).toBe(200);
    const images = await waitFor(manifestImages, (r) => r.data.every((i) => i.submitted), 'the images at the BioImage Archive', 600);
    const [a] = specimenIds as [string, string];
    // the images go as soon as their specimen has its accession; the samples get theirs in the registration's next step
    const [sample] = await waitFor(
      () => h.database.db.select().from(samples).where(eq(samples.specimenId, a)).orderBy(samples.id),
      (rows) => rows.length > 0 && rows.every((r) => r.biosampleAccession !== null),
      'the accessions of the samples of the specimen',
      600,
    );
    if (!sample) throw new Error('no sample of the specimen');
    const accession = sample.biosampleAccession;
    expect(accession).toMatch(/^SAMEA\d+$/);
    const ofA = images.data.filter((i) => i.specimen_id === a);
    expect(ofA.map((i) => i.bioimage_name)).toEqual([
      `${sample.sampleSameAs ?? sample.sampleDerivedFrom}_1.jpg`,
      `${sample.sampleSameAs ?? sample.sampleDerivedFrom}_2.png`,
    ]);

    // the area holds each file once, whole, and nothing else
    const held = (await readdir(path.join(archive.folderOf(BIOIMAGE.username), FOLDER))).sort();
    expect(held).toEqual(images.data.map((i) => i.bioimage_name).sort());
    for (const image of images.data) {
      const bytes = Buffer.from(await (await h.request(image.url, { key: manager.key })).arrayBuffer());
      expect((await archive.fileOf(BIOIMAGE.username, `${FOLDER}/${image.bioimage_name!}`))?.size).toBe(bytes.length);
    }
    const sends = archive.stored.map((s) => s.path);
    expect(new Set(sends).size).toBe(sends.length);

    // the sample's own list, and the public query by the spec's names (from/to) and the reference's (d_from/d_to)
    const listed = (await (await h.request(`/api/sample/${sample.id}/images`, { key: manager.key })).json()) as { data: Image[] };
    expect(listed.data.map((i) => i.submitted)).toEqual([true, true]);
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    for (const query of ['project=dtol', `project=dtol&from=${today}&to=${tomorrow}`, `project=DTOL&d_from=${today}&d_to=${tomorrow}`]) {
      const found = (await (await h.request(`/api/sample/with_submitted_bioimages?${query}`)).json()) as {
        number_found: number;
        data: Record<string, string>[];
      };
      expect(found.data.map((d) => d.SPECIMEN_ID).sort(), query).toEqual([...specimenIds].sort());
      expect(found.data[0]!.last_bioimage_submitted).toMatch(/^\d{4}-\d\d-\d\dT/);
    }
    // sent or not, someone who may not see the sample in full is told what an unknown image is told
    expect((await h.request(ofA[0]!.thumbnail_url, { key: stranger.key })).status).toBe(404);
    expect((await h.request(`/api/sample/${sample.id}/images`, { key: stranger.key })).status).toBe(404);
  }, 120_000);

  it('sends a later image of a registered specimen as the next of its sequence', async () => {
    const [a] = specimenIds as [string, string];
    const res = await h.request(`/api/manifest/${manifestId}/images`, {
      method: 'POST',
      key: manager.key,
      body: form([{ name: `${a}-1.jpg`, bytes: await imageOf('jpeg', 100, 100) }]),
    });
    expect(res.status).toBe(201);
    const images = await waitFor(manifestImages, (r) => r.data.every((i) => i.submitted), 'the later image', 600);
    const names = images.data.filter((i) => i.specimen_id === a).map((i) => i.bioimage_name!.replace(/^SAMEA\d+/, ''));
    expect(names).toEqual(['_1.jpg', '_2.png', '_3.jpg']);
  }, 60_000);

  it('removes the images of a manifest whose last sample is deleted, their stored bytes and thumbnails with them', async () => {
    const profileId = await createProfile(h, manager.key, { title: 'Wytham images withdrawn', description: '', type: 'dtol' });
    const rows = dtolRows(1, 90);
    const { manifest_id } = await uploadManifest(h, manager.key, profileId, rows);
    const specimen = rows[0]!.SPECIMEN_ID ?? '';
    const upload = await h.request(`/api/manifest/${manifest_id}/images`, {
      method: 'POST',
      key: manager.key,
      body: form([{ name: `${specimen}-1.jpg`, bytes: await imageOf('jpeg', 120, 80) }]),
    });
    expect(upload.status, await upload.clone().text()).toBe(201);
    const [image] = ((await upload.json()) as { data: Image[] }).data;
    const [stored] = await h.database.db.select().from(specimenImages).where(eq(specimenImages.id, image!.id));
    const store = fileStore(h.deps);
    const isStored = (name: string) =>
      store.read(profileId, name).then(
        (bytes) => {
          bytes.destroy();
          return true;
        },
        () => false,
      );
    expect(await isStored(stored!.storedName)).toBe(true);
    expect(await isStored(stored!.thumbnailName)).toBe(true);

    const [sample] = await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id));
    const removed = await h.request(`/api/sample/${sample!.id}`, { method: 'DELETE', key: manager.key });
    expect(removed.status, await removed.clone().text()).toBe(204);
    expect(await h.database.db.select().from(specimenImages).where(eq(specimenImages.manifestId, manifest_id))).toEqual([]);
    expect(await isStored(stored!.storedName)).toBe(false);
    expect(await isStored(stored!.thumbnailName)).toBe(false);
    expect((await h.request(image!.url, { key: manager.key })).status).toBe(404);
    // the sample's removal event says its manifest's images went with it
    const [event] = await h.database.db.select().from(auditEvents).where(eq(auditEvents.objectId, sample!.id));
    expect(event?.detail).toMatchObject({ manifest_removed: 'yes', images_removed: 1 });
  });
});
