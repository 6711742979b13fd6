// One table: its state kept from the server's messages (snapshots, actions, game over,
// seats, chat), the frame around every game (header, chat, and from over.js the waiting
// room and the end-of-game panel) and the game's own drawing from cardtable.js,
// tenhalf.js or gomoku.js.

import { h, put, toast, clock } from './dom.js';
import { t, lang } from './i18n.js';
import { labels, grouped } from './cards.js';
import { pointName } from './gomoku.js';
import { gameName, gameInfo, games, rulesButton } from './lobby.js';
import { chatPanel } from './chat.js';
import { guide } from './guide.js';
import { checkDeal } from './fair.js';
import { stakeLabel, stakesRules } from './stakes.js';
import { api } from './net.js';
import * as cardtable from './cardtable.js';
import * as tenhalf from './tenhalf.js';
import * as gomoku from './gomoku.js';
import { cue, opened } from './cues.js';
import { botFor } from './levels.js';
import { overPanel, waitingRoom } from './over.js';

/** Each game's drawing, by game id. */
// Each table screen, by the name a game's presentation gives it (`screen` in /api/games).
const SCREENS = { cards: cardtable, tenhalf, board: gomoku };

/** The screen that draws `game` (undefined until the list of games has come). */
export function screenOf(game) {
  return SCREENS[gameInfo(game)?.screen];
}

// Every turn timer on the page counts down from its deadline, without redrawing the table.
setInterval(() => {
  for (const el of document.querySelectorAll('[data-until]')) {
    const left = Number(el.dataset.until) - Date.now();
    el.textContent = clock(left);
    el.classList.toggle('urgent', left < 10000);
  }
}, 250);

/**
 * Sizes a stage to the window's height left below it, so that a table — felt, hand and
 * buttons, or board, clocks and buttons, and the result at the end — is seen whole
 * without scrolling, on a desktop as on a phone. How tall the top bar and the table's
 * header come out (they wrap on a phone, and in English) only the layout knows, so the
 * stage's distance from the top of the page is measured, after every redraw and resize.
 */
export function fit(stage) {
  if (!stage.isConnected) return;
  const top = stage.getBoundingClientRect().top + window.scrollY;
  // On the parent, for the chat beside the stage to be as tall.
  stage.parentElement.style.setProperty('--top', `${Math.round(top)}px`);
}
window.addEventListener('resize', () => document.querySelectorAll('.stage').forEach(fit));

/** A recorded action for people: the cards of a play, a bid, a point… */
export function actionText(a, size, events = []) {
  const zh = lang() === 'zh';
  if (a === 'hit') {
    // Ten and a half: the card drawn is in the event, and what it did to the hand. A bust
    // or an outright win can end the round at once and the next deal clears the seat, so
    // the log is where it stays said.
    const hit = events.find((e) => e.event === 'hit');
    if (!hit) return t('act.hit');
    const bust = events.find((e) => e.event === 'busted' && e.seat === hit.seat);
    const won = events.find((e) => e.event === 'won' && e.seat === hit.seat);
    const outcome = bust ? ` · ${t('th.bust')} −${bust.penalty}` : won ? ` · ${tenhalf.winText(won.kind)}` : '';
    return `${t('act.hit')} ${labels(hit.card, zh)}${outcome}`;
  }
  if (a === 'request_undo') return t('act.undo');
  if (typeof a === 'string') return t(`act.${a}`) === `act.${a}` ? a : t(`act.${a}`);
  if (a.answer_undo !== undefined) return a.answer_undo ? t('act.accept') : t('act.refuse');
  if (a.play !== undefined) return labels(grouped(a.play), zh);
  if (a.bid !== undefined) return a.bid ? t('act.bid', { n: a.bid }) : t('act.nobid');
  if (stakeLabel(a)) return stakeLabel(a);
  if (a.place) return pointName(a.place, size);
  if (a.grab) return t('act.grab', { card: labels(a.grab, zh) });
  if (a.declare) return t(`d5.declare.${a.declare}`);
  return JSON.stringify(a);
}

