// 加倍 / 超级加倍 and 明牌 at a Dou Dizhu table set up from the create-table dialog
// against computers, on a 1280×800 desktop and a 375×812 phone in Chinese (and the desktop
// in English): the choices by clicking, each seat's choice at the seat, the landlord's
// shown hand face up to a spectator, the multiplier's parts in the bar and the stakes at
// the end, the table fitting the screen throughout; and the suits of the cards in Dou
// Dizhu's hand and plays. Screenshots go to target/screenshots/.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, playToEnd, takeTurn, quickPlay, screenshotPath, unseen, DESKTOP, PHONE } from './harness.js';

const env = setup();

const DESKTOP_ZH = { ...DESKTOP, locale: 'zh-CN' };

/** Whether every card drawn under `selector` has a suit (or is a joker). */
async function allSuited(page, selector) {
  return page.evaluate((sel) => {
    const cards = [...document.querySelectorAll(sel)];
    return { n: cards.length, plain: cards.filter((c) => !c.matches('[class*="suit-"], .joker')).map((c) => c.getAttribute('aria-label')) };
  }, selector);
}

/**
 * What keeps a shown hand at `seat` from being read, card by card: a rank smaller than
 * 10 px (the plays on a phone's felt are drawn at about that size; a joker's corner is its
 * small JOKER letters, and its star tells it), or a corner — the rank and suit — covered
 * by the next card of its row or by the row below. Empty when every card can be read.
 */
async function legible(page, seat) {
  return page.evaluate((sel) => {
    const out = [];
    const rows = [...document.querySelectorAll(`${sel} .cardrow.revealed`)];
    rows.forEach((row, k) => {
      const cards = [...row.querySelectorAll('.card')];
      const below = rows[k + 1]?.getBoundingClientRect().top ?? Infinity;
      cards.forEach((card, i) => {
        const corner = card.querySelector('.corner').getBoundingClientRect();
        const size = parseFloat(getComputedStyle(card.querySelector('.corner b')).fontSize);
        const name = card.getAttribute('aria-label');
        if (size < 10 && !card.matches('.joker')) out.push(`${name}: ${size}px`);
        const next = cards[i + 1]?.getBoundingClientRect().left ?? Infinity;
        if (corner.right > next + 0.5) out.push(`${name}: covered by the next card`);
        if (corner.bottom > below + 0.5) out.push(`${name}: covered by the row below`);
      });
    });
    return out;
  }, seat);
}

/**
 * The seats whose name, badges or timer are cut short (a box narrower than what it holds,
 * or a name ended in "…"), each as its text. Empty when every seat can be read whole.
 */
function cutSeats(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.seat .who')]
      .filter((who) => [who, who.querySelector('.nm') ?? who].some((el) => el.scrollWidth > el.clientWidth))
      .map((who) => who.innerText.replace(/\s+/g, ' ')),
  );
}

