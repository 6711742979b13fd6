// What every end-to-end test needs: the real `qipai serve` on a free port with a fresh data
// directory, Debian's Chromium driven by playwright-core, and a player that clicks through
// a whole game using only the page's own controls.

import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const root = join(here, '..', '..', '..');
// Screenshots go under target/ so that a test run leaves the checkout as it was;
// `QIPAI_SCREENSHOTS=docs/screenshots` (relative to the repository) refreshes the committed ones.
export const shots = join(root, process.env.QIPAI_SCREENSHOTS || join('target', 'screenshots'));

/**
 * Starts the server; resolves to { url, addr, dir, stop }. By default on a free port with a
 * fresh data directory; a restart passes the `addr` and `dir` of the server it replaces.
 * Computers move after 60 ms and fill quick play at once, unless `extra` sets those flags.
 */
export async function startServer(extra = [], { addr = '127.0.0.1:0', dir = mkdtempSync(join(tmpdir(), 'qipai-e2e-')) } = {}) {
  const bin = process.env.QIPAI_BIN || join(root, 'target', 'release', 'qipai');
  const quick = ['--bot-delay-ms', '10', '--quick-play-seconds', '0'].flatMap((v, i, all) =>
    i % 2 === 0 && !extra.includes(v) ? [v, all[i + 1]] : [],
  );
  const args = ['serve', '--addr', addr, '--data-dir', dir, ...quick, ...extra];
  const proc = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  proc.stderr.on('data', (d) => (log += d));
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start:\n${out}\n${log}`)), 20000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (http:\/\/[\d.:]+\/)/);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    proc.on('exit', (code) => reject(new Error(`the server exited (${code}):\n${out}\n${log}`)));
  });
  return {
    url,
    addr: new URL(url).host,
    dir,
    // Resolves once the process has exited (at once if it already has, so a test's
    // `finally` can stop a server its body stopped).
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null || proc.signalCode !== null) return resolve();
        proc.on('exit', resolve);
        proc.kill('SIGTERM');
      }),
  };
}

export async function launch() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
}

/** One server and one browser for a test file: `env.server.url`, `env.browser`. */
export function setup() {
  const env = {};
  before(async () => {
    env.server = await startServer();
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    await env.server?.stop();
  });
  return env;
}

export const DESKTOP = { viewport: { width: 1280, height: 800 }, locale: 'en-US' };
export const PHONE = { viewport: { width: 375, height: 812 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'zh-CN' };

/**
 * A page that fails the test on any script error. It also keeps every error the server sent
 * it (`page.refusals`): in a flow that only uses the page's own controls, each one is a
 * request the page should not have made.
 */
export async function openPage(browser, url, options = DESKTOP) {
  // The server sends a Content-Security-Policy that allows no script but the page's own
  // files. Playwright's `waitForFunction` evaluates its predicate as a string in the page,
  // which that policy forbids: pages for tests that use it ignore the policy, and the
  // others (`{ enforceCSP: true }`, the accessibility tests) keep it and fail on any
  // violation, so the page itself is shown to run under it.
  const { enforceCSP, ...contextOptions } = options;
  const context = await browser.newContext({ ...contextOptions, bypassCSP: !enforceCSP });
  const page = await context.newPage();
  page.errors = [];
  page.refusals = [];
  page.on('pageerror', (e) => page.errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && m.text().includes('Content Security Policy')) page.errors.push(m.text());
  });
  page.on('websocket', (ws) =>
    ws.on('framereceived', ({ payload }) => {
      if (typeof payload === 'string' && payload.includes('"type":"error"')) page.refusals.push(payload);
    }),
  );
  await page.goto(url);
  return page;
}

export function screenshotPath(name) {
  mkdirSync(shots, { recursive: true });
  return join(shots, `${name}.png`);
}

/**
 * What a player must see of a table without scrolling and does not: each of the felt's
 * seats, the hand, the buttons, the board, the clocks and the result, with where it lies
 * against the window as the page is now (below the top bar, above the window's bottom,
 * within its width). Empty when all of it is in sight.
 */
export function unseen(page) {
  return page.evaluate(() => {
    const bar = document.querySelector('.topbar').getBoundingClientRect().height;
    const parts = ['.tbar', '.tinfo', '.seat', '.played', '.hand', '.controls', '.status', '.gstatus', '.goban', '.gplayer', '.overpanel', '.overpanel button'];
    const out = [];
    for (const sel of parts) {
      for (const el of document.querySelectorAll(`.tableview ${sel}`)) {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height) continue;
        if (r.top < bar - 0.5 || r.bottom > innerHeight + 0.5 || r.left < -0.5 || r.right > innerWidth + 0.5) {
          out.push(`${sel} at ${Math.round(r.top)}–${Math.round(r.bottom)} × ${Math.round(r.left)}–${Math.round(r.right)} in ${innerWidth}×${innerHeight}`);
        }
      }
    }
    return out;
  });
}

/** Taps on touch pages, clicks elsewhere. */
async function press(page, locator) {
  if (page.context()._options?.hasTouch) await locator.tap();
  else await locator.click();
}

/**
 * Plays the game at the page's table to its end with the page's controls only: the first
 * bid, grab or declaration offered; Hint then Play when a play is possible, Pass when not;
 * stand from 7½ in Ten and a half; the free point nearest the centre in Gomoku. Calls
 * `onTurn(n)` at each of our turns (for screenshots). Resolves when the end-of-game panel
 * shows.
 */
export async function playToEnd(page, { onTurn, timeout = 240000 } = {}) {
  const end = Date.now() + timeout;
  let turns = 0;
  while (Date.now() < end) {
    if (await page.locator('.overpanel').isVisible()) {
      if (page.refusals.length) throw new Error(`the server refused the page: ${page.refusals.join('; ')}`);
      return turns;
    }
    const acted = await takeTurn(page, async () => {
      turns++;
      if (onTurn) await onTurn(turns);
    });
    if (!acted) await page.waitForTimeout(80);
    else await page.waitForTimeout(120);
  }
  throw new Error(`the game did not end in time; errors: ${page.errors.join('; ')}`);
}

async function enabled(page, selector) {
  const l = page.locator(selector);
  return (await l.count()) > 0 && (await l.first().isEnabled()) ? l.first() : null;
}

export async function takeTurn(page, turn = async () => {}) {
  // Gomoku: our move when the board takes one.
  if (await page.locator('.goban.playable').count()) {
    await turn();
    const point = await page.evaluate(() => {
      const free = [...document.querySelectorAll('.goban.playable rect.hit.free')].map((r) => r.dataset.point.split(',').map(Number));
      if (!free.length) return null;
      const c = 7;
      free.sort((a, b) => Math.hypot(a[0] - c, a[1] - c) - Math.hypot(b[0] - c, b[1] - c));
      return free[0].join(',');
    });
    if (!point) return false;
    await press(page, page.locator(`rect[data-point="${point}"]`));
    await page.waitForSelector('.goban:not(.playable)', { timeout: 5000 }).catch(() => {});
    return true;
  }
  // Ten and a half.
  const stand = await enabled(page, '[data-act="stand"]');
  const hit = await enabled(page, '[data-act="hit"]');
  if (stand || hit) {
    await turn();
    await press(page, stand || hit);
    return true;
  }
  // Card games: plays, passes, and any other action the rules offer (bids, grabs…).
  const hint = await enabled(page, '[data-act="hint"]');
  if (hint) {
    await turn();
    await press(page, hint);
    const play = await enabled(page, '[data-act="play"]');
    if (!play) throw new Error('Hint selected cards that Play does not take');
    await press(page, play);
    return true;
  }
  const pass = await enabled(page, '[data-act="pass"]');
  if (pass) {
    await turn();
    await press(page, pass);
    return true;
  }
  const other = page.locator('.controls button[data-act]:not([disabled])');
  if (await other.count()) {
    await turn();
    await press(page, other.first());
    return true;
  }
  return false;
}

/** Quick play from the lobby: one click on the game's card. */
export async function quickPlay(page, game) {
  await page.locator(`.g-${game} .quick`).click();
  await page.waitForSelector('.stage[data-game]', { timeout: 15000 });
}
