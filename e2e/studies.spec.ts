import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { expectNoSidewaysScroll, navigateTo, signIn, unique } from './helpers';
import { downloaded, dropFile, dropFiles, exampleCopied, md5, newBiodataProfile, setCell } from './studies';

/** Fills a sheet of the downloaded template by header label, from row 5 as the template says. */
function fill(wb: ExcelJS.Workbook, sheet: string, values: Record<string, string>) {
  const ws = wb.getWorksheet(sheet)!;
  ws.getRow(1).eachCell((cell, col) => {
    const label = String(cell.value).replace(/ \(optional\)$/, '');
    if (label in values) ws.getRow(5).getCell(col).value = values[label]!;
  });
}

const STUDY = {
  'Study ID': 'E2ESTUDY1',
  Title: 'Single cells of the zebrafish retina',
  Description: 'Single-cell RNA-seq of the developing zebrafish retina at three stages.',
  'Bibliographic Citation': 'Doe J (2025) Zebrafish retina atlas',
  Created: '2025-01-15',
  Technology: '10x Chromium',
};
const PERSON = {
  'Study ID': 'E2ESTUDY1',
  'First Name': 'Ada',
  'Last Name': 'Lovelace',
  'Affiliation or Institution': 'Earlham Institute',
};

test('create a biodata profile, download the single-cell template, upload a study (first with a mistake), see it listed, export it', async ({
  page,
}, testInfo) => {
  // its own study id in each project: ENA and Zenodo hold every submitted study of the run
  const sid = `E2ESTUDY${testInfo.project.name === 'phone' ? 'P' : 'D'}`;
  const title = unique(testInfo, 'Zebrafish retina atlas');
  await signIn(page);
  await navigateTo(page, 'Profiles');
  await page.getByRole('link', { name: 'New profile' }).click();
  const form = page.getByRole('form', { name: 'Create profile' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description').fill('Single-cell studies of the zebrafish retina');
  await form.getByLabel('Type').selectOption('biodata');
  await form.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();

  const studies = page.getByRole('region', { name: 'Studies', exact: true });
  await expect(studies.getByLabel('Schema')).toHaveValue('svc_single_cell');
  await studies.getByLabel('Checklist').selectOption('version_dwc_sc_rnaseq');
  await expect(studies.getByText('No Single-cell RNA-seq studies yet.')).toBeVisible();

  const template = await downloaded(page, () => studies.getByRole('link', { name: 'Download template' }).click());
  expect(template.download.suggestedFilename()).toBe('svc_single_cell_version_dwc_sc_rnaseq_manifest_template_v0.4.xlsx');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(template.bytes as unknown as ExcelJS.Buffer);
  expect(wb.worksheets.map((w) => w.name)).toContain('lib_prep');
  expect(wb.getWorksheet('study')!.getCell('A4').value).toBe('FILL OUT INFORMATION BELOW THIS LINE');

  // first without the mandatory title: the report names the cell
  fill(wb, 'study', { ...STUDY, 'Study ID': sid, Title: '' });
  fill(wb, 'person', { ...PERSON, 'Study ID': sid });
  await dropFile(page, '[data-testid=study-dropzone]', { name: 'retina-study.xlsx', bytes: Buffer.from(await wb.xlsx.writeBuffer()) });
  const report = studies.getByRole('table', { name: 'Problems found in retina-study.xlsx' });
  await expect(report).toBeVisible({ timeout: 30_000 });
  await expect(report.getByRole('row', { name: /study 5 Title/ })).toContainText('Missing data detected in column Title at row 5.');
  await expect(studies.getByRole('table', { name: 'Studies of this profile' })).toHaveCount(0);
  // said as the study spreadsheet it is, and still there after a reload (the report is kept in the address)
  await expect(studies.getByRole('alert')).toContainText('retina-study.xlsx was not saved: the study spreadsheet has 1 problem');
  await expect(studies.getByRole('alert')).not.toContainText('manifest');
  await page.reload();
  await expect(report.getByRole('row', { name: /study 5 Title/ })).toContainText('Missing data detected in column Title at row 5.');
  await expect(report).toBeInViewport();

  fill(wb, 'study', { ...STUDY, 'Study ID': sid });
  await dropFile(page, '[data-testid=study-dropzone]', {
    name: 'retina-study-fixed.xlsx',
    bytes: Buffer.from(await wb.xlsx.writeBuffer()),
  });
  await expect(studies.getByText(`Study ${sid} created from retina-study-fixed.xlsx.`)).toBeVisible({ timeout: 30_000 });
  const list = studies.getByRole('table', { name: 'Studies of this profile' });
  const row = list.getByRole('row', { name: new RegExp(sid) });
  await expect(row).toContainText('Single cells of the zebrafish retina');
  await expect(row).toContainText('version_dwc_sc_rnaseq');
  await expect(row).toContainText('Not submitted yet');

  const xlsx = await downloaded(page, () => row.getByRole('link', { name: `Download ${sid} as xlsx` }).click());
  expect(xlsx.download.suggestedFilename()).toBe(`svc_single_cell_manifest_${sid}.xlsx`);
  const exported = new ExcelJS.Workbook();
  await exported.xlsx.load(xlsx.bytes as unknown as ExcelJS.Buffer);
  expect(exported.getWorksheet('study')!.getCell('A5').value).toBe(`${sid}`);
  expect(exported.getWorksheet('person')!.getRow(5).values).toContain('Lovelace');

  const ld = await downloaded(page, () => row.getByRole('link', { name: `Download ${sid} as JSON-LD` }).click());
  expect(ld.download.suggestedFilename()).toBe(`svc_single_cell_manifest_${sid}.jsonld`);
  const doc = JSON.parse(ld.bytes.toString('utf8')) as { '@context': Record<string, unknown>; study: Record<string, string>[] };
  expect(doc.study[0]).toMatchObject({ '@type': 'study', study_id: `${sid}`, title: STUDY.Title });
  expect(doc['@context'].study).toMatchObject({ '@container': '@set' });

  // the export re-uploads unchanged
  await dropFile(page, '[data-testid=study-dropzone]', { name: `svc_single_cell_manifest_${sid}.xlsx`, bytes: xlsx.bytes });
  await expect(studies.getByText(`Study ${sid} unchanged from svc_single_cell_manifest_${sid}.xlsx.`)).toBeVisible({
    timeout: 30_000,
  });

  // broker it: ENA gets the project (held private), Zenodo a deposition; then release and publish
  await row.getByRole('button', { name: `Submit ${sid} to ENA` }).click();
  await expect(row.getByRole('link', { name: /PRJEB\d+/ })).toBeVisible({ timeout: 30_000 });
  // making it public is asked first
  await row.getByRole('button', { name: `Release ${sid} at ENA` }).click();
  const release = page.getByRole('dialog', { name: `Release ${sid} at ENA?` });
  await expect(release).toContainText('This cannot be undone.');
  await release.getByRole('button', { name: 'Release it' }).click();
  await expect(row).toContainText('Public at ENA', { timeout: 30_000 });
  await row.getByRole('button', { name: `Submit ${sid} to Zenodo` }).click();
  await expect(row.getByRole('button', { name: `Publish ${sid} at Zenodo` })).toBeVisible({ timeout: 30_000 });
  await row.getByRole('button', { name: `Publish ${sid} at Zenodo` }).click();
  await page
    .getByRole('dialog', { name: `Publish ${sid} at Zenodo?` })
    .getByRole('button', { name: 'Publish it' })
    .click();
  await expect(row).toContainText('Published at Zenodo', { timeout: 30_000 });
  await navigateTo(page, 'Submissions');
  await expect(page.getByRole('table', { name: 'Submissions to public repositories' })).toContainText(
    /Published at Zenodo, DOI 10\.5072\/zenodo\.\d+/,
  );
});

const CHECKLISTS: [schema: string, label: string, checklist: string][] = [
  ['svc_single_cell', 'Single-cell RNA-seq', 'version_dwc_sc_rnaseq'],
  ['svc_single_cell', 'Single-cell RNA-seq', 'version_mixs_sc_rnaseq'],
  ['svc_single_cell', 'Single-cell RNA-seq', 'version_tol_sc_rnaseq'],
  ['svc_single_cell', 'Single-cell RNA-seq', 'version_faang_sc_rnaseq'],
  ['svc_image_rembi', 'Images (REMBI)', 'version_rembi'],
  ['svc_image_stx_fish', 'Spatial transcriptomics (FISH images)', 'version_dwc_stx_fish'],
  ['svc_image_stx_fish', 'Spatial transcriptomics (FISH images)', 'version_mixs_stx_fish'],
  ['svc_image_stx_fish', 'Spatial transcriptomics (FISH images)', 'version_tol_stx_fish'],
  ['svc_read', 'Reads, assemblies and annotations', 'version_dwc'],
  ['svc_read', 'Reads, assemblies and annotations', 'version_tol'],
];

test('every checklist accepts its own template with the example row copied below the line', async ({ page }, testInfo) => {
  test.setTimeout(240_000);
  await signIn(page);
  for (const [schema, label, checklist] of CHECKLISTS) {
    // one profile each: the examples of a schema share a study id
    await newBiodataProfile(page, unique(testInfo, `Template of ${checklist}`));
    const studies = page.getByRole('region', { name: 'Studies', exact: true });
    await studies.getByLabel('Schema').selectOption(schema);
    await studies.getByLabel('Checklist').selectOption(checklist);
    await expect(studies.getByText(`No ${label} studies yet.`)).toBeVisible();
    const template = await downloaded(page, () => studies.getByRole('link', { name: 'Download template' }).click());
    const wb = await exampleCopied(template.bytes);
    await dropFile(page, '[data-testid=study-dropzone]', { name: `${checklist}.xlsx`, bytes: Buffer.from(await wb.xlsx.writeBuffer()) });
    await expect(studies.getByText(new RegExp(`^Study \\w+ created from ${checklist}\\.xlsx\\.$`))).toBeVisible({ timeout: 30_000 });
    await expect(studies.getByRole('table', { name: /^Problems found/ })).toHaveCount(0);
  }
});

test('a single-cell study from data files to ENA runs and a Zenodo DOI, followed file by file', async ({ page }, testInfo) => {
  test.setTimeout(180_000);
  await signIn(page);
  {
    const width = page.viewportSize()!.width;
    await newBiodataProfile(page, unique(testInfo, `Retina reads at ${width} px`));
    const studies = page.getByRole('region', { name: 'Studies', exact: true });
    await studies.getByLabel('Checklist').selectOption('version_dwc_sc_rnaseq');
    const template = await downloaded(page, () => studies.getByRole('link', { name: 'Download template' }).click());

    // the data files the example row names, with real bytes
    const files = new Map<string, Buffer>([
      ['file1_r1.fastq.gz', randomBytes(40_000)],
      ['file2_r2.fastq.gz', randomBytes(40_000)],
      ['barcodes.tsv', Buffer.from('AAACCTGAGAAACCAT\nAAACCTGAGAAACCGC\n')],
      ['exp_file.csv', Buffer.from('gene,cell1,cell2\nrho,12,0\n')],
      ['file1_sequencing.json', Buffer.from('{"run": 1}')],
    ]);
    await dropFiles(
      page,
      '[data-testid=file-dropzone]',
      [...files].map(([name, bytes]) => ({ name, bytes })),
    );
    const uploads = studies.getByRole('list', { name: 'Uploads' });
    for (const name of files.keys()) await expect(uploads.getByText(`${name} — uploaded`)).toBeVisible({ timeout: 30_000 });
    await expect(studies.getByRole('table', { name: 'Data files of this profile' })).toContainText('file1_r1.fastq.gz');

    const wb = await exampleCopied(template.bytes);
    const studyId = `RETINA${width}`;
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

    const row = studies.getByRole('table', { name: 'Studies of this profile' }).getByRole('row', { name: new RegExp(studyId) });
    await row.getByRole('button', { name: `Submit ${studyId} to ENA` }).click();
    await expect(row.getByRole('link', { name: /^PRJEB\d+$/ })).toBeVisible({ timeout: 60_000 });
    await expect(row.getByText('2 of 2 data files sent; 1 runs')).toBeVisible({ timeout: 30_000 });
    await row.getByText('2 of 2 data files sent; 1 runs').click();
    const runs = row.getByRole('table', { name: 'Runs at ENA, one per file row' });
    await expect(runs.getByRole('link', { name: /^ERR\d+$/ })).toHaveAttribute('href', /ebi\.ac\.uk\/ena\/browser\/view\/ERR\d+$/);
    await expect(runs.getByRole('link', { name: /^ERX\d+$/ })).toBeVisible();

    await row.getByRole('button', { name: `Submit ${studyId} to Zenodo` }).click();
    await row.getByRole('button', { name: `Publish ${studyId} at Zenodo` }).click({ timeout: 60_000 });
    await page
      .getByRole('dialog', { name: `Publish ${studyId} at Zenodo?` })
      .getByRole('button', { name: 'Publish it' })
      .click();
    await expect(row.getByRole('link', { name: /^10\.5072\/zenodo\.\d+$/ })).toHaveAttribute(
      'href',
      /^https:\/\/doi\.org\/10\.5072\/zenodo\.\d+$/,
      { timeout: 30_000 },
    );
    await expect(row.getByText('5 of 5 data files sent')).toBeVisible();

    // it all survives a reload
    await page.reload();
    await expect(row.getByRole('link', { name: /^PRJEB\d+$/ })).toBeVisible();
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `e2e/screenshots/study-journey-${width}.png`, fullPage: true });
  }
});
