// The lobby lists open tables live, and a spectator watching one sees the spectator's view:
// every seat and its plays, no hand. A finished game replays from its end-of-game panel,
// and its steps follow every press, however quick.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, startServer, openPage, quickPlay, playToEnd, screenshotPath, DESKTOP, PHONE } from './harness.js';

const env = setup();

test('a table opened elsewhere appears in the lobby and can be watched', async () => {
  const watcher = await openPage(env.browser, env.server.url);
  await watcher.locator('.tables.open').waitFor();
  const player = await openPage(env.browser, env.server.url);
  await quickPlay(player, 'bigtwo');
  const table = player.url().split('#/t/')[1];
  // The watcher's lobby shows it without a reload.
  const row = watcher.locator('.tablerow', { hasText: 'Big Two' });
  await row.waitFor({ timeout: 10000 });
  await row.locator('a', { hasText: 'Watch' }).click();
  await watcher.waitForURL(new RegExp(`#/t/${table}$`));
  await watcher.locator('.badge.spect').waitFor();
  await watcher.locator('.seat').first().waitFor();
  assert.equal(await watcher.locator('.seat').count(), 4, 'every seat');
  assert.equal(await watcher.locator('.hand .card').count(), 0, 'no hand for a spectator');
  assert.equal(await watcher.locator('.controls button').count(), 0, 'nothing to play');
  await watcher.screenshot({ path: screenshotPath('bigtwo-spectator') });
  assert.deepEqual([...watcher.errors, ...player.errors], []);
});

