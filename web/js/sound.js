// The page's sounds, made with WebAudio as they play (no audio files: a few oscillators and
// a burst of noise each), and the one mute switch in the top bar, remembered. Browsers let
// a page make sound only after a person has touched it: nothing is made before the first
// click, tap or key, and the sounds asked for until then are simply skipped.

import { t, onLang } from './i18n.js';

const KEY = 'qipai.mute';
let ctx = null;
let touched = false;

/** Whether the player has turned the sound off. */
export function muted() {
  return localStorage.getItem(KEY) === '1';
}

function audio() {
  if (!touched || muted()) return null;
  if (!ctx) {
    const AC = window.AudioContext || window.webkitAudioContext;
    if (!AC) return null;
    ctx = new AC();
  }
  if (ctx.state === 'suspended') ctx.resume().catch(() => {});
  return ctx;
}

/** One tone: `type` wave from `f0` Hz (gliding to `f1`), `gain` loud, starting `at` s from now. */
function tone(ac, { f0, f1 = f0, at = 0, dur = 0.15, gain = 0.2, type = 'sine' }) {
  const t0 = ac.currentTime + at;
  const o = ac.createOscillator();
  const g = ac.createGain();
  o.type = type;
  o.frequency.setValueAtTime(f0, t0);
  if (f1 !== f0) o.frequency.exponentialRampToValueAtTime(f1, t0 + dur);
  g.gain.setValueAtTime(0.0001, t0);
  g.gain.exponentialRampToValueAtTime(gain, t0 + 0.01);
  g.gain.exponentialRampToValueAtTime(0.0001, t0 + dur);
  o.connect(g).connect(ac.destination);
  o.start(t0);
  o.stop(t0 + dur + 0.02);
}

/** A burst of noise through a low-pass filter: a card's slap, a bomb's blast. */
function noise(ac, { at = 0, dur = 0.1, gain = 0.2, cutoff = 2000 }) {
  const t0 = ac.currentTime + at;
  const frames = Math.max(1, Math.floor(ac.sampleRate * dur));
  const buf = ac.createBuffer(1, frames, ac.sampleRate);
  const data = buf.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const src = ac.createBufferSource();
  src.buffer = buf;
  const f = ac.createBiquadFilter();
  f.type = 'lowpass';
  f.frequency.value = cutoff;
  const g = ac.createGain();
  g.gain.value = gain;
  src.connect(f).connect(g).connect(ac.destination);
  src.start(t0);
}

/** Each sound of the page, by what happened. */
const SOUNDS = {
  // Cards laid on the felt.
  play: (ac) => noise(ac, { dur: 0.07, gain: 0.35, cutoff: 3500 }),
  // A stone on the board.
  stone: (ac) => tone(ac, { f0: 900, f1: 500, dur: 0.06, gain: 0.18, type: 'triangle' }),
  // A bomb or a rocket: a low boom under a blast.
  bomb: (ac) => {
    tone(ac, { f0: 110, f1: 38, dur: 0.7, gain: 0.6 });
    noise(ac, { dur: 0.45, gain: 0.5, cutoff: 700 });
  },
  // It became our turn.
  turn: (ac) => {
    tone(ac, { f0: 660, dur: 0.12, gain: 0.12 });
    tone(ac, { f0: 880, at: 0.1, dur: 0.16, gain: 0.1 });
  },
  // One of the last seconds of our turn.
  tick: (ac) => tone(ac, { f0: 1400, dur: 0.04, gain: 0.1, type: 'square' }),
  // A seat is down to one or two cards.
  warn: (ac) => {
    tone(ac, { f0: 988, dur: 0.1, gain: 0.14, type: 'triangle' });
    tone(ac, { f0: 988, at: 0.14, dur: 0.1, gain: 0.14, type: 'triangle' });
  },
  // Five in a row: a chime climbing.
  five: (ac) => [523, 659, 784, 1047, 1319].forEach((f, i) => tone(ac, { f0: f, at: i * 0.09, dur: 0.5, gain: 0.12, type: 'triangle' })),
  // Spring (春天): a bright flourish.
  spring: (ac) => [784, 988, 1175, 1568, 1175, 1568].forEach((f, i) => tone(ac, { f0: f, at: i * 0.08, dur: 0.3, gain: 0.11, type: 'triangle' })),
  win: (ac) => [523, 659, 784, 1047].forEach((f, i) => tone(ac, { f0: f, at: i * 0.11, dur: i === 3 ? 0.5 : 0.18, gain: 0.14, type: 'triangle' })),
  lose: (ac) => [392, 330, 262].forEach((f, i) => tone(ac, { f0: f, f1: i === 2 ? 220 : f, at: i * 0.18, dur: i === 2 ? 0.6 : 0.2, gain: 0.13 })),
};

/** Plays a sound of the page by its name, unless muted or before the first gesture. */
export function sound(name) {
  const ac = audio();
  if (ac && SOUNDS[name]) SOUNDS[name](ac);
}

const SVG = 'http://www.w3.org/2000/svg';

/** A loudspeaker, with sound waves, or crossed out when muted (drawn: no emoji font needed). */
function speaker(off) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '20');
  svg.setAttribute('height', '20');
  svg.setAttribute('aria-hidden', 'true');
  const lines = ['M4 9h4l5-4v14l-5-4H4z', ...(off ? ['M16 9l6 6', 'M22 9l-6 6'] : ['M16 9a4 4 0 0 1 0 6', 'M18.5 6.5a7.5 7.5 0 0 1 0 11'])];
  for (const d of lines) {
    const p = document.createElementNS(SVG, 'path');
    p.setAttribute('d', d);
    p.setAttribute('fill', d.startsWith('M4') ? 'currentColor' : 'none');
    p.setAttribute('stroke', 'currentColor');
    p.setAttribute('stroke-width', '2');
    p.setAttribute('stroke-linecap', 'round');
    p.setAttribute('stroke-linejoin', 'round');
    svg.append(p);
  }
  return svg;
}

/** The mute switch in the top bar: its state, icon and words for screen readers. */
function drawSwitch(b) {
  const off = muted();
  b.replaceChildren(speaker(off));
  b.setAttribute('aria-pressed', String(off));
  b.setAttribute('aria-label', t('sound.mute'));
  b.title = t(off ? 'sound.off' : 'sound.on');
}

/** Wires the top bar's mute switch and waits for the first gesture to allow sound. */
export function initSound() {
  const b = document.getElementById('mute');
  if (b) {
    drawSwitch(b);
    b.addEventListener('click', () => {
      localStorage.setItem(KEY, muted() ? '' : '1');
      if (muted() && ctx) ctx.suspend().catch(() => {});
      drawSwitch(b);
    });
    onLang(() => drawSwitch(b));
  }
  const first = () => {
    touched = true;
    for (const e of ['pointerdown', 'keydown']) window.removeEventListener(e, first, true);
  };
  for (const e of ['pointerdown', 'keydown']) window.addEventListener(e, first, true);
}
