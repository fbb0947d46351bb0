import { writeFileSync } from 'node:fs';
import { expect, type Page, type TestInfo, test } from '@playwright/test';
import sharp from 'sharp';
import { currentDefinition } from '@/lib/manifests';
import { validRow } from '../tests/fixtures/manifests/generate';
import { toXlsx } from '../tests/fixtures/manifests/workbook';
import {
  createUser,
  E2E_ADMIN,
  expectAccessible,
  expectNoSidewaysScroll,
  FROM_PORTAL,
  reviewGroupOf,
  screenshot,
  signIn,
  unique,
} from './helpers';

/**
 * Specimen images in the portal: dropped beside a confirmed manifest's report (two of one specimen, then a text file
 * named .jpg and a photo over the limit refused beside the drop zone), their thumbnails there, on the sample's page
 * (which leads to its manifest's page to add more) and in a manager's review
 * queue, each with alternative text naming the specimen and the file; no sideways scroll, and axe finds nothing
 * serious.
 */

const dtol = currentDefinition('dtol');
const shot = (page: Page, testInfo: TestInfo, name: string) => screenshot(page, testInfo, `images-${name}`);

test('specimen images beside a manifest’s report, on the sample’s page and in the review queue', async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  const researcher = await createUser(page.request, testInfo, { memberOf: ['dtol'] });
  await signIn(page, researcher);
  const title = unique(testInfo, 'Imaged moths');
  // a name of its own, to find its manifest among others in the review queue
  const fileName = `imaged-${testInfo.project.name}-${Date.now().toString(36)}.xlsx`;
  const profile = await page.request.post('/api/profiles', { headers: FROM_PORTAL, data: { title, description: '', type: 'dtol' } });
  expect(profile.status()).toBe(201);
  const profileId = ((await profile.json()) as { id: string }).id;
  const base = 100_000 + Math.floor(Math.random() * 800_000);
  const rows = [validRow(dtol, base), validRow(dtol, base + 1)];
  const workbook = Buffer.from(
    await toXlsx(
      dtol.fields.map((f) => f.name),
      rows,
      { typed: true },
    ),
  );
  const upload = await page.request.post('/api/manifest/validate', {
    headers: FROM_PORTAL,
    multipart: { profile_id: profileId, file: { name: fileName, mimeType: 'application/octet-stream', buffer: workbook } },
  });
  expect(upload.status(), await upload.text()).toBe(202);
  const { report_id } = (await upload.json()) as { report_id: string };
  await expect
    .poll(
      async () =>
        ((await (await page.request.get(`/api/manifest/validate/report/${report_id}/status`)).json()) as { status: string }).status,
      {
        timeout: 60_000,
      },
    )
    .toBe('complete');
  const confirmed = await page.request.post('/api/manifest/validate/confirm', {
    headers: FROM_PORTAL,
    data: { validation_report_id: report_id },
  });
  expect(confirmed.status(), await confirmed.text()).toBe(200);

  await page.goto(`/manifests/reports/${report_id}`);
  const section = page.getByRole('region', { name: 'Specimen images' });
  await expect(section).toBeVisible();
  await expect(section.getByText('No image uploaded yet.')).toBeVisible();
  const specimen = rows[0]!.SPECIMEN_ID!;
  const jpeg = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#6b8e23' } })
    .jpeg()
    .toBuffer();
  const png = await sharp({ create: { width: 300, height: 900, channels: 3, background: '#4682b4' } })
    .png()
    .toBuffer();
  await page.getByTestId('images-input').setInputFiles([
    { name: `${specimen}-1.jpg`, mimeType: 'image/jpeg', buffer: jpeg },
    { name: `${specimen}-2.png`, mimeType: 'image/png', buffer: png },
  ]);
  await expect(section.getByRole('status')).toContainText('2 images stored');
  const thumbnails = section.getByRole('list', { name: 'Images of this manifest’s specimens' });
  await expect(thumbnails.getByRole('img', { name: `Specimen ${specimen}, file ${specimen}-1.jpg` })).toBeVisible();
  await expect(thumbnails.getByRole('img', { name: `Specimen ${specimen}, file ${specimen}-2.png` })).toBeVisible();
  await expect(thumbnails).toContainText('Waiting for the specimen’s registration at ENA');
  // the thumbnails are real images the browser decoded
  await expect
    .poll(() => thumbnails.getByRole('img').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).naturalWidth)))
    .toEqual([256, 85]);
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '01-report');

  // a text file named .jpg: refused beside the drop zone, naming it
  await page
    .getByTestId('images-input')
    .setInputFiles([{ name: `${specimen}-3.jpg`, mimeType: 'image/jpeg', buffer: Buffer.from('only words') }]);
  await expect(section.getByRole('alert')).toContainText(`${specimen}-3.jpg is not a JPEG image`);
  await expect(thumbnails.getByRole('img')).toHaveCount(2);
  // the limit is said before anyone tries, and a photo over it is refused in words before it is sent
  await expect(section).toContainText('each at most 50 MB');
  // Playwright takes a file this large from disk only
  const tooLarge = testInfo.outputPath(`${specimen}-4.jpg`);
  writeFileSync(tooLarge, Buffer.alloc(63 * 1024 * 1024));
  await page.getByTestId('images-input').setInputFiles(tooLarge);
  await expect(section.getByRole('alert')).toContainText(`${specimen}-4.jpg is 63 MB; the limit is 50 MB an image.`);
  await expect(thumbnails.getByRole('img')).toHaveCount(2);
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '02-refused');

  // the sample's page
  const found = await page.request.get(`/api/sample/sample_field/SPECIMEN_ID/${specimen}`);
  const sample = ((await found.json()) as { data: { svc_id: string }[] }).data[0]!;
  await page.goto(`/samples/${sample.svc_id}`);
  const ofSample = page.getByRole('region', { name: `Images of specimen ${specimen}` });
  await expect(ofSample.getByRole('img', { name: `Specimen ${specimen}, file ${specimen}-1.jpg` })).toBeVisible();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);
  await shot(page, testInfo, '03-sample');
  // more images are added from the sample: its manifest's page, at its images
  await ofSample.getByRole('link', { name: 'Add images of this specimen' }).click();
  await expect(page).toHaveURL(/\/manifests\/[0-9a-f-]{36}#images$/);
  const onManifest = page.getByRole('region', { name: 'Specimen images' });
  await expect(onManifest.getByRole('img', { name: `Specimen ${specimen}, file ${specimen}-2.png` })).toBeVisible();
  await expect(onManifest.getByTestId('images-drop')).toBeVisible();
  await expectAccessible(page);
  await expectNoSidewaysScroll(page);

  // the review queue of a manager (the admin decides on every sample)
  const context = await browser.newContext({ viewport: page.viewportSize()! });
  const manager = await context.newPage();
  await signIn(manager, E2E_ADMIN);
  await reviewGroupOf(manager, fileName);
  await expect(
    manager
      .getByRole('list', { name: `Specimen images of ${fileName}` })
      .getByRole('img', { name: `Specimen ${specimen}, file ${specimen}-2.png` }),
  ).toBeVisible({ timeout: 30_000 });
  await expectAccessible(manager);
  await expectNoSidewaysScroll(manager);
  await shot(manager, testInfo, '04-review');
  await context.close();
});