test('a finished game replays step by step, its players named, its deal checked', async () => {
  const page = await openPage(env.browser, env.server.url);
  await quickPlay(page, 'bigtwo');
  const me = await page.evaluate(() => window.qipai.hall.user.name);
  await playToEnd(page);
  await page.locator('.overpanel :is(a, button)', { hasText: 'Replay' }).click();
  await page.waitForURL(/#\/replay\//);
  const step = page.locator('.rbar [role="status"]');
  await step.waitFor();
  const [, last] = (await step.innerText()).match(/^Step (\d+) \/ \1$/) || [];
  assert.ok(last, `the replay opens at the end: ${await step.innerText()}`);
  // Seats named as at the table: us, with the "you" badge, and the computers by seat with
  // which computer player each is, in words (the level quick play seated), never the
  // server's id for it ("search"), in either language.
  const who = page.locator('.replay .seat .who');
  await who.first().waitFor();
  const names = await who.allInnerTexts();
  assert.equal(names.length, 4, names.join(' | '));
  assert.ok(names.some((n) => n.startsWith(me) && n.includes('you')), names.join(' | '));
  for (const seat of [2, 3, 4]) assert.ok(names.some((n) => n.startsWith(`computer ${seat}`) && n.includes('Normal')), names.join(' | '));
  assert.ok(!names.some((n) => n.includes('search')), names.join(' | '));
  const at = (k) => page.waitForFunction(([k, n]) => document.querySelector('.rbar [role="status"]')?.innerText === `Step ${k} / ${n}`, [k, Number(last)]);
  await page.locator('#lang').click();
  await page.waitForFunction(() => [...document.querySelectorAll('.replay .badge.bot')].map((b) => b.innerText).join() === '普通,普通,普通');
  await page.locator('#lang').click();
  await at(last);
  // One step back, then the arrow keys, again and again: the button clicked is drawn
  // anew at each step, and the keys go on working.
  await page.locator('.rbar button', { hasText: 'Back' }).click();
  await at(last - 1);
  await page.keyboard.press('ArrowLeft');
  await at(last - 2);
  await page.keyboard.press('ArrowLeft');
  await at(last - 3);
  await page.keyboard.press('ArrowRight');
  await at(last - 2);
  // To the start: every hand whole again.
  await page.locator('.rbar button', { hasText: 'Start' }).click();
  await at(0);
  await page.waitForFunction(() => [...document.querySelectorAll('.replay .seat .left')].map((e) => e.innerText).join() === '13 left,13 left,13 left,13 left');
  // Autoplay steps on by itself until paused.
  await page.locator('.rbar button', { hasText: 'Play' }).click();
  await at(2);
  await page.locator('.rbar button', { hasText: 'Pause' }).click();
  await page.locator('.rbar button[aria-pressed="false"]', { hasText: 'Play' }).waitFor();
  await page.locator('.rbar button', { hasText: 'Start' }).click();
  await at(0);
  // Presses quicker than the steps come (each step's answer held back a moment, as on a
  // slow network) each count, from the step last asked for rather than the one on show:
  // Forward three times is step 3, then ← twice step 1.
  const slow = '**/api/games/*/replay/*';
  await page.route(slow, async (route) => {
    await new Promise((done) => setTimeout(done, 1500));
    await route.continue();
  });
  for (let i = 0; i < 3; i++) await page.locator('.rbar button', { hasText: 'Forward' }).click();
  await at(3);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await at(1);
  await page.unroute(slow);
  await page.locator('.rbar button', { hasText: 'Start' }).click();
  await at(0);
  assert.equal(await page.locator('.topnav a[aria-current]').innerText(), 'Profile', 'a replay belongs to the profile');
  await page.locator('.replay .fair.ok').waitFor();
  assert.match(await page.locator('.replay .fair').innerText(), /^✓ Fair deal/);
  await page.screenshot({ path: screenshotPath('replay-named') });
  // Back to the profile, whose history names the company of the game and links here.
  const replayed = `#${page.url().split('#')[1]}`;
  await page.locator('.replay a.back').click();
  const row = page.locator('table.history tbody tr').first();
  await row.waitFor();
  assert.deepEqual((await row.locator('td').allInnerTexts()).slice(0, 2), ['Big Two', '3 computers · Normal']);
  assert.equal(await row.locator('a', { hasText: 'Replay' }).getAttribute('href'), replayed);
  assert.deepEqual(page.errors, []);
});

test('a long history comes a page at a time: "More games" adds the next page, then goes', async () => {
  const page = await openPage(env.browser, env.server.url);
  // Three games, each resigned at once and left.
  for (let i = 0; i < 3; i++) {
    await page.goto(`${env.server.url}#/`);
    await quickPlay(page, 'gomoku');
    const resign = page.locator('button[data-focus="resign"]');
    await resign.and(page.locator(':enabled')).waitFor({ timeout: 15000 });
    await resign.click();
    await page.getByRole('dialog').getByRole('button', { name: 'Resign' }).click();
    await page.waitForSelector('.overpanel');
    await page.getByRole('button', { name: 'Leave' }).click();
  }
  // Pages of two instead of fifty: the page's own requests, to the real server, asked
  // for smaller pages.
  const asked = [];
  await page.route('**/api/users/*/games*', (route) => {
    const url = new URL(route.request().url());
    url.searchParams.set('limit', '2');
    asked.push(url.search);
    route.continue({ url: url.toString() });
  });
  await page.goto(`${env.server.url}#/profile`);
  const rows = page.locator('table.history tbody tr');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 2);
  // The record counts every game, not the page: three resigned, none won, three points lost.
  assert.deepEqual(await page.locator('table.record:not(.computers) tbody tr td').allInnerTexts(), ['Gomoku', '3', '0 (0%)', '-3']);
  const more = page.getByRole('button', { name: 'More games' });
  await more.click();
  await page.waitForFunction(() => document.querySelectorAll('table.history tbody tr').length === 3);
  await more.waitFor({ state: 'hidden' });
  await page.screenshot({ path: screenshotPath('profile-record') });
  const ids = await page.locator('table.history a[href^="#/replay/"]').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
  assert.equal(new Set(ids).size, 3, `three different games: ${ids.join(' ')}`);
  assert.ok(asked.some((q) => q.includes('before=')), asked.join(' '));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('quick play says how soon computers take the empty seats, and they come', async () => {
  // A hall that waits four seconds for people, as a real one does (the others here wait none).
  const server = await startServer(['--quick-play-seconds', '4']);
  try {
    const page = await openPage(env.browser, server.url);
    await page.locator('.g-doudizhu .quick').click();
    const note = page.locator('.fillnote');
    await note.waitFor({ timeout: 10000 });
    const said = await note.innerText();
    assert.match(said, /^Computers take the empty seats in 0:0[0-4]; people may still join$/, said);
    await page.screenshot({ path: screenshotPath('quick-play-wait') });
    // The computers come when it said: the note goes, and the cards are dealt.
    await note.waitFor({ state: 'detached', timeout: 15000 });
    await page.locator('.hand .card').first().waitFor({ timeout: 15000 });
    assert.deepEqual([...page.errors, ...page.refusals], []);
  } finally {
    await server.stop();
  }
});

test("the lobby's game icons sit beside the titles, never over them", async () => {
  for (const options of [DESKTOP, PHONE]) {
    const page = await openPage(env.browser, env.server.url, options);
    for (const turn of [0, 1]) {
      // Both languages: the titles' lengths differ.
      if (turn) await page.locator('#lang').click();
      await page.locator('.gamecard .quick').first().waitFor();
      const over = await page.evaluate(() =>
        [...document.querySelectorAll('.gamecard')].flatMap((card) => {
          const box = (el) => {
            const r = document.createRange();
            r.selectNodeContents(el);
            return [...r.getClientRects()];
          };
          const [icon] = box(card.querySelector('.gameicon'));
          const hit = (r) => r.left < icon.right && icon.left < r.right && r.top < icon.bottom && icon.top < r.bottom;
          return box(card.querySelector('h3')).some(hit) ? [card.querySelector('h3').innerText] : [];
        }),
      );
      assert.deepEqual(over, [], `${options.viewport.width}px, ${await page.locator('html').getAttribute('lang')}`);
    }
    await page.screenshot({ path: screenshotPath(`lobby-icons-${options.viewport.width}`) });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

/** Each open table's line in the lobby: its text, and how many lines its name and its
 * description take, where its buttons sit and whether the description is cut short. */
function rows(page) {
  return page.locator('.tables.open .tablerow').evaluateAll((lis) =>
    lis.map((li) => {
      const lines = (el) => {
        const r = document.createRange();
        r.selectNodeContents(el);
        return new Set([...r.getClientRects()].filter((x) => x.width).map((x) => Math.round(x.top))).size;
      };
      const [name, meta, btns] = ['.tname', '.tmeta', '.tbtns'].map((s) => li.querySelector(s));
      const m = meta.getBoundingClientRect();
      const b = btns.getBoundingClientRect();
      return {
        text: li.innerText,
        title: meta.title,
        full: meta.textContent,
        lines: lines(name) + lines(meta),
        beside: b.left >= Math.max(name.getBoundingClientRect().right, m.right) - 0.5 && b.top < m.bottom,
        cut: meta.scrollWidth > meta.clientWidth,
      };
    }),
  );
}

test("a phone's lobby row is two lines, its options in words in both languages", async () => {
  // Two hosts open tables with every option worded in a row, through the create dialog.
  const dd = await openPage(env.browser, env.server.url);
  await dd.locator('.g-doudizhu button.ghost').click();
  let dialog = dd.locator('dialog');
  await dialog.locator('select[name="doubling"]').selectOption('super');
  await dialog.locator('input[name="show_cards"]').check();
  await dialog.locator('input[data-option="card_counter"]').check();
  await dialog.locator('label', { hasText: 'Seconds per turn' }).locator('input').fill('20');
  await dialog.locator('button[value="go"]').click();
  await dd.waitForURL(/#\/t\//);
  const go = await openPage(env.browser, env.server.url);
  await go.locator('.g-gomoku button.ghost').click();
  dialog = go.locator('dialog');
  await dialog.locator('label', { hasText: 'Opening' }).locator('select').selectOption('swap2');
  await dialog.locator('label', { hasText: 'Undo' }).locator('select').selectOption('never');
  await dialog.locator('button[value="go"]').click();
  await go.waitForURL(/#\/t\//);
  for (const [options, words] of [
    [PHONE, { 斗地主: ['超级加倍', '明牌', '记牌器', '每步 20 秒'], 五子棋: ['交换开局', '不许悔棋'] }],
    [{ ...PHONE, locale: 'en-US' }, { 'Dou Dizhu': ['super doubling', 'show hand', 'card counter', '20 s a turn'], Gomoku: ['swap2 opening', 'no undo'] }],
    [DESKTOP, { 'Dou Dizhu': ['super doubling', 'show hand', 'card counter'], Gomoku: ['swap2 opening', 'no undo'] }],
  ]) {
    const page = await openPage(env.browser, env.server.url, options);
    await page.locator('.tables.open .tablerow').nth(1).waitFor();
    const seen = await rows(page);
    for (const [game, parts] of Object.entries(words)) {
      const row = seen.find((r) => r.text.startsWith(game));
      assert.ok(row, `${game}: ${JSON.stringify(seen)}`);
      for (const part of parts) assert.ok(row.full.includes(part), `${game} says ${part}: ${row.full}`);
    }
    for (const row of seen) {
      assert.doesNotMatch(row.text, /\b[a-z]+_[a-z_]+\b/, 'no option written as its key');
      assert.ok(row.lines <= 2, `two lines at most: ${row.lines} in ${options.viewport.width}px: ${row.full}`);
      assert.ok(row.beside, `the buttons beside the text: ${row.full}`);
      assert.equal(row.title, row.full, 'the whole line, as the title');
    }
    if (options.viewport.width < 400) assert.ok(seen.some((r) => r.cut), 'a long line is cut short on a phone');
    await page.locator('.tables.open').scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath(`lobby-rows-${options.viewport.width}-${options.locale}`) });
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
  await dd.context().close();
  await go.context().close();
});