export class TableView {
  constructor(hall, table, { invite, join } = {}) {
    this.hall = hall;
    this.table = table;
    this.invite = invite || sessionStorage.getItem(`qipai.invite.${table}`) || undefined;
    if (invite) sessionStorage.setItem(`qipai.invite.${table}`, invite);
    this.info = null;
    this.you = undefined;
    this.seq = 0;
    this.game = null;
    this.over = null;
    this.lastView = null;
    this.ui = {}; // the game renderer's own state (selection, hint index…), kept across redraws
    this.stage = h('div', { class: 'stage' });
    this.head = h('header', { class: 'tbar' });
    this.chat = chatPanel(hall, table);
    this.el = h('section', { class: 'tableview', 'aria-label': 'table' }, this.head, h('div', { class: 'tmain' }, this.stage, this.chat.el));
    this.offMessages = hall.on('message', (m) => this.receive(m));
    // Whether the state we hold is the server's current one: true from a snapshot of the
    // table until the connection next goes down (a snapshot only comes over an open
    // connection). Until then a move could only be made on a state that may be gone, so
    // the controls are off.
    this.synced = false;
    // The seats where we asked for a computer and the server has not answered yet: their
    // Add computer takes no second press (it could only be refused, the seat taken).
    this.adding = new Set();
    this.offStatus = hall.on('status', (s) => {
      if (s !== 'online') {
        this.synced = false;
        // A request lost with the connection is never answered: the snapshot that comes
        // after it shows whether the computer sits.
        this.adding.clear();
      }
      this.draw();
    });
    // Why we are not at the table, when the way in was refused: shown in the stage
    // instead of a wait for a table that will never come (see `door`).
    this.door = null;
    // Sent to watch because every seat was taken when we came by the link.
    this.cameToFull = false;
    // What this view holds decides where the table's resume starts: nothing yet, so the
    // table sends what it keeps, and the moves and the chat are shown again after a reload.
    hall.views.set(table, this);
    opened(this);
    if (join) {
      // Followed (and resumed after a drop) once we are in: a resume now, before the join,
      // would be refused at a private table, for a player who is about to sit there.
      this.joining = true;
      hall.send({ type: 'join', table, invite: this.invite });
    } else {
      hall.watching.add(table);
      // Before the connection is up, the hall resumes every table it follows by itself.
      if (hall.open) hall.resume(table);
    }
    this.draw();
  }

  /** The view goes; `next` is the address shown instead. */
  close(next = '') {
    this.offMessages();
    this.offStatus();
    this.chat.close();
    this.hall.watching.delete(this.table);
    if (this.hall.views.get(this.table) === this) this.hall.views.delete(this.table);
    // Going elsewhere after a game is leaving the table: the seat is not kept for a game
    // nobody will play (and the table closes if only computers are left). During a game,
    // or before the first, the seat is kept, and the lobby lists it under "your tables";
    // so it is while one looks at the replay of the game just played, from the end panel
    // (the lobby's row of the table then has Leave).
    const after = this.info?.status === 'waiting' && (this.over || this.info.games > 0);
    if (this.you !== undefined && after && !this.left && !next.startsWith('#/replay/')) {
      this.send({ type: 'leave' });
      this.hall.forget(this.table);
    }
  }

  /**
   * Sends a move against the state we see. Until the server answers (with our move, an
   * error, or a fresh view of the table) the controls stay off, so a second click cannot
   * send a move against a state that is already gone. Another seat's move is no answer:
   * where seats act at once (五人斗地主's grab) it can arrive first, with a state from
   * before ours. The redraw is immediate, not on the next frame: the click that sent the
   * move is still being handled, and the next one must already find the controls off.
   */
  act(action) {
    this.hall.send({ type: 'act', table: this.table, action, seq: this.seq });
    this.sentAt = this.seq;
    this.render();
  }

  send(m) {
    this.hall.send({ table: this.table, ...m });
  }

