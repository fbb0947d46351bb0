import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { expect } from 'vitest';
import { samples } from '@/db/schema';
import type { Harness } from '../support/harness';
import { type Case, keys, UNKNOWN_UUID, w } from './world';

/** Specimen images of the world's DTOL manifest: one stored beforehand, for the reads. */
const images = { specimen: '', imageId: '', jpeg: Buffer.alloc(0) };

export async function buildImageWorld(h: Harness): Promise<void> {
  const [pending] = await h.database.db.select().from(samples).where(eq(samples.id, w.pendingSvcId));
  images.specimen = pending!.specimenId!;
  images.jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#557733' } })
    .jpeg()
    .toBuffer();
  const res = await h.request(`/api/manifest/${w.manifestId}/images`, {
    method: 'POST',
    key: keys.owner,
    body: imageForm(`${images.specimen}-1.jpg`)(),
  });
  expect(res.status).toBe(201);
  images.imageId = ((await res.json()) as { data: { id: string }[] }).data[0]!.id;
}

const imageForm =
  (name: string, bytes: Uint8Array = images.jpeg) =>
  () => {
    const fd = new FormData();
    fd.append('files', new File([new Uint8Array(bytes)], name));
    return fd;
  };

export function imageCases(): Record<string, Case[]> {
  const upload = `/api/manifest/${w.manifestId}/images`;
  return {
    'POST /api/manifest/{manifest_id}/images': [
      { name: 'stored', path: upload, key: 'owner', form: imageForm(`${images.specimen}-2.jpg`), status: 201 },
      { name: 'no specimen', path: upload, key: 'owner', form: imageForm('NOSUCHSPECIMEN-1.jpg'), status: 400 },
      {
        name: 'text named .jpg',
        path: upload,
        key: 'owner',
        form: imageForm(`${images.specimen}-3.jpg`, new TextEncoder().encode('words')),
        status: 422,
      },
      { name: 'another’s', path: upload, key: 'stranger', form: imageForm(`${images.specimen}-2.jpg`), status: 404 },
      { name: 'unknown manifest', path: `/api/manifest/${UNKNOWN_UUID}/images`, key: 'owner', form: imageForm('A-1.jpg'), status: 404 },
      { name: 'not a form', path: upload, key: 'owner', json: { files: [] }, status: 415 },
    ],
    'GET /api/manifest/{manifest_id}/images': [
      { name: 'list', path: upload, key: 'owner', status: 200 },
      { name: 'another’s', path: upload, key: 'stranger', status: 404 },
    ],
    'GET /api/sample/{svc_id}/images': [
      { name: 'list', path: `/api/sample/${w.pendingSvcId}/images`, key: 'owner', status: 200 },
      { name: 'another’s', path: `/api/sample/${w.pendingSvcId}/images`, key: 'stranger', status: 404 },
    ],
    'GET /api/images/{image_id}': [
      { name: 'bytes', path: `/api/images/${images.imageId}`, key: 'owner', status: 200 },
      { name: 'another’s', path: `/api/images/${images.imageId}`, key: 'stranger', status: 404 },
      { name: 'unknown', path: `/api/images/${UNKNOWN_UUID}`, key: 'owner', status: 404 },
    ],
    'GET /api/images/{image_id}/thumbnail': [
      { name: 'thumbnail', path: `/api/images/${images.imageId}/thumbnail`, key: 'owner', status: 200 },
      { name: 'another’s', path: `/api/images/${images.imageId}/thumbnail`, key: 'stranger', status: 404 },
    ],
  };
}
