// Chat beside a table. Built once per table and kept across redraws, so typing is never
// interrupted by the game moving on.

import { h } from './dom.js';
import { t, onLang } from './i18n.js';

export function chatPanel(hall, table) {
  const lines = h('ol', { class: 'chatlines', 'aria-live': 'polite', 'aria-label': t('chat.title') });
  const input = h('input', { type: 'text', maxlength: 300, placeholder: t('chat.placeholder'), 'aria-label': t('chat.placeholder'), enterkeyhint: 'send' });
  const button = h('button', { type: 'submit', class: 'ghost small' }, t('chat.send'));
  const title = h('h2', {}, t('chat.title'));
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
  const el = h('aside', { class: 'chat' }, title, lines, form);
  const seen = new Set();
  const off = hall.on('chat', (m) => {
    if (m.table !== table) return;
    // A resume may send again what we already show.
    if (m.seq !== undefined) {
      if (seen.has(m.seq)) return;
      seen.add(m.seq);
    }
    // The name and the line each in an isolate of their own: right-to-left text (or a
    // name in Arabic) reorders only itself, never the name beside it or the next line.
    lines.append(h('li', {}, h('b', {}, h('bdi', {}, m.from)), ' ', h('bdi', {}, m.text)));
    while (lines.children.length > 200) lines.firstChild.remove();
    lines.scrollTop = lines.scrollHeight;
  });
  // The log's lines, each with the function that words it: a switch of language words
  // them all again, rather than leaving the earlier ones in the old language.
  const worded = new Map();
  const offLang = onLang(() => {
    title.textContent = t('chat.title');
    input.placeholder = t('chat.placeholder');
    button.textContent = t('chat.send');
    for (const [li, say] of worded) li.textContent = say();
  });
  /** A line of the table's log, worded by `say()`: who did what, beside what people say. */
  const note = (say) => {
    const li = h('li', { class: 'note' }, say());
    worded.set(li, say);
    lines.append(li);
    while (lines.children.length > 200) {
      worded.delete(lines.firstChild);
      lines.firstChild.remove();
    }
    lines.scrollTop = lines.scrollHeight;
  };
  const close = () => {
    off();
    offLang();
  };
  return { el, close, note };
}
