// Two people in two browser contexts play Gomoku against each other: a private table opened
// from the lobby without computers, joined by its invite link, an undo asked and accepted,
// and a five; the game then shows in each player's own history, and in no one else's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, startServer, openPage, screenshotPath, PHONE } from './harness.js';

const env = setup();

async function place(page, x, y) {
  await page.waitForSelector('.goban.playable', { timeout: 10000 });
  await page.locator(`rect[data-point="${x},${y}"]`).click();
  await page.waitForSelector('.goban:not(.playable)', { timeout: 10000 });
}

/**
 * Black (`a`, its stone on 7,7) plays 7,6 down to 7,3, the five that wins; White (`b`)
 * answers along the edge at 0,`row` and on.
 */
async function blackMakesFive(a, b, row) {
  for (let i = 0; i < 4; i++) {
    await place(a, 7, 6 - i);
    if (i < 3) await place(b, 0, row + i);
  }
}

/** Registers the page's guest as `name`, from the top bar's "Log in / register". */
async function register(page, name) {
  // The button is in the page before its script runs: wait until the page has its guest.
  await page.waitForFunction(() => window.qipai?.hall?.user);
  await page.locator('#user').click();
  const dialog = page.getByRole('dialog', { name: 'Log in or register' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Password').fill(`${name}'s password`);
  await dialog.getByRole('button', { name: 'Register' }).click();
  await page.waitForFunction((n) => window.qipai.hall.user?.name === n && !window.qipai.hall.user.guest, name);
}

/**
 * Two people at a private Gomoku table without computers, both ready: `a` opens it (with
 * `turnSeconds` a turn, if given; rated, if `rated`) and `b` joins by its invite link,
 * each first registered under its name in `names`, if given. Returns the pages and the
 * link.
 */
async function privateGomoku({ turnSeconds, rated, names } = {}) {
  const a = await openPage(env.browser, env.server.url);
  if (names) await register(a, names[0]);
  await a.locator('.g-gomoku button.ghost').click();
  const dialog = a.locator('dialog');
  if (turnSeconds) await dialog.locator('label', { hasText: 'Seconds per turn' }).locator('input').fill(String(turnSeconds));
  await dialog.locator('label.check', { hasText: 'Computers may play' }).locator('input').uncheck();
  await dialog.locator('label.check', { hasText: 'Private' }).locator('input').check();
  if (rated) await dialog.locator('label.check', { hasText: 'Rated' }).locator('input').check();
  await dialog.locator('button[value="go"]').click();
  await a.waitForURL(/#\/t\//);
  await a.locator('[data-focus="invite"]').click();
  const link = (await a.locator('#toast').innerText()).match(/http\S+/)[0];
  const b = await openPage(env.browser, names ? env.server.url : link);
  if (names) {
    await register(b, names[1]);
    await b.evaluate((l) => { location.href = l; }, link);
  }
  await b.waitForSelector('.waiting [data-focus="ready"]');
  await a.waitForSelector('.waiting [data-focus="ready"]');
  await a.locator('[data-focus="ready"]').click();
  await b.locator('[data-focus="ready"]').click();
  return { a, b, link };
}

test('two people play Gomoku; an undo is asked and accepted; five in a row wins', async () => {
  // A private table is joined by its invite link only.
  const { a, b, link } = await privateGomoku();
  assert.match(link, /#\/join\/\w+\/\w+$/);
  await a.waitForSelector('.goban');
  await b.waitForSelector('.goban');

  await place(a, 7, 7);
  await place(b, 0, 0);
  await place(a, 7, 6);
  await place(b, 0, 1);
  // b's board turns off at b's click; a's shows the stone once the server has passed it on.
  await a.waitForFunction(() => document.querySelectorAll('.goban .stone').length === 4);

  // Black asks to take back its last move (and White's reply); White accepts.
  await a.waitForSelector('.goban.playable');
  await a.locator('[data-focus="undo"]').click();
  await b.waitForSelector('.undoask');
  await b.screenshot({ path: screenshotPath('gomoku-undo-asked') });
  await b.locator('.undoask [data-focus="accept"]').click();
  await a.waitForFunction(() => document.querySelectorAll('.goban .stone').length === 2);
  await b.waitForFunction(() => document.querySelectorAll('.goban .stone').length === 2);

  // Black makes five down the h file; White plays along the edge.
  await blackMakesFive(a, b, 1);
  await a.waitForSelector('.overpanel');
  await b.waitForSelector('.overpanel');
  assert.match(await a.locator('.overpanel h2').innerText(), /won/i);
  assert.match(await b.locator('.overpanel h2').innerText(), /lost/i);
  assert.equal(await a.locator('.goban .stone.win').count(), 5, 'the winning five is marked');
  await a.screenshot({ path: screenshotPath('gomoku-five') });

  // The SGF download of the finished game.
  const href = await a.locator('.overpanel a[download]').getAttribute('href');
  const sgf = await (await fetch(new URL(href, env.server.url))).text();
  assert.match(sgf, /^\(;/);

  // The game was private: a's own profile lists it, marked so; b, who played it, sees it
  // in b's own history, and a's profile as b sees it lists nothing.
  const id = decodeURIComponent(href.split('/')[3]);
  const aName = await a.evaluate(() => window.qipai.hall.user.name);
  for (const page of [a, b]) {
    await page.evaluate(() => { location.hash = '#/profile'; });
    const row = page.locator('table.history tbody tr').first();
    await row.waitFor();
    assert.equal(await row.locator('.badge').innerText(), 'private');
    assert.equal(await row.locator('a', { hasText: 'Replay' }).getAttribute('href'), `#/replay/${encodeURIComponent(id)}`);
  }
  await a.screenshot({ path: screenshotPath('profile-private') });
  await b.evaluate((name) => { location.hash = `#/profile/${encodeURIComponent(name)}`; }, aName);
  await b.waitForFunction((name) => document.querySelector('.profile h1')?.innerText.startsWith(name), aName);
  assert.equal(await b.locator('.profile p.note').innerText(), 'No finished games yet.');
  assert.equal(await b.locator('table.history').count(), 0);
  assert.deepEqual([...a.errors, ...b.errors], []);
});

