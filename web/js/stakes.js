// 加倍 / 超级加倍 and 明牌 (Dou Dizhu's stakes options) on the page: the create-table
// dialog's fields, for games whose offered configuration names them; the buttons and log
// words of the choices; each seat's choice at the seat; the multiplier's parts in the
// table's bar and each stake's product in the end panel. See docs/rules/doudizhu.md.

import { h } from './dom.js';
import { t } from './i18n.js';

/**
 * The dialog's fields for the options the game's offered configuration names (`doubling`,
 * `show_cards`), and `config()`: the options chosen, to lay over the game's configuration,
 * or null when all are left off.
 */
export function stakeFields(g) {
  const c = g.config || {};
  const fields = [];
  let doubling = null;
  let show = null;
  if (c && typeof c === 'object' && 'doubling' in c) {
    doubling = h('select', { name: 'doubling' }, ['off', 'double', 'super'].map((d) => h('option', { value: d, selected: d === c.doubling }, t(`stakes.doubling.${d}`))));
    fields.push(h('label', { class: 'field' }, h('span', {}, t('stakes.doubling')), doubling));
  }
  if (c && typeof c === 'object' && 'show_cards' in c) {
    show = h('input', { type: 'checkbox', name: 'show_cards', checked: !!c.show_cards });
    fields.push(h('label', { class: 'check' }, show, t('stakes.show_cards')));
  }
  const config = () => {
    const out = {};
    if (doubling && doubling.value !== 'off') out.doubling = doubling.value;
    if (show && show.checked) out.show_cards = true;
    return Object.keys(out).length ? { ...c, ...out } : null;
  };
  return { fields, config };
}

/**
 * The rules card's section for a table with 加倍 or 明牌 (its configuration `config`): what
 * each choice does and how the stakes are made, as [heading, lines]; null for a table
 * without them, whose card says only the game's own rules.
 */
export function stakesRules(config) {
  const c = config && typeof config === 'object' ? config : {};
  const double = c.doubling === 'double' || c.doubling === 'super';
  if (!double && !c.show_cards) return null;
  const lines = [];
  if (double) lines.push(t(`stakes.rules.${c.doubling}`), t('stakes.rules.split'));
  if (c.show_cards) lines.push(t('stakes.rules.show'));
  lines.push(t('stakes.rules.stake'));
  return [t('stakes.rules.head'), lines];
}

/** The words of a stakes choice — a button, a log line — or null for any other action. */
export function stakeLabel(a) {
  if (!a || typeof a !== 'object') return null;
  if ('double' in a) return t(`stakes.double.${a.double}`);
  if ('show' in a) return a.show ? t('stakes.show') : t('stakes.noshow');
  return null;
}

/** Whether a stakes choice is the quiet one (不加倍, 不明牌), drawn as a ghost button. */
export function quietChoice(a) {
  return !!a && typeof a === 'object' && (a.double === 1 || a.show === false);
}

/** Whether the landlord showed their hand: `shown` is their hand, "" once played out. */
export function isShown(v) {
  return v.shown !== null && v.shown !== undefined;
}

/** Each seat's doubling as said at the seat (不加倍 / 加倍 / 超级加倍), null before it chose. */
export function seatSays(v) {
  if (!v.doubles || v.doubling === 'off') return [null, null, null];
  return v.doubles.map((f) => (f ? { text: t(`stakes.double.${f}`) } : null));
}

/** The badges a seat keeps all game: 加倍 / 超级加倍, and the landlord's 明牌. */
export function seatBadges(v, i) {
  const out = [];
  const f = v.doubles?.[i];
  if (f === 2 || f === 4) out.push(t(`stakes.badge.${f}`));
  if (isShown(v) && i === v.landlord) out.push(t('stakes.badge.shown'));
  return out;
}

/** The parts of the common multiplier: bombs, spring, shown hand (those above ×1). */
function parts(v) {
  const shown = isShown(v) ? 2 : 1;
  const spring = v.spring || v.anti_spring ? 2 : 1;
  const bombs = Math.max(1, Math.round(v.multiplier / shown / spring));
  const out = [];
  if (bombs > 1) out.push(t('stakes.part.bombs', { n: bombs }));
  if (spring > 1) out.push(t(v.spring ? 'stakes.part.spring' : 'stakes.part.antispring'));
  if (shown > 1) out.push(t('stakes.part.shown'));
  const lf = v.landlord !== null ? v.doubles?.[v.landlord] : 0;
  if (lf > 1) out.push(t('stakes.part.landlord', { n: lf }));
  return out;
}

/**
 * The table bar's line: the base and the multiplier every stake has, then what it is made
 * of (bombs, spring, the shown hand, the landlord's doubling, which counts in both
 * stakes). Each peasant's own doubling, in its stake alone, is at its seat.
 */
export function barText(v) {
  const p = parts(v);
  const all = v.multiplier * Math.max(1, (v.landlord !== null && v.doubles?.[v.landlord]) || 1);
  return `${t('dd.base', { n: v.bid })} · ${t('dd.multiplier', { n: all })}${p.length ? ` (${p.join(' · ')})` : ''}`;
}

/** What to decide now, said above the buttons in the doubling and showing phases. */
export function phasePrompt(v) {
  if (v.phase === 'doubling') return h('p', { class: 'instant stakesay', role: 'note' }, t(v.doubling === 'super' ? 'stakes.prompt.super' : 'stakes.prompt.double'));
  if (v.phase === 'showing') return h('p', { class: 'instant stakesay', role: 'note' }, t('stakes.prompt.show'));
  return null;
}

/**
 * Under the end panel's title: each peasant's stake with the landlord as a product — base
 * × bombs × spring × shown × the landlord's doubling × the peasant's — when anything
 * multiplied it; null otherwise.
 */
export function stakesNote(v, name) {
  if (v.landlord === null || v.landlord === undefined || !v.scores) return null;
  const L = v.landlord;
  const lf = Math.max(1, v.doubles?.[L] || 0);
  const shown = isShown(v) ? 2 : 1;
  const spring = v.spring || v.anti_spring ? 2 : 1;
  const bombs = Math.max(1, Math.round(v.multiplier / shown / spring));
  const lines = [];
  for (const p of [(L + 1) % 3, (L + 2) % 3]) {
    const pf = Math.max(1, v.doubles?.[p] || 0);
    const factors = [t('stakes.f.base', { n: v.bid })];
    if (bombs > 1) factors.push(t('stakes.f.bombs', { n: bombs }));
    if (spring > 1) factors.push(t(v.spring ? 'stakes.f.spring' : 'stakes.f.antispring'));
    if (shown > 1) factors.push(t('stakes.f.shown'));
    if (lf > 1) factors.push(t('stakes.f.landlord', { n: lf }));
    if (pf > 1) factors.push(t('stakes.f.peasant', { n: pf }));
    if (factors.length === 1) continue;
    const stake = v.bid * v.multiplier * lf * pf;
    lines.push(h('li', {}, t('stakes.line', { peasant: name(p), factors: factors.join(' × '), n: stake })));
  }
  return lines.length ? h('ul', { class: 'overnote stakes', 'aria-label': t('stakes.title') }, lines) : null;
}
