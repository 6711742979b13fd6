// The accessibility checks the a11y*.test.js files share: axe-core's audit of the page as
// it is (serious and critical violations fail), the same at both sizes in both languages,
// the Tab walk that every control on show must receive the focus and show it, and a
// player who plays a whole game with the keyboard alone (cards picked with ←/→ and Space,
// played with Enter; Gomoku's board walked with the arrow keys; Hit and Stand with Space
// and Enter). Each test file that imports it prints, at its end, every violation it saw.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { openPage, DESKTOP } from './harness.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
/** WCAG 2.0 and 2.1, A and AA, and axe's best practices. */
const TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'];
const SIZES = [
  [1280, 800],
  [375, 812],
];
// Screenshots of the focus indicators, for a person to look at; outside the repository.
const SHOTS = process.env.QIPAI_A11Y_SHOTS || join(process.env.TMPDIR || '/tmp', 'qipai-a11y');

// Every violation seen in this file, serious or not, by rule and impact: printed at its end.
const seen = new Map();
after(() => {
  const lines = [...seen].sort().map(([k, n]) => `  ${k}: ${n} audit(s)`);
  console.log(`axe-core violations seen (${lines.length ? 'by rule, impact' : 'none'}):\n${lines.join('\n')}`);
});

/**
 * Runs axe on the page as it is now; fails on any serious or critical violation, saying
 * each one's rule, impact and the elements it found.
 */
export async function audit(page, where) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  // Let transitions (a card lifted, the toast) come to rest.
  await page.waitForTimeout(300);
  const violations = await page.evaluate(async (tags) => {
    const r = await window.axe.run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => `${n.target.join(' ')}${n.failureSummary ? ` (${n.failureSummary.replace(/\s+/g, ' ')})` : ''}`) }));
  }, TAGS);
  for (const v of violations) seen.set(`${v.id} (${v.impact})`, (seen.get(`${v.id} (${v.impact})`) || 0) + 1);
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  // QIPAI_A11Y_REPORT=1 prints what every screen has and goes on: a whole report at once.
  if (process.env.QIPAI_A11Y_REPORT && bad.length) return console.log(`${where}:\n${bad.map((v) => `${v.id} [${v.impact}] ${v.nodes.slice(0, 8).join(' | ')}`).join('\n')}`);
  assert.equal(
    bad.length,
    0,
    `${where}:\n${bad.map((v) => `${v.id} [${v.impact}] ${v.help}\n${v.nodes.slice(0, 8).map((n) => `    ${n}`).join('\n')}`).join('\n')}`,
  );
}

/** Switches the page's language from the top bar, if it is not `l` already. */
export async function setLang(page, l) {
  const now = await page.evaluate(() => document.documentElement.lang);
  if (now.startsWith(l)) return;
  await page.locator('#lang').click();
  await page.waitForFunction((x) => document.documentElement.lang.startsWith(x), l);
}

/** `check(page, where)` at both sizes in both languages; back to 1280×800 in English. */
export async function everyWay(page, where, check = audit) {
  for (const [width, height] of SIZES) {
    await page.setViewportSize({ width, height });
    for (const l of ['en', 'zh']) {
      await setLang(page, l);
      await check(page, `${where}, ${width}×${height}, ${l}`);
    }
  }
  await page.setViewportSize(DESKTOP.viewport);
  await setLang(page, 'en');
}

// ---- Keyboard --------------------------------------------------------------------------

// The same element after a redraw (the table draws itself anew at each message) is found
// by its place in the document.
const PATH = `(el) => {
  const out = [];
  for (let e = el; e && e !== document.documentElement; e = e.parentElement) {
    let i = 0;
    for (let s = e; (s = s.previousElementSibling); ) i++;
    out.push(e.tagName.toLowerCase() + ':' + i);
  }
  return out.reverse().join('>');
}`;

