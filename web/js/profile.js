// A player's page: ratings per game, finished games newest first, and the replay of a
// finished game stepped action by action with every hand shown, drawn by the same code as
// the live table.

import { h, put, toast } from './dom.js';
import { t } from './i18n.js';
import { gameName, gameInfo } from './lobby.js';
import { screenOf, actionText, fit } from './table.js';
import { checkDeal } from './fair.js';
import { api } from './net.js';
import { computerRecord, ratedMark, botLevel, botBadge } from './levels.js';

/** Whom a game of the history was played with: the people by name, each a link to their
 * profile, and the computers counted. */
function company(g) {
  const others = (g.players || []).filter((p) => p.seat !== g.seat);
  const parts = others.filter((p) => p.user).map((p) => h('a', { href: `#/profile/${encodeURIComponent(p.user.name)}` }, p.user.name));
  const computers = others.filter((p) => p.bot).length;
  const level = botLevel(gameInfo(g.game), others.find((p) => p.bot)?.bot);
  if (computers) parts.push((computers === 1 ? t('profile.computer') : t('profile.computers', { n: computers })) + (level ? ` · ${level}` : ''));
  return parts.flatMap((p, i) => (i ? [', ', p] : [p]));
}

export function profileView(hall, name) {
  const el = h('section', { class: 'profile' }, h('p', { class: 'loading' }, t('loading')));
  /** One game of the history, as a row. */
  const row = (g) =>
    h(
      'tr',
      {},
      h('td', {}, gameName(g.game), g.private && h('span', { class: 'badge', title: t('profile.private_hint') }, t('profile.private')), ratedMark(g)),
      h('td', { class: 'with' }, company(g)),
      h('td', { class: 'when' }, g.finished_at ? new Date(g.finished_at * 1000).toLocaleString() : '…'),
      h('td', { class: g.score > 0 ? 'plus' : g.score < 0 ? 'minus' : '' }, g.score ?? ''),
      h('td', {}, g.finished_at && h('a', { href: `#/replay/${encodeURIComponent(g.id)}` }, t('act.replay'))),
    );
  /** A moderator's Ban… or Unban for this player; the page is drawn again once done. */
  const moderate = (data) => {
    const user = data.user.name;
    const done = () => {
      const off = hall.on('moderated', (m) => {
        if (m.user !== user) return;
        off();
        draw(user);
      });
    };
    const ban = () => {
      const reason = prompt(t('mod.reason', { name: user }));
      if (!reason?.trim()) return;
      done();
      hall.send({ type: 'ban', user, reason: reason.trim() });
    };
    const unban = () => {
      done();
      hall.send({ type: 'unban', user });
    };
    return h('p', {}, h('button', { type: 'button', class: 'ghost danger', on: { click: data.banned ? unban : ban } }, t(data.banned ? 'mod.unban' : 'mod.ban')));
  };
  /** A moderator's own profile: the banned accounts, each a link to the profile where the
   * ban is lifted, filled in when the server answers. */
  const banList = () => {
    const list = h('ul', { class: 'bans' }, h('li', { class: 'loading' }, t('loading')));
    const off = hall.on('bans', (m) => {
      off();
      put(
        list,
        m.bans.length === 0
          ? h('li', { class: 'note' }, t('mod.none'))
          : m.bans.map((b) =>
              h(
                'li',
                {},
                h('a', { href: `#/profile/${encodeURIComponent(b.user)}` }, b.user),
                ` — ${b.reason} `,
                h('span', { class: 'when' }, new Date(b.since * 1000).toLocaleString()),
              ),
            ),
      );
    });
    hall.send({ type: 'bans' });
    return [h('h2', {}, t('mod.bans')), list];
  };
  const draw = async (who) => {
    try {
      // With the session's token the server lists one's own games at private tables too.
      const path = `/api/users/${encodeURIComponent(who)}/games`;
      const data = await api(path, hall.token);
      // A long history comes a page at a time: "More games" asks for the next one.
      const body = h('tbody', {}, data.games.map(row));
      const more = h('button', { type: 'button', class: 'ghost more' }, t('profile.more'));
      let next = data.next;
      more.hidden = !next;
      more.addEventListener('click', async () => {
        more.disabled = true;
        try {
          const page = await api(`${path}?before=${encodeURIComponent(next)}`, hall.token);
          body.append(...page.games.map(row));
          next = page.next;
          more.hidden = !next;
        } catch (e) {
          toast(String(e.message || e));
        } finally {
          more.disabled = false;
        }
      });
      const ratings = (data.ratings || []).filter((r) => r.games > 0);
      put(
        el,
        h(
          'h1',
          {},
          t('profile.title', { name: data.user.name }),
          data.user.guest && h('span', { class: 'badge' }, t('user.guest')),
          data.banned && h('span', { class: 'badge banned' }, t('mod.banned_badge')),
        ),
        data.can_moderate && moderate(data),
        data.moderator && banList(),
        ratings.length > 0 && h('h2', {}, t('profile.ratings')),
        ratings.length > 0 &&
          h(
            'div',
            { class: 'ratings' },
            ratings.map((r) =>
              h(
                'div',
                { class: 'rating', title: r.provisional ? t('ranks.provisional') : null },
                gameName(r.game),
                h('b', {}, `${Math.round(r.rating)}${r.provisional ? '?' : ''}`),
                `±${Math.round(r.deviation * 2)} · ${r.games}`,
              ),
            ),
          ),
        data.stats?.length > 0 && h('h2', {}, t('profile.record')),
        data.stats?.length > 0 &&
          h(
            'table',
            { class: 'record' },
            h('thead', {}, h('tr', {}, h('td', {}), h('th', {}, t('profile.played')), h('th', {}, t('profile.won')), h('th', {}, t('profile.score')))),
            h(
              'tbody',
              {},
              data.stats.map((r) =>
                h(
                  'tr',
                  {},
                  h('td', {}, gameName(r.game)),
                  h('td', {}, String(r.played)),
                  // No count of wins where none of the games had a winning side (all draws).
                  h('td', {}, r.won === null ? '–' : `${r.won} (${Math.round((100 * r.won) / r.played)}%)`),
                  h('td', { class: r.net > 0 ? 'plus' : r.net < 0 ? 'minus' : '' }, r.net > 0 ? `+${r.net}` : String(r.net)),
                ),
              ),
            ),
          ),
        computerRecord(data.computers, gameName, gameInfo),
        h('h2', {}, t('profile.history')),
        data.games.length === 0
          ? h('p', { class: 'note' }, t('profile.none'))
          : h(
              'table',
              { class: 'history' },
              h('thead', {}, h('tr', {}, h('td', {}), h('th', {}, t('profile.with')), h('th', {}, t('profile.when')), h('th', {}, t('profile.score')), h('td', {}))),
              body,
            ),
        more,
      );
    } catch (e) {
      put(el, h('p', { class: 'note' }, String(e.message || e)));
    }
  };
  if (name) draw(name);
  else if (hall.user) draw(hall.user.name);
  else {
    const off = hall.on('user', (u) => {
      off();
      draw(u.name);
    });
  }
  return el;
}