  receive(m) {
    if (m.table !== this.table) return;
    if (m.seq !== undefined && m.seq < this.seq && m.type !== 'table') return;
    // A resume sends again what we may have seen: log each action once.
    const fresh = m.seq === undefined || m.seq > this.seq;
    // Live: while we hold the table's current state, not replayed by a resume (sound and motion).
    const live = this.synced && fresh;
    if (m.seq !== undefined) this.seq = Math.max(this.seq, m.seq);
    switch (m.type) {
      case 'table':
        this.door = null;
        if (this.joining) {
          this.joining = false;
          this.hall.watching.add(this.table);
        }
        this.synced = true;
        this.sentAt = undefined;
        this.seq = m.seq;
        this.setInfo(m.info);
        this.you = m.you;
        if (m.game) {
          if (this.game && this.game.game_id !== m.game.game_id) this.ui = {};
          this.setGame(m.game);
          if (!this.over || this.over.game_id !== m.game.game_id) this.over = null;
          if (!this.over) this.finalSeats = null;
        } else {
          this.game = null;
          // Between games, already ready for the next: the last game's end (sent again to
          // a page just loaded) is behind us.
          if (m.you !== undefined && m.info.seats[m.you]?.ready) {
            this.over = null;
            this.finalSeats = null;
          }
        }
        break;
      case 'seats':
        this.setInfo(m.info);
        break;
      case 'commitment':
        this.over = null;
        this.finalSeats = null;
        this.ui = {};
        this.dealing = true;
        break;
      case 'action':
        if (m.seat === this.you) this.sentAt = undefined;
        if (m.game) this.setGame(m.game);
        if (fresh) {
          // Worded anew at each switch of language, from the action itself (a person's
          // name as it was then; a computer's, "computer 2", in the language of the day).
          const size = this.info?.options?.config?.size || 15;
          const person = this.info?.seats[m.seat]?.user?.name;
          const said = () => ({ name: person ?? this.name(m.seat), action: actionText(m.action, size, m.events) });
          // Replayed before the table's seats are known: worded again once they are.
          if (!this.info) this.unnamed = true;
          // The clock made this move, not the player: say so rather than "X resigns".
          this.chat.note(() => t(m.timed_out ? 'replay.timedout' : 'replay.action', said()));
        }
        this.lastAction = m;
        screenOf(this.info?.game)?.onAction?.(this, m);
        break;
      case 'game_over':
        if (fresh) this.chat.note(() => t('moves.over'), 'divider');
        this.over = m;
        this.showHands(m);
        this.verdict = undefined;
        const deal = this.hall.deals.get(this.table) || {};
        checkDeal(m.record, deal.commitment, deal.nonce).then((ok) => {
          if (this.over !== m) return;
          this.verdict = ok;
          this.draw();
        });
        if (this.info) this.info.totals = m.totals;
        this.game = this.game && { ...this.game, to_act: [], legal: [], deadline_ms: undefined };
        break;
      case 'error': {
        // Said in the stage; the page's toast need not say it again.
        if (!this.info && this.doorShut(m.code)) {
          m.handled = true;
          break;
        }
        // A refusal may answer a computer asked for (the seat taken by a person meanwhile):
        // its Add computer is offered again, where the seat is still empty.
        const asked = this.adding.size > 0;
        this.adding.clear();
        if (this.sentAt === undefined && !asked) return;
        this.sentAt = undefined;
        break;
      }
      default:
        return;
    }
    this.draw();
    cue(this, m, live);
  }

  /**
   * The way in was refused before we ever saw the table: say why, rather than "Connecting…"
   * for ever. A link to a table whose seats are all taken (or mid-game) watches instead,
   * where the table lets us. True when the refusal was about getting in.
   */
  doorShut(code) {
    if (code === 'table_full' || code === 'playing') {
      this.cameToFull = true;
      this.joining = false;
      this.hall.watching.add(this.table);
      this.hall.send({ type: 'watch', table: this.table, invite: this.invite });
      return true;
    }
    const why = { no_spectators: this.cameToFull ? 'full' : 'nowatch', private: 'private', no_table: 'closed' }[code];
    if (!why) return false;
    this.door = { why, nowatch: code === 'no_spectators' };
    this.joining = false;
    this.hall.watching.delete(this.table);
    return true;
  }

  /** Why we are not at the table, and the way back. */
  doorPanel() {
    const d = this.door;
    return h(
      'div',
      { class: 'waiting felt door', role: 'alert' },
      h('h2', {}, t(`door.${d.why}`)),
      d.nowatch && d.why === 'full' && h('p', {}, t('door.nowatch')),
      h('a', { class: 'button primary big', href: '#/' }, t('door.lobby')),
    );
  }

