// The login dialog as a newcomer meets it: the password rule said before it applies,
// Enter logs in, a password too short to register keeps the dialog and what was typed;
// and, logged in, the account's own actions without an empty login form beside them.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, screenshotPath } from './harness.js';

const env = setup();

/** Opens the top bar's "Log in / register" once the page has its guest. */
async function open(page, name = 'Log in or register') {
  await page.waitForFunction(() => window.qipai?.hall?.user);
  await page.locator('#user').click();
  const dialog = page.getByRole('dialog', { name });
  await dialog.waitFor();
  return dialog;
}

test('registering: the rule is said first, and a short password keeps the dialog and both fields', async () => {
  const page = await openPage(env.browser, env.server.url);
  const dialog = await open(page);
  // Said under the field before anything is typed.
  assert.equal(await dialog.locator('#passhint').innerText(), 'To register: at least 8 characters');
  await dialog.getByLabel('Name').fill('erin');
  await dialog.getByLabel('Password').fill('short');
  await dialog.getByRole('button', { name: 'Register' }).click();
  assert.ok(await dialog.isVisible(), 'the dialog stays open');
  assert.equal(await dialog.getByLabel('Name').inputValue(), 'erin');
  assert.equal(await dialog.getByLabel('Password').inputValue(), 'short');
  assert.equal(await dialog.getByLabel('Password').evaluate((e) => e.validationMessage), 'Passwords have at least 8 characters');
  await page.screenshot({ path: screenshotPath('register-short-password') });
  // Mended, it registers.
  await dialog.getByLabel('Password').fill('long enough');
  await dialog.getByRole('button', { name: 'Register' }).click();
  await page.waitForFunction(() => window.qipai.hall.user?.name === 'erin' && !window.qipai.hall.user.guest);
  // Logged in: the account's actions, and no login form.
  const account = await open(page, 'Account');
  assert.equal(await account.getByLabel('Password').count(), 0, 'no password field');
  assert.equal(await account.getByLabel('Name').count(), 0, 'no name field');
  assert.match(await account.innerText(), /Logged in as erin/);
  for (const name of ['Log out', 'Change password', 'Delete account', 'Close']) await account.getByRole('button', { name }).waitFor();
  await page.screenshot({ path: screenshotPath('account-dialog') });
  await account.getByRole('button', { name: 'Log out' }).click();
  await page.waitForFunction(() => window.qipai.hall.user?.guest === true);
  // Enter in the password field logs in (the form's first button is Close).
  const again = await open(page);
  await again.getByLabel('Name').fill('erin');
  await again.getByLabel('Password').fill('long enough');
  await again.getByLabel('Password').press('Enter');
  await page.waitForFunction(() => window.qipai.hall.user?.name === 'erin');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
