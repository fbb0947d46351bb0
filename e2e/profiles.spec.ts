import { expect, type Page, test } from '@playwright/test';
import { navigateTo, signIn, unique } from './helpers';

async function dropFiles(page: Page, selector: string, files: { name: string; content: string }[]) {
  const dataTransfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer();
    for (const f of list) dt.items.add(new File([f.content], f.name, { type: 'application/octet-stream' }));
    return dt;
  }, files);
  await page.dispatchEvent(selector, 'dragenter', { dataTransfer });
  await page.dispatchEvent(selector, 'dragover', { dataTransfer });
  await page.dispatchEvent(selector, 'drop', { dataTransfer });
}

test('create an ERGA profile, edit its title, upload two files by drag and drop, see them listed', async ({ page }, testInfo) => {
  const title = unique(testInfo, 'ERGA beetles');
  await signIn(page);
  await navigateTo(page, 'Profiles');
  await page.getByRole('link', { name: 'New profile' }).click();

  const form = page.getByRole('form', { name: 'Create profile' });
  await form.getByLabel('Title').fill(title);
  await form.getByLabel('Description').fill('Coleoptera collected in the Pyrenees');
  await form.getByLabel('Type').selectOption('erga');
  await form.getByLabel('Biodiversity Genomics Europe (BGE)').check();
  await form.getByLabel('Sequencing centres').selectOption(['EI']);
  await form.getByRole('button', { name: 'Create profile' }).click();

  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByText('BGE')).toBeVisible();

  await page.getByRole('link', { name: 'Edit' }).click();
  const edit = page.getByRole('form', { name: 'Edit profile' });
  await expect(edit.getByText('(fixed when the profile was created)')).toBeVisible();
  await edit.getByLabel('Title').fill(`${title} (Pyrenees)`);
  await edit.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByRole('heading', { name: `${title} (Pyrenees)`, level: 1 })).toBeVisible();

  await dropFiles(page, '[data-testid=file-dropzone]', [
    { name: 'run1_R1.fastq.gz', content: '@read1\nACGT\n+\nFFFF\n' },
    { name: 'run1_R2.fastq.gz', content: '@read1\nTGCA\n+\nFFFF\n'.repeat(10) },
  ]);
  const uploads = page.getByRole('list', { name: 'Uploads' });
  await expect(uploads.getByText('run1_R1.fastq.gz — uploaded')).toBeVisible();
  await expect(uploads.getByText('run1_R2.fastq.gz — uploaded')).toBeVisible();

  const table = page.getByRole('table', { name: 'Data files of this profile' });
  await expect(table.getByRole('row', { name: /run1_R1\.fastq\.gz/ })).toContainText('19 B');
  await expect(table.getByRole('row', { name: /run1_R2\.fastq\.gz/ })).toContainText('190 B');

  await page.getByRole('link', { name: '← Profiles' }).click();
  await expect(page.getByRole('link', { name: `${title} (Pyrenees)` })).toBeVisible();
});