/** Every control on show a person could use: inside the open modal dialog if there is one. */
function controls(page) {
  return page.evaluate((pathSrc) => {
    const path = eval(pathSrc);
    const root = [...document.querySelectorAll('dialog[open]')].pop() || document;
    // Controls by their nature (a tabindex of -1 takes one out of reach: that is a fault),
    // and whatever else the page put in the Tab order.
    const sel = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=checkbox], [role=button], [role=application], [role=link], [role=switch], [role=tab], [tabindex]:not([tabindex^="-"])';
    return [...root.querySelectorAll(sel)]
      .filter((el) => {
        if (el.disabled || el.closest('[inert], [hidden]')) return false;
        const r = el.getBoundingClientRect();
        const cs = getComputedStyle(el);
        return r.width > 0 && r.height > 0 && cs.visibility !== 'hidden' && Number(cs.opacity) > 0;
      })
      .map((el) => ({ key: path(el), name: (el.getAttribute('aria-label') || el.textContent || el.tagName).trim().slice(0, 40) }));
  }, PATH);
}

/** The focused element: its key, name, and whether it shows the focus (an outline). */
function focused(page) {
  return page.evaluate((pathSrc) => {
    const path = eval(pathSrc);
    const el = document.activeElement;
    if (!el || el === document.body) return null;
    const cs = getComputedStyle(el);
    const outline = cs.outlineStyle !== 'none' && parseFloat(cs.outlineWidth) >= 2;
    return { key: path(el), name: (el.getAttribute('aria-label') || el.textContent || el.tagName).trim().slice(0, 40), visible: el.matches(':focus-visible') && outline };
  }, PATH);
}

/**
 * Tabs through the screen from its start: every control on show must receive the focus,
 * and show it. Keeps a screenshot of the first focus on `shoot` kinds of control.
 */
export async function tabWalk(page, where, { shoot } = {}) {
  const want = await controls(page);
  assert.ok(want.length > 0, `${where}: no controls found`);
  await page.evaluate(() => document.activeElement?.blur());
  const got = new Map();
  const hidden = [];
  let first = null;
  for (let i = 0; i < want.length * 2 + 20; i++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    if (!f) continue;
    if (f.key === first && got.size >= want.length) break;
    first ??= f.key;
    if (!got.has(f.key) && !f.visible) hidden.push(f.name);
    got.set(f.key, f);
    if (shoot) {
      const kind = await page.evaluate(() => {
        const el = document.activeElement;
        if (el.matches('.hand .card')) return Number(el.dataset.i) === 3 ? 'card' : null;
        if (el.matches('.goban')) return 'board';
        return el.closest('.controls, .gamebtns, .overbtns') ? 'action' : el.tagName.toLowerCase();
      });
      if (shoot.has(kind)) {
        shoot.delete(kind);
        mkdirSync(SHOTS, { recursive: true });
        await page.screenshot({ path: join(SHOTS, `${where.replace(/[^\w×-]+/g, '-')}-${kind}.png`) });
      }
    }
  }
  const missed = want.filter((c) => !got.has(c.key));
  assert.deepEqual(missed.map((c) => c.name), [], `${where}: Tab never reached these controls`);
  assert.deepEqual(hidden, [], `${where}: focus not shown on these controls`);
}

/** Tabs (or Shift+Tabs) from the focus now until an element matching `selector` has it. */
export async function tabTo(page, selector, { back = false, max = 120 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await page.evaluate((s) => !!document.activeElement?.matches(s), selector)) return;
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
  }
  throw new Error(`the keyboard never reached ${selector}`);
}

/** Whether the page offers us a move now. */
export function ourMove(page) {
  return page.evaluate(() => !!document.querySelector('.overpanel, .goban.playable, .controls button[data-act]:not([disabled])'));
}

/**
 * One turn of ours with the keyboard alone; false when there was none to take. Card games:
 * the cards of the first legal play picked from the hand with ←/→ and Space, then played
 * with Enter on a card, or every other time with Shift+Tab back to Play and Space; Pass,
 * bids and grabs by Tab and Enter or Space. Gomoku: Tab to the board, the arrow keys to the
 * free point nearest the centre, Enter. Ten and a half: Stand with Enter when we may, Hit
 * with Space when we must draw.
 */
