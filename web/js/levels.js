// The computers' strength and how a player does against it, and rated play told: a
// game's levels as people name them (easy / normal / strong, Gomoku's 1–10), the level
// quick play remembers, what a lobby row says of a table (rated, rule, turn time, level),
// the rating change at the end of a rated game, and the profile's record per level. The
// levels themselves come from the server (each game's `levels`), never from a list here.

import { h } from './dom.js';
import { t, has } from './i18n.js';

/** A level's name for people: `easy` → 简单, `L3` → 3 级. */
export function levelName(level) {
  const n = /^L(\d+)$/.exec(level || '');
  if (n) return t('level.n', { n: n[1] });
  return has(`level.${level}`) ? t(`level.${level}`) : level || '';
}

const KEY = (game) => `qipai.level.${game}`;

/** The level quick play uses for `g`: the one chosen last, if the game still offers it,
 * else the game's default. */
export function rememberedLevel(g) {
  const saved = localStorage.getItem(KEY(g.id));
  const levels = g.levels || [];
  if (levels.some((l) => l.name === saved)) return saved;
  return g.default_level || levels[0]?.name || null;
}

/** A choice of `g`'s levels, starting at `current`, each option worded by `word`;
 * `onPick` hears each change. */
export function levelSelect(g, current, onPick, attrs = {}, word = levelName) {
  const sel = h(
    'select',
    { class: 'level', ...attrs },
    (g.levels || []).map((l) => h('option', { value: l.name, selected: l.name === current }, word(l.name))),
  );
  if (onPick) sel.addEventListener('change', () => onPick(sel.value));
  return sel;
}

/** The quick-play level picker of a game card: remembered for the next visit. */
export function quickLevel(g) {
  if (!(g.levels || []).length) return null;
  return levelSelect(g, rememberedLevel(g), (v) => localStorage.setItem(KEY(g.id), v), {
    'aria-label': t('level.quick'),
    title: t('level.quick'),
    dataset: { game: g.id },
  }, (l) => t('level.pick', { level: levelName(l) }));
}

/** The bot a host seats at a table: its level's, else the game's default level's. */
export function botFor(g, options) {
  const levels = g?.levels || [];
  const level = levels.find((l) => l.name === options?.level) || levels.find((l) => l.name === g?.default_level);
  if (level) return level.bot;
  const bots = g?.bots || ['random'];
  return bots[bots.length > 1 ? 1 : 0];
}

/**
 * A table's configuration entry `k` = `v` in words (`opt.KEY` for a switch that is on,
 * `opt.KEY.VALUE` for a choice), or null when the page has no words for it: a lobby row
 * never shows a configuration's key as it is written (`show_cards`, `opening_rule`).
 */
function optionWord(k, v) {
  if (k === 'rule' && has(`rule.${v}`)) return t(`rule.${v}`);
  if (v === true && has(`opt.${k}`)) return t(`opt.${k}`);
  if ((typeof v === 'string' || typeof v === 'number') && has(`opt.${k}.${v}`)) return t(`opt.${k}.${v}`);
  return null;
}

/** What a lobby row says of a table's options, beside its seats and state: rated, the
 * game's rule and other options that differ from the game's own (read from the config
 * whatever the game, in words), 记牌器, the time a turn or a game, and the computers'
 * level. */
export function tableMeta(tb, g) {
  const o = tb.options || {};
  const parts = [];
  if (o.rated) parts.push(`★ ${t('meta.rated')}`);
  const config = o.config && typeof o.config === 'object' ? o.config : {};
  const usual = (g && g.config) || {};
  for (const [k, v] of Object.entries(config)) {
    if (v === usual[k] && k !== 'rule') continue;
    const word = optionWord(k, v);
    if (word) parts.push(word);
  }
  if (o.card_counter) parts.push(t('opt.card_counter'));
  const turn = o.turn_seconds && (o.turn_seconds['*'] ?? Object.values(o.turn_seconds)[0]);
  if (turn) parts.push(t('meta.turn', { n: turn }));
  if (o.game_seconds) parts.push(t('meta.clock', { n: Math.round(o.game_seconds / 60) }));
  if (o.level && o.computers !== false) parts.push(t('meta.level', { level: levelName(o.level) }));
  return parts;
}

/** At the end of a rated game, the player's own rating change: before → after (±delta). */
export function ratingLine(over, you) {
  const c = you !== undefined && you !== null ? over?.ratings?.[you] : null;
  if (!c) return null;
  const before = Math.round(c.before);
  const after = Math.round(c.after);
  const delta = after - before;
  const sign = delta > 0 ? `+${delta}` : delta < 0 ? `−${-delta}` : '±0';
  return h(
    'p',
    { class: ['ratingchange', delta > 0 ? 'plus' : delta < 0 ? 'minus' : ''], role: 'status', title: c.provisional ? t('ranks.provisional') : null },
    `★ ${t('meta.rating')} ${before} → ${after}${c.provisional ? '?' : ''} `,
    h('b', {}, `(${sign})`),
  );
}

/** The level, for people, at which `g` plays `bot`; null for a bot no level plays. */
export function botLevel(g, bot) {
  const level = (g?.levels || []).find((l) => l.bot === bot);
  return level ? levelName(level.name) : null;
}

/**
 * Which computer player `bot` (the server's id: `search`, `engine:L3`, `counting`…) is,
 * for people, in the page's language: the level of `g` it plays at, as the lobby and the
 * level picker name it, else its kind's own name, else a computer player. Never the id:
 * it is English and means nothing to a player.
 */
export function botName(g, bot) {
  const level = botLevel(g, bot);
  if (level) return level;
  const kind = String(bot || '');
  // Gomoku's engine at a level the game does not list by that name (`engine:L10`).
  const at = /^engine:(L\d+)$/.exec(kind);
  if (at) return levelName(at[1]);
  return has(`bot.${kind}`) ? t(`bot.${kind}`) : t('bot.other');
}

/** The badge beside a computer's name that says which computer player it is. */
export function botBadge(g, bot) {
  return h('span', { class: 'badge bot', title: t('level.level'), dataset: { bot } }, botName(g, bot));
}

/** A game of a history played rated: a mark beside its name. */
export function ratedMark(game) {
  return game.rated ? h('span', { class: 'badge rated', title: t('meta.rated_hint') }, `★ ${t('meta.rated')}`) : null;
}

/** The profile's record against computers: per game and level, games, won, lost, drawn;
 * `gameName` and `gameInfo` name a game and find its levels. */
export function computerRecord(rows, gameName, gameInfo) {
  if (!rows?.length) return null;
  return [
    h('h2', {}, t('level.record')),
    h(
      'table',
      { class: 'record computers' },
      h(
        'thead',
        {},
        h('tr', {}, h('th', {}, ''), h('th', {}, t('level.level')), h('th', {}, t('profile.played')), h('th', {}, t('level.won')), h('th', {}, t('level.lost')), h('th', {}, t('level.drawn'))),
      ),
      h(
        'tbody',
        {},
        rows.map((r) =>
          h(
            'tr',
            { dataset: { game: r.game, level: r.level || r.bot } },
            h('td', {}, gameName(r.game)),
            h('td', {}, r.level ? levelName(r.level) : botName(gameInfo(r.game), r.bot)),
            h('td', {}, String(r.played)),
            h('td', { class: r.won ? 'plus' : '' }, String(r.won)),
            h('td', { class: r.lost ? 'minus' : '' }, String(r.lost)),
            h('td', {}, String(r.drawn)),
          ),
        ),
      ),
    ),
  ];
}
