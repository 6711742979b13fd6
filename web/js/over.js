// A table between its games. Before each, the waiting room: the seats (who sits, which
// computer, who is ready), Sit here / Add computer / Ready, quick play's countdown to the
// computers, and a heading that says what the table waits for — other players, or, once
// every other seat is taken and ready, us. After each, the end-of-game panel: who won and
// by how much, the rating change of a rated game, each seat's score and the match totals,
// the page's own check of a dealt game, and the way on (next game or rematch, the replay,
// Gomoku's SGF).

import { h, clock } from './dom.js';
import { t } from './i18n.js';
import { screenOf } from './table.js';
import { gameInfo } from './lobby.js';
import { ratingLine, botBadge } from './levels.js';

/** The panel for the table view `tv` after its game ended (`tv.over`). */
export function overPanel(tv) {
  const o = tv.over;
  const info = tv.info;
  const mine = tv.you !== undefined ? o.scores[tv.you] : null;
  // Won: a gain, or the best score at the table (in Ten and a half everyone may lose
  // points). A draw only when every score is the same: a 0 below another's is a loss.
  const best = Math.max(...o.scores);
  const level = o.scores.every((x) => x === best);
  const R = screenOf(info.game);
  // Where going out first alone wins (Big Two), say who did: the others' scores only
  // say by how much each did better than the rest, and may be 0 or more.
  const first = R.outFirst?.(tv) ?? null;
  let result = null;
  // Another went out first: the title says who, in red only if we lost points by it.
  if (mine !== null) result = first !== null ? (first === tv.you ? 'won' : mine < 0 ? 'lost' : 'beaten') : level ? 'draw' : mine > 0 || mine === best ? 'won' : 'lost';
  const verdict = first !== null && first !== tv.you ? t('over.outfirst', { name: tv.name(first) }) : result ? t(`over.${result}`) : t('over.title');
  const me = tv.mySeat();
  return h(
    'div',
    { class: 'overpanel', role: 'dialog', 'aria-label': t('over.title') },
    h('h2', { class: result }, verdict),
    ratingLine(o, tv.you),
    first !== null && mine !== null && first !== tv.you && h('p', { class: 'overnote' }, t('over.yourscore', { n: mine > 0 ? `+${mine}` : String(mine) })),
    R.overNote && R.overNote(tv),
    h(
      'table',
      { class: 'scores' },
      h('thead', {}, h('tr', {}, h('td', {}), h('th', {}, t('over.score')), h('th', {}, t('over.total')))),
      h(
        'tbody',
        {},
        o.scores.map((sc, i) =>
          h(
            'tr',
            { class: i === tv.you ? 'me' : '' },
            h('th', {}, tv.name(i)),
            h('td', { class: sc > 0 ? 'plus' : sc < 0 ? 'minus' : '' }, sc > 0 ? `+${sc}` : String(sc)),
            h('td', {}, String(o.totals[i] ?? '')),
          ),
        ),
      ),
    ),
    // A game where nothing is dealt (Gomoku) has no deal to check.
    R.dealt !== false &&
    h(
      'p',
      { class: ['fair', tv.verdict?.committed === true && 'ok', tv.verdict?.committed === false && 'bad'], role: 'status' },
      tv.verdict?.committed === true && `✓ ${t('over.fair')}${tv.verdict.nonceIn ? ` ${t('over.nonce')}` : ''} `,
      tv.verdict?.committed === false && `✗ ${t('over.unfair')} `,
      t('over.verify', { c: String(o.record?.commitment || '').slice(0, 12) }),
    ),
    h(
      'div',
      { class: 'overbtns' },
      me && h('button', { type: 'button', class: 'primary', dataset: { focus: 'next' }, on: { click: () => tv.nextGame() } }, t(R.nextLabel?.(tv) ?? 'act.next')),
      h('a', { class: 'button ghost', href: `#/replay/${encodeURIComponent(o.game_id)}` }, t('act.replay')),
      info.game === 'gomoku' && h('a', { class: 'button ghost', href: `/api/games/${encodeURIComponent(o.game_id)}/export/sgf`, download: `${o.game_id}.sgf` }, t('act.sgf')),
    ),
  );
}

// ---- Before a game --------------------------------------------------------------------

/**
 * What the table waits for, in words: the shuffle once everyone is ready; us, when every
 * other seat is taken and ready and only our Ready is missing (a first-time player at a
 * quick-play table, the computers seated, would otherwise read "waiting for players" and
 * wait for nobody); else the others.
 */
function heading(tv, mine) {
  if (tv.dealing) return t('table.dealing');
  const others = tv.info.seats.filter((_, i) => i !== tv.you);
  if (mine && !mine.ready && others.every((s) => (s.user || s.bot) && s.ready)) return t('table.yourready');
  return t('table.waiting');
}

/**
 * The waiting room of the table view `tv`. Its buttons wait for the table as the server
 * has it now (`synced`): the seats a resume replays before its snapshot are past (a new
 * table's first are all empty, ours among them), and so are those seen before the
 * connection dropped; a seat empty there may be taken, and a press on it could only be
 * refused.
 */
export function waitingRoom(tv) {
  const info = tv.info;
  const me = tv.hall.user;
  const live = tv.synced;
  const host = live && me && info.host === me.name;
  const game = gameInfo(info.game);
  const seats = info.seats.map((s, i) =>
    h(
      'li',
      { class: ['wseat', s.ready && 'ready'] },
      h('span', { class: 'wname' }, tv.name(i), s.bot && botBadge(game, s.bot), tv.badges(i)),
      h('span', { class: 'wstate' }, s.user || s.bot ? (s.ready ? '✓ ' + t('table.ready') : '…') : ''),
      !s.user && !s.bot && live && tv.you === undefined && h('button', { type: 'button', class: 'ghost small', on: { click: () => tv.send({ type: 'join', seat: i, invite: tv.invite }) } }, t('table.sit')),
      !s.user &&
        !s.bot &&
        host &&
        info.options.computers &&
        h('button', { type: 'button', class: 'ghost small', 'aria-disabled': tv.adding.has(i) && 'true', dataset: { focus: `bot-${i}` }, on: { click: () => tv.addBot(i) } }, t('table.addbot')),
    ),
  );
  const mine = live && tv.mySeat();
  return h(
    'div',
    { class: 'waiting felt' },
    h('h2', {}, heading(tv, mine)),
    h('ul', { class: 'wseats' }, seats),
    fillNote(tv),
    mine &&
      h(
        'button',
        { type: 'button', class: 'primary big', dataset: { focus: 'ready' }, on: { click: () => tv.send({ type: 'ready', ready: !mine.ready }) } },
        mine.ready ? t('table.notready') : t('table.ready'),
      ),
  );
}

/** Quick play: how soon computers take the empty seats (people who sit down before then
 * play each other), so that "play vs computers" does not look like waiting for nobody. */
function fillNote(tv) {
  if (!tv.fillAt || tv.dealing || !tv.info.seats.some((s) => !s.user && !s.bot)) return null;
  const [before, after = ''] = t('table.fill').split('{time}');
  const until = String(tv.fillAt);
  return h('p', { class: 'fillnote' }, before, h('span', { class: 'fillclock', dataset: { until } }, clock(tv.fillAt - Date.now())), after);
}
