// A short guided first game: the first time a person sits at a table of a game (remembered
// per game in this browser), five coach marks point at the real parts of the table — the
// hand or the board, the action buttons, whose turn and the clock, the rules, how the game
// is won. The clock runs meanwhile, so a coach mark never holds the game up: it is not
// modal, clicks pass through everything but its own two buttons, it keeps off the buttons
// and the hand where it can, and Skip or Escape ends it at any time.

import { h, toast } from './dom.js';
import { t, onLang } from './i18n.js';
import { rulesOf } from './rules.js';
import { gameInfo } from './lobby.js';

const seenKey = (game) => `qipai.guide.${game}`;

// The one guide on show, if any: { tv, game, steps, at, el, timer, offLang }.
let active = null;
// The table view drawn last, for "Show the guide again" from its rules.
let lastView = null;

/** The coach marks for a table: where each points (a selector below the table view) and
 * what it says, by the kind of screen the game is drawn on. */
function steps(tv) {
  const game = tv.info.game;
  const screen = gameInfo(game)?.screen;
  const kind = screen === 'board' || screen === 'tenhalf' ? screen : 'cards';
  const board = kind === 'board';
  const mine = kind === 'tenhalf' ? `.seat[data-seat="${tv.you}"]` : board ? '.goban' : '.hand';
  return [
    { at: mine, say: () => t(`guide.${kind}.hand`) },
    { at: '.controls', say: () => t(`guide.${kind}.controls`) },
    { at: board ? '.gplayers' : '.status', say: () => t(board ? 'guide.board.turn' : 'guide.turn') },
    { at: '.tbar [data-focus="rules"]', say: () => t('guide.rules') },
    { at: board ? '.goban' : '.arena', say: () => t('guide.goal', { goal: rulesOf(game)?.goal ?? '' }) },
  ];
}

/** Whether `tv` is a table where we play a game under way, whose rules the page has. */
function playing(tv) {
  return !!(tv.info && tv.you !== undefined && tv.game && !tv.over && tv.el.isConnected && rulesOf(tv.info.game));
}

/**
 * Called after every drawing of a table: starts the guide at the first table of a game we
 * play, keeps the one on show pointing at the newly drawn parts, and ends it with the game.
 */
export function guide(tv) {
  lastView = tv;
  if (active) {
    if (active.tv === tv && (tv.over || !tv.el.isConnected)) stop();
    else if (active.tv === tv) place();
    return;
  }
  if (playing(tv) && !localStorage.getItem(seenKey(tv.info.game))) start(tv);
}

/** The guide of `game` once more: now, at its table on show; else at its next table. */
export function guideAgain(game) {
  localStorage.removeItem(seenKey(game));
  if (active) stop();
  if (lastView && lastView.info?.game === game && playing(lastView)) start(lastView);
  else toast(t('guide.later'), 4000);
}

function start(tv) {
  const game = tv.info.game;
  // Seen once it has been shown: a reload in the middle does not start it again.
  localStorage.setItem(seenKey(game), '1');
  const el = h('div', { class: 'coach', role: 'dialog', 'aria-modal': 'false', 'aria-labelledby': 'coachhead', 'aria-describedby': 'coachtext' });
  active = { tv, game, steps: steps(tv), at: 0, el };
  document.body.append(el);
  active.offLang = onLang(() => show());
  active.timer = setInterval(() => (active.tv.el.isConnected && !active.tv.over ? place() : stop()), 250);
  document.addEventListener('keydown', onKey);
  show();
}

function stop() {
  if (!active) return;
  clearInterval(active.timer);
  active.offLang();
  active.el.remove();
  for (const el of document.querySelectorAll('.coached')) el.classList.remove('coached');
  document.removeEventListener('keydown', onKey);
  active = null;
}

/** Escape skips the guide, unless it closes a dialog (the rules) opened over the table. */
function onKey(e) {
  if (e.key === 'Escape' && !document.querySelector('dialog[open]')) stop();
}

function next() {
  active.at++;
  if (active.at >= active.steps.length) stop();
  else show();
}

/** Draws the current step's text and buttons, then puts it beside what it points at. */
function show() {
  const { el, steps: all, at } = active;
  const last = at === all.length - 1;
  el.replaceChildren(
    h('p', { class: 'coachhead', id: 'coachhead' }, t('guide.title', { n: at + 1, total: all.length })),
    h('p', { class: 'coachtext', id: 'coachtext' }, all[at].say()),
    h(
      'div',
      { class: 'coachbtns' },
      !last && h('button', { type: 'button', class: 'ghost small', dataset: { act: 'guide-skip' }, on: { click: stop } }, t('guide.skip')),
      h('button', { type: 'button', class: 'primary small', dataset: { act: 'guide-next' }, on: { click: next } }, last ? t('guide.done') : t('guide.next')),
    ),
  );
  place();
}

