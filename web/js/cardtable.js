// The card games — 斗地主, 五人斗地主, 锄大地 — at the table: the seats around the felt with
// each one's last play and cards left, the player's hand sorted with selection by click, tap,
// drag or typing, and the buttons the legal actions allow. Each game's view is read by a
// small adapter into one model, so the drawing is shared.

import { h, toast } from './dom.js';
import { t, lang } from './i18n.js';
import { face, row, tokens, parse, label, typed, grouped } from './cards.js';
import { counterStrip } from './counter.js';
import { lastCards } from './cues.js';
import { stakeLabel, quietChoice, seatSays, seatBadges, barText, phasePrompt, stakesNote, isShown } from './stakes.js';

// ---- Seats around an oval -------------------------------------------------------------

/**
 * Where seat `i` sits, in percent of the felt: the viewer at the bottom, the next player to
 * the right and on round counter-clockwise, as players sit at a Chinese card table.
 */
export function place(i, me, n) {
  const r = (i - me + n) % n;
  const a = Math.PI / 2 - (r * 2 * Math.PI) / n;
  return { x: 50 + 43 * Math.cos(a), y: 50 + 41 * Math.sin(a) };
}

/**
 * The felt with every seat and what it last did, under a bar of what the whole table
 * shares (kitty, multiplier…). Seats near the left and right edges hang inwards from the
 * edge so that names never leave a narrow screen. Each seat's play hangs from its own box
 * (beside it, inwards, for a seat at the side of a wide felt; above the boxes in the
 * lower half, the viewer's among them, and below the others), so that it never covers a
 * name or a count of cards left, however narrow the felt.
 */
export function arena(tv, n, seatEl, playEl, center, cls) {
  const me = tv.you ?? 0;
  const items = [];
  for (let i = 0; i < n; i++) {
    const p = place(i, me, n);
    const style = {};
    let hs = 'h-mid';
    let vs = 'v-mid';
    if (p.x < 30) (style.left = '1.5%'), (hs = 'h-left');
    else if (p.x > 70) (style.right = '1.5%'), (hs = 'h-right');
    else style.left = `${p.x}%`;
    if (i === me) (style.bottom = '3%'), (vs = 'v-bottom');
    else if (p.y < 22) (style.top = '3%'), (vs = 'v-top');
    else style.top = `${p.y}%`;
    // Each seat, and what it last played, is a group named after the player, so that a
    // screen reader does not run one seat's name, role and cards left into the next's.
    const who = tv.name(i);
    const play = playEl(i);
    items.push(
      h(
        'div',
        { class: ['seat', hs, vs, tv.game?.to_act?.includes(i) && 'acting', ...(seatEl.cls?.(i) || [])], style, role: 'group', 'aria-label': who, dataset: { seat: String(i) } },
        seatEl(i),
        play && h('div', { class: ['played', i === me || p.y > 55 ? 'above' : 'below'], role: 'group', 'aria-label': t('table.lastturn', { name: who }), dataset: { seatPlay: String(i) } }, play),
      ),
    );
  }
  return [h('div', { class: 'tinfo' }, center), h('div', { class: ['arena', 'felt', cls] }, items)];
}

// ---- Adapters: one game's view → the shared model ------------------------------------

function lastTurns(history, n, seatOf, cardsOf) {
  // The last turn of every seat within the last round of turns around the table.
  const out = new Array(n).fill(null);
  for (const turn of history.slice(-n)) out[seatOf(turn)] = cardsOf(turn) ? { cards: cardsOf(turn) } : { pass: true };
  return out;
}