test('a player whose turn runs out loses, and the table log and the board say the clock ran out', async () => {
  const { a, b } = await privateGomoku({ turnSeconds: 5 });
  // Black (a) never moves: after five seconds the rules' default move, a resignation.
  await a.waitForSelector('.goban.playable', { timeout: 10000 });
  await a.waitForSelector('.overpanel', { timeout: 20000 });
  await b.waitForSelector('.overpanel', { timeout: 20000 });
  assert.match(await a.locator('.overpanel h2').innerText(), /lost/i);
  for (const page of [a, b]) {
    const log = await page.locator('.chat .note').allInnerTexts();
    assert.ok(log.some((line) => /ran out of time/.test(line)), `the log says so: ${log.join(' | ')}`);
    // The caption under the board too, rather than "Black resigned".
    assert.equal(await page.locator('.gstatus').innerText(), 'Black ran out of time');
  }
  await b.screenshot({ path: screenshotPath('gomoku-timed-out') });
  assert.deepEqual([...a.errors, ...b.errors], []);
});

test('two registered players play a rated game, and the rankings list them, the winner first', async () => {
  const { a, b } = await privateGomoku({ rated: true, names: ['ann', 'ben'] });
  await place(a, 7, 7);
  await place(b, 0, 0);
  await blackMakesFive(a, b, 1);
  await b.waitForSelector('.overpanel');
  // The rankings, from the top bar: the first game's tab has no rated games yet.
  await b.locator('.topnav a', { hasText: 'Rankings' }).click();
  await b.waitForURL(/#\/ranks$/);
  assert.equal(await b.locator('.topnav a[aria-current]').innerText(), 'Rankings');
  assert.equal(await b.locator('.rankings p.note').first().innerText(), 'No rated games of Dou Dizhu yet.');
  await b.locator('.gametabs a', { hasText: 'Gomoku' }).click();
  await b.waitForURL(/#\/ranks\/gomoku$/);
  const rows = b.locator('table.ranks tbody tr:not(.sub)');
  await rows.first().waitFor();
  const table = [];
  for (const row of await rows.all()) table.push(await row.locator('td').allInnerTexts());
  // One game each: both provisional, so listed under their own heading, unranked.
  assert.deepEqual(await b.locator('table.ranks tbody tr').first().innerText(), 'Not ranked yet (few games)');
  assert.deepEqual(table.map((r) => [r[0], r[1], r[3]]), [['', 'ann', '1'], ['', 'ben', '1']]);
  // One game moves each from 1500, the winner up.
  const [up, down] = table.map((r) => r[2]);
  assert.match(up, /^\d+\?$/);
  assert.ok(parseInt(up, 10) > 1500 && parseInt(down, 10) < 1500, `${up} ${down}`);
  assert.equal(await b.locator('table.ranks tr.me td').nth(1).innerText(), 'ben', 'our own row stands out');
  await b.screenshot({ path: screenshotPath('rankings') });
  // A name opens that player's profile: ann's rating, but not the game, which was at a
  // private table. In ben's own history it is, and ann's name there links to her too.
  await b.locator('table.ranks a', { hasText: 'ann' }).click();
  await b.waitForURL(/#\/profile\/ann$/);
  await b.locator('.profile .rating', { hasText: 'Gomoku' }).waitFor();
  assert.equal(await b.locator('.profile p.note').innerText(), 'No finished games yet.');
  // Her rating is provisional there too; and "Profile" in the top bar is ben's own, not
  // the page on show.
  assert.match(await b.locator('.profile .rating b').innerText(), /^\d+\?$/);
  assert.equal(await b.locator('.topnav a[aria-current]').count(), 0);
  await b.locator('.topnav a', { hasText: 'Profile' }).click();
  await b.waitForFunction(() => document.querySelector('.topnav a[aria-current]')?.textContent === 'Profile');
  await b.locator('table.history td.with a', { hasText: 'ann' }).click();
  await b.waitForURL(/#\/profile\/ann$/);
  await b.locator('.profile .rating', { hasText: 'Gomoku' }).waitFor();
  assert.deepEqual([...a.errors, ...b.errors], []);
});

test('a password change keeps this window logged in and logs every other session out', async () => {
  const first = await openPage(env.browser, env.server.url);
  await register(first, 'cai');
  // The same account in another browser: this window takes the connection over, and the
  // first keeps its token for the next visit.
  const b = await openPage(env.browser, env.server.url);
  await b.waitForFunction(() => window.qipai.hall.user);
  await b.locator('#user').click();
  const login = b.getByRole('dialog', { name: 'Log in or register' });
  await login.getByLabel('Name').fill('cai');
  await login.getByLabel('Password').fill("cai's password");
  await login.getByRole('button', { name: 'Log in' }).click();
  await b.waitForFunction(() => window.qipai.hall.user?.name === 'cai');
  const change = async (current, next, again) => {
    await b.locator('#user').click();
    await b.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Change password' }).click();
    const d = b.getByRole('dialog', { name: 'Change password' });
    await d.getByLabel('Current password').fill(current);
    await d.getByLabel('New password', { exact: true }).fill(next);
    await d.getByLabel('New password again').fill(again);
    await d.getByRole('button', { name: 'Change', exact: true }).click();
    return d;
  };
  // Two different new passwords: the form is not sent.
  const d = await change("cai's password", 'a new secret', 'another secret');
  assert.ok(await d.isVisible(), 'the dialog stays open');
  await b.screenshot({ path: screenshotPath('password-change') });
  await d.getByRole('button', { name: 'Close' }).click();
  await change('a wrong guess', 'a new secret', 'a new secret');
  await b.locator('#toast', { hasText: 'Wrong password' }).waitFor();
  await change("cai's password", 'a new secret', 'a new secret');
  // One: the first window's (its guest session ended when it registered).
  await b.locator('#toast', { hasText: 'Password changed. Other logins ended: 1.' }).waitFor();
  // This window stays logged in, across a reload too; the first one's session has ended.
  await b.reload();
  await b.waitForFunction(() => window.qipai.hall.user?.name === 'cai');
  await first.reload();
  await first.waitForFunction(() => window.qipai.hall.user?.guest === true);
  // The old password no longer logs in; the new one does.
  await first.locator('#user').click();
  const again = first.getByRole('dialog', { name: 'Log in or register' });
  await again.getByLabel('Name').fill('cai');
  await again.getByLabel('Password').fill("cai's password");
  await again.getByRole('button', { name: 'Log in' }).click();
  await first.locator('#toast', { hasText: 'Wrong password' }).waitFor();
  await first.locator('#user').click();
  await again.getByLabel('Name').fill('cai');
  await again.getByLabel('Password').fill('a new secret');
  await again.getByRole('button', { name: 'Log in' }).click();
  await first.waitForFunction(() => window.qipai.hall.user?.name === 'cai');
  assert.deepEqual([...first.errors, ...b.errors], []);
});

test("a moderator bans a player from the player's profile, finds the ban listed on their own, and lifts it", async () => {
  const server = await startServer(['--moderator', 'mona']);
  try {
    const mona = await openPage(env.browser, server.url);
    await register(mona, 'mona');
    const carl = await openPage(env.browser, server.url);
    await register(carl, 'carl');
    // A profile offers nothing to moderate to anyone else.
    await carl.goto(`${server.url}#/profile/mona`);
    await carl.locator('.profile h1').waitFor();
    assert.equal(await carl.getByRole('button', { name: 'Ban…' }).count(), 0);
    await mona.goto(`${server.url}#/profile/carl`);
    mona.once('dialog', (d) => d.accept('abuse in chat'));
    await mona.getByRole('button', { name: 'Ban…' }).click();
    await mona.locator('#toast', { hasText: 'carl is banned.' }).waitFor();
    await mona.locator('.profile h1 .badge', { hasText: 'banned' }).waitFor();
    await carl.locator('#toast', { hasText: 'banned by a moderator: abuse in chat' }).waitFor();
    await carl.waitForFunction(() => !window.qipai.hall.user || window.qipai.hall.user.name !== 'carl');
    await mona.screenshot({ path: screenshotPath('moderation-banned') });
    // The moderator's own profile lists the bans, each name a way to its profile.
    await mona.goto(`${server.url}#/profile/mona`);
    await mona.getByRole('heading', { name: 'Banned accounts' }).waitFor();
    const listed = mona.locator('.profile ul.bans li', { hasText: 'abuse in chat' });
    await listed.waitFor();
    assert.equal(await mona.locator('.profile ul.bans li').count(), 1);
    await mona.screenshot({ path: screenshotPath('moderation-bans') });
    await listed.getByRole('link', { name: 'carl' }).click();
    await mona.getByRole('button', { name: 'Lift the ban' }).click();
    await mona.locator('#toast', { hasText: 'carl is no longer banned.' }).waitFor();
    await mona.getByRole('button', { name: 'Ban…' }).waitFor();
    assert.equal(await mona.locator('.profile h1 .badge', { hasText: 'banned' }).count(), 0);
    await mona.goto(`${server.url}#/profile/mona`);
    await mona.locator('.profile ul.bans li', { hasText: 'Nobody is banned.' }).waitFor();
    assert.deepEqual([...mona.errors, ...carl.errors], []);
  } finally {
    await server.stop();
  }
});

test('a player deletes their account: the password and a box to tick, then the page plays on as a guest', async () => {
  const page = await openPage(env.browser, env.server.url);
  await register(page, 'dee');
  const open = async () => {
    await page.locator('#user').click();
    await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Delete account' }).click();
    return page.getByRole('dialog', { name: 'Delete account' });
  };
  // Without the box ticked, nothing is sent.
  let d = await open();
  await d.getByLabel('Password').fill("dee's password");
  await d.getByRole('button', { name: 'Delete', exact: true }).click();
  assert.ok(await d.isVisible(), 'the dialog stays open');
  await d.getByRole('button', { name: 'Close' }).click();
  d = await open();
  await d.getByLabel('Password').fill('a wrong guess');
  await d.getByLabel('I want to delete this account').check();
  await d.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.locator('#toast', { hasText: 'Wrong password' }).waitFor();
  assert.equal(await page.evaluate(() => window.qipai.hall.user.name), 'dee');
  d = await open();
  await d.getByLabel('Password').fill("dee's password");
  await d.getByLabel('I want to delete this account').check();
  await page.screenshot({ path: screenshotPath('delete-account') });
  await d.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.locator('#toast', { hasText: 'The account is deleted.' }).waitFor();
  await page.waitForFunction(() => window.qipai.hall.user?.guest === true);
  // The name is free again.
  await register(page, 'dee');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('a name typed in full width is kept in the usual letters, and a name that mixes scripts to pass for another is refused', async () => {
  // A phone in Chinese, its input method left in full width.
  const phone = await openPage(env.browser, env.server.url, PHONE);
  await phone.waitForFunction(() => window.qipai.hall.user);
  const registerAs = async (page, name) => {
    await page.locator('#user').click();
    const dialog = page.getByRole('dialog', { name: '登录或注册' });
    await dialog.getByLabel('用户名').fill(name);
    await dialog.getByLabel('密码').fill('a long password');
    await dialog.getByRole('button', { name: '注册' }).click();
  };
  await registerAs(phone, 'ｄａｉ');
  await phone.waitForFunction(() => window.qipai.hall.user?.name === 'dai' && !window.qipai.hall.user.guest);
  await phone.locator('#user', { hasText: 'dai' }).waitFor();
  // Another phone: "dаi" with a Cyrillic "а" looks like dai and is refused, saying why.
  const other = await openPage(env.browser, env.server.url, PHONE);
  await other.waitForFunction(() => window.qipai.hall.user);
  await registerAs(other, 'd\u0430i');
  await other.locator('#toast', { hasText: '只用一种文字' }).waitFor();
  await other.waitForTimeout(300); // the toast's slide-in, for the picture
  await other.screenshot({ path: screenshotPath('name-one-script') });
  await registerAs(other, 'DAI');
  await other.locator('#toast', { hasText: '用户名已被占用' }).waitFor();
  assert.equal(await other.evaluate(() => window.qipai.hall.user.guest), true);
  // Eighteen characters, half of them from beyond the Basic Multilingual Plane, which the
  // browser counts twice each: all of it reaches the server.
  const rare = '𠮷田'.repeat(9);
  await registerAs(other, rare);
  await other.waitForFunction((n) => window.qipai.hall.user?.name === n, rare);
  // In English, on a desktop: the full-width name logs in to dai.
  const desk = await openPage(env.browser, env.server.url);
  await desk.waitForFunction(() => window.qipai.hall.user);
  await desk.locator('#user').click();
  const login = desk.getByRole('dialog', { name: 'Log in or register' });
  await login.getByLabel('Name').fill('ＤＡＩ');
  await login.getByLabel('Password').fill('a long password');
  await login.getByRole('button', { name: 'Log in' }).click();
  await desk.waitForFunction(() => window.qipai.hall.user?.name === 'dai');
  assert.deepEqual([...phone.errors, ...other.errors, ...desk.errors], []);
});
