// Names after registering or logging in (issue 43, defect 4): a guest who registers is
// named by the new name at the seat it holds, in other players' lobby, after a reload;
// and after logging in the Profile page shows the account logged in now, not the guest
// it was, and the lobby that account's tables.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, screenshotPath } from './harness.js';

const env = setup();

/** Registers (or logs in, with `button` 'Log in') the page's player as `name`. */
async function account(page, name, button = 'Register') {
  await page.waitForFunction(() => window.qipai?.hall?.user);
  await page.locator('#user').click();
  const dialog = page.getByRole('dialog', { name: 'Log in or register' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Password').fill(`${name}'s password`);
  await dialog.getByRole('button', { name: button }).click();
  await page.waitForFunction((n) => window.qipai.hall.user?.name === n && !window.qipai.hall.user.guest, name);
}

test('a guest who registers is named anew at the seat, in the lobby and on the profile', async () => {
  const a = await openPage(env.browser, env.server.url);
  const b = await openPage(env.browser, env.server.url);
  await a.waitForFunction(() => window.qipai?.hall?.user);
  const guest = await a.evaluate(() => window.qipai.hall.user.name);
  // a opens a Gomoku table and waits there for someone; b sees it in the lobby.
  await a.locator('.g-gomoku button.ghost').click();
  await a.locator('dialog button[value="go"]').click();
  await a.waitForURL(/#\/t\//);
  const table = a.url().split('#/t/')[1];
  const seat = a.locator('.wseat .wname').first();
  // The waiting room may be drawn once before our seat in it (on a loaded machine).
  await a.waitForFunction((g) => document.querySelector('.wseat .wname')?.innerText.startsWith(g), guest);
  assert.match(await seat.innerText(), new RegExp(`^${guest}`));
  const row = b.locator('.tablerow', { hasText: 'Gomoku' });
  await row.waitFor({ timeout: 10000 });
  assert.match(await row.innerText(), new RegExp(`host ${guest}`));

  // a registers as nina: the seat says nina at once, and so does b's lobby.
  await account(a, 'nina');
  await a.waitForFunction(() => document.querySelector('.wseat .wname')?.innerText.startsWith('nina'));
  await b.waitForFunction(() => /host nina/.test(document.querySelector('.tablerow')?.innerText || ''));
  // After a reload too.
  await a.reload();
  await a.waitForURL(new RegExp(`#/t/${table}$`));
  await a.waitForFunction(() => document.querySelector('.wseat .wname')?.innerText.startsWith('nina'));
  await a.screenshot({ path: screenshotPath('renamed-seat') });

  // b looks at its own profile as a guest, then logs in as nina there: the profile is
  // nina's at once.
  await b.evaluate(() => { location.hash = '#/profile'; });
  await b.waitForFunction(() => /^guest-/.test(document.querySelector('.profile h1')?.innerText || ''));
  await account(b, 'nina', 'Log in');
  await b.waitForFunction(() => document.querySelector('.profile h1')?.innerText.startsWith('nina'));
  // nina's table is b's now: the lobby lists it under Your tables, without a reload.
  await b.evaluate(() => { location.hash = '#/'; });
  await b.locator(`.tables.mine .tablerow[data-table="${table}"]`).waitFor();
  assert.deepEqual([...a.errors, ...b.errors], []);
});
