import { rmSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { currentDefinition } from '@/lib/manifests';
import { validRows } from './fixtures/manifests/generate';
import { buildTaxonRecords } from './fixtures/manifests/taxa';
import { toXlsx } from './fixtures/manifests/workbook';
import { waitFor } from './support/flows';
import { freshTestDatabase } from './support/harness';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';
import { startUploadAreaServer, type UploadAreaServer } from './support/repository-server/ftp';
import { type ServiceProcess, serviceDataDir, startService } from './support/service-process';

/**
 * The service as a process, killed with SIGKILL while it sends a specimen image to the BioImage Archive (part of
 * the file in the upload area), and started again: each image ends in the area once, whole, under the name chosen
 * before the crash, and the next one follows it in the specimen's sequence.
 */

const ADMIN = { username: 'images-crash-admin', password: 'images-crash-admin-password' };
const BIOIMAGE = { username: 'bia-crash', password: 'bia-crash-password' };
const json = { 'content-type': 'application/json' };

let server: RepositoryServer;
let archive: UploadAreaServer;

beforeAll(async () => {
  server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  archive = await startUploadAreaServer({ [BIOIMAGE.username]: BIOIMAGE.password });
}, 120_000);
afterAll(async () => {
  await archive?.close();
  await server?.close();
});

interface Image {
  file_name: string;
  specimen_id: string;
  url: string;
  submitted: boolean;
  bioimage_name: string | null;
}

describe('kill -9 while an image is on its way to the BioImage Archive', () => {
  it('resumes: {SAMEA…}_1.jpg and _2.png each in the area once, whole', async () => {
    const db = await freshTestDatabase();
    const dataDir = await serviceDataDir('rmb-images-crash-', db.url ? undefined : inject('pgliteTemplate'));
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      ...(db.url && { DATABASE_URL: db.url }),
      NEXTAUTH_SECRET: 'images-crash-secret',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ...server.enaSettings,
      ENA_FTP_URL: server.ftpUrl,
      TOLID_URL: 'http://127.0.0.1:9/tolid',
      BIOIMAGE_FTP_URL: archive.url,
      BIOIMAGE_USERNAME: BIOIMAGE.username,
      BIOIMAGE_PASSWORD: BIOIMAGE.password,
    };
    let svc: ServiceProcess | null = null;
    try {
      svc = await startService({ ...env, RMB_PAUSE_AT: 'bioimages:mid-transfer' });
      const url = svc.url;
      const keyRes = await fetch(`${url}/api/apiKey`, { method: 'POST', headers: json, body: JSON.stringify(ADMIN) });
      const key = ((await keyRes.json()) as { token: string }).token;
      const call = async <T>(p: string, init: RequestInit = {}) => {
        const res = await fetch((svc as ServiceProcess).url + p, {
          ...init,
          headers: { ...Object.fromEntries(new Headers(init.headers)), authorization: `token ${key}` },
        });
        return { status: res.status, body: (await res.json().catch(() => null)) as T };
      };

      // a confirmed manifest of two samples, and two images of the first one's specimen
      const profile = await call<{ id: string }>('/api/profiles', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ title: 'Images crash', description: '', type: 'dtol' }),
      });
      const dtol = currentDefinition('dtol');
      const rows = validRows(dtol, 2);
      const fd = new FormData();
      fd.set('profile_id', profile.body.id);
      const workbook = await toXlsx(
        dtol.fields.map((f) => f.name),
        rows,
        { typed: true },
      );
      fd.set('file', new File([new Uint8Array(workbook)], 'images-crash.xlsx'));
      const { body: upload } = await call<{ report_id: string }>('/api/manifest/validate', { method: 'POST', body: fd });
      await waitFor(
        async () => (await call<{ status: string }>(`/api/manifest/validate/report/${upload.report_id}`)).body,
        (r) => r.status === 'complete',
        'the validation',
        600,
      );
      const confirmed = await call<{ manifest_id: string }>('/api/manifest/validate/confirm', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ validation_report_id: upload.report_id }),
      });
      expect(confirmed.status).toBe(200);
      const manifestId = confirmed.body.manifest_id;
      const specimen = rows[0]!.SPECIMEN_ID!;
      const jpeg = await sharp({
        create: { width: 900, height: 700, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
      })
        .jpeg()
        .toBuffer();
      const png = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#336699' } })
        .png()
        .toBuffer();
      const images = new FormData();
      images.append('files', new File([new Uint8Array(jpeg)], `${specimen}-1.jpg`));
      images.append('files', new File([new Uint8Array(png)], `${specimen}-2.png`));
      expect((await call(`/api/manifest/${manifestId}/images`, { method: 'POST', body: images })).status).toBe(201);

      // registration gives the specimen its accession; the job starts the first image and the process dies part-way
      const browse = await call<{ data: { svc_id: string }[] }>('/api/samples/browse?project=dtol&limit=10');
      const decided = await call('/api/sample/decision', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ svc_ids: browse.body.data.map((s) => s.svc_id), decision: 'accept' }),
      });
      expect(decided.status).toBe(200);
      await svc.waitForLine(/RMB_PAUSED bioimages:mid-transfer/, 120_000);
      const partial = await waitFor(
        async () => {
          const names = await readdir(archive.folderOf(BIOIMAGE.username)).catch(() => [] as string[]);
          return names.length ? archive.fileOf(BIOIMAGE.username, names[0]!) : null;
        },
        (f) => (f?.size ?? 0) > 0,
        'part of the first image in the area',
      );
      expect(partial!.size).toBeLessThan(jpeg.length);
      await svc.kill();

      svc = await startService(env);
      const done = await waitFor(
        async () => (await call<{ data: Image[] }>(`/api/manifest/${manifestId}/images`)).body,
        (r) => r?.data.length === 2 && r.data.every((i) => i.submitted),
        'the images to be sent after the restart',
        1800,
      );
      const accession = done.data[0]!.bioimage_name!.split('_')[0]!;
      expect(accession).toMatch(/^SAMEA\d+$/);
      expect(done.data.map((i) => i.bioimage_name)).toEqual([`${accession}_1.jpg`, `${accession}_2.png`]);
      // the area holds exactly these two files, each whole
      expect((await readdir(archive.folderOf(BIOIMAGE.username))).sort()).toEqual([`${accession}_1.jpg`, `${accession}_2.png`]);
      expect((await archive.fileOf(BIOIMAGE.username, `${accession}_1.jpg`))?.size).toBe(jpeg.length);
      expect((await archive.fileOf(BIOIMAGE.username, `${accession}_2.png`))?.size).toBe(png.length);
      // the second image was sent once: only the interrupted first one went twice
      expect(archive.stored.filter((s) => s.path === `${accession}_2.png`)).toHaveLength(1);
    } finally {
      await svc?.stop().catch(() => undefined);
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 300_000);
});
