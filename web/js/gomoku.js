// Gomoku: the board as one SVG (crisp at any size), coordinates as the terminal prints
// them (columns a…, row 1 at the bottom), the last stone marked, the winning five ringed,
// renju's forbidden points for black (toggle), which colour each seat plays (they swap from
// game to game), undo request and answer, resign.

import { h, s, clock, toast, ask } from './dom.js';
import { t } from './i18n.js';
import { gameName } from './lobby.js';
import * as swap2 from './swap2.js';

/** Nothing is dealt: the end of a game has no deal to check (no "fair deal" line). */
export const dealt = false;

const CELL = 10;
const MARGIN = 14;

function colName(x) {
  return String.fromCharCode(97 + x);
}

/** A point as players read it: h8. */
export function pointName([x, y], size) {
  return `${colName(x)}${size - y}`;
}

/** The colour `seat` plays: the view names black's seat, since the colours swap from game
 * to game (0 in views from before it did). */
export function colorOf(v, seat) {
  return seat === (v.black ?? 0) ? 'black' : 'white';
}

/** The seat that plays `color`. */
function seatOf(v, color) {
  return color === 'black' ? v.black ?? 0 : 1 - (v.black ?? 0);
}

function star(size) {
  if (size < 9) return [];
  const a = size >= 13 ? 3 : 2;
  const b = size - 1 - a;
  const c = (size - 1) / 2;
  return [[a, a], [a, b], [b, a], [b, b], [c, c]].filter(([x, y]) => Number.isInteger(x) && Number.isInteger(y));
}