/** How long autoplay shows each step. */
const AUTOPLAY_MS = 1200;

/**
 * A finished game, one step at a time: the buttons, the ← → keys wherever the focus is
 * on the page, and autoplay.
 */
export function replayView(hall, id) {
  const el = h('section', { class: 'replay' }, h('p', { class: 'loading' }, t('loading')));
  let record = null;
  // Who sat where, once fetched: names instead of seat numbers, as at the live table.
  let players = [];
  let step = 0;
  // The step last asked for, which the buttons and keys move from: a press that comes
  // before the last step asked for has been fetched counts from that one, not from the
  // one still shown (Start then Next, quickly, is step 1).
  let target = 0;
  const stage = h('div', { class: 'stage' });
  const bar = h('div', { class: 'rbar' });
  const verdict = h('p', { class: 'fair', role: 'status' });
  // Autoplay's timer while it plays.
  let playing = null;
  // Each step asked for is numbered: an answer that comes after a later step's is dropped.
  let asked = 0;
  const stop = () => {
    clearTimeout(playing);
    playing = null;
    drawBar();
  };
  const show = async (n) => {
    const want = Math.max(0, Math.min(record.actions.length, n));
    target = want;
    const mine = ++asked;
    let r;
    try {
      r = await api(`/api/games/${encodeURIComponent(id)}/replay/${want}`);
    } catch (e) {
      // Not fetched: the next press moves from the step on show.
      if (mine === asked) target = step;
      throw e;
    }
    if (mine !== asked || !el.isConnected) return;
    step = want;
    // A table of our own that the game's drawing code reads as it reads a live one.
    const tv = {
      info: { game: record.game, seats: Array.from({ length: record.seats }, (_, i) => ({ seat: i })) },
      you: undefined,
      ui: {},
      game: { view: r.spectator, to_act: [], legal: [] },
      lastView: r.spectator,
      replaySeats: r.seats,
      name: (i) => {
        const p = players[i];
        if (p?.user) return p.user.name;
        if (p?.bot) return `${t('table.bot')} ${i + 1}`;
        return t('table.seat', { n: i + 1 });
      },
      badges: (i) => [players[i]?.bot && botBadge(gameInfo(record.game), players[i].bot), players[i]?.user && players[i].user.id === hall.user?.id && h('span', { class: 'badge you' }, t('table.you'))],
      myTurn: () => false,
      timer: () => null,
      act: () => {},
      render: () => {},
    };
    put(stage, r.action ? h('p', { class: 'status' }, t('replay.action', { name: tv.name(r.action.seat), action: actionText(r.action.action, record.config?.size || 15) })) : null, screenOf(record.game).render(tv));
    drawBar();
    fit(stage);
  };
  const drawBar = () => {
    if (!record) return;
    // The bar is drawn anew: the button pressed keeps the focus, so Enter or Space can
    // press it again.
    const focused = bar.contains(document.activeElement) ? document.activeElement.dataset.focus : null;
    const go = (k) => () => {
      stop();
      show(k());
    };
    put(
      bar,
      h('button', { type: 'button', class: 'ghost small', dataset: { focus: 'first' }, on: { click: go(() => 0) } }, '« ', t('replay.first')),
      h('button', { type: 'button', class: 'ghost small', dataset: { focus: 'prev' }, on: { click: go(() => target - 1) } }, '◀ ', t('replay.prev')),
      h('span', { role: 'status' }, t('replay.step', { n: step, total: record.actions.length })),
      h('button', { type: 'button', class: 'ghost small', dataset: { focus: 'next' }, on: { click: go(() => target + 1) } }, t('replay.next'), ' ▶'),
      h('button', { type: 'button', class: 'ghost small', dataset: { focus: 'last' }, on: { click: go(() => record.actions.length) } }, t('replay.last'), ' »'),
      h(
        'button',
        { type: 'button', class: ['small', playing ? 'ghost on' : 'primary'], 'aria-pressed': String(!!playing), dataset: { focus: 'play' }, on: { click: () => (playing ? stop() : autoplay()) } },
        playing ? `❚❚ ${t('replay.pause')}` : `▶ ${t('replay.play')}`,
      ),
    );
    if (focused) bar.querySelector(`[data-focus="${focused}"]`)?.focus();
  };
  /** Steps on by itself, from the start if at the end, until the end or a pause. */
  const autoplay = () => {
    const next = () => {
      if (target >= record.actions.length || !el.isConnected) return stop();
      playing = setTimeout(() => show(target + 1).then(() => playing && next()), AUTOPLAY_MS);
    };
    const from = target >= record.actions.length ? 0 : target;
    playing = -1;
    show(from).then(() => playing && next());
  };
  // The players are a nicety: a replay without them still names the seats.
  const named = api(`/api/games/${encodeURIComponent(id)}/players`)
    .then((r) => (players = r.players || []))
    .catch(() => {});
  api(`/api/games/${encodeURIComponent(id)}`)
    .then(async (rec) => {
      record = rec;
      await named;
      put(
        el,
        h('div', { class: 'tbar' }, h('a', { class: 'back', href: '#/profile', 'aria-label': t('replay.back') }, '‹'), h('h1', {}, gameName(rec.game), h('small', {}, t('replay.title', { id })))),
        bar,
        stage,
        verdict,
        h('details', {}, h('summary', {}, t('replay.verify')), h('pre', {}, JSON.stringify(rec, null, 1))),
      );
      // The record's seed against its commitment, checked here in the browser, for the
      // games that deal.
      if (screenOf(rec.game).dealt !== false) {
        checkDeal(rec).then((v) => {
          if (!v) return;
          put(verdict, v.committed ? `✓ ${t('over.fair')}` : `✗ ${t('over.unfair')}`);
          verdict.classList.add(v.committed ? 'ok' : 'bad');
        });
      }
      // On the document, not the view: the button that had the focus is drawn anew at
      // each step, and the keys must go on working after it.
      const keys = (e) => {
        if (!el.isConnected) return document.removeEventListener('keydown', keys);
        if (e.target.closest?.('input, textarea, select')) return;
        const d = { ArrowLeft: -1, ArrowRight: 1 }[e.key];
        if (!d) return;
        e.preventDefault();
        stop();
        show(target + d);
      };
      document.addEventListener('keydown', keys);
      return show(rec.actions.length);
    })
    .catch((e) => put(el, h('p', { class: 'note' }, String(e.message || e))));
  return el;
}
