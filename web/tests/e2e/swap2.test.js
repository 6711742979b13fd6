// Gomoku's swap2 opening between two people (docs/rules/gomoku.md, "Swap2"), through each
// of its paths — the second player plays White, takes Black, or places two more and the
// first player chooses — and the end panel's rematch: who is Black (or opens) next, and
// that the opponent asked for it. Screenshots of the prompts at both sizes and languages.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, screenshotPath, unseen, PHONE, DESKTOP } from './harness.js';

const env = setup();

/** Clicks (or on a phone taps) the point x,y of the board, once the board takes a stone. */
async function place(page, x, y) {
  await page.waitForSelector('.goban.playable', { timeout: 10000 });
  const stones = await page.locator('.goban .stone').count();
  const hit = page.locator(`rect[data-point="${x},${y}"]`);
  if (page.context()._options?.hasTouch) await hit.tap();
  else await hit.click();
  // Until the server has answered with the stone on the board.
  await page.waitForFunction((n) => document.querySelectorAll('.goban .stone').length > n, stones);
}

const status = (page) => page.locator('.gstatus').innerText();

/**
 * Two people at a private swap2 Gomoku table without computers, both ready: `a` opens it
 * from the lobby's dialog ("Opening: Swap2") and sits first, `b` joins by the invite link.
 */
