// The rankings: each game's best-rated players (Glicko-2, rated games between registered
// players), a tab per game, each name a link to the player's profile.

import { h, put } from './dom.js';
import { t } from './i18n.js';
import { games, gameName } from './lobby.js';
import { api } from './net.js';

export function ratingsView(hall, game) {
  const el = h('section', { class: 'rankings' }, h('p', { class: 'loading' }, t('loading')));
  const draw = async () => {
    try {
      const list = await games(hall);
      const chosen = list.some((g) => g.id === game) ? game : list[0]?.id;
      const rows = await api(`/api/leaderboard/${encodeURIComponent(chosen)}`);
      const me = hall.user?.name;
      put(
        el,
        h('h1', {}, t('ranks.title')),
        h(
          'nav',
          { class: 'gametabs', 'aria-label': t('ranks.games') },
          list.map((g) => h('a', { href: `#/ranks/${g.id}`, 'aria-current': g.id === chosen ? 'page' : null }, gameName(g.id))),
        ),
        rows.length === 0
          ? h('p', { class: 'note' }, t('ranks.none', { game: gameName(chosen) }))
          : h(
              'table',
              { class: 'history ranks' },
              h('thead', {}, h('tr', {}, h('th', {}, '#'), h('th', {}, t('ranks.player')), h('th', {}, t('ranks.rating')), h('th', {}, t('ranks.games_played')))),
              h(
                'tbody',
                {},
                // The server lists settled ratings first, ranked, then the provisional
                // ones (a rating that rests on few games), unranked under a heading of
                // their own.
                rows.flatMap((p, i) => {
                  const row = h(
                    'tr',
                    { class: p.name === me ? 'me' : null },
                    h('td', {}, p.provisional ? '' : String(i + 1)),
                    h('td', {}, h('a', { href: `#/profile/${encodeURIComponent(p.name)}` }, p.name)),
                    h('td', { title: p.provisional ? t('ranks.provisional') : null }, `${Math.round(p.rating)}${p.provisional ? '?' : ''}`),
                    h('td', {}, String(p.games)),
                  );
                  const first = p.provisional && !rows[i - 1]?.provisional;
                  return first ? [h('tr', { class: 'sub' }, h('th', { colspan: 4 }, t('ranks.provisional_head'))), row] : [row];
                }),
              ),
            ),
        h('p', { class: 'note' }, t('ranks.how')),
      );
    } catch (e) {
      put(el, h('p', { class: 'note' }, String(e.message || e)));
    }
  };
  draw();
  return el;
}
