// Rules, a guided first game and quick phrases (issue 43, "what players miss most" 1 and 8):
// every game of the lobby has a rules card in both languages; the first table of a game
// shows five coach marks that never block play, skipped by Escape, not shown again after a
// reload, shown again from the rules; a quick phrase sent from the chat reaches the others.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setup, openPage, quickPlay, screenshotPath, unseen, takeTurn, DESKTOP, PHONE } from './harness.js';

const env = setup();

// Screenshots to look at, outside the repository when asked (QIPAI_GUIDE_SHOTS).
function shot(name) {
  const dir = process.env.QIPAI_GUIDE_SHOTS;
  if (!dir) return screenshotPath(`guide-${name}`);
  mkdirSync(dir, { recursive: true });
  return join(dir, `${name}.png`);
}

/** The games of the lobby, as its cards list them. */
async function lobbyGames(page) {
  await page.waitForSelector('.gamecard');
  return page.locator('.gamecard').evaluateAll((cards) => cards.map((c) => c.dataset.game));
}

/** Where an element lies, or null when it is not shown. */
const box = (page, sel) =>
  page.evaluate((s) => {
    const el = document.querySelector(s);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    return r.width && r.height ? { left: r.left, top: r.top, right: r.right, bottom: r.bottom } : null;
  }, sel);

const meets = (a, b) => a && b && Math.min(a.right, b.right) > Math.max(a.left, b.left) && Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top);

/** The coach mark is in the window, hides neither what it points at nor any of the action
 * buttons, and the table fits. */
async function guideFits(page, what) {
  const coach = await box(page, '.coach');
  assert.ok(coach, `${what}: the coach mark shows`);
  const { w, h } = await page.evaluate(() => ({ w: innerWidth, h: innerHeight }));
  assert.ok(coach.left >= 0 && coach.top >= 0 && coach.right <= w && coach.bottom <= h, `${what}: the coach mark is in the window: ${JSON.stringify(coach)}`);
  const target = await box(page, '.tableview .coached');
  assert.ok(target, `${what}: the coach mark points at a part of the table`);
  assert.ok(!meets(coach, target), `${what}: the coach mark leaves what it points at in sight: ${JSON.stringify({ coach, target })}`);
  const buttons = await page.locator('.tableview .controls button').evaluateAll((bs) =>
    bs.map((b) => b.getBoundingClientRect()).filter((r) => r.width).map((r) => ({ left: r.left, top: r.top, right: r.right, bottom: r.bottom })),
  );
  for (const b of buttons) assert.ok(!meets(coach, b), `${what}: the coach mark leaves the buttons free: ${JSON.stringify({ coach, b })}`);
  assert.deepEqual(await unseen(page), [], `${what}: the table fits`);
  assert.equal(await page.evaluate(() => document.documentElement.scrollWidth <= innerWidth), true, `${what}: no sideways scroll`);
}

test('every game of the lobby has a rules card in English and Chinese that fits the window', async () => {
  for (const [options, name] of [
    [DESKTOP, 'desktop-en'],
    [PHONE, 'phone-zh'],
  ]) {
    const page = await openPage(env.browser, env.server.url, options);
    const ids = await lobbyGames(page);
    assert.ok(ids.length >= 5, ids.join());
    for (const id of ids) {
      const card = page.locator(`.gamecard[data-game="${id}"]`);
      await card.getByRole('button', { name: options === PHONE ? '玩法' : 'How to play' }).click();
      const dlg = page.locator('dialog.rules[open]');
      await dlg.waitFor();
      const text = await dlg.innerText();
      assert.ok(text.length > 300, `${id} ${name}: the rules say enough: ${text}`);
      assert.ok((await dlg.locator('h3').count()) >= 3, `${id} ${name}: the rules come in sections`);
      if (options === PHONE) assert.ok((text.match(/[\u4e00-\u9fff]/g) || []).length > 150, `${id}: the rules are in Chinese`);
      else assert.doesNotMatch(text.replace(/[（(][^)）]*[)）]|"[^"]*"|[明独找暗]/g, ''), /[\u4e00-\u9fff]{3}/, `${id}: the rules are in English`);
      // The dialog is in the window, its buttons too; its sections scroll inside it.
      const d = await box(page, 'dialog.rules[open]');
      const close = await box(page, 'dialog.rules[open] button.primary');
      const { w, h } = await page.evaluate(() => ({ w: innerWidth, h: innerHeight }));
      for (const r of [d, close]) assert.ok(r.left >= 0 && r.top >= 0 && r.right <= w && r.bottom <= h, `${id} ${name}: in the window: ${JSON.stringify(r)}`);
      await page.screenshot({ path: shot(`rules-${id}-${name}`) });
      await dlg.getByRole('button', { name: options === PHONE ? '关闭' : 'Close' }).click();
      await dlg.waitFor({ state: 'detached' });
    }
    assert.deepEqual(page.errors, []);
    await page.context().close();
  }
});

