// The lobby: every game with a one-click game against computers, a form to open a table
// with the game's options, the player's own tables (to return to), the tables waiting for
// players, and the games being played, updated live as the server reports them.

import { h, put } from './dom.js';
import { t, lang } from './i18n.js';
import { rulesOf, showRules } from './rules.js';
import { api } from './net.js';
import { quickLevel, rememberedLevel, levelSelect, tableMeta } from './levels.js';
import { stakeFields } from './stakes.js';

// The server's list of games is the page's: their order, names, icons and screens all
// come from it (the Rust crate `games`), so no file of the page lists the games.
const known = new Map();

/** The games the server offers, in the lobby's order, asked once (again after a refusal). */
export function games(hall) {
  if (!hall.gamesPromise) {
    hall.gamesPromise = api('/api/games')
      .then((list) => {
        for (const g of list) known.set(g.id, g);
        return list;
      })
      .catch((e) => {
        hall.gamesPromise = null;
        throw e;
      });
  }
  return hall.gamesPromise;
}

/** What the server said of a game (undefined until the list has come). */
export function gameInfo(id) {
  return known.get(id);
}

/** A game's name in the current language (its id until the list has come). */
export function gameName(id) {
  const g = known.get(id);
  if (!g) return id;
  return lang() === 'zh' ? g.name_zh : g.name_en;
}

/**
 * "How to play" for a game whose rules the page tells (web/js/rules.js), or null. Both the
 * lobby's card and the table's bar offer it; a table's adds what its options change
 * (`extra`, sections as showRules takes them).
 */
export function rulesButton(game, cls = 'ghost', extra = []) {
  if (!rulesOf(game)) return null;
  return h('button', { type: 'button', class: cls, dataset: { focus: 'rules' }, on: { click: () => showRules(game, extra) } }, t('rules.how'));
}

function quickPlay(hall, game) {
  hall.expectTable = true;
  const level = known.has(game) ? rememberedLevel(known.get(game)) : null;
  hall.send({ type: 'quick_play', game, ...(level ? { level } : {}) });
}

// The lobby view on show, if any: the one whose watch of the lobby must go on.
let shownLobby = null;

/** A table's line: its game, how full, its state and host (unless it is us), and the
 * buttons given. */
function tableRow(hall, tb, meta, buttons) {
  const people = tb.seats.filter((s) => s.user || s.bot).length;
  const host = tb.host === hall.user?.name ? [] : [t('lobby.host', { name: tb.host })];
  // The host last: on a phone the line is cut short, and what the table is matters more.
  const line = [`${people}/${tb.seats.length}`, t(`status.${tb.status}`), ...meta, ...tableMeta(tb, known.get(tb.game)), ...host].join(' · ');
  return h(
    'li',
    { class: 'tablerow', dataset: { table: tb.id } },
    h('span', { class: 'tname' }, gameName(tb.game)),
    // Cut short on a narrow screen: the whole line shows on hover, and is read out whole.
    h('span', { class: 'tmeta', title: line }, line),
    h('span', { class: 'tbtns' }, buttons),
  );
}

