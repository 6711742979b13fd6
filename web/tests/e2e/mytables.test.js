// Which tables am I at (issue 43, defect 3): the tables where we sit are listed apart, to
// return to, never as "open" with a Watch button; a table nobody can join (a person
// playing computers, every seat filled) is not among the open ones; `/` opens the lobby,
// not an old table; and going elsewhere after a game leaves that table, so nobody ends
// up seated at one table after another.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, quickPlay, playToEnd, screenshotPath, PHONE } from './harness.js';

const env = setup();

/** The lobby's rows of `table` in each of its lists. */
async function rows(page, table) {
  return page.evaluate((id) => {
    const where = {};
    for (const list of ['mine', 'open', 'playing']) where[list] = document.querySelectorAll(`.tables.${list} .tablerow[data-table="${id}"]`).length;
    return where;
  }, table);
}

test('our tables are apart, to return to; full tables are not open; `/` opens the lobby; a finished table is left', async () => {
  const a = await openPage(env.browser, env.server.url);
  const b = await openPage(env.browser, env.server.url);
  // a plays Dou Dizhu against two computers: three of three seats, being played.
  await quickPlay(a, 'doudizhu');
  const table = a.url().split('#/t/')[1];
  await a.locator('.hand .card').first().waitFor({ timeout: 15000 });
  // In b's lobby nobody can join it: it is being played, to watch, not open.
  await b.locator(`.tablerow[data-table="${table}"]`).first().waitFor({ timeout: 10000 });
  assert.deepEqual(await rows(b, table), { mine: 0, open: 0, playing: 1 });
  assert.equal(await b.locator(`.tables.playing .tablerow[data-table="${table}"] a`).innerText(), 'Watch');

  // a goes to the lobby mid-game: the table is a's, with Return, and nowhere else.
  await a.locator('.tbar .back').click();
  const mine = a.locator(`.tables.mine .tablerow[data-table="${table}"]`);
  await mine.waitFor();
  assert.deepEqual(await rows(a, table), { mine: 1, open: 0, playing: 0 });
  assert.deepEqual(await mine.locator('a').allInnerTexts(), ['Return']);
  assert.match(await a.locator('.lobby h2').first().innerText(), /Your tables/);
  await a.screenshot({ path: screenshotPath('lobby-your-tables') });

  // Opening `/` again lands in the lobby, the table listed there; nothing sends us away.
  await a.goto(env.server.url);
  await a.locator(`.tables.mine .tablerow[data-table="${table}"]`).waitFor();
  await a.waitForTimeout(1500);
  assert.ok(!a.url().includes('#/t/'), `still in the lobby: ${a.url()}`);

  // Return: the same seat, the hand, and the game goes on to its end.
  await a.locator(`.tables.mine .tablerow[data-table="${table}"] a`).click();
  await a.waitForURL(new RegExp(`#/t/${table}$`));
  await a.locator('.hand .card').first().waitFor();
  assert.equal(await a.locator('.badge.spect').count(), 0, 'seated, not watching');
  await playToEnd(a);

  // Going to the lobby after the game leaves the table: it is no longer ours, and a
  // reload finds no seat held.
  await a.locator('.tbar .back').click();
  await a.locator('.tables.open').waitFor();
  await a.waitForTimeout(500);
  assert.equal((await rows(a, table)).mine, 0);
  await a.reload();
  await a.waitForFunction(() => window.qipai.hall.open);
  assert.deepEqual(await a.evaluate(() => window.qipai.hall.seated), [], 'no seat held anywhere');
  assert.equal(await a.locator('.tables.mine').isVisible(), false);

  // Another game, then the lobby: one table of ours, the new one.
  await quickPlay(a, 'bigtwo');
  const second = a.url().split('#/t/')[1];
  await a.locator('.tbar .back').click();
  await a.locator(`.tables.mine .tablerow[data-table="${second}"]`).waitFor();
  assert.equal(await a.locator('.tables.mine .tablerow').count(), 1);
  assert.deepEqual([...a.errors, ...b.errors], []);
});

test('on a phone in Chinese, our table is under 你的牌桌 with 回到牌桌', async () => {
  const page = await openPage(env.browser, env.server.url, PHONE);
  await quickPlay(page, 'gomoku');
  const table = page.url().split('#/t/')[1];
  await page.locator('.goban').waitFor();
  await page.locator('.tbar .back').click();
  const row = page.locator(`.tables.mine .tablerow[data-table="${table}"]`);
  await row.waitFor();
  assert.equal(await row.locator('a').innerText(), '回到牌桌');
  assert.equal(await page.locator('.lobby h2').first().innerText(), '你的牌桌');
  await page.screenshot({ path: screenshotPath('lobby-your-tables-phone') });
  assert.deepEqual(page.errors, []);
});