test('the guide: shown at the first table of a game, stepped through, skipped by Escape, not shown again, shown again from the rules', async () => {
  const page = await openPage(env.browser, env.server.url);
  await quickPlay(page, 'doudizhu');
  const coach = page.getByRole('dialog', { name: /^Guide 1\/5$/ });
  await coach.waitFor({ timeout: 15000 });
  assert.match(await page.locator('.coach').innerText(), /tap a card/);
  assert.equal(await page.locator('.tableview .hand.coached').count(), 1, 'the first step points at the hand');
  await guideFits(page, 'step 1');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('dialog', { name: 'Guide 2/5' }).waitFor();
  assert.equal(await page.locator('.tableview .controls.coached').count(), 1, 'the second step points at the buttons');
  await guideFits(page, 'step 2');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('dialog', { name: 'Guide 3/5' }).waitFor();
  // Escape skips the rest.
  await page.keyboard.press('Escape');
  await page.locator('.coach').waitFor({ state: 'detached' });
  assert.equal(await page.locator('.coached').count(), 0);

  // Not again after a reload.
  await page.reload();
  await page.waitForSelector('.tableview .hand, .overpanel', { timeout: 15000 });
  await page.waitForTimeout(800);
  assert.equal(await page.locator('.coach').count(), 0, 'no guide after a reload');

  // Again from the rules, at once, at this table.
  await page.locator('.tbar button', { hasText: 'How to play' }).click();
  await page.locator('dialog.rules[open]').getByRole('button', { name: 'Show the guide again' }).click();
  await page.getByRole('dialog', { name: 'Guide 1/5' }).waitFor();
  for (let n = 2; n <= 5; n++) {
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('dialog', { name: `Guide ${n}/5` }).waitFor();
  }
  assert.match(await page.locator('.coach').innerText(), /How to win: .*first/);
  await page.getByRole('button', { name: 'Got it' }).click();
  await page.locator('.coach').waitFor({ state: 'detached' });
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the guide of every game fits 1280×800 and 375×812, in both languages, at each step, and play goes on under it', async () => {
  const lobby = await openPage(env.browser, env.server.url);
  const ids = await lobbyGames(lobby);
  await lobby.context().close();
  for (const id of ids) {
    for (const [options, name, next] of [
      [DESKTOP, 'desktop-en', 'Next'],
      [PHONE, 'phone-zh', '下一步'],
    ]) {
      const page = await openPage(env.browser, env.server.url, options);
      await quickPlay(page, id);
      await page.locator('.coach').waitFor({ timeout: 15000 });
      for (let n = 1; n <= 5; n++) {
        await guideFits(page, `${id} ${name} step ${n}`);
        await page.screenshot({ path: shot(`guide-${id}-${name}-${n}`) });
        if (n < 5) {
          await page.locator('.coach').getByRole('button', { name: next }).click();
          await page.locator('.coachhead', { hasText: `${n + 1}/5` }).waitFor();
        }
      }
      // The clock runs: with the guide still up, our turns are taken with the table's own
      // controls, through the coach mark.
      let turns = 0;
      const end = Date.now() + 20000;
      while (turns < 2 && Date.now() < end && !(await page.locator('.overpanel').isVisible())) {
        if (await takeTurn(page)) turns++;
        else await page.waitForTimeout(100);
      }
      assert.ok(turns >= 1 || (await page.locator('.overpanel').isVisible()), `${id} ${name}: play went on under the guide`);
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  }
});

test('a quick phrase is one tap (or a key) and the others read it', async () => {
  const a = await openPage(env.browser, env.server.url);
  await quickPlay(a, 'doudizhu');
  const table = a.url().split('#/t/')[1];
  assert.ok(table, a.url());
  const b = await openPage(env.browser, `${env.server.url}#/t/${table}`, PHONE);
  await b.waitForSelector('.stage[data-game]');

  // A, on a desktop in English: open the phrases, tap one.
  await a.locator('.quickchat summary', { hasText: 'Phrases' }).click();
  const phrases = a.getByRole('group', { name: 'Quick phrases' });
  assert.ok((await phrases.getByRole('button').count()) >= 8);
  // The phrases open over the chat's lines, inside the window; the field stays.
  const list = await box(a, '.quicklist');
  assert.ok(list.left >= 0 && list.right <= 1280 && list.bottom <= 800, JSON.stringify(list));
  assert.ok(await a.getByRole('textbox', { name: 'Say something…' }).isVisible());
  await a.screenshot({ path: shot('quickchat-desktop-en') });
  await phrases.getByRole('button', { name: 'Nice hand!' }).click();
  await b.waitForFunction(() => document.querySelector('.chatlines')?.innerText.includes('Nice hand!'), null, { timeout: 10000 });
  assert.equal(await a.locator('.quickchat').evaluate((d) => d.open), false, 'the phrases close once one is sent');

  // B, watching on a phone in Chinese, by the keyboard alone.
  await b.locator('.quickchat summary').focus();
  await b.keyboard.press('Enter');
  await b.getByRole('group', { name: '常用语' }).waitFor();
  await b.keyboard.press('Tab');
  assert.equal(await b.evaluate(() => document.activeElement.textContent), '快点吧');
  await b.locator('.chat').evaluate((c) => c.scrollIntoView({ block: 'end' }));
  const phone = await box(b, '.quicklist');
  assert.ok(phone.left >= 0 && phone.right <= 375, JSON.stringify(phone));
  await b.screenshot({ path: shot('quickchat-phone-zh') });
  await b.keyboard.press('Enter');
  await a.waitForFunction(() => document.querySelector('.chatlines')?.innerText.includes('快点吧'), null, { timeout: 10000 });
  assert.deepEqual([...a.errors, ...b.errors], []);
  await a.context().close();
  await b.context().close();
});
