// Sound and motion, 记牌器 and 报单/报双 (issue 43, "what players miss most" 3 and 4).
// The page's sounds are observed where they are made: an init script wraps the page's
// AudioContext and writes down the frequency of every tone and each burst of noise it
// starts, so a test knows which sounds the page asked for (the turn's tone starts at
// 660 Hz, a tick at 1400 Hz, 报单's warning at 988 Hz, the five-in-a-row chime ends at 1319 Hz).

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, screenshotPath, takeTurn, playToEnd, unseen, DESKTOP, PHONE } from './harness.js';

const env = setup();

const TURN = 660;
const TICK = 1400;
const WARN = 988;
const FIVE = 1319;

/** A page whose sounds are written down in `window.__tones` and `window.__noises`. */
async function open(options = DESKTOP) {
  const context = await env.browser.newContext({ ...options, bypassCSP: true });
  await context.addInitScript(() => {
    window.__tones = [];
    window.__noises = 0;
    const AC = window.AudioContext;
    if (!AC) return;
    const osc = AC.prototype.createOscillator;
    AC.prototype.createOscillator = function () {
      const o = osc.call(this);
      const set = o.frequency.setValueAtTime;
      o.frequency.setValueAtTime = function (v, at) {
        window.__tones.push(Math.round(v));
        return set.call(this, v, at);
      };
      return o;
    };
    const src = AC.prototype.createBufferSource;
    AC.prototype.createBufferSource = function () {
      window.__noises++;
      return src.call(this);
    };
  });
  const page = await context.newPage();
  page.errors = [];
  page.refusals = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  await page.goto(env.server.url);
  await page.locator('.gamegrid').waitFor();
  return page;
}

/** What the page has sounded: `tones` (Hz, in order) and `noises`. */
function heard(page) {
  return page.evaluate(() => ({ tones: [...window.__tones], noises: window.__noises }));
}

const count = (list, f) => list.filter((x) => x === f).length;

/**
 * Waits until the page offers us a move: our turn in the table's state, and drawn (the
 * table draws on the next frame, which a loaded machine may give late).
 */
async function ourTurn(page, timeout = 20000) {
  await page.waitForFunction(() => window.qipai.view?.myTurn?.() && document.querySelector('.stage .controls button[data-act]:not([disabled]), .stage .goban.playable'), null, { timeout });
}

/**
 * Waits for our next turn after a move. The game may end before it comes — a computer
 * landlord can be down to its last two cards after our sixth turn, and go out — and then
 * our next turn is at the next game, which the end panel's Next deals (the end is heard as
 * a win or a loss, no turn's tone).
 */
async function nextTurn(page, timeout = 20000) {
  await page.waitForFunction(() => window.qipai.view?.over || (window.qipai.view?.myTurn?.() && document.querySelector('.stage .controls button[data-act]:not([disabled]), .stage .goban.playable')), null, { timeout });
  if (!(await page.evaluate(() => !!window.qipai.view?.over))) return;
  await page.locator('.overpanel [data-focus="next"]').click();
  await ourTurn(page, timeout);
}

/** Takes `n` turns of ours, waiting for each; returns how many. */
async function turns(page, n) {
  let done = 0;
  while (done < n) {
    await nextTurn(page);
    if (await takeTurn(page)) done++;
    await page.waitForFunction(() => !window.qipai.view?.myTurn?.(), null, { timeout: 5000 }).catch(() => {});
  }
  return done;
}