function board(tv, v, playable) {
  const n = v.size;
  const span = (n - 1) * CELL;
  const W = span + 2 * MARGIN;
  const at = (i) => MARGIN + i * CELL;
  const stones = new Map(v.moves.map((p, i) => [`${p[0]},${p[1]}`, i]));
  const win = new Set(v.win_line.map((p) => `${p[0]},${p[1]}`));
  const last = v.moves[v.moves.length - 1];
  const ui = tv.ui;
  if (!ui.cursor) ui.cursor = last ? [...last] : [(n - 1) >> 1, (n - 1) >> 1];
  const forbidden = ui.showForbidden !== false ? v.forbidden : [];
  const place = (p) => playable && !stones.has(`${p[0]},${p[1]}`) && tv.act({ place: p });
  // What a screen reader says of the point under the keyboard cursor: its name and what is
  // on it, since the stones themselves are only drawn.
  const describe = (p) => {
    const i = stones.get(`${p[0]},${p[1]}`);
    const barred = forbidden.some((f) => f[0] === p[0] && f[1] === p[1]);
    const what = i === undefined ? t(barred ? 'go.barred' : 'go.empty') : t(i % 2 ? 'go.white' : 'go.black');
    const isLast = last && last[0] === p[0] && last[1] === p[1];
    return `${pointName(p, n)}: ${what}${isLast ? `, ${t('go.last')}` : ''}`;
  };
  const lines = [];
  for (let i = 0; i < n; i++) {
    lines.push(s('line', { x1: at(0), y1: at(i), x2: at(n - 1), y2: at(i) }));
    lines.push(s('line', { x1: at(i), y1: at(0), x2: at(i), y2: at(n - 1) }));
  }
  const labels = [];
  for (let i = 0; i < n; i++) {
    labels.push(s('text', { x: at(i), y: MARGIN - 7, class: 'coord' }, colName(i)));
    labels.push(s('text', { x: at(i), y: W - MARGIN + 10, class: 'coord' }, colName(i)));
    labels.push(s('text', { x: MARGIN - 8, y: at(i) + 1.6, class: 'coord' }, String(n - i)));
    labels.push(s('text', { x: W - MARGIN + 8, y: at(i) + 1.6, class: 'coord' }, String(n - i)));
  }
  const stoneEls = v.moves.map((p, i) =>
    s(
      'g',
      { class: ['stone', i % 2 ? 'white' : 'black', win.has(`${p[0]},${p[1]}`) && 'win'] },
      s('circle', { cx: at(p[0]), cy: at(p[1]), r: 4.55 }),
      ui.numbers && s('text', { x: at(p[0]), y: at(p[1]) + 1.5, class: 'num' }, String(i + 1)),
    ),
  );
  const hits = [];
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const taken = stones.has(`${x},${y}`);
      hits.push(
        s('rect', {
          x: at(x) - CELL / 2,
          y: at(y) - CELL / 2,
          width: CELL,
          height: CELL,
          class: ['hit', !taken && playable && 'free'],
          dataset: { point: `${x},${y}` },
          on: { click: () => place([x, y]) },
        }),
      );
    }
  }
  const cur = ui.cursor;
  const svg = s(
    'svg',
    {
      class: ['goban', playable && 'playable', `next-${v.to_move}`],
      viewBox: `0 0 ${W} ${W}`,
      role: 'application',
      'aria-roledescription': t('go.board'),
      tabindex: '0',
      'aria-label': `${tv.info ? `${gameName(tv.info.game)}, ` : ''}${describe(cur)}`,
      dataset: { focus: 'board' },
      on: {
        keydown: (e) => {
          const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[e.key];
          if (d) {
            e.preventDefault();
            ui.cursor = [Math.min(n - 1, Math.max(0, cur[0] + d[0])), Math.min(n - 1, Math.max(0, cur[1] + d[1]))];
            tv.render();
          } else if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            place(cur);
          }
        },
      },
    },
    s(
      'defs',
      {},
      s('radialGradient', { id: 'stone-black', cx: '35%', cy: '30%', r: '70%' }, s('stop', { offset: '0', 'stop-color': '#6a6a6a' }), s('stop', { offset: '1', 'stop-color': '#050505' })),
      s('radialGradient', { id: 'stone-white', cx: '35%', cy: '30%', r: '75%' }, s('stop', { offset: '0', 'stop-color': '#ffffff' }), s('stop', { offset: '1', 'stop-color': '#d4d0c4' })),
    ),
    s('rect', { x: 0, y: 0, width: W, height: W, rx: 3, class: 'wood' }),
    s('g', { class: 'grid' }, lines),
    s('g', { class: 'stars' }, star(n).map(([x, y]) => s('circle', { cx: at(x), cy: at(y), r: 1.1 }))),
    s('g', { class: 'coords', 'aria-hidden': 'true' }, labels),
    s('g', { class: 'forbidden', 'aria-hidden': 'true' }, forbidden.map((p) => s('path', { d: `M${at(p[0]) - 2} ${at(p[1]) - 2}l4 4m0 -4l-4 4` }))),
    s('g', { class: 'stones' }, stoneEls),
    last && s('circle', { class: 'lastmark', cx: at(last[0]), cy: at(last[1]), r: 1.5 }),
    s('g', { class: 'hits' }, hits),
    playable && s('rect', { class: 'cursor', x: at(cur[0]) - CELL / 2 + 0.6, y: at(cur[1]) - CELL / 2 + 0.6, width: CELL - 1.2, height: CELL - 1.2, rx: 1.5 }),
  );
  return svg;
}

