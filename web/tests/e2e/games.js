// A complete game of each of the five games, played from the page against computers with
// one click from the lobby, on a 1280×800 desktop and on a 375×812 phone, the table seen
// whole without scrolling at every turn and at the end; screenshots of every table go to
// target/screenshots/ (docs/screenshots/ with QIPAI_SCREENSHOTS=docs/screenshots), in Chinese.
// This module is the test; games-desktop.test.js and games-phone.test.js run it, side by side.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, playToEnd, quickPlay, screenshotPath, unseen } from './harness.js';

/** Every game of the hall, each played whole on `device` (its name in the screenshots'). */
export function everyGame(env, device, options) {
  // Every game the server offers: the page and this test read the list from it.
  test(`every game on a ${device}`, async (t) => {
    const games = await (await fetch(new URL('api/games', env.server.url))).json();
    assert.ok(games.length >= 5, 'the games are listed');
    for (const { id: game } of games) await t.test(`${game}: a whole game against computers from one click, the table fitting the screen`, async () => {
      const page = await openPage(env.browser, env.server.url, options);
      if (game === games[0].id) {
        await page.locator('.gamecard .quick').first().waitFor();
        await page.screenshot({ path: screenshotPath(`lobby-${device}`) });
        // A guest's name is longer than the phone's top bar allows: it ends in an
        // ellipsis inside its button, never cut at its start.
        await page.waitForFunction(() => window.qipai.hall.user);
        const cut = await page.evaluate(() => {
          const user = document.getElementById('user');
          const name = document.createRange();
          name.selectNodeContents(user.firstChild);
          return name.getBoundingClientRect().left - user.getBoundingClientRect().left;
        });
        assert.ok(cut >= 0, `the name starts inside its button (${cut}px)`);
      }
      // A returning player's table, without the first game's guide (guide.test.js plays
      // every game with it up).
      await page.evaluate((id) => localStorage.setItem(`qipai.guide.${id}`, '1'), game);
      await quickPlay(page, game);
      // A table shot once play is under way: a few moves in, at our turn.
      const shotAt = game === 'tenhalf' ? 2 : game === 'gomoku' ? 5 : 4;
      let shot = false;
      const turns = await playToEnd(page, {
        onTurn: async (n) => {
          // The felt or board, the hand, the buttons and the clocks, all in sight.
          assert.deepEqual(await unseen(page), [], `at turn ${n}, out of sight`);
          if (n === shotAt && !shot) {
            shot = true;
            await page.waitForTimeout(300);
            await page.screenshot({ path: screenshotPath(`${game}-${device}`) });
          }
        },
      });
      // 五人斗地主 can end before our first turn: a landlord's win without play (不打自胜),
      // which the table then announces.
      if (turns === 0 && game === 'doudizhu5') await page.locator('.tinfo .instant').waitFor();
      else assert.ok(turns > 0, 'we played');
      if (!shot) await page.screenshot({ path: screenshotPath(`${game}-${device}`) });
      await page.waitForTimeout(300);
      await page.screenshot({ path: screenshotPath(`${game}-${device}-end`) });
      // The result where the player is looking, its buttons too: no scrolling to find it.
      assert.deepEqual(await unseen(page), [], 'at the end, out of sight');
      // The end-of-game panel: every seat's score and the match totals.
      const rows = await page.locator('.overpanel .scores tbody tr').count();
      assert.ok(rows >= 2, 'a score for every seat');
      // Ten and a half's winner may score 0 (everyone loses points): the panel says how
      // it is won.
      if (game === 'tenhalf') {
        assert.match(await page.locator('.overpanel .overnote').innerText(), /penalty|罚分/);
      }
      // The page's own fairness check: the revealed seed gives the commitment shown
      // before the deal, and our nonce is in the deal. Where nothing is dealt (a board
      // game), there is no deal to check and no such line.
      const board = (await page.locator('.goban').count()) > 0;
      if (board) {
        assert.equal(await page.locator('.overpanel .fair').count(), 0, 'no "fair deal" line where nothing is dealt');
      } else {
        await page.locator('.overpanel .fair.ok').waitFor();
        assert.match(await page.locator('.overpanel .fair').innerText(), /✓/);
      }
      if (device === 'phone') {
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(width <= 376, `nothing wider than the phone (${width}px)`);
      }
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  });
}