  /**
   * Every hand at the end, for games whose final view does not show them (五人斗地主): the
   * replay's last step has every seat's view, now that nothing is secret.
   */
  async showHands(m) {
    if (this.info?.game !== 'doudizhu5' || !m.record?.actions) return;
    try {
      const step = await api(`/api/games/${encodeURIComponent(m.game_id)}/replay/${m.record.actions.length}`);
      if (this.over === m) {
        this.finalSeats = step.seats;
        this.draw();
      }
    } catch {
      // Only a nicety: the scores are shown anyway.
    }
  }

  setGame(g) {
    this.game = g;
    this.dealing = false;
    this.lastView = g.view;
    this.deadline = g.deadline_ms !== undefined ? Date.now() + g.deadline_ms : null;
    this.clocksAt = Date.now();
  }

  /** The table as the server last described it; quick play's `fill_ms` becomes the
   * moment computers take the empty seats, for the waiting room's countdown. */
  setInfo(info) {
    this.info = info;
    for (const i of this.adding) if (!info.seats[i] || info.seats[i].user || info.seats[i].bot) this.adding.delete(i);
    if (this.unnamed) {
      this.unnamed = false;
      this.chat.reword();
    }
    this.fillAt = info.fill_ms != null ? Date.now() + info.fill_ms : null;
  }

  /** Seat `i`'s name for people. */
  name(i) {
    const s = this.info?.seats[i];
    if (!s) return '';
    if (s.user) return s.user.name;
    // Computers are told apart by their seat (counted from 1), short enough for a phone's
    // felt; which computer player it is shows in the waiting room.
    if (s.bot) return `${t('table.bot')} ${i + 1}`;
    return t('table.empty');
  }

  mySeat() {
    return this.you === undefined ? null : this.info?.seats[this.you];
  }

  /** Our turn, but the connection is down (or the table not yet resumed): the controls wait. */
  waitsForUs() {
    return this.you !== undefined && !this.synced && !!this.game?.to_act?.includes(this.you) && !this.over;
  }

  myTurn() {
    return !!this.game && this.synced && this.you !== undefined && this.sentAt === undefined && this.game.to_act.includes(this.you) && this.game.legal?.length > 0;
  }

  /** A turn timer for a seat that is to act. */
  timer(seat) {
    if (!this.game || !this.deadline || !this.game.to_act.includes(seat)) return null;
    return h('span', { class: 'timer', role: 'timer', dataset: { until: String(this.deadline) } }, clock(this.deadline - Date.now()));
  }

  /** The badge of a seat's state: you, computer, away, 托管. */
  badges(i) {
    const s = this.info?.seats[i];
    if (!s) return [];
    return [
      i === this.you && h('span', { class: 'badge you' }, t('table.you')),
      s.user && !s.connected && h('span', { class: 'badge away' }, t('table.away')),
      s.user && s.auto && h('span', { class: 'badge auto' }, t('table.auto')),
    ];
  }

