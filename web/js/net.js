// The connection to the hall: one WebSocket speaking protocol v1 (docs/protocol.md).
//
// It logs in by itself (the saved token, or a new guest), reconnects after a drop with a
// growing delay, and resumes every table where the user sits from the last sequence number
// seen, so a reload or a network blip puts the player back in the same seat and view.

import { randomHex } from './dom.js';
import { t } from './i18n.js';

const VERSION = 1;
const TOKEN = 'qipai.token';
const SEQ = 'qipai.seq.';
/** The messages that open a session, and so may be sent before one. */
const ACCOUNT_REQUESTS = new Set(['login', 'register', 'guest']);

export class Hall extends EventTarget {
  constructor() {
    super();
    this.user = null;
    this.seated = [];
    this.ws = null;
    this.open = false;
    this.retry = 0;
    // While disconnected: 'offline', 'restarting' (the server said so) or 'crowded' (the
    // server turned us away: our address has its share of connections open).
    this.down = undefined;
    this.queue = [];
    this.watching = new Set();
    this.seatAt = new Map(); // table → our seat, from its snapshots
    // The tables where we hold a seat, each as last described (its seats, its state),
    // from what the tables we follow send: the lobby lists them apart, to return to.
    this.mine = new Map();
    // The table views on show, each by its table: what a view holds decides where a
    // resume starts (see `lastSeq`).
    this.views = new Map();
    this.deals = new Map(); // table → { gameId, commitment, nonce } of its last deal
  }

  /** The saved session token. */
  get token() {
    return localStorage.getItem(TOKEN);
  }

  connect() {
    const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(`${proto}//${location.host}/ws`);
    this.ws = ws;
    let opened = false;
    ws.onopen = () => {
      opened = true;
      this.retry = 0;
      const hello = { type: 'hello', version: VERSION };
      if (this.token) hello.token = this.token;
      ws.send(JSON.stringify(hello));
    };
    ws.onmessage = (e) => {
      let m;
      try {
        m = JSON.parse(e.data);
      } catch {
        return;
      }
      this.receive(m);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      this.open = false;
      this.greeted = false;
      // 1012 is the server saying it is restarting (docs/protocol.md): the game is kept and
      // the page will be back in its seat, which is worth telling apart from a lost network.
      // Attempts that find it still down say nothing new, so the notice stays.
      const restarting = e.code === 1012 || (this.down === 'restarting' && !opened);
      this.down = this.crowded ? 'crowded' : restarting ? 'restarting' : 'offline';
      this.crowded = false;
      this.emit('status', this.down);
      if (this.takenOver) return;
      // Back off so a restarting server is not hammered: 0.5 s, 1 s, 2 s … up to 8 s.
      const delay = Math.min(8000, 500 * 2 ** this.retry++);
      setTimeout(() => this.connect(), delay);
    };
    clearInterval(this.pinger);
    this.pinger = setInterval(() => this.open && this.send({ type: 'ping' }), 25000);
  }

  receive(m) {
    if (m.seq !== undefined && m.table) this.saveSeq(m.table, m.seq);
    if ((m.type === 'table' || m.type === 'seats') && m.info) this.place(m.info);
    switch (m.type) {
      case 'table':
        if (m.you === undefined) this.seatAt.delete(m.table);
        else this.seatAt.set(m.table, m.you);
        break;
      case 'commitment':
        // Our share of the deal's randomness (docs/fairness.md), sent here rather than by
        // the table's view, which may not be drawn yet when a quick play deals at once.
        // Once per deal: a resume may bring back a call we have already answered.
        if (this.seatAt.has(m.table) && this.deals.get(m.table)?.gameId !== m.game_id) {
          const nonce = randomHex(16);
          this.deals.set(m.table, { gameId: m.game_id, commitment: m.commitment, nonce });
          this.send({ type: 'nonce', table: m.table, game_id: m.game_id, nonce });
        }
        break;
      case 'welcome':
        this.greeted = true;
        if (m.user) {
          this.ready(m.user, m.seated || []);
        } else {
          // No live session: play as a guest at once, so a first visit is one click from
          // a game. Logging in or registering later keeps the guest's games.
          // The session the page had (expired, revoked, its account banned) is over.
          if (this.token) localStorage.removeItem(TOKEN);
          this.user = null;
          this.ws.send(JSON.stringify({ type: 'guest' }));
        }
        break;
      case 'session':
        localStorage.setItem(TOKEN, m.token);
        // Another account behind the page (a login): the tables say afresh where it sits.
        if (this.user && this.user.id !== m.user.id) {
          this.mine.clear();
          this.emit('mine');
        }
        this.ready(m.user, this.seated);
        break;
      case 'logged_out':
      case 'account_deleted':
        localStorage.removeItem(TOKEN);
        this.user = null;
        this.ws.send(JSON.stringify({ type: 'guest' }));
        break;
      case 'error':
        // A table followed from another connection is not a reason to stop; a whole
        // connection taken over is (the other window has the session now).
        if (m.code === 'taken_over' && !m.table) this.takenOver = true;
        if (m.code === 'bad_token') localStorage.removeItem(TOKEN);
        // Turned away before the hello: the close that follows is said as such.
        if (m.code === 'too_many_connections') this.crowded = true;
        break;
    }
    this.emit('message', m);
    this.emit(m.type, m);
  }

