// Ten and a half told on the table: each round's showdown (who stood at what, who lost,
// the penalty and the pot) stays on the felt through the next round; a seat that busted
// and plays on with a new base card is not drawn as a bust, and its penalty points are
// named as such; and the page explains this variant, from the lobby and from the table,
// in both languages.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, quickPlay, takeTurn, screenshotPath, PHONE } from './harness.js';

const env = setup();

/** Waits for our turn or the end of the game: true on our turn. */
async function ourTurn(page) {
  const turn = () => window.qipai.view?.myTurn() || (window.qipai.view?.over && document.querySelector('.overpanel') && 'over');
  await page.waitForFunction(turn, null, { timeout: 20000 });
  return (await page.evaluate(turn)) === true;
}

/** What the felt shows, against the view it was drawn from. */
function felt(page) {
  return page.evaluate(async () => {
    // The table is redrawn on the next frame after a message: read it once drawn.
    await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
    const tv = window.qipai.view;
    const v = tv.game.view;
    const seats = v.players.map((p) => {
      const el = document.querySelector(`.seat[data-seat="${p.seat}"]`);
      const pts = el.querySelector('.pts');
      return {
        seat: p.seat,
        name: tv.name(p.seat),
        status: p.status,
        busted: !!tv.ui.busts?.[p.seat],
        red: pts ? getComputedStyle(pts).color === 'rgb(255, 138, 128)' : false,
        bustClass: el.classList.contains('bust'),
        penalty: el.querySelector('.left')?.innerText ?? null,
        note: el.querySelector('.bustnote')?.innerText ?? null,
      };
    });
    const box = document.querySelector('.showdown');
    return {
      round: v.round,
      last: v.last_showdown,
      seats,
      showdown: box && {
        text: box.innerText,
        hands: [...box.querySelectorAll('li')].map((li) => ({ text: li.innerText, loser: li.classList.contains('loser') })),
      },
    };
  });
}

function pointsText(n) {
  const whole = Math.floor(n);
  return `${whole === 0 ? '' : whole}${n > whole ? '½' : ''}`;
}

test("each round's showdown is on the felt; a seat that busted plays on in plain colours, its penalty named", async () => {
  const page = await openPage(env.browser, env.server.url);
  await quickPlay(page, 'tenhalf');
  let showdowns = 0;
  let busts = 0;
  for (let game = 0; game < 3 && !(showdowns >= 2 && busts >= 1); game++) {
    const next = page.locator('.overpanel button[data-focus="next"]');
    if (game) await next.click();
    while (await ourTurn(page)) {
      const f = await felt(page);
      for (const s of f.seats) {
        if (s.busted && s.status !== 'out') {
          busts++;
          // A new base card after a bust is a hand like any other: not red, not a bust.
          assert.ok(!s.red && !s.bustClass, `seat ${s.seat} plays on after its bust, drawn as a bust: ${JSON.stringify(s)}`);
          assert.match(s.note, /^Bust: .+ \(−2\), new base card$/, `seat ${s.seat}'s bust note`);
        }
      }
      if (f.last && f.last.round < f.round) {
        // The last round's showdown: every hand that stood with its total, the loser
        // marked, the penalty and the pot.
        assert.ok(f.showdown, `round ${f.last.round}'s showdown is on the felt`);
        assert.equal(f.showdown.hands.length, f.last.hands.length);
        f.last.hands.forEach((hand, i) => {
          const shown = f.showdown.hands[i];
          assert.ok(shown.text.startsWith(f.seats[hand.seat].name), `${shown.text} names seat ${hand.seat}`);
          assert.ok(shown.text.includes(pointsText(hand.points)), `${shown.text} gives ${hand.points}`);
          assert.equal(shown.loser, hand.seat === f.last.loser);
        });
        if (f.last.loser === null) assert.match(f.showdown.text, /Nobody stood/);
        else assert.match(f.showdown.text, new RegExp(`${f.seats[f.last.loser].name} loses and takes the pot: −${f.last.pot}`));
        if (showdowns++ === 1) await page.screenshot({ path: screenshotPath('tenhalf-showdown-desktop') });
      }
      // Penalty points are named, not a bare "−2" beside "Stands".
      for (const s of f.seats) if (s.penalty !== null) assert.match(s.penalty, /^Penalty \d+$/, `seat ${s.seat}'s penalty`);
      await takeTurn(page);
    }
  }
  assert.ok(showdowns >= 2, `showdowns seen: ${showdowns}`);
  assert.ok(busts >= 1, `busts seen: ${busts}`);
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('the showdown on a phone in Chinese', async () => {
  const page = await openPage(env.browser, env.server.url, PHONE);
  await quickPlay(page, 'tenhalf');
  let seen = false;
  // A game can end before any round has a loser (every hand busts, or one wins outright):
  // the next game, then, up to a few.
  for (let game = 0; game < 5 && !seen; game++) {
    if (game) await page.locator('.overpanel button[data-focus="next"]').click();
    while (!seen && (await ourTurn(page))) {
      const f = await felt(page);
      if (f.last && f.last.round < f.round && f.last.loser !== null) {
        assert.ok(f.showdown, 'the showdown is on the felt');
        assert.match(f.showdown.text, new RegExp(`${f.seats[f.last.loser].name} 最小，吃下奖池：罚 ${f.last.pot} 分`));
        await page.screenshot({ path: screenshotPath('tenhalf-showdown-phone') });
        seen = true;
      }
      await takeTurn(page);
    }
  }
  assert.ok(seen, 'a showdown with a loser');
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('how this variant plays: from the lobby and the table, in English and Chinese', async () => {
  const page = await openPage(env.browser, env.server.url);
  const rules = page.getByRole('dialog', { name: 'Ten and a half: how this variant plays' });
  await page.locator('.g-tenhalf button', { hasText: 'How to play' }).click();
  await rules.waitFor();
  const text = await rules.innerText();
  for (const words of ['10½', 'dealer', 'bust', 'pot', 'fewest penalty points']) assert.ok(text.includes(words), `the rules say "${words}": ${text}`);
  await page.screenshot({ path: screenshotPath('tenhalf-rules-desktop') });
  await rules.getByRole('button', { name: 'Close' }).click();
  await rules.waitFor({ state: 'detached' });

  // From the table, in Chinese on a phone.
  const phone = await openPage(env.browser, env.server.url, PHONE);
  await quickPlay(phone, 'tenhalf');
  await phone.locator('.tbar button', { hasText: '玩法' }).tap();
  const zh = phone.getByRole('dialog', { name: '十点半：这种玩法怎么玩' });
  await zh.waitFor();
  const zhText = await zh.innerText();
  for (const words of ['十点半', '庄家', '爆牌', '奖池', '罚分最少']) assert.ok(zhText.includes(words), `规则里有“${words}”：${zhText}`);
  await phone.screenshot({ path: screenshotPath('tenhalf-rules-phone') });
  await zh.getByRole('button', { name: '关闭' }).tap();
  await zh.waitFor({ state: 'detached' });
  assert.deepEqual([...page.errors, ...phone.errors], []);
  await page.context().close();
  await phone.context().close();
});
