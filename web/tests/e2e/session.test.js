// A reload or a dropped connection in the middle of a game comes back to the same seat and
// the same view; the language switches at once, in the lobby and at a table, and is
// remembered.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, startServer, openPage, quickPlay, takeTurn, playToEnd, screenshotPath, PHONE } from './harness.js';

const env = setup();

/** What the player sees of the table: the hand, the seats' names and cards left. */
function seen(page) {
  return page.evaluate(() => ({
    hand: [...document.querySelectorAll('.hand .card')].map((c) => c.dataset.card),
    seats: [...document.querySelectorAll('.seat .who')].map((s) => s.firstChild.textContent),
    left: [...document.querySelectorAll('.seat .left')].map((s) => s.textContent),
    kitty: [...document.querySelectorAll('.tinfo .kitty .card')].map((c) => c.getAttribute('aria-label')),
    plays: [...document.querySelectorAll('.played')].map((p) => `${p.dataset.seatPlay}: ${p.innerText}`),
  }));
}

/**
 * Records in the page every connection status it shows and counts the table snapshots it
 * receives, so a test can wait for what happened rather than for a moment that may pass;
 * and whether the table offered a move at the instant the connection was back, before the
 * table could be resumed (`turnWhenBack`).
 */
function record(page) {
  return page.evaluate(() => {
    window.statuses = [];
    window.snapshots = 0;
    window.qipai.hall.on('status', (s) => {
      window.statuses.push(s);
      if (s === 'online') window.turnWhenBack = window.qipai.view?.myTurn();
    });
    window.qipai.hall.on('table', () => window.snapshots++);
  });
}

/** Waits until the page has the table again after a reconnect: a snapshot newer than `n`. */
async function resumed(page, n) {
  await page.waitForFunction((k) => window.snapshots > k && window.statuses.at(-1) === 'online', n, { timeout: 20000 });
  await page.waitForSelector('.status.mine');
}

test('a reload, then a network drop, mid-game return to the same seat and view', async () => {
  const page = await openPage(env.browser, env.server.url);
  await quickPlay(page, 'doudizhu');
  // A move sent turns the controls off at once, before the server answers: a second click
  // cannot act on a state already gone. The controls are counted in the click's own task
  // (a listener on the document runs after the button's), since by the time the test could
  // look again the computers may have moved and given the turn back.
  await page.evaluate(() => {
    window.enabledAfterSend = [];
    document.addEventListener('click', (e) => {
      const act = e.target.closest?.('button[data-act]')?.dataset.act;
      if (act && act !== 'hint') window.enabledAfterSend.push(document.querySelectorAll('.controls button[data-act]:not([disabled])').length);
    });
  });
  // Play a few turns, then wait for our next turn (the computers move within 60 ms).
  for (let turns = 0; turns < 3; ) {
    if (await takeTurn(page)) turns++;
    else await page.waitForTimeout(100);
    assert.equal(await page.locator('.overpanel').count(), 0, 'the game is still on');
  }
  const counts = await page.evaluate(() => window.enabledAfterSend);
  assert.equal(counts.length, 3, 'each move sent was seen');
  assert.deepEqual(counts, [0, 0, 0], 'controls off once a move is sent');
  await page.waitForTimeout(800);
  await page.waitForSelector('.status.mine');
  const url = page.url();
  const before = await seen(page);
  assert.ok(before.hand.length > 0);
  await page.reload();
  await page.waitForSelector('.status.mine');
  await page.waitForTimeout(300);
  assert.equal(page.url(), url, 'the same table');
  assert.deepEqual(await seen(page), before, 'the same view');
  await page.screenshot({ path: screenshotPath('reload-same-view') });

  // A network drop: the socket closes under the page, which says so, reconnects by itself
  // and resumes the table; the game then plays on to its end.
  await record(page);
  const snapshots = await page.evaluate(() => window.snapshots);
  await page.evaluate(() => window.qipai.hall.ws.close());
  await resumed(page, snapshots);
  assert.equal(await page.evaluate(() => window.statuses[0]), 'offline', 'the page said the connection was lost');
  assert.deepEqual((await seen(page)).hand, before.hand, 'the same hand after the drop');
  await playToEnd(page);
  assert.deepEqual(page.errors, []);
});

test('a server restart mid-game: the page says the server is restarting, then plays on in the same seat', async () => {
  // A server of its own, since this test stops it; restarted on the same port and data.
  let server = await startServer();
  try {
    const page = await openPage(env.browser, server.url);
    await quickPlay(page, 'doudizhu');
    for (let turns = 0; turns < 2; ) {
      if (await takeTurn(page)) turns++;
      else await page.waitForTimeout(100);
    }
    await page.waitForTimeout(800);
    await page.waitForSelector('.status.mine');
    const before = await seen(page);
    await record(page);
    const snapshots = await page.evaluate(() => window.snapshots);

    // SIGTERM: the server stops its tables, then closes every connection with 1012. The
    // page's attempts to reconnect while it is down keep the notice (not "connection lost"):
    // the server comes back only after one has failed.
    await server.stop();
    // Each attempt that fails reports the status again.
    await page.waitForFunction(() => window.statuses.length >= 2, null, { timeout: 20000 });
    assert.equal(await page.locator('#conn').innerText(), 'The server is restarting; reconnecting…');
    // It was our turn; with nobody to send a move to, the controls are off meanwhile, and
    // the status line says why.
    assert.equal(await page.locator('.controls button[data-act]:not([disabled])').count(), 0, 'no controls while the server is down');
    assert.equal(await page.locator('.cardgame .status').innerText(), 'Your turn, once the connection is back');
    await page.screenshot({ path: screenshotPath('server-restarting') });

    server = await startServer([], { addr: server.addr, dir: server.dir });
    await resumed(page, snapshots);
    const statuses = await page.evaluate(() => window.statuses);
    assert.deepEqual([...new Set(statuses)], ['restarting', 'online'], `what the page said: ${statuses.join(', ')}`);
    // Back online, the state held is from before the restart: no move on it until the
    // table's snapshot has come.
    assert.equal(await page.evaluate(() => window.turnWhenBack), false, 'no move offered before the table is resumed');
    assert.equal(await page.locator('#conn.restarting').count(), 0, 'the notice goes once back');
    assert.deepEqual((await seen(page)).hand, before.hand, 'the same hand after the restart');
    await playToEnd(page);
    assert.deepEqual(page.errors, []);
  } finally {
    await server.stop();
  }
});