export function lobbyView(hall) {
  const list = h('div', { class: 'gamegrid' });
  // The tables where we sit, public or private, from the hall's own following of them:
  // a seat is returned to, never "watched" (which would seat us anyway) nor joined.
  const mineHead = h('h2', {}, t('lobby.mine'));
  const mine = h('ul', { class: 'tables mine', 'aria-label': t('lobby.mine') });
  // Public tables with a free seat: the only ones anybody can join.
  const tables = h('ul', { class: 'tables open', 'aria-live': 'polite', 'aria-label': t('lobby.tables') });
  // Public tables without a free seat (people playing computers among them): to watch.
  const playingHead = h('h2', {}, t('lobby.playing'));
  const playing = h('ul', { class: 'tables playing', 'aria-label': t('lobby.playing') });
  const open = new Map();
  const el = h(
    'section',
    { class: 'lobby' },
    h('h1', {}, t('lobby.title')),
    mineHead,
    mine,
    list,
    h('h2', {}, t('lobby.tables')),
    tables,
    playingHead,
    playing,
  );

  games(hall).then((gs) => {
    put(
      list,
      gs.map((g) =>
        h(
          'article',
          { class: ['gamecard', `g-${g.id}`], dataset: { game: g.id } },
          // The icon beside the title, not over it: a long title wraps before it. The title
          // is read as a heading under the lobby's own (h1), whatever else is shown.
          h(
            'div',
            { class: 'gamehead' },
            h('h3', { 'aria-level': '2' }, gameName(g.id), h('small', {}, lang() === 'zh' ? '' : ` ${g.name_zh}`)),
            h('span', { class: 'gameicon', 'aria-hidden': 'true' }, g.icon),
          ),
          h('p', {}, lang() === 'zh' ? g.blurb_zh : g.blurb_en, ' ', rulesButton(g.id, 'rulelink')),
          h(
            'div',
            { class: 'gamebtns' },
            h('button', { type: 'button', class: 'primary quick', on: { click: () => quickPlay(hall, g.id) } }, t('lobby.quick')),
            quickLevel(g),
            h('button', { type: 'button', class: 'ghost', on: { click: () => createDialog(hall, g) } }, t('lobby.create')),
          ),
        ),
      ),
    );
  }).catch((e) => put(list, h('p', { class: 'note' }, String(e.message || e))));

  const draw = () => {
    // Ours as the hall last heard of each (a public one's lobby line may be newer).
    const ours = [...hall.mine.values()].map((tb) => open.get(tb.id) || tb);
    const seatOf = (tb) => tb.seats.findIndex((s) => s.user && s.user.id === hall.user?.id);
    mineHead.hidden = mine.hidden = !ours.length;
    // Between games a seat may be given up from here; during one it is kept whatever we
    // do (a computer plays it while we are away), so there is only Return.
    const leave = (tb) => {
      hall.send({ type: 'leave', table: tb.id });
      hall.forget(tb.id);
    };
    put(
      mine,
      ours.map((tb) =>
        tableRow(hall, tb, [t('lobby.seat', { n: seatOf(tb) + 1 })], [
          h('a', { class: 'button primary', href: `#/t/${tb.id}` }, t('lobby.return')),
          tb.status === 'waiting' && h('button', { type: 'button', class: 'ghost', on: { click: () => leave(tb) } }, t('table.leave')),
        ]),
      ),
    );
    const others = [...open.values()].filter((tb) => !hall.mine.has(tb.id));
    const joinable = others.filter((tb) => tb.status === 'waiting' && tb.seats.some((s) => !s.user && !s.bot));
    const full = others.filter((tb) => !joinable.includes(tb));
    put(
      tables,
      joinable.length
        ? joinable.map((tb) =>
            tableRow(hall, tb, [], [
              h('a', { class: 'button primary', href: `#/join/${tb.id}` }, t('lobby.join')),
              h('a', { class: 'button ghost', href: `#/t/${tb.id}` }, t('lobby.watch')),
            ]),
          )
        : h('li', { class: 'empty' }, t('lobby.none')),
    );
    playingHead.hidden = playing.hidden = !full.length;
    put(
      playing,
      full.map((tb) => tableRow(hall, tb, tb.spectators ? [t('lobby.spectators', { n: tb.spectators })] : [], h('a', { class: 'button ghost', href: `#/t/${tb.id}` }, t('lobby.watch')))),
    );
  };
  draw();
  shownLobby = el;
  const offMine = hall.on('mine', () => (el.isConnected || !el.dataset.drawn ? draw() : offMine()));
  const off = hall.on('message', (m) => {
    if (!el.isConnected && el.dataset.drawn) {
      off();
      // Stop watching the lobby, unless a newer lobby view (a redraw) watches it now.
      if (shownLobby === el) hall.send({ type: 'leave_lobby' });
      return;
    }
    el.dataset.drawn = '1';
    if (m.type === 'lobby') {
      open.clear();
      for (const tb of m.tables) open.set(tb.id, tb);
    } else if (m.type === 'lobby_table') {
      open.set(m.table.id, m.table);
    } else if (m.type === 'lobby_closed') {
      open.delete(m.table);
    } else return;
    draw();
  });
  hall.send({ type: 'lobby' });
  return el;
}

/** A form field: a label around its control. */
function field(label, control) {
  return h('label', { class: 'field' }, h('span', {}, label), control);
}

/** The Gomoku engine's undo settings for each choice of the new-table dialog. */
const UNDO_CONFIG = {
  ask: { undo: 'ask' },
  always: { undo: 'granted' },
  never: { undo: 'ask', undo_limit: 0 },
};

