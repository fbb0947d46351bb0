import { randomBytes } from 'node:crypto';
import { expect, type Page, test } from '@playwright/test';
import { barcodingSheet, coiRow } from '../tests/fixtures/barcodes/sheet';
import { createUser, expectAccessible, expectNoSidewaysScroll, FROM_PORTAL, screenshot, signIn, unique } from './helpers';
import { downloaded, dropFile, dropFiles, exampleCopied, md5, newBiodataProfile, setCell } from './studies';

/**
 * What was made from a profile's samples, on its page: on a Tree of Life profile its studies (a reads study first),
 * its reads, assemblies and annotations at ENA, and its DNA barcodes with the barcoding sheet's upload, whose problems
 * are shown cell by cell where the sheet was dropped; on a biodata profile a study's reads followed to ENA.
 */

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Ids the page holds more than once, and headings that skip a level: what makes a page of many parts hard to walk. */
async function structureProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const seen = new Map<string, number>();
    for (const el of document.querySelectorAll('[id]')) seen.set(el.id, (seen.get(el.id) ?? 0) + 1);
    for (const [id, n] of seen) if (n > 1) problems.push(`id ${id} ×${n}`);
    let previous = 0;
    for (const h of document.querySelectorAll('main h1, main h2, main h3, main h4, main h5, main h6')) {
      const level = Number(h.tagName.slice(1));
      if (previous && level > previous + 1) problems.push(`h${level} “${h.textContent}” after h${previous}`);
      previous = level;
    }
    return problems;
  });
}

test('a ToL researcher finds the studies, reads, assemblies, annotations and barcodes of a DTOL profile, and a barcoding sheet’s problems', async ({
  page,
}, testInfo) => {
  const researcher = await createUser(page.request, testInfo, { memberOf: ['dtol'] });
  await signIn(page, researcher);
  const title = unique(testInfo, 'Moths of Wytham Woods');
  const created = await page.request.post('/api/profiles', {
    headers: FROM_PORTAL,
    data: { title, description: 'Lepidoptera, their reads and barcodes', type: 'dtol' },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await page.goto(`/profiles/${id}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();

  const toc = page.getByRole('navigation', { name: 'On this page' });
  for (const name of ['Studies', 'Reads', 'Assemblies', 'Annotations', 'Barcodes']) {
    await expect(toc.getByRole('link', { name, exact: true })).toHaveAttribute('href', `#${name.toLowerCase()}`);
  }

  // a ToL partner describes reads, assemblies and annotations with the reads schema: it is the one shown first
  const studies = page.getByRole('region', { name: 'Studies', exact: true });
  await expect(studies.getByLabel('Schema')).toHaveValue('svc_read');
  await expect(studies.getByText('No Reads, assemblies and annotations studies yet.')).toBeVisible();

  for (const [name, what] of [
    ['Reads', 'reads'],
    ['Assemblies', 'assemblies'],
    ['Annotations', 'annotations'],
  ] as const) {
    const region = page.getByRole('region', { name, exact: true });
    await expect(region.getByText(`No ${what} yet: upload a study of the schema “Reads, assemblies and annotations”`)).toBeVisible();
    await expect(region.getByRole('link', { name: 'Studies' })).toHaveAttribute('href', '#studies');
  }

  const barcodes = page.getByRole('region', { name: 'Barcodes', exact: true });
  await expect(barcodes.getByText('No barcodes yet: add the barcoding sheet below.')).toBeVisible();
  await expect(barcodes.getByText(/Mandatory columns of ERT000020: .*SEQUENCE/)).toBeVisible();
  await expect(barcodes.getByLabel('Checklist', { exact: true })).toHaveValue('ERT000020');

  expect(await structureProblems(page)).toEqual([]);
  await expectAccessible(page, 'a DTOL profile’s page');
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, 'profile-sequence-data-empty');

  // the organism named, as the specimen the service would take it from is not there
  const sheet = Buffer.from(await barcodingSheet([coiRow('NOSUCHSPECIMEN1', 'E2EBOLD1', { ORGANISM_NAME: 'Aglais io' })]));
  // a study accession that is not one is said beside its field, and nothing is sent
  const study = barcodes.getByLabel('ENA study accession', { exact: true });
  await study.fill('PRJ12');
  await barcodes.getByTestId('barcode-input').setInputFiles({ name: 'moth-barcodes.xlsx', mimeType: XLSX, buffer: sheet });
  await expect(study).toHaveAttribute('aria-invalid', 'true');
  await expect(barcodes.getByText('PRJ12 is not an ENA study accession: PRJEB… or ERP….')).toBeVisible();
  await expect(study).toBeFocused();

  // a specimen the profile does not have: the sheet is refused, its cell named where it was dropped
  await study.fill('PRJEB12345');
  await barcodes.getByTestId('barcode-input').setInputFiles({ name: 'moth-barcodes.xlsx', mimeType: XLSX, buffer: sheet });
  await expect(barcodes.getByRole('alert')).toContainText('moth-barcodes.xlsx was not stored: the barcoding sheet has 1 problem,', {
    timeout: 30_000,
  });
  const problems = barcodes.getByRole('table', { name: 'Problems found in moth-barcodes.xlsx' });
  const row = problems.getByRole('row', { name: /Row 2, SPECIMEN_ID/ });
  await expect(row).toContainText('NOSUCHSPECIMEN1');
  await expect(row).toContainText('NOSUCHSPECIMEN1 is not a specimen of this profile’s samples');
  await expect(barcodes.getByText('No barcodes yet: add the barcoding sheet below.')).toBeVisible();
  await expect(study).not.toHaveAttribute('aria-invalid', 'true');

  expect(await structureProblems(page)).toEqual([]);
  await expectAccessible(page, 'a barcoding sheet’s problems');
  await expectNoSidewaysScroll(page);
  await problems.scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, 'profile-barcode-problems');
});

