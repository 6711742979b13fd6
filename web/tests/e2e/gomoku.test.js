// Gomoku between games and around an undo: the colours swap from game to game (against the
// computer and between people), the page says which colour we play; an undo may be asked
// right after our own move, a refused one costs nothing (and Undo says what asking again
// at once costs), a greyed Undo says why, and the replay names who asked.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, quickPlay, screenshotPath, PHONE } from './harness.js';

const env = setup();

async function place(page, x, y) {
  await page.waitForSelector('.goban.playable', { timeout: 10000 });
  await page.locator(`rect[data-point="${x},${y}"]`).click();
  await page.waitForSelector('.goban:not(.playable)', { timeout: 10000 });
}

async function resign(page) {
  await page.locator('button[data-focus="resign"]:enabled').click();
  await page.getByRole('dialog').getByRole('button', { name: /^(Resign|认输)$/ }).click();
  await page.locator('.overpanel').waitFor();
}

/** Two people at a private Gomoku table without computers, both ready: `a` opened it. */
async function privateGomoku() {
  const a = await openPage(env.browser, env.server.url);
  await a.locator('.g-gomoku button.ghost').click();
  const dialog = a.locator('dialog');
  await dialog.locator('label.check', { hasText: 'Computers may play' }).locator('input').uncheck();
  await dialog.locator('label.check', { hasText: 'Private' }).locator('input').check();
  await dialog.locator('button[value="go"]').click();
  await a.waitForURL(/#\/t\//);
  await a.locator('[data-focus="invite"]').click();
  const link = (await a.locator('#toast').innerText()).match(/http\S+/)[0];
  const b = await openPage(env.browser, link);
  await b.waitForSelector('.waiting [data-focus="ready"]');
  await a.waitForSelector('.waiting [data-focus="ready"]');
  await a.locator('[data-focus="ready"]').click();
  await b.locator('[data-focus="ready"]').click();
  await a.waitForSelector('.goban');
  await b.waitForSelector('.goban');
  return { a, b };
}

test('against the computer the colours swap: we play white in the next game, and the page says so', async () => {
  const page = await openPage(env.browser, env.server.url);
  await quickPlay(page, 'gomoku');
  await page.waitForSelector('.goban.playable', { timeout: 15000 });
  // Game 1: we are black, to move on the empty board.
  assert.equal(await page.locator('.goban .stone').count(), 0);
  assert.equal(await page.locator('.gplayer.black .badge.you').count(), 1, 'our card is black');
  await resign(page);
  await page.locator('.overpanel button[data-focus="next"]').click();
  // Game 2: the computer is black and opens; our first move is white's.
  await page.waitForSelector('.goban.playable', { timeout: 15000 });
  assert.equal(await page.locator('.goban .stone.black').count(), 1, 'the computer opened as black');
  assert.equal(await page.locator('.goban .stone').count(), 1);
  assert.equal(await page.locator('.gplayer.white .badge.you').count(), 1, 'our card is white');
  assert.equal(await page.locator('.gomoku .gyou').innerText(), 'You play White');
  await page.screenshot({ path: screenshotPath('gomoku-white-desktop') });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on a phone in Chinese, the second game against the computer is played as white', async () => {
  const page = await openPage(env.browser, env.server.url, PHONE);
  await quickPlay(page, 'gomoku');
  await page.waitForSelector('.goban.playable', { timeout: 15000 });
  await resign(page);
  await page.locator('.overpanel button[data-focus="next"]').tap();
  await page.waitForSelector('.goban.playable', { timeout: 15000 });
  assert.equal(await page.locator('.goban .stone.black').count(), 1);
  assert.equal(await page.locator('.gomoku .gyou').innerText(), '你执白');
  await page.screenshot({ path: screenshotPath('gomoku-white-phone') });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('between people the colours swap at "Next game": the seat that was white opens', async () => {
  const { a, b } = await privateGomoku();
  await a.waitForSelector('.goban.playable');
  assert.equal(await a.locator('.gplayer.black .badge.you').count(), 1);
  await place(a, 7, 7);
  await resign(b);
  await a.locator('.overpanel').waitFor();
  await a.locator('.overpanel button[data-focus="next"]').click();
  await b.locator('.overpanel button[data-focus="next"]').click();
  // Game 2: b is black and moves first; a waits.
  await b.waitForSelector('.goban.playable', { timeout: 15000 });
  assert.equal(await a.locator('.goban.playable').count(), 0);
  assert.equal(await b.locator('.gplayer.black .badge.you').count(), 1, "b's card is black");
  assert.equal(await a.locator('.gplayer.white .badge.you').count(), 1, "a's card is white");
  assert.equal(await a.locator('.gomoku .gyou').innerText(), 'You play White');
  assert.equal(await b.locator('.gomoku .gyou').innerText(), 'You play Black');
  await place(b, 7, 7);
  await a.waitForSelector('.goban.playable');
  await a.screenshot({ path: screenshotPath('gomoku-swapped-people') });
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context().close();
  await b.context().close();
});

test('undo: asked right after our own move; a refusal costs nothing; a grey Undo says why; the replay names who asked', async () => {
  const { a, b } = await privateGomoku();
  const aName = await a.evaluate(() => window.qipai.hall.user.name);
  const undo = a.locator('button[data-focus="undo"]');
  /** Why `page`'s grey Undo is grey: its title, its description, the hint beside it. */
  const why = async (page) => ({
    title: await page.locator('button[data-focus="undo"]').getAttribute('title'),
    described: await page.evaluate(() => {
      const u = document.querySelector('button[data-focus="undo"]');
      return document.getElementById(u.getAttribute('aria-describedby'))?.innerText;
    }),
    hint: await page.locator('.gomoku .undohint').innerText(),
  });
  // Right after our own move, on the opponent's turn: a misclick is taken back.
  await place(a, 7, 7);
  await undo.and(a.locator(':enabled')).waitFor();
  // White, with no stone yet, has nothing to take back: grey, and said.
  await b.waitForSelector('.goban.playable');
  assert.ok(await b.locator('button[data-focus="undo"]').isDisabled());
  assert.deepEqual(await why(b), { title: 'Nothing to take back yet', described: 'Nothing to take back yet', hint: 'Nothing to take back yet' });
  assert.equal(await a.locator('.gplayer.black .gmeta').innerText(), 'You play Black · 3 undos left');
  assert.equal(await b.locator('.gplayer.white .gmeta').innerText(), 'You play White · 3 undos left');
  await undo.click();
  const asked = b.locator('.undoask');
  await asked.waitFor();
  assert.match(await asked.innerText(), new RegExp(`${aName} asks to take back`));
  await b.locator('.undoask [data-focus="refuse"]').click();
  // Refused: the stone stays, no undo is used up, and Undo says what asking again costs.
  const refused = 'Refused: asking again before the next stone uses one of your undos';
  await a.locator('.gomoku .undohint', { hasText: refused }).waitFor();
  assert.equal(await a.locator('.goban .stone').count(), 1);
  assert.equal(await a.locator('.gplayer.black .gmeta').innerText(), 'You play Black · 3 undos left');
  assert.ok(await undo.isEnabled());
  assert.deepEqual(await why(a), { title: refused, described: refused, hint: refused });
  await a.screenshot({ path: screenshotPath('gomoku-undo-refused') });

  // White answers; black asks again on its own turn: its stone and white's reply go.
  await place(b, 0, 0);
  await undo.and(a.locator(':enabled')).waitFor();
  await undo.click();
  await b.locator('.undoask [data-focus="accept"]').click();
  await a.waitForFunction(() => document.querySelectorAll('.goban .stone').length === 0);
  assert.equal(await a.locator('.gplayer.black .gmeta').innerText(), 'You play Black · 2 undos left');

  // The replay says who asked, not "your opponent".
  await resign(a);
  await a.locator('.overpanel a', { hasText: 'Replay' }).click();
  await a.locator('.replay .rbar').waitFor();
  await a.locator('.rbar [data-focus="first"]').click();
  await a.locator('.rbar [data-focus="next"]').click();
  await a.locator('.rbar [data-focus="next"]').click();
  await a.waitForFunction(() => /2 \/ /.test(document.querySelector('.rbar [role="status"]').innerText));
  const status = await a.locator('.replay .gstatus').innerText();
  assert.doesNotMatch(status, /opponent/i);
  assert.equal(status, `${aName} (Black) asks to undo`);
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context().close();
  await b.context().close();
});
