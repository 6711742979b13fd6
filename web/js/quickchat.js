// Quick phrases for the table's chat (快点吧, 好牌…), for a phone where typing is slow: a
// button opens a row of phrases, and one tap sends a phrase, in the sender's language, as an
// ordinary chat line (the server's limits on chat apply). It sits beside the chat's title and
// opens upwards over the log of moves, so that the chat's lines and field stay in sight.

import { h, put } from './dom.js';
import { t, onLang } from './i18n.js';

/** The quick-phrase picker; `send(text)` sends a chat line. */
export function quickChat(send) {
  const list = h('div', { class: 'quicklist', role: 'group' });
  const summary = h('summary', { class: 'button ghost small' });
  const el = h('details', { class: 'quickchat' }, summary, list);
  const draw = () => {
    summary.textContent = t('quick.title');
    list.setAttribute('aria-label', t('quick.title'));
    put(
      list,
      t('quick.phrases')
        .split('\n')
        .map((text) =>
          h(
            'button',
            {
              type: 'button',
              class: 'ghost small',
              on: {
                click: () => {
                  send(text);
                  el.open = false;
                  summary.focus();
                },
              },
            },
            text,
          ),
        ),
    );
  };
  draw();
  const off = onLang(draw);
  return { el, close: off };
}
