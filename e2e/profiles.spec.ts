import { expect, type Page, test } from '@playwright/test';
import { createUser, expectAccessible, keyHeaders, navigateTo, screenshot, signIn, unique } from './helpers';

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
  await form
    .getByRole('group', { name: /Sequencing centres/ })
    .getByRole('checkbox', { name: 'EARLHAM INSTITUTE' })
    .check();
  await form.getByRole('button', { name: 'Create profile' }).click();

  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.getByText('Biodiversity Genomics Europe (BGE)')).toBeVisible();

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

test('the profile form says what it needs: required fields marked, a missing project in words beside it, the summary by the button', async ({
  page,
}, testInfo) => {
  const user = await createUser(page.request, testInfo, { memberOf: ['erga'] });
  await signIn(page, user);

  // the Studies page's link opens the form for a biodata profile, though ERGA comes first in the list of types
  await page.goto('/studies');
  await page.getByRole('link', { name: 'Create a biodata profile' }).click();
  await expect(page).toHaveURL(/\/profiles\/new\?type=biodata$/);
  const form = page.getByRole('form', { name: 'Create profile' });
  await expect(form.getByLabel('Type')).toHaveValue('biodata');
  await expect(form.getByRole('group', { name: /Associated projects/ })).toHaveCount(0);
  await screenshot(page, testInfo, 'profile-form-from-studies');

  // required fields say so in words and to assistive technology; the description is optional
  await expect(form.getByText('Title (required)')).toBeVisible();
  await expect(form.getByLabel('Title')).toHaveAttribute('aria-required', 'true');
  await expect(form.getByLabel('Type')).toHaveAttribute('aria-required', 'true');
  await expect(form.getByLabel('Description')).not.toHaveAttribute('aria-required', 'true');

  await form.getByLabel('Type').selectOption('erga');
  const projects = form.getByRole('group', { name: 'Associated projects (required)' });
  const centres = form.getByRole('group', { name: 'Sequencing centres (required)' });
  await expect(projects).toBeVisible();
  // checkboxes, which a phone can tick, instead of a multiple select that needs Ctrl
  await expect(form.getByText(/Hold Ctrl/)).toHaveCount(0);
  await expect(form.getByRole('listbox')).toHaveCount(0);
  await centres.getByRole('checkbox', { name: 'EARLHAM INSTITUTE' }).check();
  await form.getByLabel('Title').fill(unique(testInfo, 'ERGA mosses'));
  const create = form.getByRole('button', { name: 'Create profile' });
  await create.click();

  // the server's refusal, in words beside the field it is about (the API keeps the reference's message)
  await expect(projects.getByText('Choose at least one associated project.')).toBeVisible();
  await expect(form.getByText(/associated_type/)).toHaveCount(0);
  await expect(projects).toHaveAttribute('aria-invalid', 'true');
  // the summary sits between the fields it points at and the button just pressed, in view
  const summary = form.getByRole('alert').filter({ hasText: 'Please correct the fields marked above.' });
  await expect(summary).toBeInViewport();
  const [fieldBox, summaryBox, buttonBox] = await Promise.all([projects.boundingBox(), summary.boundingBox(), create.boundingBox()]);
  expect(summaryBox?.y ?? 0).toBeGreaterThan((fieldBox?.y ?? 0) + (fieldBox?.height ?? 0) - 1);
  expect(summaryBox?.y ?? 0).toBeLessThan(buttonBox?.y ?? 0);
  await screenshot(page, testInfo, 'profile-form-missing-project');
  await expectAccessible(page, 'the profile form with an error');

  await projects.getByRole('checkbox', { name: 'Biodiversity Genomics Europe (BGE)' }).check();
  await create.click();
  await expect(page.getByRole('heading', { level: 1, name: /ERGA mosses/ })).toBeVisible();
});

test('the lists of profiles and of submissions come with their pages, nothing asked of the API for them', async ({
  page,
  request,
}, testInfo) => {
  const researcher = await createUser(request, testInfo, { memberOf: ['dtol'] });
  const title = unique(testInfo, 'Listed moths');
  const made = await request.post('/api/profiles', {
    headers: await keyHeaders(request, researcher),
    data: { title, description: 'A profile to list', type: 'dtol' },
  });
  expect(made.status(), await made.text()).toBe(201);
  await signIn(page, researcher);
  const asked: string[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (path === '/api/profiles' || path === '/api/submissions') asked.push(r.url());
  });

  await page.goto('/profiles');
  await expect(page.getByRole('table', { name: /Your profiles/ }).getByRole('link', { name: title })).toBeVisible();
  await page.goto('/submissions');
  await expect(page.getByText('Nothing has been submitted yet.')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(asked).toEqual([]);
});

test('a form fetches its rule when first checked, and without it the API’s answer stands beside the field', async ({ page }, testInfo) => {
  const user = await createUser(page.request, testInfo, { memberOf: ['erga'] });
  await signIn(page, user);

  // the page's first load carries no schema library: the rule is asked for when a field is first entered
  const scripts: string[] = [];
  page.on('response', async (r) => {
    if (r.request().resourceType() === 'script' && (await r.text().catch(() => '')).includes('$ZodType')) scripts.push(r.url());
  });
  await page.goto('/profiles/new');
  const form = page.getByRole('form', { name: 'Create profile' });
  await expect(form.getByLabel('Title')).toBeEditable();
  await page.waitForLoadState('networkidle');
  expect(scripts).toEqual([]);
  await form.getByLabel('Title').focus();
  await form.getByLabel('Description').focus();
  await expect(form.getByText('A title is required.')).toBeVisible();
  expect(scripts).toHaveLength(1);

  // the connection drops before the rule arrives: the form is sent as typed, and the API's refusal is put beside the
  // field it names
  await page.goto('/profiles/new');
  await expect(form.getByLabel('Title')).toBeEditable();
  await page.waitForLoadState('networkidle');
  await page.route('**/_next/static/**', (route) => route.abort());
  const refused = page.waitForResponse((r) => r.url().endsWith('/api/profiles') && r.request().method() === 'POST');
  await form.getByRole('button', { name: 'Create profile' }).click();
  expect((await refused).status()).toBe(400);
  await expect(form.getByText('A title is required.')).toBeVisible();
  await expect(form.getByLabel('Title')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByRole('alert').filter({ hasText: 'Please correct the fields marked above.' })).toBeVisible();
});
