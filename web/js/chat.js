// Beside a table: the log of moves (记录) and the chat (聊天), two panels apart, so that
// what people say is not drowned by one line per move. Built once per table and kept
// across redraws, so typing is never interrupted by the game moving on. Both are filled
// again after a reload: the page then asks the table for everything it still keeps.

import { h } from './dom.js';
import { t, onLang } from './i18n.js';
import { quickChat } from './quickchat.js';

/** The most lines each panel keeps. */
const KEEP = 200;

/** Appends `li` to `list`, drops the oldest lines past the bound, and scrolls to it. */
function append(list, li, dropped) {
  list.append(li);
  while (list.children.length > KEEP) {
    dropped?.(list.firstChild);
    list.firstChild.remove();
  }
  list.scrollTop = list.scrollHeight;
}

export function chatPanel(hall, table) {
  // Each list scrolls on its own, so each takes the focus: the keyboard scrolls it too.
  const moves = h('ol', { class: 'movelines', 'aria-live': 'polite', 'aria-label': t('moves.title'), tabindex: '0' });
  const lines = h('ol', { class: 'chatlines', 'aria-live': 'polite', 'aria-label': t('chat.title'), tabindex: '0' });
  const input = h('input', { type: 'text', maxlength: 300, placeholder: t('chat.placeholder'), 'aria-label': t('chat.placeholder'), enterkeyhint: 'send' });
  const button = h('button', { type: 'submit', class: 'ghost small' }, t('chat.send'));
  const movesTitle = h('h2', {}, t('moves.title'));
  const title = h('h2', {}, t('chat.title'));
  const empty = h('li', { class: 'empty' }, t('chat.empty'));
  lines.append(empty);
  const form = h(
    'form',
    {
      class: 'chatform',
      on: {
        submit: (e) => {
          e.preventDefault();
          const text = input.value.trim();
          if (!text) return;
          hall.send({ type: 'chat', table, text });
          input.value = '';
        },
      },
    },
    input,
    button,
  );
  const quick = quickChat((text) => hall.send({ type: 'chat', table, text }));
  const el = h(
    'aside',
    { class: 'chat' },
    h('section', { class: 'logpanel moves' }, movesTitle, moves),
    h('section', { class: 'logpanel talk' }, h('div', { class: 'talkhead' }, title, quick.el), lines, form),
  );
  const seen = new Set();
  const off = hall.on('chat', (m) => {
    if (m.table !== table) return;
    // A resume may send again what we already show.
    if (m.seq !== undefined) {
      if (seen.has(m.seq)) return;
      seen.add(m.seq);
    }
    empty.remove();
    // The name and the line each in an isolate of their own: right-to-left text (or a
    // name in Arabic) reorders only itself, never the name beside it or the next line.
    append(lines, h('li', {}, h('b', {}, h('bdi', {}, m.from)), ' ', h('bdi', {}, m.text)));
  });
  // The log's lines, each with the function that words it: a switch of language words
  // them all again, rather than leaving the earlier ones in the old language.
  const worded = new Map();
  /** Words every line of the move log again (their names now known, the language switched). */
  const reword = () => {
    for (const [li, say] of worded) li.textContent = say();
  };
  const offLang = onLang(() => {
    movesTitle.textContent = t('moves.title');
    moves.setAttribute('aria-label', t('moves.title'));
    title.textContent = t('chat.title');
    lines.setAttribute('aria-label', t('chat.title'));
    empty.textContent = t('chat.empty');
    input.placeholder = t('chat.placeholder');
    input.setAttribute('aria-label', t('chat.placeholder'));
    button.textContent = t('chat.send');
    reword();
  });
  /** A line of the move log, worded by `say()`: who did what. */
  const note = (say, cls = 'note') => {
    const li = h('li', { class: cls }, say());
    worded.set(li, say);
    append(moves, li, (gone) => worded.delete(gone));
  };
  const close = () => {
    off();
    offLang();
    quick.close();
  };
  return { el, close, note, reword };
}