export async function keyTurn(page, n, done) {
  if (await page.locator('.goban.playable').count()) {
    await tabTo(page, '.goban');
    const { from, to, size } = await page.evaluate(() => {
      const board = document.querySelector('.goban');
      const size = Math.round(Math.sqrt(board.querySelectorAll('rect.hit').length));
      const [, col, row] = board.getAttribute('aria-label').match(/([a-z])(\d+):/);
      const free = [...board.querySelectorAll('rect.hit.free')].map((r) => r.dataset.point.split(',').map(Number));
      const c = (size - 1) / 2;
      free.sort((a, b) => Math.hypot(a[0] - c, a[1] - c) - Math.hypot(b[0] - c, b[1] - c));
      return { from: [col.charCodeAt(0) - 97, size - Number(row)], to: free[0], size };
    });
    for (let x = from[0]; x !== to[0]; x += Math.sign(to[0] - x)) await page.keyboard.press(to[0] > x ? 'ArrowRight' : 'ArrowLeft');
    for (let y = from[1]; y !== to[1]; y += Math.sign(to[1] - y)) await page.keyboard.press(to[1] > y ? 'ArrowDown' : 'ArrowUp');
    const label = await page.locator('.goban').getAttribute('aria-label');
    assert.ok(label.includes(`${String.fromCharCode(97 + to[0])}${size - to[1]}:`), `the cursor on the point chosen: ${label}`);
    const stones = await page.locator('.goban .stone').count();
    await page.keyboard.press('Enter');
    // Our stone on the board (the computer's answer may already be there too). Should it
    // not go down, say where the focus was and what the table offered.
    await page.waitForFunction((k) => document.querySelectorAll('.goban .stone').length > k, stones).catch(async (e) => {
      const state = await page.evaluate(() => ({ focus: document.activeElement?.outerHTML.slice(0, 160), legal: JSON.stringify(window.qipai.view?.game?.legal?.slice(0, 3)) }));
      throw new Error(`${e.message}; the board read "${label}"; ${JSON.stringify(state)}`);
    });
    done.add('board');
    return true;
  }
  const stand = page.locator('[data-act="stand"]:not([disabled])');
  const hit = page.locator('[data-act="hit"]:not([disabled])');
  // Stand when we may, but draw one card in three turns (with Space) all the same.
  if ((await stand.count()) && !((await hit.count()) && n % 3 === 1)) {
    await tabTo(page, '[data-act="stand"]');
    await page.keyboard.press('Enter');
    done.add('stand');
    return true;
  }
  if (await hit.count()) {
    await tabTo(page, '[data-act="hit"]');
    await page.keyboard.press(' ');
    done.add('hit');
    return true;
  }
  if (await page.locator('[data-act="hint"]:not([disabled])').count()) {
    const before = await page.locator('.hand .card').count();
    const picked = await page.evaluate(async () => {
      const { pickFor } = await import('/js/cardtable.js');
      const view = window.qipai.view;
      const play = view.game.legal.find((a) => a && typeof a === 'object' && 'play' in a).play;
      const hand = [...document.querySelectorAll('.hand .card')].sort((a, b) => a.dataset.i - b.dataset.i).map((c) => c.dataset.card);
      // What the table held when the cards were picked, for the message below.
      window.qipaiPicked = { ui: view.ui, handKey: view.ui.handKey, domHand: hand.join(' '), play, seq: view.seq, gameId: view.game.game_id };
      const checked = [...document.querySelectorAll('.hand .card[aria-checked="true"]')].map((c) => Number(c.dataset.i));
      return { cards: pickFor(hand, play).sort((a, b) => a - b), checked };
    });
    // Nothing checked before our keys: Space toggles, and a card already checked would be
    // unchecked by the press meant to check it.
    assert.deepEqual(picked.checked, [], `cards checked before our turn's keys (the play to pick: ${JSON.stringify(picked.cards)})`);
    const pick = picked.cards;
    await tabTo(page, '.hand .card');
    let at = Number(await page.evaluate(() => document.activeElement.dataset.i));
    for (const i of pick) {
      while (at !== i) {
        await page.keyboard.press(i > at ? 'ArrowRight' : 'ArrowLeft');
        at += Math.sign(i - at);
      }
      await page.keyboard.press(' ');
    }
    // Should Space not have checked them, say where the focus is and what the table holds.
    const checked = await page.evaluate(() => [...document.querySelectorAll('.hand .card[aria-checked="true"]')].map((c) => Number(c.dataset.i)));
    // Whether the renderer's state was replaced (sameUi), the hand changed under the
    // selection (handKey against the one at the pick), or the key never came (selAtPick).
    const state =
      JSON.stringify(checked) === JSON.stringify(pick)
        ? null
        : await page.evaluate(() => {
            const view = window.qipai.view;
            const at = window.qipaiPicked;
            return {
              focus: document.activeElement?.dataset.focus ?? document.activeElement?.tagName,
              checked: [...document.querySelectorAll('.hand .card[aria-checked="true"]')].map((c) => c.dataset.i),
              seq: view?.seq,
              hand: view?.ui?.handKey,
              gameId: view?.game?.game_id,
              synced: view?.synced,
              sentAt: view?.sentAt,
              atPick: { ...at, ui: undefined, sameUi: at.ui === view?.ui, sel: [...(at.ui.sel || [])] },
            };
          });
    assert.deepEqual(checked, pick, `Space checks the cards of the play ${JSON.stringify(pick)}: ${JSON.stringify(state)}`);
    done.plays = (done.plays || 0) + 1;
    if (done.plays % 2) {
      await page.keyboard.press('Enter');
      done.add('enter on a card');
    } else {
      await tabTo(page, '[data-act="play"]', { back: true });
      await page.keyboard.press(' ');
      done.add('play button');
    }
    await page.waitForFunction((k) => document.querySelectorAll('.hand .card').length < k || document.querySelector('.overpanel'), before);
    return true;
  }
  // Any other move (a bid, a grab, Pass when nothing beats the table), read from the
  // buttons as they are now, in one look. Never Hint or Play: the table may have gone on
  // to the play since the looks above (五人斗地主's grab ends as the others choose, and
  // leading, our Pass is off), and Enter on Hint would check a play's cards for us.
  const act = await page.evaluate(() => document.querySelector('.controls button[data-act]:not([disabled]):not([data-act="hint"]):not([data-act="play"])')?.dataset.act);
  if (!act) return false;
  const button = `.controls button[data-act="${act.replace(/"/g, '\\"')}"]`;
  // Gone before the keyboard reached it (the table went on without us): no move taken.
  const reached = await tabTo(page, button).then(
    () => true,
    async (e) => {
      if (await page.locator(button).count()) throw e;
      return false;
    },
  );
  if (!reached) return false;
  await page.keyboard.press(n % 2 ? 'Enter' : ' ');
  done.add(act === 'pass' ? 'pass' : 'other');
  return true;
}

