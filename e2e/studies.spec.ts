import { readFile } from 'node:fs/promises';
import ExcelJS from 'exceljs';
import { expect, test, type Download, type Page } from '@playwright/test';
import { signIn } from './helpers';

const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Drops a file on an element the way a browser's drag and drop does. */
async function dropFile(page: Page, selector: string, file: { name: string; bytes: Buffer }) {
  const dataTransfer = await page.evaluateHandle(
    ({ name, b64, type }) => {
      const bin = atob(b64);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], name, { type }));
      return dt;
    },
    { name: file.name, b64: file.bytes.toString('base64'), type: XLSX },
  );
  await page.dispatchEvent(selector, 'dragenter', { dataTransfer });
  await page.dispatchEvent(selector, 'dragover', { dataTransfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer });
}

async function downloaded(page: Page, click: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return { download, bytes: await readFile((await download.path())!) };
}

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
}) => {
  await signIn(page);
  await page.getByRole('link', { name: 'Profiles' }).click();
  await page.getByRole('link', { name: 'New profile' }).click();
  const form = page.getByRole('form', { name: 'Create profile' });
  await form.getByLabel('Title').fill('Zebrafish retina atlas');
  await form.getByLabel('Description').fill('Single-cell studies of the zebrafish retina');
  await form.getByLabel('Type').selectOption('biodata');
  await form.getByRole('button', { name: 'Create profile' }).click();
  await expect(page.getByRole('heading', { name: 'Zebrafish retina atlas' })).toBeVisible();

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
  fill(wb, 'study', { ...STUDY, Title: '' });
  fill(wb, 'person', PERSON);
  await dropFile(page, '[data-testid=study-dropzone]', { name: 'retina-study.xlsx', bytes: Buffer.from(await wb.xlsx.writeBuffer()) });
  const report = studies.getByRole('table', { name: 'Problems found in retina-study.xlsx' });
  await expect(report).toBeVisible({ timeout: 30_000 });
  await expect(report.getByRole('row', { name: /study 5 Title/ })).toContainText('Missing data detected in column Title at row 5.');
  await expect(studies.getByRole('table', { name: 'Studies of this profile' })).toHaveCount(0);

  fill(wb, 'study', STUDY);
  await dropFile(page, '[data-testid=study-dropzone]', { name: 'retina-study-fixed.xlsx', bytes: Buffer.from(await wb.xlsx.writeBuffer()) });
  await expect(studies.getByText('Study E2ESTUDY1 created from retina-study-fixed.xlsx.')).toBeVisible({ timeout: 30_000 });
  const list = studies.getByRole('table', { name: 'Studies of this profile' });
  const row = list.getByRole('row', { name: /E2ESTUDY1/ });
  await expect(row).toContainText('Single cells of the zebrafish retina');
  await expect(row).toContainText('version_dwc_sc_rnaseq');
  await expect(row).toContainText('pending');

  const xlsx = await downloaded(page, () => row.getByRole('link', { name: 'Download E2ESTUDY1 as xlsx' }).click());
  expect(xlsx.download.suggestedFilename()).toBe('svc_single_cell_manifest_E2ESTUDY1.xlsx');
  const exported = new ExcelJS.Workbook();
  await exported.xlsx.load(xlsx.bytes as unknown as ExcelJS.Buffer);
  expect(exported.getWorksheet('study')!.getCell('A5').value).toBe('E2ESTUDY1');
  expect(exported.getWorksheet('person')!.getRow(5).values).toContain('Lovelace');

  const ld = await downloaded(page, () => row.getByRole('link', { name: 'Download E2ESTUDY1 as JSON-LD' }).click());
  expect(ld.download.suggestedFilename()).toBe('svc_single_cell_manifest_E2ESTUDY1.jsonld');
  const doc = JSON.parse(ld.bytes.toString('utf8')) as { '@context': Record<string, unknown>; study: Record<string, string>[] };
  expect(doc.study[0]).toMatchObject({ '@type': 'study', study_id: 'E2ESTUDY1', title: STUDY.Title });
  expect(doc['@context'].study).toMatchObject({ '@container': '@set' });

  // the export re-uploads unchanged
  await dropFile(page, '[data-testid=study-dropzone]', { name: 'svc_single_cell_manifest_E2ESTUDY1.xlsx', bytes: xlsx.bytes });
  await expect(studies.getByText('Study E2ESTUDY1 unchanged from svc_single_cell_manifest_E2ESTUDY1.xlsx.')).toBeVisible({
    timeout: 30_000,
  });

  // broker it: ENA gets the project (held private), Zenodo a deposition; then release and publish
  await row.getByRole('button', { name: 'Submit E2ESTUDY1 to ENA' }).click();
  await expect(row.getByText(/PRJEB\d+/)).toBeVisible({ timeout: 30_000 });
  await row.getByRole('button', { name: 'Release E2ESTUDY1 at ENA' }).click();
  await expect(row.getByText('(public)')).toBeVisible({ timeout: 30_000 });
  await row.getByRole('button', { name: 'Submit E2ESTUDY1 to Zenodo' }).click();
  await expect(row.getByRole('button', { name: 'Publish E2ESTUDY1 at Zenodo' })).toBeVisible({ timeout: 30_000 });
  await row.getByRole('button', { name: 'Publish E2ESTUDY1 at Zenodo' }).click();
  await expect(row.getByText('published', { exact: true })).toBeVisible({ timeout: 30_000 });
  await page.getByRole('link', { name: 'Submissions' }).click();
  await expect(page.getByRole('table', { name: 'Submissions to public repositories' })).toContainText('ZENODO');
});
