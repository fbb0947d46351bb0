import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { samples } from '@/db/schema';
import { buildTaxonRecords, fakeTaxonomy } from './fixtures/manifests/taxa';
import { createProfile, dtolRows, uploadManifest, waitFor } from './support/flows';
import { createHarness, type Harness } from './support/harness';
import { type RepositoryServer, startRepositoryServer } from './support/repository-server';
import { startUploadAreaServer, type UploadAreaServer } from './support/repository-server/ftp';

/**
 * Specimen images that cannot go yet: without the BioImage Archive settings they wait, and say which is missing;
 * once the settings are there the sweep sends them on; an upload area that refuses the account fails the job's runs,
 * the last marks the images failed with the reason, and an admin's retry sends them once the account is right.
 */

const BIOIMAGE = { username: 'bia-waiting', password: 'bia-right-password' };
const json = { 'content-type': 'application/json' };

let server: RepositoryServer;
let archive: UploadAreaServer;
let h: Harness;

beforeAll(async () => {
  server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  archive = await startUploadAreaServer({ [BIOIMAGE.username]: BIOIMAGE.password });
  h = await createHarness(
    { ENA_WEBIN_URL: server.enaUrl, ENA_USERNAME: server.credentials.ena.username, ENA_PASSWORD: server.credentials.ena.password },
    { workers: true, taxonomy: fakeTaxonomy(), retryDelaySeconds: 0 },
  );
}, 120_000);
afterAll(async () => {
  await h?.close();
  await archive?.close();
  await server?.close();
});

interface Image {
  state: string;
  submitted: boolean;
  bioimage_name: string | null;
  status_detail: string | null;
}

describe('images that cannot be sent yet', () => {
  it('wait without the settings, fail with the reason when refused, and go on an admin’s retry', async () => {
    const manager = await h.user({ username: 'waiting-lead', memberOf: ['dtol'], managerOf: ['dtol'] });
    const admin = await h.user({ username: 'waiting-admin', isAdmin: true });
    const profileId = await createProfile(h, manager.key, { title: 'Waiting images', description: '', type: 'dtol' });
    const rows = dtolRows(1, 70);
    const { manifest_id } = await uploadManifest(h, manager.key, profileId, rows);
    const fd = new FormData();
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#aa3300' } })
      .png()
      .toBuffer();
    fd.append('files', new File([new Uint8Array(png)], `${rows[0]!.SPECIMEN_ID}-1.png`));
    expect((await h.request(`/api/manifest/${manifest_id}/images`, { method: 'POST', key: manager.key, body: fd })).status).toBe(201);
    const images = async () =>
      ((await (await h.request(`/api/manifest/${manifest_id}/images`, { key: manager.key })).json()) as { data: Image[] }).data;

    // registered at ENA, but the BioImage Archive is not configured: held, saying what to set
    const ids = (await h.database.db.select({ id: samples.id }).from(samples).where(eq(samples.manifestId, manifest_id))).map((r) => r.id);
    const decided = await h.request('/api/sample/decision', {
      method: 'POST',
      key: manager.key,
      headers: json,
      body: JSON.stringify({ svc_ids: ids, decision: 'accept' }),
    });
    expect(decided.status).toBe(200);
    const [held] = await waitFor(images, (d) => d[0]?.state === 'held', 'the image held for the settings', 600);
    expect(held).toMatchObject({ submitted: false, bioimage_name: null });
    expect(held!.status_detail).toContain('BIOIMAGE_FTP_URL, BIOIMAGE_USERNAME, BIOIMAGE_PASSWORD not set');

    // the settings arrive (as at a restart), with a password the area refuses: every run fails, the last gives up
    Object.assign(h.config, { BIOIMAGE_FTP_URL: archive.url, BIOIMAGE_USERNAME: BIOIMAGE.username, BIOIMAGE_PASSWORD: 'wrong' });
    await h.queue.sweep();
    const [failed] = await waitFor(images, (d) => d[0]?.state === 'failed', 'the image failed', 600);
    expect(failed!.status_detail).toContain('The BioImage Archive upload area refused the account bia-waiting');
    const letters = (await (await h.request('/api/admin/jobs?open=true&limit=50', { key: admin.key })).json()) as {
      data: { id: string; job: string; label: string }[];
    };
    const letter = letters.data.find((d) => d.job === 'bioimages.submit');
    expect(letter?.label).toBe('Specimen images to the BioImage Archive');

    // the account put right, the admin's retry sends the image, under the name chosen before the refusals
    Object.assign(h.config, { BIOIMAGE_PASSWORD: BIOIMAGE.password });
    const retried = await h.request(`/api/admin/jobs/failed/${letter!.id}/retry`, { method: 'POST', key: admin.key });
    expect(retried.status, await retried.clone().text()).toBe(200);
    const [sent] = await waitFor(images, (d) => d[0]?.submitted === true, 'the image sent after the retry', 600);
    expect(sent!.bioimage_name).toMatch(/^SAMEA\d+_1\.png$/);
    expect((await archive.fileOf(BIOIMAGE.username, sent!.bioimage_name!))?.size).toBe(png.length);
  }, 120_000);
});