const ADAPTERS = {
  doudizhu(v, tv) {
    const n = 3;
    // Each seat's bid stays at the seat until its first turn of play replaces it: the
    // last bid ends the bidding at once, and would otherwise be seen only in the log.
    // With the stakes options, each seat's doubling (加倍) replaces its bid once chosen.
    const bids = new Array(n).fill(null);
    for (const [seat, bid] of v.bids) bids[seat] = { text: bid ? t('dd.bid', { n: bid }) : t('dd.nobid') };
    const says = seatSays(v).map((x, i) => x || bids[i]);
    // The cards with their suits where the view has them (the rules play by rank).
    const su = v.suits || {};
    const history = v.history.map((x, k) => [x[0], su.plays?.[k] ?? x[1]]);
    const plays = v.phase === 'bidding' ? bids : lastTurns(history, n, (x) => x[0], (x) => x[1]).map((p, i) => p || says[i]);
    const roles = Array.from({ length: n }, (_, i) => (v.landlord === null ? [] : [i === v.landlord ? t('dd.landlord') : t('dd.farmer'), ...seatBadges(v, i)]));
    const center = [];
    const kitty = su.kitty ?? v.kitty;
    if (kitty) center.push(h('div', { class: 'kitty' }, t('dd.kitty'), row(kitty, { zh: lang() === 'zh' })));
    if (v.landlord !== null) center.push(h('span', { class: 'tag' }, barText(v)));
    if (v.spring) center.push(h('span', { class: 'tag' }, t('dd.spring')));
    if (v.anti_spring) center.push(h('span', { class: 'tag' }, t('dd.antispring')));
    center.push(phasePrompt(v));
    // A shown hand (明牌) lies face up at the landlord's seat; every hand at the end.
    const revealed = su.revealed ?? v.revealed;
    let open = revealed && revealed.map(tokens);
    if (!open && isShown(v)) (open = [[], [], []])[v.landlord] = tokens(su.shown ?? v.shown);
    // One deck with its jokers; every play so far is in the history (for 记牌器).
    const deck = { decks: 1, jokers: true };
    const played = v.history.map((x) => x[1]).filter(Boolean);
    // The shown hand, during play: drawn to be read, like one's own (seatBox).
    const shownBy = !revealed && isShown(v) ? v.landlord : null;
    return { n, hand: tokens(su.hand ?? v.hand), sizes: v.hand_sizes, plays, roles, center, revealed: open, shownBy, landlord: v.landlord, deck, played };
  },

  bigtwo(v) {
    const n = v.cards_left.length;
    const plays = new Array(n).fill(null);
    if (v.last) {
      plays[v.last.seat] = { cards: v.last.play.cards };
      for (let k = 1; k <= v.passes; k++) plays[(v.last.seat + k) % n] = { pass: true };
    }
    const center = [];
    if (v.must_include) center.push(h('span', { class: 'tag' }, t('b2.lead', { card: label(v.must_include, lang() === 'zh') })));
    // Each plays for himself: whoever goes out first wins, and the others' scores only
    // say by how much each did better or worse than the rest.
    const deck = { decks: 1, jokers: false };
    return { n, hand: tokens(v.hand), sizes: v.cards_left, plays, roles: [], center, revealed: v.result && v.result.hands.map(tokens), outFirst: v.result?.winner, deck, played: v.played };
  },

  doudizhu5(v) {
    const n = v.hand_sizes.length;
    let plays = new Array(n).fill(null);
    const zh = lang() === 'zh';
    if (v.phase === 'grab' || v.phase === 'declare') {
      v.shown.forEach((sets, i) => {
        if (sets.length) plays[i] = { text: sets.map((s) => `${label(s.card, zh)}×${s.count}`).join(' ') };
      });
    } else {
      // A play shows the suits its player chose; a play by rank (typed so, or timed out)
      // shows its ranks, since the copies the game chose are nobody's to see.
      plays = lastTurns(v.history, n, (x) => x.seat, (x) => x.suited ?? x.cards);
    }
    const roles = Array.from({ length: n }, (_, i) => [
      i === v.landlord && t('dd.landlord'),
      i === v.partner && t('d5.partner'),
      i === v.face_up_holder && v.landlord === null && t('d5.faceup', { card: label(v.face_up, zh) }),
    ].filter(Boolean));
    const center = [h('span', { class: 'tag' }, t('d5.faceup', { card: label(v.face_up, zh) }))];
    // 不打自胜: the rules have the table announce why the landlord won without play.
    if (v.instant_win) center.push(h('p', { class: 'instant', role: 'status' }, t(`d5.instant.${v.instant_win}`)));
    if (v.declaration) {
      center.push(h('span', { class: 'tag' }, v.declaration.open_solo ? t('d5.opensolo') : `${t('d5.declare')} ${v.declaration.marked ? label(v.declaration.marked, zh) : ''}`));
    }
    if (v.kitty) center.push(h('div', { class: 'kitty' }, t('dd.kitty'), row(v.kitty, { zh })));
    center.push(h('span', { class: 'tag' }, `${t('dd.base', { n: v.base })} · ${t('dd.multiplier', { n: v.multiplier })}`));
    // Three decks with their jokers.
    const deck = { decks: 3, jokers: true };
    const played = v.history.map((x) => x.cards).filter(Boolean);
    // Plays are put down as the cards selected, suits and all; a hint keeps the marked
    // card back and takes the lowest suits first, as a careful player would.
    const suited = { keep: v.declaration?.marked ?? null };
    return { n, hand: tokens(v.hand), sizes: v.hand_sizes, plays, roles, center, revealed: null, landlord: v.landlord, deck, played, suited };
  },
};

