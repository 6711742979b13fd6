// Private tables (issue 43, defect 6): the friend who comes by the invite link sits down
// without a false "This table is private"; a third person with the link, once the seats
// are taken, is told so instead of "Connecting…" for ever, and watches where the host lets
// people with the link watch.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, screenshotPath, PHONE } from './harness.js';

const env = setup();

/** `host` opens a private Gomoku table for people, letting those with the link watch or
 * not; returns its invite link. */
async function privateTable(host, { spectators = false } = {}) {
  await host.locator('.g-gomoku button.ghost').click();
  const dialog = host.locator('dialog');
  await dialog.locator('label.check', { hasText: 'Computers may play' }).locator('input').uncheck();
  const watch = dialog.locator('label.check', { hasText: 'People with the link may watch' }).locator('input');
  if (spectators) assert.equal(await watch.isDisabled(), true, "watching is a private table's option");
  await dialog.locator('label.check', { hasText: 'Private' }).locator('input').check();
  if (spectators) await watch.check();
  await dialog.locator('button[value="go"]').click();
  await host.waitForURL(/#\/t\//);
  await host.locator('[data-focus="invite"]').click();
  return (await host.locator('#toast').innerText()).match(/http\S+/)[0];
}

test('the link seats the friend without a false error; a third person is told the table is full', async () => {
  const host = await openPage(env.browser, env.server.url);
  const link = await privateTable(host);
  const friend = await openPage(env.browser, link);
  await friend.waitForSelector('.waiting [data-focus="ready"]');
  await friend.waitForTimeout(500);
  assert.deepEqual(friend.refusals, [], 'the server refused the friend nothing');
  assert.equal(await friend.locator('#toast').innerText(), '', 'no error shown');

  // Every seat taken, spectators not allowed: said, with the way back, not "Connecting…".
  const third = await openPage(env.browser, link);
  const door = third.locator('.door');
  await door.waitFor();
  assert.equal(await door.locator('h2').innerText(), 'Every seat at this table is taken.');
  assert.match(await door.innerText(), /The host does not let others watch\./);
  assert.equal(await third.locator('.loading').count(), 0);
  await third.screenshot({ path: screenshotPath('private-full') });
  await door.locator('a', { hasText: 'Back to the lobby' }).click();
  await third.locator('.lobby').waitFor();
  assert.deepEqual([...host.errors, ...friend.errors, ...third.errors], []);
});

test('a host who lets people with the link watch: the third person watches, told why', async () => {
  const host = await openPage(env.browser, env.server.url);
  const link = await privateTable(host, { spectators: true });
  const friend = await openPage(env.browser, link);
  await friend.waitForSelector('.waiting [data-focus="ready"]');
  const third = await openPage(env.browser, link, PHONE);
  await third.locator('.badge.spect').waitFor();
  assert.equal(await third.locator('.doornote').innerText(), '座位已满：你在观战。');
  // The game starts; the spectator sees the board, and a reload keeps watching.
  await host.locator('[data-focus="ready"]').click();
  await friend.locator('[data-focus="ready"]').click();
  await third.locator('.goban').waitFor({ timeout: 15000 });
  await third.reload();
  await third.locator('.goban').waitFor({ timeout: 15000 });
  assert.equal(await third.locator('.badge.spect').count(), 1);
  await third.screenshot({ path: screenshotPath('private-watching-phone') });
  assert.deepEqual([...host.errors, ...friend.errors, ...third.errors], []);
});