function player(tv, seat, v) {
  const g = tv.game;
  const color = colorOf(v, seat);
  // Undo counts come black first, white second, whichever seat plays which.
  const undos = v.undo_left[color === 'black' ? 0 : 1];
  // In a swap2 opening the seat that lays or chooses acts, whatever colour is to move.
  const moving = !v.end && (v.swap2 ? swap2.actor(v) === seat : v.to_move === color);
  let clockEl = null;
  if (g?.clocks_ms?.length) {
    const left = g.clocks_ms[seat];
    clockEl = moving
      ? h('span', { class: 'gclock running', role: 'timer', dataset: { until: String(tv.clocksAt + left) } }, clock(left))
      : h('span', { class: 'gclock' }, clock(left));
  }
  return h(
    'div',
    { class: ['gplayer', color, moving && 'acting'], dataset: { seat: String(seat) } },
    h('span', { class: `gstone ${v.swap2 ? 'tbd' : color}`, 'aria-hidden': 'true' }),
    h('span', { class: 'pname' }, tv.name(seat), tv.badges(seat)),
    // Our own card says "You play Black": the colours swap from game to game.
    v.swap2
      ? h('span', { class: 'gmeta' }, swap2.cardNote(v, seat))
      : h('span', { class: 'gmeta' }, seat === tv.you ? h('span', { class: 'gyou' }, t('go.youplay', { color: t(`go.${color}`) })) : t(`go.${color}`), v.undo === 'ask' && ` · ${t('go.undoleft', { n: undos })}`),
    clockEl,
    moving && tv.timer(seat),
  );
}

function status(tv, v) {
  if (v.end) {
    const who = v.end.winner ? t(`go.${v.end.winner}`) : '';
    if (v.end.reason === 'five') return t('go.win', { color: who });
    if (v.end.reason === 'resignation') {
      const loser = { color: t(`go.${v.end.winner === 'black' ? 'white' : 'black'}`) };
      // The rules' default move for a turn that ran out is a resignation; the game's end
      // reason cannot tell them apart, the action that ended it can.
      return t(tv.lastAction?.timed_out ? 'go.timedout' : 'go.resigned', loser);
    }
    return t('go.draw');
  }
  if (v.pending_undo) {
    // Our own request, one put to us, or — watching or replaying — whose it is.
    if (tv.you === undefined) return t('go.undoby', { name: tv.name(seatOf(v, v.pending_undo)), color: t(`go.${v.pending_undo}`) });
    return colorOf(v, tv.you) === v.pending_undo ? t('go.undowait') : undoQuestion(tv, v);
  }
  if (v.swap2) return swap2.prompt(tv, v);
  if (tv.myTurn()) return t('table.yourturn');
  if (tv.waitsForUs?.()) return t('table.yourturnoffline');
  return t('table.turnof', { name: tv.name(seatOf(v, v.to_move)) });
}

/** The question put to us: who asks, and whether our reply goes too (when the asker's
 * stone is not the last on the board). */
function undoQuestion(tv, v) {
  const asker = v.pending_undo;
  const lastIsAskers = (v.moves.length - 1) % 2 === (asker === 'black' ? 0 : 1);
  return t(lastIsAskers ? 'go.undoasked' : 'go.undoasked2', { name: tv.name(seatOf(v, asker)) });
}

/**
 * Why Undo is grey for the seated player `me` (a colour), or '' when it is not, or the
 * reason is only the moment (our move on its way). An Undo that is not grey may still
 * need a word: after a refusal, asking again before the next stone costs an undo.
 */
function undoWhy(tv, v, me, can) {
  if (v.swap2) return t('s2.noundo');
  if (v.pending_undo) return t(v.pending_undo === me ? 'go.why.waiting' : 'go.why.answer');
  const k = me === 'black' ? 0 : 1;
  // A random opening's stones are nobody's to take back.
  const opening = tv.info?.options?.config?.opening || 0;
  if (!v.moves.some((_, i) => i >= opening && i % 2 === k)) return t('go.why.none');
  if (v.undo === 'ask' && v.undo_left[k] === 0) return t('go.why.used', { n: tv.info?.options?.config?.undo_limit ?? 3 });
  if (v.undo === 'ask' && v.undo_refused?.[k]) return t('go.why.refused');
  // A swap2 opening's stones are nobody's to take back either.
  return can('request_undo') ? '' : t('go.why.none');
}

/**
 * The board, and beside it (below it on a narrow screen) the players and their clocks,
 * what is going on, and the buttons — or, once the game is over, `result`, the
 * end-of-game panel, which takes the buttons' place: where the player is looking, with
 * the winning five still in sight.
 */