test("a page beyond its address's share of connections is told why, and gets in once another closes", async () => {
  const server = await startServer(['--connections-per-address', '1']);
  try {
    const first = await openPage(env.browser, server.url);
    await first.locator('.gamecard .quick').first().waitFor();
    const second = await openPage(env.browser, server.url);
    // Said in the connection bar, where it stays while the page retries.
    await second.waitForFunction(() => document.getElementById('conn').innerText === 'Too many connections from your address: close another tab; retrying…', null, { timeout: 10000 });
    await second.screenshot({ path: screenshotPath('too-many-connections') });
    // The page keeps trying (backing off); closing the other tab lets it in.
    await first.context().close();
    await second.locator('.gamecard .quick').first().waitFor({ timeout: 20000 });
    await second.waitForFunction(() => window.qipai.hall.open === true);
    assert.deepEqual(second.errors, []);
  } finally {
    await server.stop();
  }
});

test('a page whose address asks the HTTP API too often is told so in its own language', async () => {
  // One request a fifth of a second, one at once: the lobby's list of games takes it.
  const server = await startServer(['--api-requests-per-second', '0.2']);
  try {
    const page = await openPage(env.browser, server.url, PHONE);
    await page.locator('.gamecard .quick').first().waitFor();
    await page.evaluate(() => { location.hash = '#/ranks/gomoku'; });
    await page.locator('.rankings p.note', { hasText: '操作太快了，请稍候' }).waitFor();
    // Five seconds later the address has its request again.
    await page.waitForTimeout(5200);
    await page.evaluate(() => { location.hash = '#/ranks/bigtwo'; });
    await page.locator('.rankings p.note', { hasText: '锄大地还没有计等级分的对局。' }).waitFor();
    assert.deepEqual(page.errors, []);
  } finally {
    await server.stop();
  }
});

test('a visitor refused a guest account (too many from its address) can still log in and play', async () => {
  const server = await startServer(['--new-accounts-per-hour', '2']);
  try {
    // Two new accounts from this address: a guest, who registers as alice.
    const first = await openPage(env.browser, server.url);
    await first.waitForFunction(() => window.qipai.hall.user);
    await first.evaluate(() => window.qipai.hall.send({ type: 'register', name: 'alice', password: 'correct horse' }));
    await first.waitForFunction(() => window.qipai.hall.user?.name === 'alice');
    await first.context().close();
    // The next visitor gets no guest account, is told why, and is offered the way in.
    const page = await openPage(env.browser, server.url);
    await page.getByRole('alert').filter({ hasText: 'Too many new accounts from your address: log in, or try again later' }).waitFor();
    const user = page.locator('#user');
    assert.equal(await user.innerText(), 'Log in / register');
    await user.click();
    const dialog = page.getByRole('dialog', { name: 'Log in or register' });
    await dialog.getByLabel('Name').fill('alice');
    await dialog.getByLabel('Password').fill('correct horse');
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await page.waitForFunction(() => window.qipai.hall.user?.name === 'alice');
    assert.equal(await user.innerText(), 'alice');
    await quickPlay(page, 'doudizhu');
    await page.locator('.hand .card').first().waitFor({ timeout: 20000 });
    assert.deepEqual(page.errors, []);
  } finally {
    await server.stop();
  }
});

test('the language switches at once, everywhere, and is remembered', async () => {
  const page = await openPage(env.browser, env.server.url);
  const quick = page.locator('.g-gomoku .quick');
  await quick.waitFor();
  assert.equal(await quick.innerText(), 'Play vs computers');
  await page.locator('#lang').click();
  assert.equal(await quick.innerText(), '与电脑对局');
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  await page.reload();
  await page.locator('.g-gomoku .quick').waitFor();
  assert.equal(await page.locator('.g-gomoku .quick').innerText(), '与电脑对局', 'remembered');

  await quickPlay(page, 'gomoku');
  await page.waitForSelector('[data-focus="resign"]');
  assert.equal(await page.locator('[data-focus="resign"]').innerText(), '认输');
  await page.locator('#lang').click();
  // The switch redraws the table in the click's own task: no waiting for a frame.
  assert.equal(await page.evaluate(() => document.querySelector('[data-focus="resign"]').innerText), 'Resign');
  assert.deepEqual(await page.locator('.chat h2').allInnerTexts(), ['Moves', 'Chat']);
  assert.deepEqual(page.errors, []);
});
