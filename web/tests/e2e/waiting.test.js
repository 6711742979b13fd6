// The waiting room of a new table: its buttons wait for the table as the server has it
// now (what a resume replays before its snapshot is past: a new table's first seats are
// all empty, ours among them, and a press there could only be refused); Add computer asks
// once, however quickly it is pressed again, and the keyboard goes on to the next seat's.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, screenshotPath } from './harness.js';

const env = setup();

test("a new table's waiting room offers its buttons once the table has answered; a double click on Add computer seats one computer", async () => {
  const page = await openPage(env.browser, env.server.url);
  await page.waitForFunction(() => window.qipai.hall.user);
  // The page's connection, through a relay that holds back the table's answer to the view's
  // resume (as a slow network may), until the waiting room drawn meanwhile has been looked
  // at; it keeps every refusal the server sends.
  let release;
  const held = new Promise((done) => (release = done));
  const refusals = [];
  let resumed = false;
  let holding = false;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => {
      if (typeof m === 'string' && JSON.parse(m).type === 'resume') resumed = true;
      server.send(m);
    });
    let order = Promise.resolve();
    server.onMessage((m) => {
      const type = typeof m === 'string' ? JSON.parse(m).type : null;
      if (type === 'error') refusals.push(m);
      // The snapshot that answers the table view's resume comes after the seats the
      // resume replays.
      const hold = type === 'table' && resumed && !holding;
      if (hold) holding = true;
      order = order.then(async () => {
        if (hold) await held;
        ws.send(m);
      });
    });
  });
  await page.reload();
  await page.waitForFunction(() => window.qipai.hall.open);
  await page.locator('.g-tenhalf .gamebtns button.ghost', { hasText: 'New table' }).click();
  await page.locator('dialog button[value="go"]').click();
  await page.waitForURL(/#\/t\//);
  // The seats as the resume replays them, before the table's snapshot: four, and nothing
  // to press.
  const seats = page.locator('.waiting .wseats li');
  await page.waitForFunction(() => document.querySelectorAll('.waiting .wseats li').length === 4);
  assert.deepEqual(await page.locator('.waiting button').allInnerTexts(), [], 'no button before the table has answered');
  release();
  await page.locator('.waiting [data-focus="ready"]').waitFor();
  assert.ok(holding, 'the snapshot that answered the resume was held');
  assert.deepEqual(await page.locator('.waiting button').allInnerTexts(), ['Add computer', 'Add computer', 'Add computer', 'Ready']);
  assert.match(await seats.first().innerText(), new RegExp(await page.evaluate(() => window.qipai.hall.user.name)));
  // Before its first game the header counts no game ("Game 0" would only puzzle).
  const head = await page.locator('.tbar h1 small').innerText();
  assert.ok(!/\d/.test(head), `no game number before the first game: "${head}"`);
  // A double click asks for one computer.
  await page.locator('[data-focus="bot-1"]').dblclick();
  await page.waitForFunction(() => window.qipai.view.info.seats[1].bot);
  // The keyboard goes on to the next seat's Add computer, then to Ready. The table answers
  // in order: any refusal of a second computer for seat 1 has come before seat 2 is filled.
  await page.waitForFunction(() => document.activeElement?.dataset.focus === 'bot-2');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.qipai.view.info.seats[2].bot && document.activeElement?.dataset.focus === 'bot-3');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => window.qipai.view.info.seats[3].bot && document.activeElement?.dataset.focus === 'ready');
  assert.deepEqual(refusals, []);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the waiting room asks us for Ready once every other seat is taken and ready, and names each computer player in words, in both languages', async () => {
  const page = await openPage(env.browser, env.server.url);
  await page.waitForFunction(() => window.qipai.hall.user);
  await page.locator('.g-doudizhu .gamebtns button.ghost', { hasText: 'New table' }).click();
  await page.locator('dialog button[value="go"]').click();
  await page.locator('.waiting [data-focus="ready"]').waitFor();
  const heading = page.locator('.waiting h2');
  // Seats still empty: the table waits for others, whether or not we are ready.
  assert.equal(await heading.innerText(), 'Waiting for players…');
  await page.locator('[data-focus="bot-1"]').click();
  const seated = (n) => page.waitForFunction((n) => document.querySelectorAll('.waiting .wseat.ready').length === n, n);
  await seated(1);
  assert.equal(await heading.innerText(), 'Waiting for players…', 'one seat is still empty');
  await page.locator('[data-focus="bot-2"]').click();
  await seated(2);
  // Every other seat taken and ready: only our Ready is missing, and the heading says so.
  assert.equal(await heading.innerText(), 'Everyone else is ready: press Ready to start');
  // The computers are named by the level the table seats (the server's "search"), not by
  // the server's id for their program.
  assert.deepEqual(await page.locator('.waiting .badge.bot').allInnerTexts(), ['Normal', 'Normal']);
  const shoot = async (name) => {
    for (const [width, height] of [
      [1280, 800],
      [375, 812],
    ]) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: screenshotPath(`${name}-${width}`) });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  };
  await shoot('waiting-yourready-en');
  await page.locator('#lang').click();
  // Drawn anew in Chinese; the Ready button comes with the table's snapshot.
  await page.locator('.waiting [data-focus="ready"]', { hasText: '准备' }).waitFor();
  assert.equal(await heading.innerText(), '其他人都已准备好：按“准备”开始');
  assert.deepEqual(await page.locator('.waiting .badge.bot').allInnerTexts(), ['普通', '普通']);
  assert.ok(!(await page.locator('.waiting').innerText()).includes('search'));
  await shoot('waiting-yourready-zh');
  // Ready: the game starts, the computers at the table named in Chinese too.
  await page.locator('[data-focus="ready"]').click();
  await page.locator('.stage .cardgame').waitFor();
  await shoot('table-computers-zh');
  await page.locator('#lang').click();
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await shoot('table-computers-en');
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.refusals, []);
  await page.context().close();
});
