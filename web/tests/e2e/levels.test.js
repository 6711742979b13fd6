// The computers' strength and rated play, told: quick play and the create-table dialog offer
// each game's levels (easy / normal / strong, Gomoku's 1–10), quick play remembers the one
// chosen, the profile counts games against each level; lobby rows say rated, the rule and
// the turn time; a rated game's end panel shows each player's rating change, and histories
// mark rated games.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, screenshotPath, playToEnd, PHONE } from './harness.js';

const env = setup();

/** The client messages of `type` a page sent, as parsed JSON, collected from now on. */
function sent(page, type) {
  const out = [];
  page.on('websocket', (ws) =>
    ws.on('framesent', ({ payload }) => {
      if (typeof payload !== 'string') return;
      try {
        const m = JSON.parse(payload);
        if (m.type === type) out.push(m);
      } catch {
        // Not JSON: not ours.
      }
    }),
  );
  return out;
}

/** Registers the page's guest as `name`, from the top bar's "Log in / register". */
async function register(page, name) {
  await page.waitForFunction(() => window.qipai?.hall?.user);
  await page.locator('#user').click();
  const dialog = page.getByRole('dialog', { name: 'Log in or register' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Password').fill(`${name}'s password`);
  await dialog.getByRole('button', { name: 'Register' }).click();
  await page.waitForFunction((n) => window.qipai.hall.user?.name === n && !window.qipai.hall.user.guest, name);
}

async function place(page, x, y) {
  await page.waitForSelector('.goban.playable', { timeout: 10000 });
  await page.locator(`rect[data-point="${x},${y}"]`).click();
  await page.waitForSelector('.goban:not(.playable)', { timeout: 10000 });
}

test('quick play at a chosen level seats that computer, remembers it, and the profile counts the game at it', async () => {
  const page = await openPage(env.browser, env.server.url);
  const quick = sent(page, 'quick_play');
  await page.reload();
  const level = page.locator('.g-gomoku select.level');
  await level.waitFor();
  // Gomoku's levels by number, its strongest the default; Dou Dizhu's by name.
  assert.equal(await level.locator('option:checked').innerText(), 'Computers: Level 10');
  assert.deepEqual(await page.locator('.g-doudizhu select.level option').allInnerTexts(), ['Computers: Easy', 'Computers: Normal', 'Computers: Strong']);
  await level.selectOption('L1');
  await page.screenshot({ path: screenshotPath('levels-lobby') });
  // Remembered across a reload.
  await page.reload();
  await page.locator('.g-gomoku select.level').waitFor();
  assert.equal(await page.locator('.g-gomoku select.level').inputValue(), 'L1');
  await page.locator('.g-gomoku .quick').click();
  await page.waitForSelector('.stage[data-game]', { timeout: 15000 });
  assert.equal(quick.at(-1)?.level, 'L1', JSON.stringify(quick));
  await page.waitForFunction(() => window.qipai.view?.info?.seats?.some((s) => s.bot));
  const bots = await page.evaluate(() => window.qipai.view.info.seats.map((s) => s.bot).filter(Boolean));
  assert.deepEqual(bots, ['engine:L1']);
  await playToEnd(page);
  // The profile: one game against level 1, won, lost or drawn.
  await page.locator('.topnav a', { hasText: 'Profile' }).click();
  const row = page.locator('table.computers tbody tr[data-game="gomoku"][data-level="L1"]');
  await row.waitFor();
  const cells = await row.locator('td').allInnerTexts();
  assert.equal(cells[0], 'Gomoku');
  assert.equal(cells[1], 'Level 1');
  assert.equal(cells[2], '1');
  assert.equal(Number(cells[3]) + Number(cells[4]) + Number(cells[5]), 1, cells.join(' '));
  assert.equal(await page.locator('.profile h2', { hasText: 'Against computers' }).count(), 1);
  // The history names the level the computer played at.
  assert.equal(await page.locator('table.history tbody tr td.with').first().innerText(), '1 computer · Level 1');
  await page.screenshot({ path: screenshotPath('levels-profile'), fullPage: true });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the create dialog offers the levels; the host seats that level; lobby rows say rated, rule, turn time and level', async () => {
  const host = await openPage(env.browser, env.server.url);
  const other = await openPage(env.browser, env.server.url, PHONE);
  const adds = sent(host, 'add_bot');
  await host.reload();
  await register(host, 'hana');
  await host.locator('.g-gomoku button.ghost').click();
  const dialog = host.locator('dialog');
  await dialog.locator('label', { hasText: 'Seconds per turn' }).locator('input').fill('20');
  await dialog.locator('label', { hasText: 'Rule' }).locator('select').selectOption('renju');
  await dialog.locator('label.check', { hasText: 'Rated' }).locator('input').check();
  const level = dialog.locator('label', { hasText: 'Computer strength' }).locator('select');
  assert.equal(await level.locator('option').count(), 10);
  await level.selectOption('L2');
  await host.screenshot({ path: screenshotPath('levels-create') });
  await dialog.locator('button[value="go"]').click();
  await host.waitForURL(/#\/t\//);
  // Seen from the lobby by somebody else, in Chinese on a phone.
  const row = other.locator('ul.tables.open li.tablerow', { hasText: '五子棋' });
  await row.waitFor();
  const meta = await row.locator('.tmeta').innerText();
  for (const part of ['★ 排位', '连珠（黑棋禁手）', '每步 20 秒', '电脑：2 级']) assert.ok(meta.includes(part), meta);
  await row.scrollIntoViewIfNeeded();
  await other.screenshot({ path: screenshotPath('levels-lobby-row-phone') });
  // The host's "add computer" seats the table's level.
  await host.locator('.waiting button', { hasText: 'Add computer' }).first().click();
  await host.waitForFunction(() => window.qipai.view?.info?.seats?.some((s) => s.bot));
  assert.equal(adds.at(-1)?.bot, 'engine:L2', JSON.stringify(adds));
  assert.deepEqual([...host.errors, ...other.errors], []);
  await host.context().close();
  await other.context().close();
});

test('a rated game ends with each player told their rating change, and the history marks it rated', async () => {
  const a = await openPage(env.browser, env.server.url);
  await register(a, 'rui');
  await a.locator('.g-gomoku button.ghost').click();
  const dialog = a.locator('dialog');
  await dialog.locator('label.check', { hasText: 'Computers may play' }).locator('input').uncheck();
  await dialog.locator('label.check', { hasText: 'Private' }).locator('input').check();
  await dialog.locator('label.check', { hasText: 'Rated' }).locator('input').check();
  await dialog.locator('button[value="go"]').click();
  await a.waitForURL(/#\/t\//);
  await a.locator('[data-focus="invite"]').click();
  const link = (await a.locator('#toast').innerText()).match(/http\S+/)[0];
  const b = await openPage(env.browser, env.server.url, PHONE);
  await b.waitForFunction(() => window.qipai?.hall?.user);
  await b.evaluate(() => window.qipai.hall.send({ type: 'register', name: 'sol', password: "sol's password" }));
  await b.waitForFunction(() => window.qipai.hall.user?.name === 'sol');
  await b.evaluate((l) => { location.href = l; }, link);
  await b.waitForSelector('.waiting [data-focus="ready"]');
  await a.waitForSelector('.waiting [data-focus="ready"]');
  await a.locator('[data-focus="ready"]').click();
  await b.locator('[data-focus="ready"]').click();
  await a.waitForSelector('.goban');
  // Whoever is Black makes five down column 7; the other answers along the edge.
  const black = (await a.evaluate(() => window.qipai.view.game?.view?.black === window.qipai.view.you)) ? a : b;
  const white = black === a ? b : a;
  await place(black, 7, 7);
  for (let i = 0; i < 4; i++) {
    await place(white, 0, i);
    await place(black, 7, 6 - i);
  }
  // The desktop page is in English, the phone's in Chinese.
  const word = (page) => (page === a ? 'Rating' : '等级分');
  for (const [page, sign] of [
    [black, '+'],
    [white, '−'],
  ]) {
    const text = word(page);
    const line = page.locator('.overpanel .ratingchange');
    await line.waitFor();
    const said = await line.innerText();
    assert.match(said, new RegExp(`^★ ${text} 1500 → \\d+\\? \\(\\${sign}\\d+\\)$`), said);
  }
  await a.screenshot({ path: screenshotPath('levels-rating-change') });
  await b.screenshot({ path: screenshotPath('levels-rating-change-phone') });
  // The history marks the game rated.
  await a.locator('.topnav a', { hasText: 'Profile' }).click();
  const game = a.locator('table.history tbody tr').first();
  await game.waitFor();
  assert.equal(await game.locator('.badge.rated').innerText(), '★ Rated');
  await a.screenshot({ path: screenshotPath('levels-history') });
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context().close();
  await b.context().close();
});
