// The page: the top bar, the hash router (#/, #/t/ID, #/join/ID/INVITE, #/profile,
// #/replay/GAME, #/ranks/GAME), and the one connection every view shares.

import { Hall } from './net.js';
import { h, put, toast } from './dom.js';
import { t, has, lang, setLang, onLang, translate } from './i18n.js';
import { lobbyView, loginDialog, games } from './lobby.js';
import { TableView, fit } from './table.js';
import { profileView, replayView } from './profile.js';
import { ratingsView } from './ratings.js';
import { initSound } from './sound.js';

// The stylesheets of what the first screen (the lobby) does not show: tables, the rules
// card, profiles, rankings. Added here rather than in index.html, so that the first paint
// waits on app.css alone; they load at once, beside the lobby, and until both have come
// app.css keeps every other view hidden, so that none is ever seen unstyled. A stylesheet
// that fails to load shows the views as they are rather than never.
Promise.all(
  ['/table.css', '/pages.css'].map((href) => new Promise((done) => document.head.append(h('link', { rel: 'stylesheet', href, on: { load: done, error: done } })))),
).then(() => {
  document.documentElement.classList.add('styled');
  // A table drawn meanwhile measures its place again, now that its header has its size.
  document.querySelectorAll('.stage').forEach(fit);
});

const hall = new Hall();
const main = document.getElementById('main');
let view = null;

function currentTable() {
  const m = location.hash.match(/^#\/(?:t|join)\/([\w-]+)/);
  return m ? m[1] : null;
}

/** Draws the view the address names. */
function route() {
  const hash = location.hash || '#/';
  const parts = hash.slice(2).split('/').map(decodeURIComponent);
  const tableId = currentTable();
  if (view && view.table && view.table !== tableId) {
    view.close(hash);
    view = null;
  }
  if (tableId) {
    const invite = parts[0] === 'join' ? parts[2] : undefined;
    if (!view || view.table !== tableId) {
      view = new TableView(hall, tableId, { invite, join: parts[0] === 'join' });
      if (parts[0] === 'join') history.replaceState(null, '', `#/t/${tableId}`);
    } else {
      // The same table again (a language switch): redraw now, not on the next frame, so
      // nothing is ever seen half in one language.
      view.render();
    }
    put(main, view.el);
  } else if (parts[0] === 'profile') {
    view = null;
    put(main, profileView(hall, parts[1]));
  } else if (parts[0] === 'replay') {
    view = null;
    put(main, replayView(hall, parts[1]));
  } else if (parts[0] === 'ranks') {
    view = null;
    put(main, ratingsView(hall, parts[1]));
  } else {
    view = null;
    put(main, lobbyView(hall));
  }
  for (const a of document.querySelectorAll('.topnav a')) {
    // A replay is reached from a profile's games, and its back arrow returns there.
    // Another player's profile is nobody's section: "Profile" is one's own.
    const others = parts[0] === 'profile' && parts[1] && parts[1] !== hall.user?.name;
    const section = others ? null : { profile: '#/profile', replay: '#/profile', ranks: '#/ranks' }[parts[0]] || '#/';
    const here = a.getAttribute('href') === section;
    a.toggleAttribute('aria-current', here && !tableId);
  }
}

function drawUser() {
  const b = document.getElementById('user');
  const u = hall.user;
  // Without a session (a guest account refused, say) the button still offers the way in.
  put(b, u ? u.name : t('user.login'), u && u.guest ? h('span', { class: 'login' }, ` · ${t('user.login')}`) : '');
  b.setAttribute('aria-label', u ? `${u.name}: ${u.guest ? t('user.login') : t('user.logout')}` : t('user.login'));
  b.onclick = () => loginDialog(hall);
}

function drawLang() {
  const b = document.getElementById('lang');
  b.textContent = lang() === 'zh' ? 'EN' : '中文';
  // The name starts with what the button shows ("EN"), as speech control needs.
  b.setAttribute('aria-label', lang() === 'zh' ? 'EN: Switch to English' : '中文：切换到中文');
}

hall.on('status', (s) => {
  const el = document.getElementById('conn');
  el.textContent = t(`conn.${s}`);
  el.classList.toggle('offline', s !== 'online');
  el.classList.toggle('restarting', s === 'restarting');
});
// The page opens where its address says: at `/` the lobby, which lists the tables where we
// sit under "your tables", to return to (never straight into one of them, which may be an
// old table whose game is long over).
let shownUser = null;
hall.on('user', (u) => {
  drawUser();
  // Another account, or the same under a new name (a guest who registered): "Profile"
  // shows the account logged in now.
  const was = shownUser;
  shownUser = u && `${u.id} ${u.name}`;
  if (was && was !== shownUser && /^#\/profile\/?$/.test(location.hash)) route();
});
hall.on('created', (m) => {
  if (m.invite) sessionStorage.setItem(`qipai.invite.${m.table}`, m.invite);
});
hall.on('table', (m) => {
  // A quick play or a new table lands us at a table: show it.
  if (currentTable() !== m.table && m.you !== undefined && hall.expectTable) {
    hall.expectTable = false;
    location.hash = `#/t/${m.table}`;
  }
});
hall.on('account_deleted', () => toast(t('delete.done')));
hall.on('password_changed', (m) => toast(t('password.changed', { n: m.sessions_ended })));
hall.on('moderated', (m) => toast(t(m.banned ? 'mod.banned' : 'mod.unbanned', { name: m.user })));
hall.on('error', (m) => {
  const k = `err.${m.code}`;
  // A stale move is simply redone; being turned away shows in the connection bar.
  if (m.code === 'stale' || m.code === 'too_many_connections' || m.handled) return;
  toast(has(k) ? t(k, { message: m.message }) : m.message);
  // Refused a session (no guest account for this address now): offer the way in.
  if (!hall.user) drawUser();
});

document.getElementById('lang').addEventListener('click', () => setLang(lang() === 'zh' ? 'en' : 'zh'));
onLang(() => {
  drawLang();
  drawUser();
  route();
});
window.addEventListener('hashchange', () => {
  route();
  // A new view starts at its top, for the eyes as for the keyboard and screen readers:
  // a table opened from far down the lobby must not open scrolled, its top under the bar.
  window.scrollTo(0, 0);
  main.focus({ preventScroll: true });
});
// The four-colour suits (♣ green, ♦ blue), if chosen before.
document.body.classList.toggle('four', localStorage.getItem('qipai.four') === '1');
translate();
initSound();
drawLang();
route();
hall.connect();
// Games are named from the server's list: draw again once it has come.
games(hall).then(route, () => {});

// For the end-to-end tests and the curious: the connection and the table on show, from
// the console.
window.qipai = {
  hall,
  get view() {
    return view;
  },
};