function createDialog(hall, g) {
  const seats = h('input', { type: 'number', min: g.seats[0], max: g.seats[1], value: Math.min(4, g.seats[1]) });
  const priv = h('input', { type: 'checkbox' });
  // Watching a private table is the host's choice, asked only of a private table.
  const spectators = h('input', { type: 'checkbox', disabled: true });
  priv.addEventListener('change', () => {
    spectators.disabled = !priv.checked;
    if (!priv.checked) spectators.checked = false;
  });
  const computers = h('input', { type: 'checkbox', checked: true });
  const level = levelSelect(g, rememberedLevel(g));
  computers.addEventListener('change', () => (level.disabled = !computers.checked));
  const rated = h('input', { type: 'checkbox' });
  // 记牌器: offered for the games whose cards are ranked (drawn by the `cards` screen).
  const counter = g.screen === 'cards' && h('input', { type: 'checkbox', dataset: { option: 'card_counter' } });
  const turn = h('input', { type: 'number', min: 5, max: 300, placeholder: '—' });
  const rule = h('select', {}, ['freestyle', 'standard', 'renju'].map((r) => h('option', { value: r }, t(`rule.${r}`))));
  const undo = h('select', {}, ['ask', 'always', 'never'].map((u) => h('option', { value: u }, t(`undo.${u}`))));
  // Gomoku's opening: free, or swap2 (the tournament opening) for tables between people.
  const opening = h('select', {}, ['free', 'swap2'].map((o) => h('option', { value: o }, t(`opening.${o}`))));
  const variable = g.seats[0] !== g.seats[1];
  // 加倍 and 明牌, for a game whose offered configuration names them.
  const stakes = stakeFields(g);
  const dlg = h(
    'dialog',
    { class: 'dialog', 'aria-label': t('create.title', { game: gameName(g.id) }) },
    h(
      'form',
      { method: 'dialog' },
      h('h2', {}, t('create.title', { game: gameName(g.id) })),
      variable && field(t('create.seats'), seats),
      g.id === 'gomoku' && field(t('create.rule'), rule),
      g.id === 'gomoku' && field(t('create.undo'), undo),
      g.id === 'gomoku' && field(t('create.opening'), opening),
      stakes.fields,
      field(t('create.turn'), turn),
      h('label', { class: 'check' }, computers, t('create.computers')),
      g.levels?.length > 0 && field(t('level.quick'), level),
      h('label', { class: 'check' }, priv, t('create.private')),
      h('label', { class: 'check sub' }, spectators, t('create.spectators')),
      h('label', { class: 'check' }, rated, t('create.rated')),
      counter && h('label', { class: 'check' }, counter, t('create.counter')),
      h(
        'div',
        { class: 'dlgbtns' },
        h('button', { value: 'cancel', class: 'ghost', formnovalidate: true }, t('create.cancel')),
        h('button', { value: 'go', class: 'primary' }, t('create.go')),
      ),
    ),
  );
  dlg.addEventListener('close', () => {
    dlg.remove();
    if (dlg.returnValue !== 'go') return;
    const options = { private: priv.checked, computers: computers.checked, rated: rated.checked };
    if (priv.checked && spectators.checked) options.spectators = true;
    if (counter?.checked) options.card_counter = true;
    if (computers.checked && level.value) options.level = level.value;
    if (variable) options.seats = Number(seats.value);
    // The engine settles undos by asking the opponent or granting them at once; "never"
    // is asking with no undo to be granted.
    if (g.id === 'gomoku') options.config = { ...g.config, rule: rule.value, ...UNDO_CONFIG[undo.value] };
    if (g.id === 'gomoku' && opening.value === 'swap2') options.config.opening_rule = 'swap2';
    if (stakes.config()) options.config = stakes.config();
    if (turn.value) {
      // `*`: every phase of the game gets the same time.
      options.turn_seconds = { '*': Number(turn.value) };
    }
    hall.expectTable = true;
    hall.send({ type: 'create_table', game: g.id, options });
  });
  document.body.append(dlg);
  dlg.showModal();
}

/**
 * Log in or register (a guest who registers keeps its games); logged in, the account's
 * own actions instead: log out, change the password, delete the account.
 */
export function loginDialog(hall) {
  const u = hall.user;
  if (u && !u.guest) return accountDialog(hall, u);
  // The server counts a name's characters (2 to 24); the browser counts UTF-16 units, two
  // for each of the rarer Chinese characters, so the field lets 48 through and the server
  // says when a name is too long.
  const name = h('input', { name: 'username', autocomplete: 'username', required: true, minlength: 2, maxlength: 48 });
  const pass = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true, 'aria-describedby': 'passhint' });
  const msg = h('p', { class: 'note', role: 'status' }, t('login.note'));
  const login = h('button', { value: 'login', class: 'primary' }, t('login.login'));
  // Registering needs a password of 8 characters or more (as the server counts them): the
  // rule is said under the field beforehand, and a shorter one keeps the dialog open with
  // what was typed, the browser pointing at the field.
  const register = h('button', { value: 'register', class: 'ghost' }, t('login.register'));
  register.addEventListener('click', () => pass.setCustomValidity([...pass.value].length < 8 ? t('err.bad_password') : ''));
  login.addEventListener('click', () => pass.setCustomValidity(''));
  pass.addEventListener('input', () => pass.setCustomValidity(''));
  const form = h(
    'form',
    { method: 'dialog' },
    h('h2', {}, t('login.title')),
    field(t('login.name'), name),
    field(t('login.password'), pass),
    h('p', { class: 'hint', id: 'passhint' }, t('login.passhint')),
    msg,
    h('div', { class: 'dlgbtns' }, h('button', { value: 'cancel', class: 'ghost', formnovalidate: true }, t('login.close')), register, login),
  );
  // Enter in a field logs in. Left to the browser it would press the form's first button,
  // which is Close.
  form.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.target.tagName !== 'INPUT') return;
    e.preventDefault();
    pass.setCustomValidity('');
    form.requestSubmit(login);
  });
  const dlg = h('dialog', { class: 'dialog', 'aria-label': t('login.title') }, form);
  dlg.addEventListener('close', () => {
    dlg.remove();
    const v = dlg.returnValue;
    if (v === 'login' || v === 'register') hall.send({ type: v, name: name.value.trim(), password: pass.value });
  });
  document.body.append(dlg);
  dlg.showModal();
}