/**
 * A table of `game` against computers, opened with the keyboard alone: New table, 300
 * seconds a turn typed in (the most, so that no clock runs out on us while the audits
 * run), Open table, Add computer at every empty seat, Ready.
 */
export async function keyTable(page, game) {
  await page.evaluate(() => document.activeElement?.blur());
  await tabTo(page, `.g-${game} .gamebtns .ghost`);
  await page.keyboard.press('Enter');
  await tabTo(page, 'dialog[open] input[max="300"]');
  await page.keyboard.type('300');
  await tabTo(page, 'dialog[open] button[value="go"]');
  await page.keyboard.press('Enter');
  // The waiting room's buttons come with the table's snapshot (what a resume replays
  // before it is past: Add computer there could be for a seat already taken).
  await page.locator('.waiting [data-focus="ready"]').waitFor();
  for (let i = 0; i < 10 && (await page.locator('[data-focus^="bot-"]').count()); i++) {
    const seats = await page.locator('[data-focus^="bot-"]').count();
    await tabTo(page, '[data-focus^="bot-"]');
    await page.keyboard.press('Enter');
    await page.waitForFunction((n) => document.querySelectorAll('[data-focus^="bot-"]').length < n, seats);
  }
  await tabTo(page, '[data-focus="ready"]');
  await page.keyboard.press('Enter');
  await page.locator('.stage .cardgame, .stage .gomoku').waitFor({ timeout: 15000 });
}