// ---- Selection against the legal plays --------------------------------------------------

/** Whether a hand card is the card a play names (a rank alone matches any suit). */
function same(card, token) {
  const a = parse(card);
  const b = parse(token);
  if (a.joker || b.joker) return a.joker === b.joker;
  return a.rank === b.rank && (!b.suit || a.suit === b.suit);
}

/**
 * The hand indexes a play takes, each card once; null when the hand lacks them. Where the
 * play names a rank alone, any copy does: the hand's first, or with `careful` (the hand
 * held highest first) the lowest suit first and the card `careful.keep` last.
 */
export function pickFor(hand, play, careful = null) {
  const used = new Set();
  const out = [];
  let order = hand.map((_, j) => j);
  if (careful) {
    order.reverse();
    order = [...order.filter((j) => hand[j] !== careful.keep), ...order.filter((j) => hand[j] === careful.keep)];
  }
  for (const tok of tokens(play)) {
    // Prefer an exact card, then any card of the rank.
    let i = order.find((j) => !used.has(j) && hand[j] === tok);
    if (i === undefined) i = order.find((j) => !used.has(j) && same(hand[j], tok));
    if (i === undefined) return null;
    used.add(i);
    out.push(i);
  }
  return out;
}

/** Whether typed text names a suit (`6d`, `6♦`): the player chose the very cards. */
const NAMES_SUIT = /(^|[^BR])(10|[2-9TJQKA])[SHCD♠♥♣♦]/i;

/** Whether the selected cards are exactly the play. */
function matches(selected, play) {
  const toks = tokens(play);
  if (toks.length !== selected.length) return false;
  const pool = [...selected];
  for (const tok of toks) {
    const i = pool.findIndex((c) => same(c, tok));
    if (i < 0) return false;
    pool.splice(i, 1);
  }
  return true;
}

function actionLabel(a, v) {
  const zh = lang() === 'zh';
  if (a === 'pass') return t('act.pass');
  if (a === 'decline') return t('act.nograb');
  if ('bid' in a) return a.bid ? t('act.bid', { n: a.bid }) : t('act.nobid');
  if (stakeLabel(a)) return stakeLabel(a);
  if ('grab' in a) return t('act.grab', { card: label(a.grab, zh) });
  if ('declare' in a) {
    const opt = (v?.options || []).find(([mode]) => mode === a.declare);
    const card = opt && opt[1] ? ` ${label(opt[1], zh)}` : '';
    return (t(`d5.declare.${a.declare}`) || a.declare) + card;
  }
  return JSON.stringify(a);
}