/** Opens a Dou Dizhu table from the lobby's dialog with computers in the other seats, and deals. */
async function counterTable(page, { counter = true, seconds } = {}) {
  await page.locator('.g-doudizhu .gamebtns button.ghost', { hasText: /New table|开桌/ }).click();
  const dialog = page.locator('dialog');
  const box = dialog.locator('input[data-option="card_counter"]');
  assert.equal(await box.isChecked(), false, '记牌器 is off unless asked');
  if (counter) await box.check();
  if (seconds) await dialog.locator('label.field', { hasText: /Seconds per turn|每步秒数/ }).locator('input').fill(String(seconds));
  await dialog.locator('button[value="go"]').click();
  await page.waitForURL(/#\/t\//);
  for (const seat of [1, 2]) await page.locator(`[data-focus="bot-${seat}"]`).click();
  await page.locator('[data-focus="ready"]').click();
  await page.locator('.cardgame').waitFor({ timeout: 15000 });
}

test('your turn: one tone each time it becomes yours, none for what a return to the table replays; played cards fly in', async () => {
  const page = await open();
  await page.locator('.g-doudizhu .quick').click();
  await ourTurn(page);
  await page.waitForTimeout(300);
  assert.equal(count((await heard(page)).tones, TURN), 1, 'one tone for our first turn');
  const taken = await turns(page, 4);
  await nextTurn(page);
  await page.waitForTimeout(200);
  const before = await heard(page);
  assert.equal(count(before.tones, TURN), taken + 1, `a tone for each of our ${taken + 1} turns, and only those: ${before.tones}`);
  assert.ok(before.noises > 0, 'cards played are heard');

  // Our own play flies from the hand to the felt.
  const mine = await page.evaluate(() => window.qipai.view.you);
  // A computer's answer 10 ms later redraws the felt, and our row with it: the flight is
  // caught as it starts, by an observer set before the click.
  await page.evaluate((seat) => {
    window.flown = null;
    const seen = new MutationObserver(() => {
      const row = document.querySelector(`[data-seat-play="${seat}"] .cardrow.fly`);
      if (row && !window.flown) window.flown = [row.style.getPropertyValue('--fx'), row.style.getPropertyValue('--fy')];
    });
    seen.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
  }, mine);
  // Where nothing beats the play on the table, Hint is off and the only move is to pass.
  const hint = page.locator('[data-act="hint"]');
  if (await hint.isEnabled()) await hint.click();
  if (await page.locator('[data-act="play"]').isEnabled()) {
    await page.locator('[data-act="play"]').click();
    await page.waitForFunction(() => window.flown);
    const shift = await page.evaluate(() => window.flown);
    assert.ok(parseFloat(shift[1]) > 0, `from the hand, below the felt: ${shift}`);
  } else {
    await page.locator('[data-act="pass"]').click();
  }

  // Back to the lobby and to the table again: the view resumes from 0, the table sends
  // every move again (those of a game that has just ended too), and none of it is heard or
  // moves.
  await nextTurn(page);
  const table = page.url().match(/#\/t\/([\w-]+)/)[1];
  // 报单's warning sounds 250 ms after the play that brought a seat down: let a live one
  // land before taking what has been heard so far.
  await page.waitForTimeout(400);
  const quiet = await heard(page);
  await page.evaluate(() => (location.hash = '#/'));
  await page.locator('.gamegrid').waitFor();
  await page.evaluate((id) => (location.hash = `#/t/${id}`), table);
  await page.locator('.cardgame').waitFor();
  await ourTurn(page);
  await page.waitForTimeout(600);
  assert.deepEqual(await heard(page), quiet, 'nothing replayed is heard');
  assert.equal(await page.locator('.cardrow.fly').count(), 0, 'nothing replayed moves');
  // And live again after it: our next turn is heard, or, if that turn ended the game, its
  // end is.
  await turns(page, 1);
  await page.waitForFunction(() => window.qipai.view?.myTurn?.() || window.qipai.view?.over, null, { timeout: 20000 });
  await page.waitForTimeout(1500);
  const live = await heard(page);
  if (await page.evaluate(() => !!window.qipai.view?.over)) {
    assert.ok(live.tones.length > quiet.tones.length, `the end is heard: ${live.tones}`);
  } else {
    assert.equal(count(live.tones, TURN), count(quiet.tones, TURN) + 1, 'the next turn is heard');
  }
  assert.deepEqual(page.errors, []);
});

test('one mute switch in the top bar, remembered over a reload: nothing is heard while it is on', async () => {
  const page = await open();
  const mute = page.locator('#mute');
  assert.equal(await mute.getAttribute('aria-label'), 'Mute sound');
  assert.equal(await mute.getAttribute('aria-pressed'), 'false', 'sound is on by default');
  assert.equal((await heard(page)).tones.length + (await heard(page)).noises, 0, 'nothing before a gesture');
  await page.locator('.g-doudizhu .quick').click();
  await ourTurn(page);
  await page.waitForTimeout(200);
  assert.ok((await heard(page)).tones.length > 0, 'heard with the sound on');
  await mute.click();
  assert.equal(await mute.getAttribute('aria-pressed'), 'true');
  const at = await heard(page);
  await turns(page, 2);
  await nextTurn(page);
  await page.waitForTimeout(300);
  assert.deepEqual(await heard(page), at, 'muted: no sound');

  await page.reload();
  await page.locator('.cardgame').waitFor();
  assert.equal(await page.locator('#mute').getAttribute('aria-pressed'), 'true', 'still muted after a reload');
  await turns(page, 2);
  await nextTurn(page);
  await page.waitForTimeout(300);
  assert.deepEqual(await heard(page), { tones: [], noises: 0 }, 'still silent');
  // The switch is in the top bar on every screen.
  await page.evaluate(() => (location.hash = '#/ranks'));
  await page.locator('#mute').waitFor();
  await page.locator('#mute').click();
  assert.equal(await page.locator('#mute').getAttribute('aria-pressed'), 'false');
  await page.evaluate(() => history.back());
  await page.locator('.cardgame').waitFor();
  await turns(page, 1);
  await nextTurn(page);
  await page.waitForTimeout(300);
  assert.ok(count((await heard(page)).tones, TURN) >= 1, 'heard again once the sound is back on');
  assert.deepEqual(page.errors, []);
});

/** The 记牌器 strip's counts, by rank. */
function strip(page) {
  return page.evaluate(() => [...document.querySelectorAll('.counter .cc')].map((c) => [c.dataset.rank, Number(c.querySelector('i').textContent)]));
}

test('记牌器: a table option; what is still out by rank agrees with the hands of the others', async () => {
  const page = await open();
  // Offered only where cards are ranked.
  await page.locator('.g-gomoku .gamebtns button.ghost', { hasText: 'New table' }).click();
  assert.equal(await page.locator('dialog input[data-option="card_counter"]').count(), 0, 'no counter for Gomoku');
  await page.locator('dialog button[value="cancel"]').click();
  await page.locator('.g-tenhalf .gamebtns button.ghost', { hasText: 'New table' }).click();
  assert.equal(await page.locator('dialog input[data-option="card_counter"]').count(), 0, 'no counter for Ten and a half');
  await page.locator('dialog button[value="cancel"]').click();

  await counterTable(page);
  assert.equal(await page.evaluate(() => window.qipai.view.info.options.card_counter), true);
  const deal = await strip(page);
  assert.deepEqual(deal.map(([r]) => r), ['RJ', 'BJ', '2', 'A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6', '5', '4', '3']);
  // Dealt: 54 cards less our 17.
  assert.equal(deal.reduce((a, [, n]) => a + n, 0), 37);
  let checked = 0;
  await playToEnd(page, {
    onTurn: async (n) => {
      const s = await page.evaluate(() => {
        const v = window.qipai.view.game.view;
        return { phase: v.phase, you: window.qipai.view.you, sizes: v.hand_sizes };
      });
      if (s.phase !== 'playing' && s.phase !== 'play') return;
      // In play every card still out is in another hand (the kitty is in the landlord's).
      const others = s.sizes.reduce((a, b, i) => a + (i === s.you ? 0 : b), 0);
      const out = (await strip(page)).reduce((a, [, n]) => a + n, 0);
      assert.equal(out, others, `turn ${n}: ${out} out, ${s.sizes} in the hands`);
      checked++;
      if (n === 3) await page.screenshot({ path: screenshotPath('counter-desktop-en') });
    },
  });
  assert.ok(checked > 0, 'counted during play');
  // At the end every hand is shown: what is still out is exactly the others' cards.
  const end = await page.evaluate(() => {
    const tv = window.qipai.view;
    const v = tv.lastView;
    const by = {};
    v.revealed.forEach((hand, i) => {
      if (i === tv.you) return;
      for (const c of String(hand).split(/\s+/).filter(Boolean)) {
        const r = c === 'BJ' || c === 'RJ' ? c : c.length > 1 && c !== '10' ? c.slice(0, -1) : c;
        by[r === '10' ? 'T' : r] = (by[r === '10' ? 'T' : r] || 0) + 1;
      }
    });
    return by;
  });
  const shown = Object.fromEntries((await strip(page)).filter(([, n]) => n > 0));
  assert.deepEqual(shown, end);
  assert.deepEqual(page.errors, []);
});

test('记牌器 fits the phone, in Chinese', async () => {
  const page = await open(PHONE);
  await counterTable(page);
  await ourTurn(page);
  assert.deepEqual(await unseen(page), []);
  const box = await page.locator('.counter').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 375, `the strip is within the phone's width: ${JSON.stringify(box)}`);
  assert.match(await page.locator('.counter .cc').first().getAttribute('aria-label'), /^大王：外面还有 [01] 张$/);
  await page.screenshot({ path: screenshotPath('counter-phone-zh') });
  await playToEnd(page, { onTurn: async () => assert.deepEqual(await unseen(page), []) });
  assert.deepEqual(page.errors, []);
});

test('报单 / 报双: a seat down to one or two cards shows it, and is heard once', async () => {
  const page = await open();
  // Every frame: each seat's cards left against its badge, and the seats seen low.
  await page.evaluate(() => {
    window.__low = [];
    window.__wrong = [];
    const look = () => {
      const tv = window.qipai.view;
      if (tv?.game && !tv.over) {
        for (const seat of document.querySelectorAll('.seat')) {
          const n = Number((seat.querySelector('.left')?.textContent.match(/\d+/) || [])[0]);
          const badge = seat.querySelector('.lastcards')?.textContent || '';
          const want = n === 1 ? 'Last card!' : n === 2 ? 'Two cards left!' : '';
          if (badge !== want) window.__wrong.push(`${seat.dataset.seat}: ${n} cards, badge "${badge}"`);
          if (want) window.__low.push(`${seat.dataset.seat}:${n}`);
        }
      }
      requestAnimationFrame(look);
    };
    look();
  });
  await page.locator('.g-bigtwo .quick').click();
  for (let game = 0; game < 4; game++) {
    await playToEnd(page, {
      onTurn: async () => {
        // The counts shown are the game's.
        const s = await page.evaluate(() => ({ shown: [...document.querySelectorAll('.seat')].map((e) => Number(e.querySelector('.left').textContent.match(/\d+/)[0])), sizes: window.qipai.view.game.view.cards_left }));
        assert.deepEqual(s.shown, s.sizes);
        if (await page.locator('.lastcards').count()) await page.screenshot({ path: screenshotPath('lastcards-desktop-en') });
      },
    });
    if ((await page.evaluate(() => window.__low.length)) > 0) break;
    await page.locator('[data-focus="next"]').click();
    await page.locator('.overpanel').waitFor({ state: 'detached' });
  }
  const { low, wrong } = await page.evaluate(() => ({ low: window.__low, wrong: window.__wrong }));
  assert.ok(low.length > 0, 'a seat came down to one or two cards');
  assert.deepEqual(wrong, []);
  assert.ok(count((await heard(page)).tones, WARN) >= 2, 'and it was heard');
  assert.deepEqual(page.errors, []);
});

test('the last seconds of our turn tick; Gomoku five in a row chimes and its stones move', async () => {
  const page = await open();
  await counterTable(page, { counter: false, seconds: 6 });
  assert.equal(await page.locator('.counter').count(), 0, 'no counter unless asked');
  await ourTurn(page);
  assert.equal(count((await heard(page)).tones, TICK), 0, 'no tick with more than five seconds left');
  await page.waitForTimeout(3200);
  const ticks = count((await heard(page)).tones, TICK);
  assert.ok(ticks >= 2 && ticks <= 5, `ticks in the last seconds, one a second: ${ticks}`);

  const board = await open();
  await board.locator('.g-gomoku .quick').click();
  await playToEnd(board);
  if (await board.evaluate(() => window.qipai.view.lastView.win_line.length)) {
    await board.locator('.stage.fivein .goban').waitFor();
    assert.ok(count((await heard(board)).tones, FIVE) >= 1, 'the chime');
    await board.screenshot({ path: screenshotPath('five-desktop-en') });
  }
  assert.deepEqual([...page.errors, ...board.errors], []);
});

// Bombs and springs cannot be dealt on purpose from the page: the cues are shown the
// messages such a game would send, at a real table (the module itself, not a copy).
test('a bomb shakes the felt with a low boom; a spring shows its banner with a flourish', async () => {
  const page = await open();
  await page.locator('.g-doudizhu .quick').click();
  await ourTurn(page);
  const before = await heard(page);
  await page.evaluate(async () => {
    const { cue } = await import('/js/cues.js');
    cue(window.qipai.view, { type: 'action', table: window.qipai.view.table, seat: 1, action: { play: '5 5 5 5' } }, true);
  });
  await page.locator('.stage.boom .arena').waitFor();
  const boom = await heard(page);
  assert.equal(count(boom.tones, 110), count(before.tones, 110) + 1, 'the low boom');
  assert.ok(boom.noises > before.noises, 'and its blast');
  // Not live (a resume's replay): nothing.
  await page.waitForFunction(() => !document.querySelector('.stage.boom'));
  await page.evaluate(async () => {
    const { cue } = await import('/js/cues.js');
    cue(window.qipai.view, { type: 'action', table: window.qipai.view.table, seat: 1, action: { play: 'BJ RJ' } }, false);
  });
  await page.waitForTimeout(200);
  assert.equal(await page.locator('.stage.boom').count(), 0);
  assert.deepEqual(await heard(page), boom, 'nothing replayed is heard');
  await page.evaluate(async () => {
    const { cue } = await import('/js/cues.js');
    const tv = window.qipai.view;
    tv.game.view.spring = true;
    cue(tv, { type: 'game_over', table: tv.table, scores: tv.game.view.hand_sizes.map((_, i) => (i === tv.you ? 4 : -2)) }, true);
  });
  const banner = page.locator('.cuebanner');
  await banner.waitFor();
  assert.equal(await banner.innerText(), 'Spring!');
  await page.screenshot({ path: screenshotPath('spring-desktop-en') });
  await page.waitForTimeout(1200);
  const after = await heard(page);
  assert.ok(after.tones.includes(1568), 'the flourish');
  assert.ok(after.tones.includes(1047), 'and the win');
  assert.deepEqual(page.errors, []);
});