/** Next game, from the end panel, by the keyboard: Tab to it and Enter. */
async function nextGame(page) {
  await tabTo(page, '.overpanel [data-focus="next"]');
  await page.keyboard.press('Enter');
  await page.locator('.overpanel').waitFor({ state: 'detached' });
}

/** Plays with the keyboard until `stop()` says so (checked at each of our moves). */
export async function keyPlay(page, done, stop, ms = 240000) {
  const end = Date.now() + ms;
  let n = 0;
  while (Date.now() < end) {
    if (await page.locator('.overpanel').count()) return 'over';
    if ((await ourMove(page)) && (await stop(n))) return 'stopped';
    if (await keyTurn(page, n, done)) n++;
    await page.waitForTimeout(100);
  }
  throw new Error(`the game did not end in time; errors: ${page.errors.join('; ')}; refusals: ${page.refusals.join('; ')}`);
}

/**
 * The dialog that `open` opens, reached by Tab (from the top of the page when `fromTop`)
 * and opened with Enter: audited, walked with Tab, then shut with Escape.
 */
export async function dialogCheck(page, where, open, { fromTop = false } = {}) {
  if (fromTop) await page.evaluate(() => document.activeElement?.blur());
  await tabTo(page, open);
  await page.keyboard.press('Enter');
  await page.locator('dialog[open]').waitFor();
  await audit(page, where);
  await tabWalk(page, where);
  await page.keyboard.press('Escape');
  await page.locator('dialog[open]').waitFor({ state: 'detached' });
}

/** The games of a11y-keys-doudizhu.test.js; a11y-keys-others.test.js plays the rest. */
export const DOUDIZHU = ['doudizhu', 'doudizhu5'];

/**
 * The keyboard test of the games `pick(list)` chooses from /api/games (the hall's list, so
 * that a game added to it is not missed): each played against computers by keyboard
 * alone, audited during play and at its end, with its own dialogs, played again until
 * every way of moving was used, then its replay; then the profile, with those games in its
 * history. QIPAI_A11Y_GAME=gomoku plays that game alone.
 */
