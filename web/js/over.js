// The end-of-game panel of a table: who won and by how much, the rating change of a rated
// game, each seat's score and the match totals, the page's own check of a dealt game, and
// the way on (next game or rematch, the replay, Gomoku's SGF).

import { h } from './dom.js';
import { t } from './i18n.js';
import { screenOf } from './table.js';
import { ratingLine } from './levels.js';

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