async function swap2Table(aOptions = DESKTOP, bOptions = DESKTOP) {
  const a = await openPage(env.browser, env.server.url, aOptions);
  // Players who know the table: the first game's guide (guide.test.js) is not in the way.
  const knowsGomoku = (page) => page.evaluate(() => localStorage.setItem('qipai.guide.gomoku', '1'));
  await knowsGomoku(a);
  await a.locator('.g-gomoku button.ghost').click();
  const dialog = a.locator('dialog');
  const en = (aOptions.locale || 'en').startsWith('en');
  await dialog.locator('label', { hasText: en ? 'Opening' : '开局' }).locator('select').selectOption('swap2');
  await dialog.locator('label.check').nth(0).locator('input').uncheck();
  await dialog.locator('label.check').nth(1).locator('input').check();
  await dialog.locator('button[value="go"]').click();
  await a.waitForURL(/#\/t\//);
  await a.locator('[data-focus="invite"]').click();
  const link = (await a.locator('#toast').innerText()).match(/http\S+/)[0];
  const b = await openPage(env.browser, link, bOptions);
  await knowsGomoku(b);
  await b.waitForSelector('.waiting [data-focus="ready"]');
  await a.waitForSelector('.waiting [data-focus="ready"]');
  await a.locator('[data-focus="ready"]').click();
  await b.locator('[data-focus="ready"]').click();
  await a.waitForSelector('.goban');
  await b.waitForSelector('.goban');
  return { a, b };
}

/** The first player (`first`) lays black h8, white i8, black j7, the prompts said as it goes. */
async function layThree(first, second) {
  assert.match(await status(first), /place 2 black and 1 white stone \(1\/3: Black\)/);
  assert.match(await status(second), /places 2 black and 1 white stone \(1\/3\)/);
  await place(first, 7, 7);
  assert.match(await status(first), /\(2\/3: White\)/);
  // The next stone is white: the board's hover shows it so.
  assert.equal(await first.locator('.goban.next-white').count(), 1);
  await place(first, 8, 7);
  await place(first, 9, 8);
  await second.waitForSelector('.swap2ask');
}

test('swap2: the second player plays White; then the rematch swaps the opener and says who asked', async () => {
  // The second player on a phone, in English.
  const { a, b } = await swap2Table(DESKTOP, { ...PHONE, locale: 'en-US' });
  // Before the choice, nobody's colour is settled: the cards say who lays and who chooses.
  assert.match(await a.locator('.gplayer').first().innerText(), /Opener|Chooser/);
  await layThree(a, b);
  assert.match(await status(b), /Choose: play White, take Black, or place two more/);
  assert.match(await status(a), /is choosing/);
  // A stray click does not choose: the board takes a stone only after "Play White".
  assert.equal(await b.locator('.goban.playable').count(), 0);
  assert.equal(await a.locator('.swap2ask').count(), 0, 'the first player has nothing to choose');
  assert.deepEqual(await unseen(b), []);
  await b.screenshot({ path: screenshotPath('swap2-choose-phone-en') });
  await b.locator('[data-focus="s2white"]').tap();
  assert.match(await status(b), /Playing White: click a point/);
  await place(b, 8, 8);
  await a.waitForSelector('.goban.playable');
  assert.match(await a.locator('.gplayer.black').innerText(), /You play Black/);
  assert.match(await b.locator('.gplayer.white').innerText(), /You play White/);
  // Undo is back once the opening is over: White may take back the stone it chose with.
  await b.waitForSelector('[data-focus="undo"]:not([disabled])');

  // Black resigns; the end panel says who plays Black next, and the button says the colours swap.
  await a.locator('[data-focus="resign"]').click();
  await a.locator('dialog button[value="yes"]').click();
  await a.waitForSelector('.overpanel');
  await b.waitForSelector('.overpanel');
  assert.match(await b.locator('.overpanel').innerText(), /Next game: you lay the swap2 opening/);
  assert.deepEqual(await unseen(b), []);
  await b.screenshot({ path: screenshotPath('swap2-over-phone-en') });
  assert.match(await a.locator('.overpanel').innerText(), /Next game: guest-\w+ lays the swap2 opening/);
  assert.equal(await a.locator('.overpanel [data-focus="next"]').innerText(), 'Rematch (colours swapped)');
  await b.locator('.overpanel [data-focus="next"]').tap();
  await a.waitForSelector('.overpanel .wants');
  assert.match(await a.locator('.overpanel .wants').innerText(), /guest-\w+ wants a rematch/);
  assert.deepEqual(await unseen(a), []);
  await a.screenshot({ path: screenshotPath('swap2-rematch-desktop-en') });
  await a.locator('.overpanel [data-focus="next"]').click();

  // The next game: b, who chose last time, lays the opening; a takes Black.
  await b.waitForSelector('.goban.playable');
  await layThree(b, a);
  await a.locator('[data-focus="s2black"]').click();
  // b is now White and places White's fourth stone.
  await b.waitForSelector('.goban.playable');
  assert.match(await b.locator('.gplayer.white').innerText(), /You play White/);
  assert.match(await a.locator('.gplayer.black').innerText(), /You play Black/);
  await a.waitForFunction(() => /Take Black/.test(document.querySelector('.movelines').textContent));
  await place(b, 6, 6);
  await a.waitForSelector('.goban.playable');
  assert.deepEqual(a.refusals.concat(b.refusals), []);
  assert.deepEqual(a.errors.concat(b.errors), []);
  await a.context().close();
  await b.context().close();
});

test('swap2: two more stones, then the first player chooses; phone and Chinese fit', async () => {
  const { a, b } = await swap2Table(PHONE, { ...DESKTOP, locale: 'zh-CN' });
  assert.match(await status(a), /请下两黑一白三子（第 1\/3 子：黑）/);
  await a.screenshot({ path: screenshotPath('swap2-lay-phone-zh') });
  await place(a, 7, 7);
  await place(a, 8, 7);
  await place(a, 9, 8);
  await b.waitForSelector('.swap2ask');
  assert.match(await status(b), /请选择：执白.*执黑，或再下两子/);
  await b.screenshot({ path: screenshotPath('swap2-choose-desktop-zh') });
  await b.locator('[data-focus="s2two"]').click();
  await b.waitForFunction(() => /再下两子，一白一黑（第 1\/2 子：白）/.test(document.querySelector('.gstatus').innerText));
  await place(b, 6, 6);
  await place(b, 5, 5);
  // Back to the first player, who may play White or take Black, not place two more.
  await a.waitForSelector('.swap2ask');
  assert.match(await status(a), /请选择：执白.*或执黑/);
  assert.equal(await a.locator('[data-focus="s2two"]').count(), 0);
  assert.deepEqual(await unseen(a), []);
  await a.screenshot({ path: screenshotPath('swap2-choose-again-phone-zh') });
  await a.locator('[data-focus="s2white"]').tap();
  await place(a, 10, 9);
  // a is White now; b, Black, moves.
  await b.waitForSelector('.goban.playable');
  assert.match(await a.locator('.gplayer.white').innerText(), /你执白/);
  assert.equal(await a.locator('.goban .stone').count(), 6);
  assert.deepEqual(a.refusals.concat(b.refusals), []);
  assert.deepEqual(a.errors.concat(b.errors), []);
  await a.context().close();
  await b.context().close();
});
