// The lobby lists open tables live, and a spectator watching one sees the spectator's view:
// every seat and its plays, no hand.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, quickPlay, screenshotPath } from './harness.js';

const env = setup();

test('a table opened elsewhere appears in the lobby and can be watched', async () => {
  const watcher = await openPage(env.browser, env.server.url);
  await watcher.locator('.tables').waitFor();
  const player = await openPage(env.browser, env.server.url);
  await quickPlay(player, 'bigtwo');
  const table = player.url().split('#/t/')[1];
  // The watcher's lobby shows it without a reload.
  const row = watcher.locator('.tablerow', { hasText: 'Big Two' });
  await row.waitFor({ timeout: 10000 });
  await row.locator('a', { hasText: 'Watch' }).click();
  await watcher.waitForURL(new RegExp(`#/t/${table}$`));
  await watcher.locator('.badge.spect').waitFor();
  await watcher.locator('.seat').first().waitFor();
  assert.equal(await watcher.locator('.seat').count(), 4, 'every seat');
  assert.equal(await watcher.locator('.hand .card').count(), 0, 'no hand for a spectator');
  assert.equal(await watcher.locator('.controls button').count(), 0, 'nothing to play');
  await watcher.screenshot({ path: screenshotPath('bigtwo-spectator') });
  assert.deepEqual([...watcher.errors, ...player.errors], []);
});
