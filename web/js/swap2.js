// Gomoku's swap2 opening on the page (docs/rules/gomoku.md, "Swap2"): what each step asks
// of whom, the choice's buttons, the players' cards while the colours are not yet chosen,
// and, after a game, who opens the next one and whether the opponent asked for it.

import { h } from './dom.js';
import { t } from './i18n.js';

/** The seat that acts at the view's swap2 step: the first player (black until the choice)
 * lays the three stones and makes the last choice, the second player the rest. */
export function actor(v) {
  const first = v.black ?? 0;
  return v.swap2 === 'lay_three' || v.swap2 === 'choose_again' ? first : 1 - first;
}

const choosing = (v) => v.swap2 === 'choose' || v.swap2 === 'choose_again';

/** Whether a click on the board places a stone now: at a choice, only once "Play White"
 * was pressed, so that a stray click never makes the choice. */
export function boardOpen(tv, v) {
  return !choosing(v) || !!tv.ui.s2white;
}

/** A small stone of `color`, for the prompts. */
const stone = (color) => h('span', { class: `gstone ${color} small`, 'aria-hidden': 'true' });

/** What the step asks, said to the one who acts, or about them to the other and to
 * spectators. */
export function prompt(tv, v) {
  const seat = actor(v);
  const mine = tv.you === seat;
  const name = tv.name(seat);
  const n = v.moves.length;
  const color = t(`go.${v.to_move}`);
  const mark = stone(v.to_move);
  switch (v.swap2) {
    case 'lay_three':
      return [mark, mine ? t('s2.lay3', { n: n + 1, color }) : t('s2.lay3of', { name, n: n + 1 })];
    case 'lay_two':
      return [mark, mine ? t('s2.lay2', { n: n - 2, color }) : t('s2.lay2of', { name, n: n - 2 })];
    case 'choose':
      if (mine && tv.ui.s2white) return [mark, t('s2.placewhite')];
      return mine ? t('s2.choose') : t('s2.chooseof', { name });
    default:
      if (mine && tv.ui.s2white) return [mark, t('s2.placewhite')];
      return mine ? t('s2.choose2') : t('s2.choose2of', { name });
  }
}

/** The choice's buttons, for the player who chooses: play White (then a point on the
 * board), take Black, and at the first choice place two more. */
export function controls(tv, v, can) {
  if (!choosing(v) || !can('take_black')) return null;
  const ui = tv.ui;
  const white = () => {
    ui.s2white = !ui.s2white;
    tv.render();
  };
  return h(
    'div',
    { class: 'swap2ask', role: 'group', 'aria-label': t('s2.title') },
    h('button', { type: 'button', class: ui.s2white ? 'primary' : 'ghost', 'aria-pressed': String(!!ui.s2white), dataset: { focus: 's2white' }, on: { click: white } }, stone('white'), t('s2.white')),
    h('button', { type: 'button', class: 'ghost', dataset: { focus: 's2black' }, on: { click: () => ((ui.s2white = false), tv.act('take_black')) } }, stone('black'), t('s2.black')),
    can('place_two') && h('button', { type: 'button', class: 'ghost', dataset: { focus: 's2two' }, on: { click: () => ((ui.s2white = false), tv.act('place_two')) } }, t('s2.two')),
  );
}

/** A player's card while the colours are not yet chosen: which part of the opening is
 * theirs, instead of a colour. */
export function cardNote(v, seat) {
  return t(seat === (v.black ?? 0) ? 's2.first' : 's2.second');
}

/**
 * After a game between people: who opens the next (the colours swap: the seat that was
 * White is Black, or under swap2 lays the opening), and whether the opponent has already
 * asked for the rematch (their seat is ready).
 */
export function rematchNote(tv) {
  const o = tv.over;
  const config = o?.record?.config || tv.info?.options?.config || {};
  const next = 1 - (config.black ?? 0);
  const key = `s2.${config.opening_rule === 'swap2' ? 'nextopens' : 'nextblack'}${next === tv.you ? 'you' : ''}`;
  const line = t(key, { name: tv.name(next) });
  const other = tv.you === undefined ? undefined : 1 - tv.you;
  const wants = other !== undefined && !!tv.info?.seats?.[other]?.ready && !tv.info.seats[other].bot;
  return h(
    'div',
    { class: 'rematch' },
    h('p', { class: 'overnote' }, line),
    wants && h('p', { class: 'overnote wants', role: 'status' }, t('s2.wants', { name: tv.name(other) })),
  );
}