/** The area two rectangles share. */
function overlap(a, b) {
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
  const hgt = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && hgt > 0 ? w * hgt : 0;
}

/**
 * Marks the step's part of the table and puts the coach mark near it, where it stays in the
 * window and hides neither that part (on a phone the felt or the board fills the width:
 * the mark goes above or below it, over the bars) nor the buttons, then covers as little
 * as it can of the hand and the seats, and as close to the part as that allows. Beside a
 * part that leaves less than its width free (a desktop's felt, between the chat and the
 * window's edge), the mark is narrowed to the room there.
 */
function place() {
  const { el, tv, steps: all, at } = active;
  const target = tv.el.querySelector(all[at].at);
  for (const other of document.querySelectorAll('.coached')) if (other !== target) other.classList.remove('coached');
  target?.classList.add('coached');
  const W = innerWidth;
  const H = innerHeight;
  el.style.width = '';
  const natural = el.offsetWidth;
  let spot = { x: (W - natural) / 2, y: (H - el.offsetHeight) / 2, cost: Infinity };
  const r = target?.getBoundingClientRect();
  if (r && r.width && r.height) {
    const gap = 10;
    const rects = (sel, within = tv.el) => [...within.querySelectorAll(sel)].filter((k) => k !== target).map((k) => k.getBoundingClientRect());
    const weigh = (sel, weight, within) => rects(sel, within).map((k) => [k, weight]);
    // What it points at, and the buttons the clock may need pressed, are covered only when
    // nothing else is left (however little a place covers of them); then the bars'
    // buttons, not needed while the guide speaks, rather than the felt or the board, where
    // the game goes on.
    const never = [r, ...rects('.controls, .overpanel')];
    const keep = [
      ...weigh('.tbar button, .tbar .button', 3),
      ...weigh('.topbar a, .topbar button', 3, document),
      ...weigh(`.hand, .gplayer, .seat[data-seat="${tv.you}"], .arena, .goban`, 2),
      ...weigh('.chatform, .quicklist, .seat, .played', 1),
    ];
    const search = (w, hgt) => {
      const clampX = (v) => Math.min(Math.max(v, 8), W - w - 8);
      const xs = [clampX(r.left + r.width / 2 - w / 2), 8, W - w - 8, r.right + gap, r.left - gap - w];
      const middle = Math.min(Math.max(r.top + r.height / 2 - hgt / 2, 8), H - hgt - 8);
      const ys = [r.bottom + gap, r.top - gap - hgt, middle, 8, H - hgt - 8];
      for (const k of [...never, ...keep.map(([k]) => k)]) ys.push(k.top - gap - hgt, k.bottom + gap);
      let found = { cost: Infinity };
      for (const x of xs) {
        for (const y of ys) {
          const box = { left: x, top: y, right: x + w, bottom: y + hgt };
          const out = x < 4 || y < 4 || x + w > W - 4 || y + hgt > H - 4;
          const far = Math.max(0, box.left - r.right, r.left - box.right) + Math.max(0, box.top - r.bottom, r.top - box.bottom);
          const hidden = never.reduce((sum, k) => sum + overlap(box, k), 0);
          const cost = (out ? 1e9 : 0) + (hidden ? 1e7 + hidden : 0) + keep.reduce((sum, [k, weight]) => sum + weight * overlap(box, k), 0) + 10 * far;
          if (cost < found.cost) found = { x, y, cost };
        }
      }
      return found;
    };
    spot = search(natural, el.offsetHeight);
    const room = [W - 4 - r.right - gap, r.left - gap - 4].filter((v) => v >= 200 && v < natural);
    for (const w of spot.cost < 1e7 ? [] : room) {
      el.style.width = `${Math.floor(w)}px`;
      const narrow = search(el.offsetWidth, el.offsetHeight);
      if (narrow.cost < 1e7) {
        spot = narrow;
        break;
      }
      el.style.width = '';
    }
  }
  const x = Math.min(Math.max(spot.x, 4), W - el.offsetWidth - 4);
  const y = Math.min(Math.max(spot.y, 4), H - el.offsetHeight - 4);
  el.style.left = `${Math.round(x)}px`;
  el.style.top = `${Math.round(y)}px`;
}
