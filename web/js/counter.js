// 记牌器 (the card counter), a table option of the games whose cards are ranked: by rank,
// how many cards are still out — neither in our hand nor played since the deal — counted
// from the game's whole deck, our hand and the plays the table's view lists, so a reload
// counts the same as a player who watched every play.

import { h } from './dom.js';
import { t, lang } from './i18n.js';
import { tokens, parse } from './cards.js';

/** The ranks from the highest, as counters show them; the jokers only where the deck has them. */
const RANKS = ['RJ', 'BJ', '2', 'A', 'K', 'Q', 'J', 'T', '9', '8', '7', '6', '5', '4', '3'];
const JOKERS = new Set(['RJ', 'BJ']);

/** A card's rank as the counter keys it (`T`, `RJ`…), suited or not. */
function rankOf(card) {
  const p = parse(card);
  return p.joker ? (p.joker === 'big' ? 'RJ' : 'BJ') : p.rank;
}

/**
 * Cards of each rank still out, from `deck` ({ decks, jokers }: how many full decks, and
 * whether with their two jokers), our `hand` and every card `played` (card lists).
 */
export function stillOut(deck, hand, played) {
  const ranks = RANKS.filter((r) => deck.jokers || !JOKERS.has(r));
  const out = new Map(ranks.map((r) => [r, JOKERS.has(r) ? deck.decks : 4 * deck.decks]));
  for (const c of [...tokens(hand), ...tokens(played)]) {
    const r = rankOf(c);
    if (out.has(r)) out.set(r, out.get(r) - 1);
  }
  return out;
}

/** A rank in the strip: 大 / 小 for the jokers in Chinese, the engines' RJ / BJ in English
 * (as typed in "Type cards"). */
function rankText(r, zh) {
  if (zh && r === 'RJ') return '大';
  if (zh && r === 'BJ') return '小';
  return r === 'T' ? '10' : r;
}

function rankName(r, zh) {
  if (r === 'RJ') return zh ? '大王' : 'Big joker';
  if (r === 'BJ') return zh ? '小王' : 'Small joker';
  return r === 'T' ? '10' : r;
}

/** The counter's strip for the table's bar, from the screen's model (`deck`, `hand`, `played`). */
export function counterStrip(m) {
  const zh = lang() === 'zh';
  const out = stillOut(m.deck, m.hand, m.played);
  return h(
    'div',
    { class: 'counter', role: 'group', 'aria-label': t('cc.title') },
    h('span', { class: 'cclabel', title: t('cc.what') }, t('cc.name')),
    [...out].map(([r, n]) =>
      h(
        'span',
        { class: ['cc', n === 0 && 'none'], dataset: { rank: r }, title: t('cc.cell', { rank: rankName(r, zh), n }), 'aria-label': t('cc.cell', { rank: rankName(r, zh), n }) },
        h('b', { 'aria-hidden': 'true' }, rankText(r, zh)),
        h('i', { 'aria-hidden': 'true' }, String(n)),
      ),
    ),
  );
}
