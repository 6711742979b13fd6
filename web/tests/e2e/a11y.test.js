// The accessibility audit of the hall's screens: axe-core, injected by the test (the page
// never ships it), on the lobby logged out and as a guest, its dialogs, a waiting room,
// the rankings and the account's dialog — at 1280×800 and 375×812, in English and in
// Chinese; no violation of impact "serious" or "critical" is allowed; and on each of those
// screens Tab reaches every visible control and each one shows where the focus is. The
// tables, their replays and the profile, each game played by keyboard alone, are in
// a11y-keys-*.test.js; the helpers in a11y.js. access.test.js reads the same page through
// the accessibility tree.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, startServer, openPage } from './harness.js';
import { everyWay, tabWalk, tabTo, audit, dialogCheck } from './a11y.js';

const env = setup();

// ---- The screens ---------------------------------------------------------------------

test('the lobby logged out: axe finds nothing serious, and Tab reaches every control', async () => {
  // A hall that makes one new account an hour: a first visitor takes it, the next one
  // has no session and sees the lobby logged out.
  const server = await startServer(['--new-accounts-per-hour', '1']);
  try {
    const first = await openPage(env.browser, server.url);
    await first.waitForFunction(() => window.qipai.hall.user);
    await first.context().close();
    const page = await openPage(env.browser, server.url);
    await page.locator('.gamecard').first().waitFor();
    await page.getByRole('alert').filter({ hasText: /\S/ }).waitFor();
    assert.equal(await page.evaluate(() => window.qipai.hall.user ?? null), null);
    await everyWay(page, 'lobby logged out');
    await everyWay(page, 'lobby logged out', tabWalk);
    assert.deepEqual(page.errors, []);
    await page.context().close();
  } finally {
    await server.stop();
  }
});

test('the lobby as a guest and its dialogs: axe finds nothing serious, and Tab reaches every control', async () => {
  const page = await openPage(env.browser, env.server.url);
  await page.waitForFunction(() => window.qipai.hall.user);
  await page.locator('.gamecard').first().waitFor();
  await everyWay(page, 'lobby as a guest');
  await everyWay(page, 'lobby as a guest', (p, where) => tabWalk(p, where, { shoot: new Set(['action', 'a']) }));
  // Each dialog opened from the keyboard, audited and walked, closed with Escape.
  const dialogs = [{ name: 'login', open: '#user' }];
  for (const id of await page.evaluate(() => [...document.querySelectorAll('.gamecard')].map((c) => c.dataset.game))) {
    dialogs.push({ name: `new table of ${id}`, open: `.g-${id} .gamebtns .ghost` });
    if (await page.locator(`.g-${id} [data-focus="rules"]`).count()) dialogs.push({ name: `rules of ${id}`, open: `.g-${id} [data-focus="rules"]` });
  }
  for (const d of dialogs) {
    await everyWay(page, `${d.name} dialog`, (p, where) => dialogCheck(p, where, d.open, { fromTop: true }));
  }
  // A new table of the first game, opened from its dialog with Enter: the waiting room,
  // its seats and buttons; left again from its header.
  const first = dialogs.find((d) => d.name.startsWith('new table of')).open;
  await page.evaluate(() => document.activeElement?.blur());
  await tabTo(page, first);
  await page.keyboard.press('Enter');
  await page.locator('dialog[open]').waitFor();
  await tabTo(page, 'dialog[open] button[value="go"]');
  await page.keyboard.press('Enter');
  // Its buttons come with the table's snapshot.
  await page.locator('.waiting [data-focus="ready"]').waitFor();
  await everyWay(page, 'waiting room');
  await everyWay(page, 'waiting room', tabWalk);
  await tabTo(page, '.tbar [data-focus="leave"]');
  await page.keyboard.press('Enter');
  await page.locator('.gamecard').first().waitFor();
  // The rankings.
  await page.evaluate(() => (location.hash = '#/ranks'));
  await page.locator('.gametabs a').first().waitFor();
  await everyWay(page, 'rankings');
  await everyWay(page, 'rankings', tabWalk);
  // Registered, the same button opens the account's dialog.
  await page.evaluate(() => window.qipai.hall.send({ type: 'register', name: 'axel', password: 'correct horse' }));
  await page.waitForFunction(() => window.qipai.hall.user?.name === 'axel');
  await everyWay(page, 'account dialog', async (p, where) => {
    await p.locator('#user').click();
    await p.locator('dialog[open]').waitFor();
    await audit(p, where);
    await tabWalk(p, where);
    await p.keyboard.press('Escape');
    await p.locator('dialog[open]').waitFor({ state: 'detached' });
  });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});
