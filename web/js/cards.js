// Playing cards: the text notation of the engines (`3d`, `Ts`, `BJ`, or a rank alone where
// suits do not matter) drawn as HTML with CSS, so they stay crisp at any size, and the
// matching of a selection of cards against the server's legal plays.

import { h } from './dom.js';

const SUITS = { s: '♠', h: '♥', c: '♣', d: '♦' };
const RANK_TEXT = { T: '10' };

/** Splits a card list as the engines write it: "3 3 4", "3d 4s", or an array of those. */
export function tokens(cards) {
  if (!cards) return [];
  if (Array.isArray(cards)) return cards.flatMap(tokens);
  return String(cards).trim().split(/\s+/).filter(Boolean);
}

/** The parts of one card. */
export function parse(card) {
  if (card === 'BJ' || card === 'RJ') return { joker: card === 'RJ' ? 'big' : 'small' };
  const rank = card.length > 1 && SUITS[card.at(-1)] ? card.slice(0, -1) : card;
  const suit = card.length > rank.length ? card.at(-1) : null;
  return { rank: rank === '10' ? 'T' : rank, suit };
}

/** The card as people read it: 10♥, 小王. */
export function label(card, zh) {
  const p = parse(card);
  if (p.joker) return p.joker === 'big' ? (zh ? '大王' : 'Big joker') : zh ? '小王' : 'Small joker';
  return (RANK_TEXT[p.rank] || p.rank) + (p.suit ? SUITS[p.suit] : '');
}

/** A card list for people: "3♦ 3♣ 4♠". */
export function labels(cards, zh) {
  return tokens(cards)
    .map((c) => label(c, zh))
    .join(' ');
}

/**
 * A play's cards as players lay them out: the largest group first — the trio before its
 * kickers ("9 9 9 3 3", not "3 3 9 9 9"), the plane's trios before its wings, the four
 * before the two of 四带二 — and, within groups of one size, in the server's order.
 */
export function grouped(cards) {
  const list = tokens(cards);
  const rank = (c) => parse(c).joker || parse(c).rank;
  const count = new Map();
  for (const c of list) count.set(rank(c), (count.get(rank(c)) || 0) + 1);
  // Array.prototype.sort is stable: equal counts keep the server's order.
  return list.sort((a, b) => count.get(rank(b)) - count.get(rank(a)));
}

/** One card face. `opts.small` draws a compact card (plays on the table). */
export function face(card, opts = {}) {
  const p = parse(card);
  const zh = opts.zh;
  const aria = label(card, zh);
  if (p.joker) {
    return h(
      'div',
      { class: ['card', 'joker', `joker-${p.joker}`, opts.small && 'small', opts.cls], role: 'img', 'aria-label': aria },
      h('span', { class: 'corner', 'aria-hidden': 'true' }, h('b', {}, 'J'), h('i', {}, 'O'), h('i', {}, 'K'), h('i', {}, 'E'), h('i', {}, 'R')),
      h('span', { class: 'pip', 'aria-hidden': 'true' }, p.joker === 'big' ? '★' : '☆'),
    );
  }
  const rank = RANK_TEXT[p.rank] || p.rank;
  const suit = p.suit ? SUITS[p.suit] : '';
  return h(
    'div',
    { class: ['card', p.suit ? `suit-${p.suit}` : 'plain', opts.small && 'small', opts.cls], role: 'img', 'aria-label': aria },
    h('span', { class: 'corner', 'aria-hidden': 'true' }, h('b', {}, rank), suit && h('i', {}, suit)),
    h('span', { class: 'pip', 'aria-hidden': 'true' }, suit || rank),
  );
}

/** The back of a card (a face-down card, another seat's hand). */
export function back(opts = {}) {
  return h('div', { class: ['card', 'back', opts.small && 'small'], role: 'img', 'aria-label': opts.label || 'card' });
}

/** A row of small faces, for plays on the table and kitties. */
export function row(cards, opts = {}) {
  return h('div', { class: ['cardrow', opts.cls] }, tokens(cards).map((c) => face(c, { ...opts, small: true })));
}

/** One typed card: a rank (`T` for ten, `BJ`/`RJ` for the jokers) and a suit letter or none. */
const TYPED_CARD = /(BJ|RJ|10|[2-9TJQKA])([SHCD])?/y;

/**
 * What the player typed, as in the terminal — "33344", "3 3 3 4", "10 J Q K A", "bj rj",
 * "9♥ 9s" — matched to the hand. Where suits matter and the player leaves them out, the
 * lowest suited card of that rank not yet taken is used.
 *
 * Returns the hand's indices of the cards read (`idx`), the words that are no cards at
 * all (`unread`, as typed) and the cards asked for that the hand does not hold
 * (`missing`, in the engines' notation: a rank alone where no suit was typed), so the
 * page can say what it could not use instead of quietly taking part of what was meant.
 */
export function typed(hand, text) {
  const wanted = [];
  const unread = [];
  for (const word of text.split(/[\s,，]+/).filter(Boolean)) {
    const src = word.toUpperCase().replace(/♠/g, 'S').replace(/♥/g, 'H').replace(/♣/g, 'C').replace(/♦/g, 'D');
    const cards = [];
    TYPED_CARD.lastIndex = 0;
    let m;
    while (TYPED_CARD.lastIndex < src.length && (m = TYPED_CARD.exec(src))) {
      cards.push({ rank: m[1] === '10' ? 'T' : m[1], suit: m[2] ? m[2].toLowerCase() : null });
    }
    if (TYPED_CARD.lastIndex < src.length || !m) unread.push(word);
    else wanted.push(...cards);
  }
  const used = new Set();
  const idx = [];
  const missing = [];
  for (const w of wanted) {
    const i = hand.findIndex((c, j) => {
      if (used.has(j)) return false;
      const p = parse(c);
      if (p.joker) return w.rank === (p.joker === 'big' ? 'RJ' : 'BJ');
      return p.rank === w.rank && (!w.suit || p.suit === w.suit);
    });
    if (i < 0) {
      missing.push(w.rank === 'BJ' || w.rank === 'RJ' ? w.rank : w.rank + (w.suit || ''));
    } else {
      used.add(i);
      idx.push(i);
    }
  }
  return { idx, unread, missing };
}
