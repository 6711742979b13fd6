// At Gomoku: resigning asks in the page, a spectator has no buttons, and no deal is
// checked where nothing is dealt.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, quickPlay, screenshotPath } from './harness.js';

const env = setup();

test('Gomoku: resigning asks in the page; a spectator has no Undo or Resign; no deal to check', async () => {
  const page = await openPage(env.browser, env.server.url);
  const native = [];
  page.on('dialog', (d) => {
    native.push(d.message());
    d.dismiss();
  });
  await quickPlay(page, 'gomoku');
  const table = page.url().split('#/t/')[1];
  const resign = page.locator('button[data-focus="resign"]');
  await resign.and(page.locator(':enabled')).waitFor({ timeout: 15000 });
  // A spectator sees the board and the players, and nothing to press.
  const watcher = await openPage(env.browser, `${env.server.url}#/t/${table}`);
  await watcher.locator('.badge.spect').waitFor();
  await watcher.locator('.goban').waitFor();
  assert.equal(await watcher.locator('.gomoku .controls button').count(), 0, 'no buttons for a spectator');
  // Resign: a question in the page; "Play on" keeps the game.
  await resign.click();
  const ask = page.getByRole('dialog', { name: 'Resign? The game counts as lost.' });
  await ask.waitFor();
  await page.screenshot({ path: screenshotPath('gomoku-resign-ask') });
  await ask.getByRole('button', { name: 'Play on' }).click();
  await ask.waitFor({ state: 'detached' });
  assert.equal(await page.locator('.overpanel').count(), 0, 'still playing');
  await resign.click();
  await ask.getByRole('button', { name: 'Resign' }).click();
  await page.locator('.overpanel').waitFor();
  assert.deepEqual(native, [], 'no browser dialog');
  assert.equal(await page.locator('.overpanel h2').innerText(), 'You lost');
  // Nothing was dealt: no "fair deal" line.
  assert.equal(await page.locator('.overpanel .fair').count(), 0);
  await page.screenshot({ path: screenshotPath('gomoku-resigned') });
  assert.deepEqual([...page.errors, ...watcher.errors], []);
  await page.context().close();
  await watcher.context().close();
});