// ---- Drawing ----------------------------------------------------------------------------

/** Cards in a shown hand's row: few enough that each card's corner shows beside the next
 * and the rows stay within a seat's width on a phone. */
const SHOWN_ROW = 7;

/**
 * A hand lying face up at its seat. At the end (every hand) and in a replay, one small row
 * each; a hand shown during play (明牌), the one that lies open while the others play
 * against it, in rows of cards the size of the table's plays, largest first as its holder
 * sees it, each card's rank and suit readable.
 */
function openHand(cards, shownInPlay) {
  const zh = lang() === 'zh';
  if (!shownInPlay) return h('div', { class: 'cardrow revealed' }, cards.map((c) => face(c, { small: true, zh })));
  const hand = [...cards].reverse();
  const rows = Math.ceil(hand.length / SHOWN_ROW);
  const size = Math.ceil(hand.length / rows);
  return h(
    'div',
    { class: 'shownhand' },
    Array.from({ length: rows }, (_, r) => h('div', { class: 'cardrow revealed' }, hand.slice(r * size, (r + 1) * size).map((c) => face(c, { small: true, zh })))),
  );
}

function seatBox(tv, m, i) {
  const revealed = m.revealed && m.revealed[i] && m.revealed[i].length && i !== (tv.you ?? -1) ? m.revealed[i] : null;
  const all = tv.replaySeats || tv.finalSeats;
  const replay = all && all[i] ? tokens(all[i].hand) : null;
  const shown = revealed || (replay && replay.length ? replay : null);
  return [
    h('span', { class: 'who' }, h('span', { class: 'nm' }, tv.name(i)), (m.roles[i] || []).map((r) => h('span', { class: 'badge role' }, r)), tv.badges(i), tv.timer(i)),
    h('span', { class: 'left' }, h('span', { class: 'mini', 'aria-hidden': 'true' }), t('table.cardsleft', { n: m.sizes[i] }), !tv.over && lastCards(m.sizes[i])),
    shown && i !== tv.you && openHand(shown, m.shownBy === i && !replay),
  ];
}

function playBox(m, i) {
  const p = m.plays[i];
  if (!p) return null;
  if (p.pass) return h('span', { class: 'say' }, t('dd.pass'));
  if (p.text) return h('span', { class: 'say' }, p.text);
  return row(grouped(p.cards), { zh: lang() === 'zh' });
}

/** The screen's model of the table as it is now: seats' cards left, our hand, the deck and the plays. */
export function model(tv) {
  const v = tv.game?.view || tv.lastView;
  return v ? ADAPTERS[tv.info.game](v, tv) : null;
}

/**
 * Who went out first, in a game where that alone decides who won (Big Two); null
 * elsewhere, where sides win together and the scores say it.
 */
export function outFirst(tv) {
  const v = tv.game?.view || tv.lastView;
  return v ? ADAPTERS[tv.info.game](v, tv).outFirst ?? null : null;
}

/**
 * Under the end-of-game panel's title: why a 五人斗地主 landlord won without play; how a
 * Dou Dizhu game's stakes were made (the multiplier's parts, each doubling).
 */
export function overNote(tv) {
  const v = tv.game?.view || tv.lastView;
  if (Array.isArray(v?.doubles)) return stakesNote(v, (i) => tv.name(i));
  return v?.instant_win ? h('p', { class: 'overnote' }, t(`d5.instant.${v.instant_win}`)) : null;
}

function statusLine(tv, cannot) {
  if (!tv.game || tv.over) return '';
  if (cannot) return t('table.cantbeat');
  if (tv.myTurn()) return t('table.yourturn');
  if (tv.waitsForUs?.()) return t('table.yourturnoffline');
  const who = tv.game.to_act;
  if (!who.length) return '';
  return t('table.turnof', { name: who.map((s) => tv.name(s)).join(', ') });
}