/** A registered player's account: who is logged in, log out, password, delete. */
function accountDialog(hall, u) {
  const dlg = h(
    'dialog',
    { class: 'dialog', 'aria-label': t('login.account') },
    h(
      'form',
      { method: 'dialog' },
      h('h2', {}, t('login.account')),
      h('p', {}, t('login.as', { name: u.name })),
      h(
        'div',
        { class: 'dlgbtns' },
        h('button', { value: 'logout', class: 'ghost' }, t('user.logout')),
        h('button', { value: 'password', class: 'ghost' }, t('password.title')),
        h('button', { value: 'delete', class: 'ghost danger' }, t('delete.title')),
        h('button', { value: 'cancel', class: 'primary' }, t('login.close')),
      ),
    ),
  );
  dlg.addEventListener('close', () => {
    dlg.remove();
    const v = dlg.returnValue;
    if (v === 'logout') hall.send({ type: 'logout' });
    if (v === 'password') passwordDialog(hall);
    if (v === 'delete') deleteDialog(hall);
  });
  document.body.append(dlg);
  dlg.showModal();
}

/** Deleting the account: its password, and a box saying one means it. The games stay,
 * under another name, for the other players' sake; the page goes on as a guest. */
function deleteDialog(hall) {
  const pass = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const sure = h('input', { type: 'checkbox', required: true });
  const dlg = h(
    'dialog',
    { class: 'dialog', 'aria-label': t('delete.title') },
    h(
      'form',
      { method: 'dialog' },
      h('h2', {}, t('delete.title')),
      h('p', { class: 'note' }, t('delete.note')),
      field(t('login.password'), pass),
      h('label', { class: 'check' }, sure, t('delete.sure')),
      h(
        'div',
        { class: 'dlgbtns' },
        h('button', { value: 'cancel', class: 'ghost', formnovalidate: true }, t('login.close')),
        h('button', { value: 'delete', class: 'primary danger' }, t('delete.confirm')),
      ),
    ),
  );
  dlg.addEventListener('close', () => {
    dlg.remove();
    if (dlg.returnValue === 'delete') hall.send({ type: 'delete_account', password: pass.value });
  });
  document.body.append(dlg);
  dlg.showModal();
}

/** A new password: the current one, and the new one twice (the browser will not send the
 * form while they differ). The server ends every other session of the account; this
 * window stays logged in, and says how many ended. */
function passwordDialog(hall) {
  const current = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const fresh = () => h('input', { type: 'password', autocomplete: 'new-password', required: true, minlength: 8, maxlength: 256 });
  const next = fresh();
  const again = fresh();
  const same = () => again.setCustomValidity(again.value === next.value ? '' : t('password.mismatch'));
  next.addEventListener('input', same);
  again.addEventListener('input', same);
  const dlg = h(
    'dialog',
    { class: 'dialog', 'aria-label': t('password.title') },
    h(
      'form',
      { method: 'dialog' },
      h('h2', {}, t('password.title')),
      field(t('password.current'), current),
      field(t('password.new'), next),
      field(t('password.again'), again),
      h('p', { class: 'note', role: 'status' }, t('password.note')),
      h(
        'div',
        { class: 'dlgbtns' },
        h('button', { value: 'cancel', class: 'ghost', formnovalidate: true }, t('login.close')),
        h('button', { value: 'change', class: 'primary' }, t('password.change')),
      ),
    ),
  );
  dlg.addEventListener('close', () => {
    dlg.remove();
    if (dlg.returnValue === 'change') hall.send({ type: 'change_password', password: current.value, new_password: next.value });
  });
  document.body.append(dlg);
  dlg.showModal();
}