  draw() {
    if (this.drawPending) return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      this.render();
    });
  }

  render() {
    // Keep the keyboard focus on the same control across a redraw.
    const focused = document.activeElement?.dataset?.focus;
    this.renderHead();
    // Turned away: the reason alone, without the moves and chat of a table we are not at.
    this.el.classList.toggle('shut', !!this.door);
    if (this.door) {
      put(this.stage, this.doorPanel());
      return;
    }
    if (!this.info) {
      put(this.stage, h('p', { class: 'loading' }, t('loading')));
      return;
    }
    const R = screenOf(this.info.game);
    if (!R) {
      put(this.stage, h('p', { class: 'loading' }, t('loading')));
      games(this.hall).then(() => this.render(), () => {});
      return;
    }
    // The screen puts the result where the player is looking: on the felt over a card
    // table, in place of the buttons beside a Gomoku board.
    put(this.stage, this.game || this.over ? R.render(this, this.over && this.overPanel()) : waitingRoom(this));
    this.stage.dataset.game = this.info.game;
    fit(this.stage);
    guide(this);
    if (focused) (this.stage.querySelector(`[data-focus="${CSS.escape(focused)}"]`) || this.focusAfter(focused))?.focus();
  }

  /**
   * Where the keyboard goes when the control it was on is gone: from an Add computer whose
   * seat a computer now takes, to the next seat's (or the first left), else to Ready,
   * rather than back to the top of the page.
   */
  focusAfter(focused) {
    if (!focused.startsWith('bot-')) return null;
    const seat = Number(focused.slice(4));
    const bots = [...this.stage.querySelectorAll('[data-focus^="bot-"]')];
    return bots.find((b) => Number(b.dataset.focus.slice(4)) > seat) || bots[0] || this.stage.querySelector('[data-focus="ready"]');
  }

  /**
   * The header's count of games, before the status: the game being played ("Game 3"),
   * or between games how many were played ("After game 2"); nothing before the first, where
   * "Game 0" would only puzzle.
   */
  headCount(info) {
    if (info.status !== 'waiting') return `${t('table.games', { n: info.games + 1 })} · `;
    return info.games > 0 ? `${t('table.played', { n: info.games })} · ` : '';
  }

  renderHead() {
    const info = this.info;
    const game = info ? gameName(info.game) : '';
    const status = info ? t(`status.${info.status}`) : '';
    const invite = !this.door && (this.invite || sessionStorage.getItem(`qipai.invite.${this.table}`));
    put(
      this.head,
      h('a', { class: 'back', href: '#/', 'aria-label': t('nav.lobby') }, '‹'),
      h('h1', {}, game, info && h('small', {}, this.headCount(info) + status)),
      this.you === undefined && info && h('span', { class: 'badge spect' }, t('table.spectating')),
      this.you === undefined && info && this.cameToFull && h('span', { class: 'doornote', role: 'status' }, t('door.watching')),
      h('span', { class: 'spacer' }),
      info && rulesButton(info.game, 'ghost small', [stakesRules(info.options?.config)].filter(Boolean)),
      invite &&
        h(
          'button',
          {
            type: 'button',
            class: 'ghost small',
            dataset: { focus: 'invite' },
            on: {
              click: () => {
                const url = `${location.origin}/#/join/${this.table}/${invite}`;
                navigator.clipboard?.writeText(url).catch(() => {});
                toast(`${t('table.copied')}: ${url}`, 6000);
              },
            },
          },
          t('table.invite'),
        ),
      info &&
        info.game !== 'gomoku' &&
        h(
          'button',
          {
            type: 'button',
            class: ['ghost small', document.body.classList.contains('four') && 'on'],
            'aria-pressed': String(document.body.classList.contains('four')),
            title: t('table.fourtitle'),
            dataset: { focus: 'four' },
            on: {
              click: () => {
                const on = document.body.classList.toggle('four');
                localStorage.setItem('qipai.four', on ? '1' : '');
                this.render();
              },
            },
          },
          t('table.four'),
        ),
      this.you !== undefined &&
        this.game &&
        !this.over &&
        h(
          'button',
          {
            type: 'button',
            class: ['ghost small', this.mySeat()?.auto && 'on'],
            'aria-pressed': String(!!this.mySeat()?.auto),
            dataset: { focus: 'auto' },
            on: { click: () => this.send({ type: 'auto', on: !this.mySeat()?.auto }) },
          },
          this.mySeat()?.auto ? t('act.autooff') : t('act.auto'),
        ),
      !this.door &&
      h(
        'button',
        {
          type: 'button',
          class: 'ghost small',
          dataset: { focus: 'leave' },
          on: {
            click: () => {
              this.send({ type: 'leave' });
              this.hall.forget(this.table);
              // Left already: closing the view must not ask again.
              this.left = true;
              location.hash = '#/';
            },
          },
        },
        t('table.leave'),
      ),
    );
  }

  /** Asks for a computer in `seat`, once: until the server answers, the button waits. */
  async addBot(seat) {
    if (this.adding.has(seat)) return;
    this.adding.add(seat);
    // At once, not on the next frame: a second press may already be on its way.
    this.render();
    const { games } = await import('./lobby.js');
    let list;
    try {
      list = await games(this.hall);
    } catch (e) {
      this.adding.delete(seat);
      this.draw();
      toast(String(e.message || e));
      return;
    }
    const g = list.find((x) => x.id === this.info.game);
    this.send({ type: 'add_bot', seat, bot: botFor(g, this.info.options) });
  }

  /** After a game: each seat's score, the match totals, next game (over.js). */
  overPanel() {
    return overPanel(this);
  }

  nextGame() {
    this.over = null;
    this.finalSeats = null;
    this.game = null;
    this.ui = {};
    this.send({ type: 'ready', ready: true });
    this.draw();
  }
}