export function keyboardGames(env, what, pick) {
  test(`${what} against computers, by keyboard alone: axe during play and at the end, Tab reaches every control, then the replay and the profile`, async (t) => {
    const list = await (await fetch(new URL('/api/games', env.server.url))).json();
    assert.ok(list.length >= 2, 'the games come from /api/games');
    const page = await openPage(env.browser, env.server.url);
    await page.waitForFunction(() => window.qipai.hall.user);
    const games = pick(list);
    assert.ok(games.length > 0, `${what}: among ${list.map((g) => g.id).join(', ')}`);
    for (const g of games.filter((x) => !process.env.QIPAI_A11Y_GAME || x.id === process.env.QIPAI_A11Y_GAME)) {
      await t.test(g.id, async () => {
        // Each game answers for its own errors and refusals: a game before it that failed
        // part way (its dialog left open, its refusal counted) fails alone.
        const errors = page.errors.length;
        const refusals = page.refusals.length;
        await page.evaluate(() => document.querySelectorAll('dialog[open]').forEach((d) => d.close()));
        await page.evaluate(() => (location.hash = '#/'));
        await page.locator('.gamecard').first().waitFor();
        await keyTable(page, g.id);
        const done = new Set();
        // Mid-play: after two moves of ours, at our next. A game may end sooner (a Ten and
        // a half deal can run out of cards after a turn or two of ours): then the next game,
        // by the keyboard, until one lasts that long.
        for (let games = 1; (await keyPlay(page, done, (n) => n >= 2)) === 'over'; games++) {
          assert.ok(games < 5, `${g.id}: ${games} games in a row ended before our third move`);
          await nextGame(page);
        }
        await everyWay(page, `${g.id} during play`);
        await tabWalk(page, `${g.id} during play 1280×800`, { shoot: new Set(['card', 'board', 'action']) });
        await page.setViewportSize({ width: 375, height: 812 });
        await tabWalk(page, `${g.id} during play 375×812`, { shoot: new Set(['card', 'board', 'action']) });
        await page.setViewportSize(DESKTOP.viewport);
        // A board is one stop of the Tab order: its arrow keys reach every point, the four
        // corners included, and stop at its edges.
        if (await page.locator('.goban').count()) {
          await page.evaluate(() => document.activeElement?.blur());
          await tabTo(page, '.goban');
          const size = await page.evaluate(() => Math.round(Math.sqrt(document.querySelectorAll('.goban rect.hit').length)));
          const end = String.fromCharCode(96 + size);
          const walks = [[['ArrowLeft', 'ArrowDown'], 'a1'], [['ArrowRight'], `${end}1`], [['ArrowUp'], `${end}${size}`], [['ArrowLeft'], `a${size}`]];
          for (const [keys, corner] of walks) {
            for (const k of keys) for (let i = 0; i <= size; i++) await page.keyboard.press(k);
            assert.match(await page.locator('.goban').getAttribute('aria-label'), new RegExp(`, ${corner}: `));
          }
        }
        // The table's own dialogs, opened from the keyboard and shut with Escape: the rules
        // from the header, where the game has them; Gomoku's Resign, which asks first.
        for (const open of ['.tbar [data-focus="rules"]', '.controls [data-focus="resign"]:not([disabled])']) {
          if (!(await page.locator(open).count())) continue;
          await everyWay(page, `${g.id} ${open}`, (p, where) => dialogCheck(p, where, open));
        }
        // On to the end, by keyboard.
        assert.equal(await keyPlay(page, done, () => false), 'over');
        await everyWay(page, `${g.id} at the end`);
        await tabWalk(page, `${g.id} at the end 1280×800`);
        // Every way of moving used, game after game (Next game, by the keyboard too).
        const needed = { cards: ['enter on a card', 'play button'], board: ['board'], tenhalf: ['hit', 'stand'] }[g.screen] || [];
        for (let games = 1; needed.some((k) => !done.has(k)); games++) {
          assert.ok(games < 4, `${g.id}: in three games never played by ${needed.filter((k) => !done.has(k)).join(', ')} (did: ${[...done].join(', ')})`);
          await nextGame(page);
          assert.equal(await keyPlay(page, done, () => false), 'over');
        }
        // The replay, opened from the end panel by the keyboard.
        await tabTo(page, '.overpanel a[href^="#/replay/"]');
        await page.keyboard.press('Enter');
        await page.locator('.replay .rbar button').first().waitFor();
        await everyWay(page, `${g.id} replay`);
        await tabWalk(page, `${g.id} replay 1280×800`);
        assert.deepEqual(page.errors.slice(errors), []);
        assert.deepEqual(page.refusals.slice(refusals), []);
      });
    }
    // The profile, with every game just played here in its history.
    const errors = page.errors.length;
    await page.goto(`${env.server.url}#/profile`);
    await page.locator('.profile .history').waitFor();
    await everyWay(page, 'profile');
    await everyWay(page, 'profile', tabWalk);
    assert.deepEqual(page.errors.slice(errors), []);
    await page.context().close();
  });
}