  /** Logged in: flush what waited for the session, resume the tables. */
  ready(user, seated) {
    const first = !this.open;
    this.user = user;
    this.seated = seated;
    this.open = true;
    this.down = undefined;
    this.emit('status', 'online');
    this.emit('user', user);
    if (first) {
      for (const table of new Set([...seated, ...this.watching])) this.resume(table);
      const q = this.queue;
      this.queue = [];
      for (const m of q) this.send(m);
    }
  }

  /** Sends a message now, or once logged in. */
  send(m) {
    // Before a session only an account request may go out, and only once the server has
    // welcomed us: a visitor refused a guest account (too many from its address) logs in.
    const early = this.greeted && ACCOUNT_REQUESTS.has(m.type);
    if ((!this.open && !early) || this.ws.readyState !== WebSocket.OPEN) {
      if (m.type !== 'ping') this.queue.push(m);
      return;
    }
    this.ws.send(JSON.stringify(m));
  }

  /**
   * Where a resume of `table` starts: after the last message its view on show holds — 0
   * for a view that holds nothing yet (a page just loaded), which the table answers with
   * everything it still keeps, the moves and the chat so far — or, with no view, after the
   * last message the page saw.
   */
  lastSeq(table) {
    const view = this.views.get(table);
    if (view) return view.seq;
    return Number(localStorage.getItem(SEQ + table) || 0);
  }

  /** A resume of `table`, with its invite code if we have it (a private table's
   * spectator needs it on a new connection). */
  resume(table) {
    const invite = sessionStorage.getItem(`qipai.invite.${table}`) || undefined;
    this.send({ type: 'resume', table, last_seq: this.lastSeq(table), invite });
  }

  /** Keeps `mine` to the tables where we sit, from a table's description. */
  place(info) {
    const me = this.user?.id;
    const seated = me !== undefined && info.seats.some((s) => s.user && s.user.id === me);
    if (seated) this.mine.set(info.id, info);
    else if (!this.mine.delete(info.id)) return;
    this.emit('mine');
  }

  saveSeq(table, seq) {
    localStorage.setItem(SEQ + table, String(seq));
  }

  forget(table) {
    localStorage.removeItem(SEQ + table);
    this.watching.delete(table);
    this.seated = this.seated.filter((t) => t !== table);
    if (this.mine.delete(table)) this.emit('mine');
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  on(type, fn) {
    const f = (e) => fn(e.detail);
    this.addEventListener(type, f);
    return () => this.removeEventListener(type, f);
  }
}

/**
 * GETs `path` of the HTTP API as JSON, with the session's `token` if given (a player's own
 * history then lists their games at private tables). A refusal becomes an Error to show:
 * in the page's language when the server turned the address away for asking too often,
 * else in the server's own words.
 */
export async function api(path, token) {
  const r = await fetch(path, token ? { headers: { Authorization: `Bearer ${token}` } } : {});
  if (r.status === 429) throw new Error(t('err.rate_limited'));
  if (!r.ok) throw new Error((await r.json().catch(() => ({}))).error || r.statusText);
  return r.json();
}
