import { expect, test } from '@playwright/test';
import { adminKey, createUser, expectAccessible, expectNoSidewaysScroll, keyHeaders, navigateTo, screenshot, signIn } from './helpers';

/**
 * The admin's Reference data page (issue 59), at a laptop's and a phone's width: the associated types and the
 * sequencing centres in the shared table (cards on a phone), a type added (the server's rules checked in the form,
 * a taken name refused beside it), retired by unticking "Offered" and then no longer offered to ERGA profiles, and a
 * centre added with its contacts, each outcome said beside its form.
 */

test('an admin adds an associated type, retires it, and adds a sequencing centre with its contacts', async ({
  page,
  request,
}, testInfo) => {
  const stamp = `${testInfo.project.name}_${Date.now().toString(36)}`.toUpperCase();
  const typeName = `E2E_${stamp}`;
  const centreName = `LAB_${stamp}`;
  await signIn(page);
  await navigateTo(page, 'Reference data');
  await expect(page.getByRole('heading', { level: 1, name: 'Reference data' })).toBeVisible();

  const types = page.getByRole('region', { name: 'Associated project types' });
  await expect(types.getByRole('row', { name: /BGE/ })).toBeVisible();
  await expect(types.getByRole('row', { name: /SANGER/ })).toContainText('Needed, kept on update');
  await expectAccessible(page, 'the Reference data page');
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, 'reference-01-page');

  // the form checks the server's own rules before anything is sent
  const add = page.getByRole('form', { name: 'Add an associated type' });
  await add.getByRole('textbox', { name: 'Name', exact: true }).fill('kelp forests');
  await add.getByRole('textbox', { name: 'Label', exact: true }).fill(`Kelp forests (${typeName})`);
  await add.getByRole('button', { name: 'Add associated type' }).click();
  await expect(add.getByText('associated type is 2 to 40 capital letters')).toBeVisible();
  await add.getByRole('textbox', { name: 'Name', exact: true }).fill(typeName);
  await add.getByRole('button', { name: 'Add associated type' }).click();
  await expect(add.getByRole('status')).toContainText(`Added ${typeName}`);
  await expect(add.getByRole('textbox', { name: 'Name', exact: true })).toHaveValue('');
  const row = types.getByRole('row', { name: new RegExp(typeName) });
  await expect(row).toContainText('Needed, again on update');
  await expect(row).toContainText('Yes');

  // a name taken: the server's refusal, beside the form
  await add.getByRole('textbox', { name: 'Name', exact: true }).fill(typeName);
  await add.getByRole('textbox', { name: 'Label', exact: true }).fill('Again');
  await add.getByRole('button', { name: 'Add associated type' }).click();
  await expect(add.getByRole('alert')).toContainText(`already an associated type named ${typeName}`);
  await expectAccessible(page, 'the add form with a refusal');

  // retired: "Offered" unticked under its row
  await row.getByRole('button', { name: `Edit ${typeName}` }).click();
  const edit = page.getByRole('form', { name: `Edit ${typeName}` });
  await expect(edit).toBeVisible();
  await edit.getByLabel('Offered on ERGA profiles (untick to retire it)').uncheck();
  await expectAccessible(page, 'the edit form of an associated type');
  await expectNoSidewaysScroll(page);
  await edit.getByRole('button', { name: `Save ${typeName}` }).click();
  await expect(types.getByRole('status').filter({ hasText: `Saved ${typeName}: retired` })).toBeVisible();
  await expect(edit).toBeHidden();
  await expect(row).toContainText('Retired');
  const key = await adminKey(request);
  const options = (await (await request.get('/api/profiles/options', { headers: { authorization: `token ${key}` } })).json()) as {
    associated_types: { name: string; selectable: boolean }[];
  };
  expect(options.associated_types.find((a) => a.name === typeName)?.selectable).toBe(false);

  // a centre with its contacts, one a line; a wrong address is named by its line before anything is sent
  const centres = page.getByRole('region', { name: 'Sequencing centres' });
  const addCentre = page.getByRole('form', { name: 'Add a sequencing centre' });
  await addCentre.getByRole('textbox', { name: 'Short name', exact: true }).fill(centreName);
  await addCentre.getByRole('textbox', { name: 'Label', exact: true }).fill(`KELP LAB ${stamp}`);
  await addCentre.getByRole('textbox', { name: 'Contacts', exact: true }).fill('Ana Lab; ana-at-example.org; sample manager');
  await addCentre.getByRole('button', { name: 'Add sequencing centre' }).click();
  await expect(addCentre.getByText('Line 1: a contact’s email is not a valid address')).toBeVisible();
  await addCentre.getByRole('textbox', { name: 'Contacts', exact: true }).fill('Ana Lab; ana@example.org; sample manager');
  await addCentre.getByRole('button', { name: 'Add sequencing centre' }).click();
  await expect(addCentre.getByRole('status')).toContainText(`Added ${centreName}`);
  const centreRow = centres.getByRole('row', { name: new RegExp(centreName) });
  await expect(centreRow).toContainText('ana@example.org');
  await centreRow.scrollIntoViewIfNeeded();
  await expectAccessible(page, 'the Reference data page with a new centre');
  await expectNoSidewaysScroll(page);
  await screenshot(page, testInfo, 'reference-02-centre-added');
});

test('the reference data are an admin’s only: the API answers anyone else as if they were not there', async ({ request }, testInfo) => {
  const person = await createUser(request, testInfo, { memberOf: ['erga'] });
  const headers = await keyHeaders(request, person);
  for (const path of ['/api/admin/associated-types', '/api/admin/sequencing-centres']) {
    expect((await request.get(path, { headers })).status()).toBe(404);
    expect((await request.get(path)).status()).toBe(401);
  }
});
