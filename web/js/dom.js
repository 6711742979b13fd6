// Tiny DOM helpers: the page is drawn by plain functions that build elements, so there is
// no framework to download and nothing to compile.

const SVG_NS = 'http://www.w3.org/2000/svg';

function apply(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'on') {
      for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    } else if (k === 'text') {
      el.textContent = v;
    } else if (k === 'class') {
      el.setAttribute('class', Array.isArray(v) ? v.filter(Boolean).join(' ') : v);
    } else if (k === 'style' && typeof v === 'object') {
      for (const [p, x] of Object.entries(v)) el.style.setProperty(p, x);
    } else if (k === 'dataset') {
      Object.assign(el.dataset, v);
    } else {
      el.setAttribute(k, v === true ? '' : v);
    }
  }
}

function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
  return el;
}

/** An HTML element: h('button', {class: 'x', on: {click}}, 'label'). */
export function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  apply(el, attrs);
  return append(el, children);
}

/** An SVG element, same form as h(). */
export function s(tag, attrs, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  apply(el, attrs);
  return append(el, children);
}

/** Replaces an element's children. */
export function put(el, ...children) {
  el.replaceChildren();
  return append(el, children);
}

/** Shows a short message at the top of the screen. */
export function toast(text, ms = 3500) {
  const el = document.getElementById('toast');
  if (!el) return;
  el.textContent = text;
  el.classList.add('show');
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => el.classList.remove('show'), ms);
}

/**
 * Asks a yes-or-no question in the page: a modal dialog drawn and worded like the rest of
 * the page (the browser's own confirm() is bare, in the browser's language, and easily
 * clicked through). Resolves to true for yes; Escape or `no` is no.
 */
export function ask(question, yes, no, { danger = false } = {}) {
  return new Promise((resolve) => {
    const dlg = h(
      'dialog',
      { class: 'dialog', 'aria-label': question },
      h(
        'form',
        { method: 'dialog' },
        h('h2', {}, question),
        h('div', { class: 'dlgbtns' }, h('button', { value: 'no', class: 'ghost', autofocus: true }, no), h('button', { value: 'yes', class: ['primary', danger && 'danger'] }, yes)),
      ),
    );
    dlg.addEventListener('close', () => {
      dlg.remove();
      resolve(dlg.returnValue === 'yes');
    });
    document.body.append(dlg);
    dlg.showModal();
  });
}

/** Random bytes in hex: a seat's nonce for the next deal. */
export function randomHex(bytes = 16) {
  const a = new Uint8Array(bytes);
  crypto.getRandomValues(a);
  return Array.from(a, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A countdown text: 1:05, 0:09. */
export function clock(ms) {
  const t = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(t / 60)}:${String(t % 60).padStart(2, '0')}`;
}