export function render(tv, result) {
  const v = tv.game?.view || tv.lastView;
  // A player may act off turn too: ask to take back the stone just played, or resign.
  const live = !!tv.game && tv.synced && tv.you !== undefined && tv.sentAt === undefined && !tv.over;
  const legal = live ? tv.game.legal || [] : [];
  const can = (a) => legal.some((l) => JSON.stringify(l) === JSON.stringify(a));
  const playable = legal.some((l) => l && typeof l === 'object' && 'place' in l) && swap2.boardOpen(tv, v);
  const answering = can({ answer_undo: true });
  const ui = tv.ui;
  // Undo and Resign are a player's: a spectator (or a replay) has neither.
  const seated = tv.you !== undefined && !result;
  const me = tv.you !== undefined ? colorOf(v, tv.you) : null;
  // A grey Undo says why, beside it and to a screen reader; after a refusal an Undo that
  // is on says what asking again costs.
  const why = seated && live ? undoWhy(tv, v, me, can) : '';
  const resign = async () => {
    if (await ask(t('go.resignask'), t('act.resign'), t('go.playon'), { danger: true })) tv.act('resign');
  };
  return h(
    'div',
    { class: 'gomoku' },
    h('div', { class: 'boardwrap' }, board(tv, v, playable)),
    h(
      'div',
      { class: 'gside' },
      // Black first, whichever seat plays it.
      h('div', { class: 'gplayers' }, player(tv, seatOf(v, 'black'), v), player(tv, seatOf(v, 'white'), v)),
      h('p', { class: ['gstatus', tv.myTurn() && 'mine'], role: 'status', 'aria-live': 'polite' }, status(tv, v)),
      answering &&
        h(
          'div',
          { class: 'undoask', role: 'alertdialog', 'aria-label': undoQuestion(tv, v) },
          h('span', {}, undoQuestion(tv, v)),
          h('button', { type: 'button', class: 'primary', dataset: { focus: 'accept' }, on: { click: () => tv.act({ answer_undo: true }) } }, t('act.accept')),
          h('button', { type: 'button', class: 'ghost', dataset: { focus: 'refuse' }, on: { click: () => tv.act({ answer_undo: false }) } }, t('act.refuse')),
        ),
      live && swap2.controls(tv, v, can),
      result,
      h(
        'div',
        { class: 'controls' },
        seated &&
          h(
            'button',
            { type: 'button', class: 'ghost', disabled: !can('request_undo'), title: why || undefined, 'aria-describedby': why ? 'undohint' : undefined, dataset: { focus: 'undo' }, on: { click: () => tv.act('request_undo') } },
            t('act.undo'),
          ),
        seated && h('button', { type: 'button', class: 'ghost danger', disabled: !can('resign'), dataset: { focus: 'resign' }, on: { click: resign } }, t('act.resign')),
        v.rule === 'renju' &&
          h(
            'label',
            { class: 'check' },
            h('input', { type: 'checkbox', checked: ui.showForbidden !== false, on: { change: (e) => ((ui.showForbidden = e.target.checked), tv.render()) } }),
            t('go.forbidden'),
          ),
      ),
      why ? h('p', { class: 'undohint', id: 'undohint' }, why) : null,
    ),
  );
}

/** The end panel's button: the next game swaps the colours (or the opener). */
export const nextLabel = () => 'go.rematch';

/** The end panel: who is Black (or opens) next, and whether the opponent asked for it. */
export const overNote = (tv) => swap2.rematchNote(tv);

export function onAction(tv, m) {
  for (const e of m.events || []) {
    if (e && e.undo_refused) {
      const v = tv.game?.view || tv.lastView;
      const mine = tv.you !== undefined && v && colorOf(v, tv.you) === e.undo_refused.color;
      if (mine) toast(t('go.refused'));
    }
  }
}
