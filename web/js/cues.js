// What is heard and seen move at a table as it happens: cards flying to the felt, a bomb's
// shake and boom, 春天's banner, a five-in-a-row's chime, our turn's tone and the last
// seconds' ticks, the win or loss, and 报单 / 报双 when a seat is down to its last one or
// two cards. Only live events: the messages a resume replays (a reload, a reconnect) and
// a replay's steps make neither sound nor motion.

import { h } from './dom.js';
import { t } from './i18n.js';
import { tokens, parse } from './cards.js';
import { gameInfo } from './lobby.js';
import { sound } from './sound.js';
import { model } from './cardtable.js';

// The cues' own stylesheet, added by the script so that it never holds up the first paint.
document.head.append(h('link', { rel: 'stylesheet', href: '/cues.css' }));

/** What each table view was last seen to be: our turn or not, each seat's cards left. */
const seen = new WeakMap();
/** The view whose turn clock ticks. */
let current = null;
/** The tables this page has shown a view of. */
const viewed = new Set();

/**
 * A view opens: whether it opens on a table we have just sat at (quick play, a new
 * table), whose first snapshot comes after a resume but whose turn is news, unlike a
 * reload's or a return's.
 */
export function opened(tv) {
  tv.cueArrived = tv.hall.seatAt.has(tv.table) && !viewed.has(tv.table);
  viewed.add(tv.table);
}

/** Whether it is our turn at the view's table (the game waits for our move). */
function ourTurn(tv) {
  return tv.you !== undefined && !tv.over && !!tv.game?.to_act?.includes(tv.you) && tv.game.legal?.length > 0;
}

/** Each seat's cards left, at a card table; null elsewhere. */
function cardsLeft(tv) {
  if (gameInfo(tv.info?.game)?.screen !== 'cards' || !(tv.game?.view || tv.lastView)) return null;
  return model(tv)?.sizes || null;
}

/** A bomb or a rocket: four or more cards of one rank, or jokers only. */
function isBomb(cards) {
  const list = tokens(cards).map(parse);
  if (list.length >= 2 && list.every((p) => p.joker)) return true;
  return list.length >= 4 && list.every((p) => !p.joker && p.rank === list[0].rank);
}

/** The 报单 / 报双 badge of a seat down to its last one or two cards (nothing otherwise). */
export function lastCards(n) {
  if (n !== 1 && n !== 2) return null;
  return h('span', { class: 'badge lastcards' }, t(n === 1 ? 'cue.one' : 'cue.two'));
}

/** After the redraw that the message asked for (drawn on the next frame): `fn`. */
function afterDraw(fn) {
  requestAnimationFrame(() => requestAnimationFrame(fn));
}

/** The play of `seat` flies in from where it came: our hand, or the seat's name. */
function fly(tv, seat) {
  const row = tv.stage.querySelector(`[data-seat-play="${seat}"] .cardrow`);
  const from = seat === tv.you ? tv.stage.querySelector('.hand') : tv.stage.querySelector(`.seat[data-seat="${seat}"] .who`);
  if (!row || !from) return;
  const a = from.getBoundingClientRect();
  const b = row.getBoundingClientRect();
  row.style.setProperty('--fx', `${Math.round(a.left + a.width / 2 - (b.left + b.width / 2))}px`);
  row.style.setProperty('--fy', `${Math.round(a.top + a.height / 2 - (b.top + b.height / 2))}px`);
  row.classList.add('fly');
}

/** A class on the stage (which outlives redraws) for a moment. */
function flash(tv, cls, ms) {
  tv.stage.classList.add(cls);
  setTimeout(() => tv.stage.classList.remove(cls), ms);
}

/** A banner over the table for a moment (春天). */
function banner(tv, text) {
  const el = h('div', { class: 'cuebanner', role: 'status' }, text);
  tv.el.append(el);
  setTimeout(() => el.remove(), 2600);
}

function onAction(tv, m, before, after) {
  const a = m.action;
  if (a && typeof a === 'object' && a.play !== undefined) {
    if (isBomb(a.play)) {
      sound('bomb');
      flash(tv, 'boom', 700);
    } else {
      sound('play');
    }
    afterDraw(() => fly(tv, m.seat));
  } else if (a && typeof a === 'object' && a.place) {
    sound('stone');
  }
  // A seat down to its last one or two cards: said once, as it happens.
  if (before && after) {
    const low = after.map((n, i) => (n === 1 || n === 2) && before[i] > n).findIndex(Boolean);
    if (low >= 0) {
      setTimeout(() => sound('warn'), 250);
      tv.stage.dataset.pop = String(low);
      setTimeout(() => delete tv.stage.dataset.pop, 1300);
    }
  }
}

function onOver(tv, m) {
  const v = tv.game?.view || tv.lastView || {};
  let delay = 0;
  if (v.spring || v.anti_spring) {
    sound('spring');
    banner(tv, t(v.spring ? 'cue.spring' : 'cue.antispring'));
    delay = 900;
  }
  if (v.win_line?.length) {
    sound('five');
    flash(tv, 'fivein', 2500);
    delay = 900;
  }
  if (tv.you === undefined) return;
  const mine = m.scores[tv.you];
  const best = Math.max(...m.scores);
  const won = mine > 0 || (mine === best && m.scores.some((x) => x !== best));
  const lost = mine < 0 || mine < best;
  if (won || lost) setTimeout(() => sound(won ? 'win' : 'lose'), delay);
}

/**
 * The cues of one message that the table view has just taken in; `live` is whether it
 * came while the view held the table's current state (not replayed by a resume).
 */
export function cue(tv, m, live) {
  current = tv;
  const was = seen.get(tv) || {};
  const now = { turn: ourTurn(tv), left: cardsLeft(tv) };
  seen.set(tv, now);
  // The first snapshot of a table we have just sat at: our turn is news.
  const arrived = tv.cueArrived && m.type === 'table';
  if (arrived) tv.cueArrived = false;
  if (arrived && now.turn && !live) sound('turn');
  if (!live) return;
  if (m.type === 'action') onAction(tv, m, was.left, now.left);
  if (m.type === 'game_over') onOver(tv, m);
  if (now.turn && !was.turn) sound('turn');
}

// The last five seconds of our turn tick, once a second.
let lastTick = null;
setInterval(() => {
  const tv = current;
  if (!tv || !tv.el.isConnected || !tv.synced || !ourTurn(tv) || !tv.deadline) return;
  const left = tv.deadline - Date.now();
  const second = Math.ceil(left / 1000);
  if (left > 0 && second <= 5 && lastTick !== `${tv.deadline} ${second}`) {
    lastTick = `${tv.deadline} ${second}`;
    sound('tick');
  }
}, 200);
