// The moves and the chat (issue 43, defect 5): two panels apart, 记录/Moves and 聊天/Chat,
// so that what people say is not drowned by one line per move; and a reload brings both
// back, with the seat, the board and the hand.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, quickPlay, screenshotPath, PHONE } from './harness.js';

const env = setup();

const lines = (page, name) => page.getByRole('list', { name }).getByRole('listitem').allInnerTexts();

/** Places our next stone on the free point nearest the centre, and waits for the answer. */
async function move(page) {
  await page.waitForSelector('.goban.playable', { timeout: 15000 });
  const point = await page.evaluate(() => {
    const free = [...document.querySelectorAll('.goban.playable rect.hit.free')].map((r) => r.dataset.point.split(',').map(Number));
    free.sort((a, b) => Math.hypot(a[0] - 7, a[1] - 7) - Math.hypot(b[0] - 7, b[1] - 7));
    return free[0].join(',');
  });
  await page.locator(`rect[data-point="${point}"]`).click();
}

test('the moves and the chat are apart, and both come back after a reload', async () => {
  const page = await openPage(env.browser, env.server.url);
  await quickPlay(page, 'gomoku');
  await move(page);
  await move(page);
  await page.waitForSelector('.goban.playable', { timeout: 15000 });
  const chat = page.getByRole('textbox', { name: 'Say something…' });
  await chat.fill('good luck, computer');
  await chat.press('Enter');
  await page.waitForFunction(() => document.querySelector('.chatlines')?.innerText.includes('good luck, computer'));
  const moves = await lines(page, 'Moves');
  assert.equal(moves.length, 4, moves.join(' | '));
  assert.ok(moves.every((l) => !l.includes('good luck')), 'no chat among the moves');
  const said = await lines(page, 'Chat');
  assert.equal(said.length, 1, said.join(' | '));
  assert.match(said[0], /good luck, computer$/);

  await page.reload();
  await page.waitForSelector('.goban.playable', { timeout: 15000 });
  await page.waitForFunction(() => document.querySelectorAll('.movelines li').length >= 4).catch(() => {});
  assert.deepEqual(await lines(page, 'Moves'), moves, 'the moves after a reload');
  assert.deepEqual(await lines(page, 'Chat'), said, 'the chat after a reload');
  await page.screenshot({ path: screenshotPath('gomoku-moves-chat-reloaded') });
  assert.deepEqual(page.errors, []);
});

test('on a phone in Chinese, 记录 and 聊天 are two panels under the table', async () => {
  const page = await openPage(env.browser, env.server.url, PHONE);
  await quickPlay(page, 'doudizhu');
  await page.locator('.hand .card').first().waitFor({ timeout: 15000 });
  const heads = await page.locator('.chat h2').allInnerTexts();
  assert.deepEqual(heads, ['记录', '聊天']);
  await page.locator('.chat').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('doudizhu-moves-chat-phone') });
  assert.deepEqual(page.errors, []);
});
