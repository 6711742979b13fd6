// Ten and a half (十点半) at the table: every seat's face-down base card and face-up hits,
// totals where the viewer may know them, busts and outright wins as they happen, each
// seat's penalty points, the dealer, the pot, the last round's showdown, and hit / stand.

import { h } from './dom.js';
import { t, lang } from './i18n.js';
import { face, back } from './cards.js';
import { arena } from './cardtable.js';

const WIN_TEXT = {
  zh: { ten_and_a_half: '十点半！', five_dragon: '五龙！' },
  en: { ten_and_a_half: 'Ten and a half!', five_dragon: 'Five dragon!' },
};

/** An outright win as people call it: "Ten and a half!", "Five dragon!". */
export function winText(kind) {
  return (WIN_TEXT[lang()] || WIN_TEXT.en)[kind] || String(kind);
}

/** Under the end-of-game verdict: the scores are penalty points lost, so the winner's may
 * be 0 while everyone else's is below it; say how the game is won. */
export function overNote() {
  return h('p', { class: 'overnote' }, t('th.fewest'));
}

function points(p) {
  if (p === null || p === undefined) return '';
  const whole = Math.floor(p);
  const half = p > whole ? '½' : '';
  return t('th.points', { n: whole === 0 && half ? half : `${whole}${half}` });
}

function statusText(kind) {
  if (!kind) return '';
  if (typeof kind === 'object' && 'won' in kind) return winText(kind.won);
  if (kind === 'stood') return t('th.stood');
  if (kind === 'out') return t('th.out');
  return '';
}

/** "Bust: K♠ 9♥ 5♦ (−2), new base card": the cards in a span of their own, which a phone
 * leaves out (the log has them) so that the note stays clear of the seats below. */
function bustNote(bust, out, zh) {
  const [before, after = ''] = t(out ? 'th.bustout' : 'th.bustnew', { cards: '\u0000', n: bust.penalty }).split('\u0000');
  const cards = t('th.cardlist', { cards: bust.cards.map((c) => cardName(c, zh)).join(' ') });
  return h('span', { class: 'bustnote' }, before, h('span', { class: 'bustcards' }, cards), after);
}

/** A card's name as the page writes it (K♠, 大王). */
function cardName(c, zh) {
  return face(c, { zh }).getAttribute('aria-label');
}

/**
 * The last round's showdown, through the next round (and at the end of the game): every
 * hand that stood with its total and cards, worst first, the lowest marked; who took the
 * pot and what it held. The next round is dealt in the same move as the showdown, so the
 * seats themselves no longer show it.
 */
function showdown(tv, v) {
  const s = v.last_showdown;
  if (!s || !(s.round < v.round || v.finished)) return null;
  // The pot is 2, and 2 more for each outright win of the round (rule 11).
  const winners = Math.max(0, (s.pot - 2) / 2);
  const why = winners === 1 ? t('th.potwin1') : winners > 1 ? t('th.potwins', { w: winners }) : '';
  return h(
    'div',
    { class: 'showdown', role: 'group', 'aria-label': t('th.showdown', { n: s.round }) },
    h('span', { class: 'sdtitle' }, t('th.showdown', { n: s.round })),
    h(
      'ol',
      {},
      s.hands.map((hand) =>
        h(
          'li',
          { class: hand.seat === s.loser && 'loser' },
          `${tv.name(hand.seat)} ${points(hand.points)}`,
          h('small', {}, ` ${hand.cards.length === 1 ? t('th.card') : t('th.cards', { n: hand.cards.length })}`),
          hand.seat === s.loser && h('span', { class: 'lowest' }, ` · ${t('th.lowest')}`),
        ),
      ),
    ),
    h(
      'span',
      { class: 'sdverdict' },
      s.loser === null ? t('th.nobody') : t('th.lost', { name: tv.name(s.loser), pot: s.pot }) + why,
    ),
  );
}

/** The table; `result`, the end-of-game panel if the game is over, floats on the felt. */
export function render(tv, result) {
  const v = tv.game?.view || tv.lastView;
  const ui = tv.ui;
  const zh = lang() === 'zh';
  const n = v.players.length;
  const legal = tv.myTurn() ? tv.game.legal : [];
  const busts = ui.busts || {};

  const seat = (i) => {
    const p = v.players[i];
    const cards = [];
    if (p.has_base) cards.push(p.base ? face(p.base, { small: true, zh, cls: 'base' }) : back({ small: true, label: t('th.base') }));
    for (const c of p.hits) cards.push(face(c, { small: true, zh }));
    const bust = busts[i];
    return [
      h('span', { class: 'who' }, h('span', { class: 'nm' }, tv.name(i)), i === v.dealer && h('span', { class: 'badge role' }, t('th.dealer')), tv.badges(i), tv.timer(i)),
      h('div', { class: 'cardrow' }, cards),
      h('span', { class: 'pts' }, points(p.points), ' ', statusText(p.status)),
      // The game's penalty points so far, named: a bare "−2" beside "Stands" read as
      // what standing cost.
      p.penalties > 0 && h('span', { class: 'left' }, t('th.penalty', { n: p.penalties })),
      // A bust this round, told as what happened before the hand now shown: a busted
      // player gets a new base card and plays on, out only if the deck had none.
      bust && bustNote(bust, p.status === 'out', zh),
    ];
  };
  // Red only for a seat that is out on its bust: the new hand of one that plays on is a
  // hand like any other.
  seat.cls = (i) => [i === v.dealer && 'dealer', v.players[i].status === 'out' && 'bust'];

  const center = [
    h('span', { class: 'tag' }, `${t('th.round', { n: v.round })} · ${t('th.deck', { n: v.deck_left })}`),
    h('span', { class: 'tag' }, `${t('th.pot')} ${2 + 2 * v.winners}`),
  ];
  center.push(showdown(tv, v));
  const can = (a) => legal.includes(a);
  return h(
    'div',
    { class: 'cardgame thgame' },
    arena(tv, n, seat, () => null, center),
    h('p', { class: ['status', tv.myTurn() && 'mine'], role: 'status', 'aria-live': 'polite' }, tv.myTurn() ? t('table.yourturn') : tv.waitsForUs?.() ? t('table.yourturnoffline') : tv.game?.to_act?.length && !tv.over ? t('table.turnof', { name: tv.name(tv.game.to_act[0]) }) : ''),
    h(
      'div',
      { class: 'controls' },
      h('button', { type: 'button', class: 'primary big', disabled: !can('hit'), dataset: { focus: 'hit', act: 'hit' }, on: { click: () => tv.act('hit') } }, t('act.hit')),
      h('button', { type: 'button', class: 'ghost big', disabled: !can('stand'), dataset: { focus: 'stand', act: 'stand' }, on: { click: () => tv.act('stand') } }, t('act.stand')),
    ),
    result,
  );
}

/** Busts are shown at the seat until the next round is dealt. */
export function onAction(tv, m) {
  for (const e of m.events || []) {
    if (e.event === 'dealt') tv.ui.busts = {};
    if (e.event === 'busted') tv.ui.busts = { ...(tv.ui.busts || {}), [e.seat]: { cards: e.cards, penalty: e.penalty } };
  }
}
