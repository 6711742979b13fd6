// 五人斗地主 with suits on the table (issue 43, defect 13): at a quick-play table against
// computers, the player's Hint picks a play, the player swaps one of its cards for another
// suit of the same rank, and plays; a spectator in another browser sees those very cards,
// suits and all, at the player's seat and in its move log.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, quickPlay, screenshotPath, DESKTOP } from './harness.js';

const env = setup();

const cardLabels = (page, selector) => page.locator(selector).evaluateAll((cards) => cards.map((c) => c.getAttribute('aria-label')).sort());

/**
 * Takes the page's turns (grabs, declarations, passes: the first button offered) until it
 * may play cards; then selects the Hint's play with one card swapped for another suit of
 * its rank where the hand has one. Resolves to the labels of the cards selected.
 */
async function chooseAPlay(page) {
  const until = Date.now() + 120000;
  while (Date.now() < until) {
    if (await page.locator('.overpanel').isVisible()) {
      await page.locator('[data-focus="next"]').click();
      await page.waitForSelector('.overpanel', { state: 'detached' });
      continue;
    }
    const hint = page.locator('[data-act="hint"]');
    if ((await hint.count()) && (await hint.isEnabled())) {
      await hint.click();
      const swap = await page.evaluate(() => {
        const cards = [...document.querySelectorAll('.hand .card')];
        const rank = (c) => (/[dchs]$/.test(c.dataset.card) ? c.dataset.card.slice(0, -1) : null);
        for (const x of cards.filter((c) => c.classList.contains('sel') && rank(c))) {
          const y = cards.find((c) => !c.classList.contains('sel') && rank(c) === rank(x) && c.dataset.card !== x.dataset.card);
          if (y) return [x.dataset.i, y.dataset.i];
        }
        return null;
      });
      // The hand is fanned: each card shows its left edge, where a player clicks it.
      for (const i of swap || []) await page.locator(`.hand .card[data-i="${i}"]`).click({ position: { x: 6, y: 12 } });
      return cardLabels(page, '.hand .card.sel');
    }
    const other = page.locator('.controls button[data-act]:not([disabled]):not([data-act="play"])');
    if (await other.count()) await other.first().click();
    await page.waitForTimeout(100);
  }
  throw new Error('no turn to play cards came');
}

test('五人斗地主: the cards a player selects go on the table with their suits, as another browser sees them', async () => {
  const page = await openPage(env.browser, env.server.url, DESKTOP);
  await quickPlay(page, 'doudizhu5');
  const watcher = await openPage(env.browser, page.url(), DESKTOP);
  const picked = await chooseAPlay(page);
  const me = await page.evaluate(() => [...window.qipai.hall.views.values()][0].you);
  assert.ok(picked.length > 0 && picked.some((l) => /[♠♥♣♦]/.test(l)), `a play with suits: ${picked}`);
  const play = page.locator('[data-act="play"]');
  assert.ok(await play.isEnabled(), 'the cards selected make a play');
  await play.click();
  // Our own table, and the spectator's, show the cards we chose.
  const atSeat = `[data-seat-play="${me}"] .card`;
  for (const p of [page, watcher]) {
    await p.waitForFunction(([sel, n]) => document.querySelectorAll(sel).length === n, [atSeat, picked.length], { timeout: 15000 });
    assert.deepEqual(await cardLabels(p, atSeat), picked, 'the very cards selected, suits and all');
  }
  // The spectator's move log says them too.
  const moves = await watcher.getByRole('list', { name: 'Moves' }).getByRole('listitem').allInnerTexts();
  const says = (line) => {
    let rest = line;
    for (const l of picked) {
      if (!rest.includes(l)) return false;
      rest = rest.replace(l, '');
    }
    return true;
  };
  assert.ok(moves.some(says), `a move line with ${picked.join(' ')}: ${moves.join(' | ')}`);
  await watcher.screenshot({ path: screenshotPath('doudizhu5-suits-spectator') });
  assert.deepEqual(page.refusals, [], 'the server took the suited play');
  assert.deepEqual([...page.errors, ...watcher.errors], []);
});