/** Opens a Dou Dizhu table with 超级加倍 and 明牌 from the dialog, two computers, ready. */
async function stakesTable(page) {
  await page.locator('.g-doudizhu button.ghost').click();
  const dialog = page.locator('dialog');
  await dialog.locator('select[name="doubling"]').selectOption('super');
  await dialog.locator('input[name="show_cards"]').check();
  await dialog.locator('button[value="go"]').click();
  await page.waitForURL(/#\/t\//);
  for (const seat of [1, 2]) await page.locator(`[data-focus="bot-${seat}"]`).click();
  await page.locator('[data-focus="ready"]').click();
  await page.waitForSelector('.stage[data-game] .hand', { timeout: 15000 });
}

const clickAct = (page, act) => page.locator(`.controls button[data-act='${JSON.stringify(act)}']`).click();

for (const [device, options, zh] of [
  ['desktop', DESKTOP_ZH, true],
  ['phone', PHONE, true],
  ['desktop-en', DESKTOP, false],
]) {
  test(`加倍 and 明牌 on a ${device}: chosen by clicking, seen at the seats, in the bar and at the end`, async () => {
    const page = await openPage(env.browser, env.server.url, options);
    await stakesTable(page);
    const table = page.url();
    // The first bidder moves one seat on each game: within three games we bid first and
    // take the landlord's seat with 3, so that we choose 明牌 too.
    let landlord = false;
    for (let game = 0; game < 4 && !landlord; game++) {
      if (game) {
        await page.locator('[data-focus="next"]').click();
        await page.waitForSelector('.overpanel', { state: 'detached' });
      }
      // Bid 3 when our turn comes, while the bidding lasts.
      const until = Date.now() + 30000;
      let phase = 'bidding';
      while (Date.now() < until) {
        phase = await page.evaluate(() => window.qipai.hall.views && [...window.qipai.hall.views.values()][0]?.game?.view?.phase);
        if (phase && phase !== 'bidding') break;
        const bid3 = page.locator(`.controls button[data-act='{"bid":3}']`);
        if (await bid3.count()) await bid3.click();
        await page.waitForTimeout(60);
      }
      assert.ok(phase === 'doubling' || phase === 'finished', `after the bidding comes the doubling (${phase})`);
      if (phase !== 'doubling') continue;
      // The doubling: the peasants first, the landlord last; our three buttons at our turn.
      await page.locator(`.controls button[data-act='{"double":4}']`).waitFor({ timeout: 15000 });
      assert.equal(await page.locator('.controls button[data-act]').count(), 3);
      const labels = await page.locator('.controls button[data-act]').allInnerTexts();
      assert.deepEqual(labels, zh ? ['不加倍', '加倍 ×2', '超级加倍 ×4'] : ['No double', 'Double ×2', 'Super double ×4']);
      assert.match(await page.locator('.tinfo .stakesay').innerText(), zh ? /超级加倍/ : /super double/);
      assert.ok(await page.locator('.seat.acting .timer').count(), 'our turn has a timer');
      assert.deepEqual(await unseen(page), [], 'the doubling, out of sight');
      await page.screenshot({ path: screenshotPath(`stakes-doubling-${device}`) });
      const me = await page.evaluate(() => [...window.qipai.hall.views.values()][0].you);
      landlord = await page.evaluate(() => {
        const tv = [...window.qipai.hall.views.values()][0];
        return tv.game.view.landlord === tv.you;
      });
      await clickAct(page, { double: 4 });
      // Our choice is said at our seat, and kept as a badge.
      await page.locator(`.seat[data-seat="${me}"] .badge.role`, { hasText: zh ? '超级加倍' : 'super ×4' }).waitFor();
      if (!landlord) {
        await playToEnd(page);
        continue;
      }
      // 明牌: the landlord's choice, after every doubling.
      await page.locator(`.controls button[data-act='{"show":true}']`).waitFor({ timeout: 15000 });
      assert.deepEqual(await page.locator('.controls button[data-act]').allInnerTexts(), zh ? ['不明牌', '明牌 ×2'] : ['Keep hidden', 'Show hand ×2']);
      // Each peasant's doubling is said at its seat.
      for (const s of [0, 1, 2].filter((x) => x !== me)) {
        assert.match(await page.locator(`.seat[data-seat="${s}"]`).innerText(), zh ? /加倍/ : /double/i);
      }
      assert.deepEqual(await unseen(page), [], 'the showing, out of sight');
      await page.screenshot({ path: screenshotPath(`stakes-showing-${device}`) });
      await clickAct(page, { show: true });
      await page.locator(`.seat[data-seat="${me}"] .badge.role`, { hasText: zh ? '明牌' : 'hand shown' }).waitFor();
      assert.match(await page.locator('.tinfo').innerText(), zh ? /明牌 ×2/ : /shown hand ×2/);
      assert.match(await page.locator('.tinfo').innerText(), zh ? /地主加倍 ×4/ : /landlord doubled ×4/);
      // The landlord's name with its three badges (地主, 超级加倍, 明牌), and the timer, whole.
      assert.deepEqual(await cutSeats(page), [], 'the seats, cut short');
      // A spectator sees the shown hand face up at our seat, with suits.
      const watcher = await openPage(env.browser, table, options);
      await watcher.waitForSelector(`.seat[data-seat="${me}"] .cardrow.revealed .card`, { timeout: 15000 });
      const shown = await allSuited(watcher, `.seat[data-seat="${me}"] .cardrow.revealed .card`);
      const size = await watcher.evaluate((s) => [...window.qipai.hall.views.values()][0].game.view.hand_sizes[s], me);
      assert.equal(shown.n, size, 'the whole shown hand');
      assert.deepEqual(shown.plain, [], 'the shown hand has suits');
      assert.deepEqual(await legible(watcher, `.seat[data-seat="${me}"]`), [], 'the shown hand can be read');
      assert.deepEqual(await unseen(watcher), [], 'the shown hand, out of sight');
      assert.deepEqual(await cutSeats(watcher), [], 'the seats, cut short, to a spectator');
      await watcher.screenshot({ path: screenshotPath(`stakes-shown-${device}`) });
      await watcher.context().close();
      // Our hand has suits; so have the plays on the table.
      const hand = await allSuited(page, '.hand .card');
      assert.ok(hand.n >= 20 && !hand.plain.length, `the hand has suits: ${hand.plain}`);
      let sawPlay = false;
      await playToEnd(page, {
        onTurn: async () => {
          assert.deepEqual(await unseen(page), [], 'during play, out of sight');
          const played = await allSuited(page, '.played .card');
          assert.deepEqual(played.plain, [], 'the plays have suits');
          sawPlay ||= played.n > 0;
        },
      });
      assert.ok(sawPlay || (await allSuited(page, '.played .card')).n > 0, 'plays were seen on the table');
      // The end: each stake as its product, with the doublings and the shown hand.
      const note = await page.locator('.overpanel .overnote.stakes').innerText();
      assert.match(note, zh ? /地主加倍 4/ : /landlord double 4/);
      assert.match(note, zh ? /明牌 2/ : /shown 2/);
      assert.match(note, /= \d+/);
      assert.deepEqual(await unseen(page), [], 'at the end, out of sight');
      await page.screenshot({ path: screenshotPath(`stakes-end-${device}`) });
    }
    assert.ok(landlord, 'we were the landlord in one of the games');
    assert.deepEqual(page.errors, []);
    assert.deepEqual(page.refusals, []);
    await page.context().close();
  });
}

test('a table without the options is set up as before: no doubling, no 明牌', async () => {
  const page = await openPage(env.browser, env.server.url, DESKTOP_ZH);
  await page.locator('.g-doudizhu button.ghost').click();
  const dialog = page.locator('dialog');
  assert.equal(await dialog.locator('select[name="doubling"]').inputValue(), 'off');
  assert.equal(await dialog.locator('input[name="show_cards"]').isChecked(), false);
  await dialog.locator('button[value="go"]').click();
  await page.waitForURL(/#\/t\//);
  // The address changes on the table's first message; the view it opens learns the table's
  // options from the snapshot its own resume brings, a moment later.
  await page.waitForFunction(() => [...window.qipai.hall.views.values()][0]?.info);
  const config = await page.evaluate(() => [...window.qipai.hall.views.values()][0].info.options.config || {});
  assert.equal(config.doubling, undefined);
  await page.context().close();
  // Only a game whose configuration names the options offers them.
  const other = await openPage(env.browser, env.server.url, DESKTOP_ZH);
  await other.locator('.g-bigtwo button.ghost').click();
  assert.equal(await other.locator('dialog select[name="doubling"]').count(), 0);
  assert.equal(await other.locator('dialog input[name="show_cards"]').count(), 0);
  await other.context().close();
});

test("the table's rules card says what 加倍 and 明牌 do when the table has them, and only then", async () => {
  for (const [options, zh] of [
    [DESKTOP_ZH, true],
    [{ ...PHONE, locale: 'en-US' }, false],
  ]) {
    for (const stakes of [true, false]) {
      const page = await openPage(env.browser, env.server.url, options);
      await page.locator('.g-doudizhu button.ghost').click();
      const dialog = page.locator('dialog');
      if (stakes) {
        await dialog.locator('select[name="doubling"]').selectOption('super');
        await dialog.locator('input[name="show_cards"]').check();
      }
      await dialog.locator('button[value="go"]').click();
      await page.waitForURL(/#\/t\//);
      await page.locator('.tbar [data-focus="rules"]').click();
      const card = page.locator('dialog.rules[open]');
      await card.waitFor();
      const heads = await card.locator('h3').allInnerTexts();
      const text = await card.innerText();
      const head = zh ? '这一桌的加倍和明牌' : 'This table: doubling (加倍) and showing the hand (明牌)';
      if (stakes) {
        assert.ok(heads.includes(head), heads.join(' | '));
        for (const part of zh ? ['超级加倍 ×4', '农民加倍只翻自己和地主之间', '明牌：', '× 地主的加倍 × 这个农民的加倍'] : ['super double ×4', "A farmer's double counts only", 'Showing the hand:', "× the landlord's double × that farmer's double"]) {
          assert.ok(text.includes(part), `${part} in ${text}`);
        }
        await page.screenshot({ path: screenshotPath(`stakes-rules-${zh ? 'desktop-zh' : 'phone-en'}`) });
      } else {
        assert.ok(!heads.includes(head), heads.join(' | '));
      }
      await card.getByRole('button', { name: zh ? '关闭' : 'Close' }).click();
      assert.deepEqual(page.errors, []);
      await page.context().close();
    }
  }
});