test('the reads a study sent to ENA are listed with their accessions, and ENA is asked how far it processed their files', async ({
  page,
}, testInfo) => {
  test.setTimeout(180_000);
  await signIn(page);
  const width = page.viewportSize()!.width;
  await newBiodataProfile(page, unique(testInfo, `Retina reads followed at ${width} px`));
  const reads = page.getByRole('region', { name: 'Reads', exact: true });
  await expect(reads.getByText('No reads yet')).toBeVisible();

  // a single-cell study's file rows are reads at ENA: the example row, with the files it names
  const studies = page.getByRole('region', { name: 'Studies', exact: true });
  await studies.getByLabel('Checklist').selectOption('version_dwc_sc_rnaseq');
  const template = await downloaded(page, () => studies.getByRole('link', { name: 'Download template' }).click());
  const files = new Map<string, Buffer>([
    ['file1_r1.fastq.gz', randomBytes(20_000)],
    ['file2_r2.fastq.gz', randomBytes(20_000)],
    ['barcodes.tsv', Buffer.from('AAACCTGAGAAACCAT\n')],
    ['exp_file.csv', Buffer.from('gene,cell1\nrho,12\n')],
    ['file1_sequencing.json', Buffer.from('{"run": 1}')],
  ]);
  await dropFiles(
    page,
    '[data-testid=file-dropzone]',
    [...files].map(([name, bytes]) => ({ name, bytes })),
  );
  const uploads = studies.getByRole('list', { name: 'Uploads' });
  for (const name of files.keys()) await expect(uploads.getByText(`${name} — uploaded`)).toBeVisible({ timeout: 30_000 });
  const wb = await exampleCopied(template.bytes);
  const studyId = `READS${width}`;
  for (const ws of wb.worksheets)
    if (ws.name !== 'data_values')
      ws.getRow(5).eachCell((cell) => {
        if (cell.value === 'STUDY001') cell.value = studyId;
      });
  setCell(wb, 'file', 'Read 1 Checksum', md5(files.get('file1_r1.fastq.gz')!));
  setCell(wb, 'file', 'Read 2 Checksum', md5(files.get('file2_r2.fastq.gz')!));
  setCell(wb, 'expression_data_file', 'File md5  Checkshum', md5(files.get('exp_file.csv')!));
  await dropFile(page, '[data-testid=study-dropzone]', { name: 'retina.xlsx', bytes: Buffer.from(await wb.xlsx.writeBuffer()) });
  await expect(studies.getByText(`Study ${studyId} created from retina.xlsx.`)).toBeVisible({ timeout: 30_000 });

  // listed before it is sent, as not submitted yet
  const table = reads.getByRole('table', { name: 'Reads of this profile’s studies' });
  const row = table.getByRole('row', { name: new RegExp(studyId) });
  await expect(row).toContainText('Not submitted yet');
  // its files one a line
  await expect(row.getByText('file1_r1.fastq.gz', { exact: true })).toBeVisible();
  await expect(row.getByText('file2_r2.fastq.gz', { exact: true })).toBeVisible();

  const study = studies.getByRole('table', { name: 'Studies of this profile' }).getByRole('row', { name: new RegExp(studyId) });
  await study.getByRole('button', { name: `Submit ${studyId} to ENA` }).click();
  // followed while it is sent, until ENA gave the run its accessions
  await expect(row).toContainText('Registered at ENA', { timeout: 60_000 });
  await expect(row.getByRole('link', { name: /^ERR\d+$/ })).toHaveAttribute(
    'href',
    /^https:\/\/www\.ebi\.ac\.uk\/ena\/browser\/view\/ERR\d+$/,
  );
  await expect(row.getByRole('link', { name: /^ERX\d+$/ })).toHaveAttribute(
    'href',
    /^https:\/\/www\.ebi\.ac\.uk\/ena\/browser\/view\/ERX\d+$/,
  );
  await expect(row).toContainText('Not asked yet');

  await reads.getByRole('button', { name: /^Ask ENA now/ }).click();
  await expect(reads.getByRole('status')).toContainText(/ENA answered for \d+ read rows?\./);
  await expect(row).not.toContainText('Not asked yet');
  await expect(row).toContainText(/Received by ENA|Being processed by ENA|Archived at ENA|Processing failed at ENA/);

  expect(await structureProblems(page)).toEqual([]);
  await expectAccessible(page, 'a profile’s reads at ENA');
  await expectNoSidewaysScroll(page);
  await reads.scrollIntoViewIfNeeded();
  await screenshot(page, testInfo, 'profile-reads-at-ena');
});