/** The table; `result`, the end-of-game panel if the game is over, floats on the felt. */
export function render(tv, result) {
  const v = tv.game?.view || tv.lastView;
  const game = tv.info.game;
  const m = ADAPTERS[game](v, tv);
  if (tv.info.options?.card_counter) m.center.push(counterStrip(m));
  const ui = tv.ui;
  const zh = lang() === 'zh';
  const legal = tv.myTurn() ? tv.game.legal : [];
  const plays = legal.filter((a) => a && typeof a === 'object' && 'play' in a);
  const others = legal.filter((a) => !(a && typeof a === 'object' && 'play' in a));
  // Nothing in the hand beats the play on the table: say so (要不起), and make passing the
  // one clear thing to press.
  const cannot = !plays.length && legal.includes('pass');
  // The hand, largest cards first as most players hold them.
  const hand = [...m.hand].reverse();
  const handKey = hand.join(' ');
  if (ui.handKey !== handKey) {
    ui.handKey = handKey;
    ui.sel = new Set();
    ui.hint = -1;
  }
  const selected = [...ui.sel].map((i) => hand[i]);
  const chosen = selected.length ? plays.find((a) => matches(selected, a.play)) : null;

  const redraw = () => tv.render();
  const toggle = (i, on) => {
    if (on ?? !ui.sel.has(i)) ui.sel.add(i);
    else ui.sel.delete(i);
  };
  const startDrag = (e, i) => {
    if (e.button > 0) return;
    e.preventDefault();
    const on = !ui.sel.has(i);
    toggle(i, on);
    redraw();
    let lastI = i;
    const move = (ev) => {
      const el = document.elementFromPoint(ev.clientX, ev.clientY)?.closest('.hand .card');
      if (!el) return;
      const j = Number(el.dataset.i);
      if (j !== lastI) {
        lastI = j;
        toggle(j, on);
        redraw();
      }
    };
    const up = () => {
      window.removeEventListener('pointermove', move);
      window.removeEventListener('pointerup', up);
      window.removeEventListener('pointercancel', up);
    };
    window.addEventListener('pointermove', move);
    window.addEventListener('pointerup', up);
    window.addEventListener('pointercancel', up);
  };
  const hint = () => {
    if (!plays.length) return;
    ui.hint = (ui.hint + 1) % plays.length;
    const idx = pickFor(hand, plays[ui.hint].play, m.suited);
    ui.sel = new Set(idx || []);
    redraw();
  };
  // Where plays are suited (五人斗地主) the cards selected are sent, suits and all, once
  // they make a legal play; elsewhere the legal play itself.
  const put = (cards, legalPlay) => tv.act(m.suited ? { play: cards.join(' ') } : legalPlay);
  const play = () => {
    if (!chosen) return;
    put(selected, chosen);
  };

  const cardEl = (c, i) => {
    const el = face(c, { zh, cls: ui.sel.has(i) && 'sel' });
    el.setAttribute('role', 'checkbox');
    el.setAttribute('aria-checked', String(ui.sel.has(i)));
    el.setAttribute('tabindex', '0');
    el.dataset.i = String(i);
    el.dataset.focus = `card-${i}`;
    el.dataset.card = c;
    el.addEventListener('pointerdown', (e) => startDrag(e, i));
    el.addEventListener('keydown', (e) => {
      if (e.key === ' ' || e.key === 'Enter') {
        e.preventDefault();
        if (e.key === 'Enter' && chosen) return play();
        toggle(i);
        redraw();
      } else if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        e.preventDefault();
        const j = Math.max(0, Math.min(hand.length - 1, i + (e.key === 'ArrowLeft' ? -1 : 1)));
        e.currentTarget.closest('.hand').querySelector(`[data-i="${j}"]`)?.focus();
      }
    });
    return el;
  };
  // As many cards to a row as stay readable (a corner about 22 px wide shows); a big
  // hand on a phone takes two rows.
  const cw = parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--cw')) || 64;
  const width = (tv.stage?.clientWidth || window.innerWidth) - 16;
  const perRow = Math.max(1, Math.floor((width - cw) / 22) + 1);
  const rows = Math.max(1, Math.ceil(hand.length / perRow));
  const size = Math.ceil(hand.length / rows);
  const handEl = h(
    'div',
    { class: 'hand', role: 'group', 'aria-label': zh ? '手牌' : 'your hand' },
    Array.from({ length: rows }, (_, r) =>
      h(
        'div',
        { class: 'handrow', style: { '--n': String(Math.min(size, hand.length - r * size)) } },
        hand.slice(r * size, (r + 1) * size).map((c, k) => cardEl(c, r * size + k)),
      ),
    ),
  );

  const buttons = [];
  if (plays.length || cannot) {
    buttons.push(
      h('button', { type: 'button', class: cannot ? 'primary' : 'ghost', disabled: !legal.includes('pass'), dataset: { focus: 'pass', act: 'pass' }, on: { click: () => tv.act('pass') } }, cannot ? t('act.cantbeat') : t('act.pass')),
      h('button', { type: 'button', class: 'ghost', disabled: !plays.length, dataset: { focus: 'hint', act: 'hint' }, on: { click: hint } }, t('act.hint')),
      h('button', { type: 'button', class: 'primary', disabled: !chosen, dataset: { focus: 'play', act: 'play' }, on: { click: play } }, t('act.play')),
    );
  }
  for (const a of others) {
    if (a === 'pass') continue;
    buttons.push(
      h('button', { type: 'button', class: a === 'pass' || a === 'decline' || a.bid === 0 || quietChoice(a) ? 'ghost' : 'primary', dataset: { focus: `a-${JSON.stringify(a)}`, act: JSON.stringify(a) }, on: { click: () => tv.act(a) } }, actionLabel(a, v)),
    );
  }
  if (plays.length || cannot) {
    // Kept (disabled) when nothing can be played, so the row does not jump about.
    const input = h('input', { type: 'text', class: 'typed', placeholder: t('act.type'), 'aria-label': t('act.type'), disabled: cannot, dataset: { focus: 'typed' }, value: ui.typed || '' });
    input.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      const read = typed(hand, input.value);
      // What cannot be used is said, and the text stays to be mended.
      if (read.unread.length) return toast(t('type.unread', { words: read.unread.join(' ') }));
      if (read.missing.length) return toast(t('type.missing', { cards: read.missing.map((c) => label(c, zh)).join(' ') }));
      ui.typed = '';
      ui.sel = new Set(read.idx);
      const sel = read.idx.map((i) => hand[i]);
      const a = sel.length ? plays.find((p) => matches(sel, p.play)) : null;
      // Ranks typed alone leave the copies to the game, as at the terminal.
      if (a && m.suited && !NAMES_SUIT.test(input.value)) return tv.act(a);
      if (a) return put(sel, a);
      if (sel.length) toast(t('type.cannot', { cards: sel.map((c) => label(c, zh)).join(' ') }));
      redraw();
    });
    input.addEventListener('input', () => (ui.typed = input.value));
    buttons.push(input);
  }

  const status = statusLine(tv, cannot);
  return h(
    'div',
    { class: ['cardgame', `g-${game}`] },
    arena(
      tv,
      m.n,
      (i) => seatBox(tv, m, i),
      (i) => playBox(m, i),
      m.center,
    ),
    h('p', { class: ['status', tv.myTurn() && 'mine'], role: 'status', 'aria-live': 'polite' }, status),
    h('div', { class: 'controls', role: 'toolbar', 'aria-label': zh ? '操作' : 'actions' }, buttons),
    hand.length > 0 && handEl,
    result,
  );
}
