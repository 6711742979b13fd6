// What a card table says on the felt, not only in the log: each seat's bid, a play's trio
// before its kickers, 要不起 when nothing beats the play on the table, who went out first
// in Big Two (never "Draw" for a score of 0); the log worded anew when the language
// switches; on a phone, plays clear of the cards-left counts. At Gomoku: resigning asks
// in the page, a spectator has no buttons, and no deal is checked where nothing is dealt.

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

/** The plays on the felt whose groups of a rank do not come largest first. */
function badlyOrdered(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('.played .cardrow')]
      .map((row) => [...row.querySelectorAll('.card')].map((c) => c.getAttribute('aria-label').replace(/[♠♥♣♦]/, '')))
      .filter((ranks) => {
        const count = (r) => ranks.filter((x) => x === r).length;
        return ranks.some((r, i) => i > 0 && count(r) > count(ranks[i - 1]));
      })
      .map((ranks) => ranks.join(' ')),
  );
}

test('a trio is laid out before its kickers, a plane before its wings', async () => {
  const page = await openPage(env.browser, env.server.url);
  const laid = await page.evaluate(async () => {
    const { grouped } = await import('/js/cards.js');
    return [grouped('3 3 9 9 9'), grouped('3 5 9 9 9 9'), grouped('3 3 4 4 9 9 9 T T T'), grouped('3d 3s 9h 9c 9s'), grouped('5 6 7 8 9')].map((x) => x.join(' '));
  });
  assert.deepEqual(laid, ['9 9 9 3 3', '9 9 9 9 3 5', '9 9 9 T T T 3 3 4 4', '9h 9c 9s 3d 3s', '5 6 7 8 9']);
  await page.context().close();
});

test('Dou Dizhu: bids stay at the seats, 要不起 says when nothing beats the play, the log follows the language', async () => {
  const page = await openPage(env.browser, env.server.url);
  await quickPlay(page, 'doudizhu');
  let bids = 0;
  let cannot = false;
  for (let game = 0; game < 4 && !(bids && cannot); game++) {
    // The next game, unless it has begun by itself.
    const next = page.locator('.overpanel button[data-focus="next"]');
    if (game && (await next.count())) await next.click();
    while (await ourTurn(page)) {
      const s = await page.evaluate(() => {
        const tv = window.qipai.view;
        const v = tv.game.view;
        return { phase: v.phase, bids: v.bids, acted: v.history.map((x) => x[0]), legal: tv.game.legal };
      });
      if (s.phase === 'bidding') {
        // We never bid: our "no bid" must stay in sight at our seat once play begins.
        await page.locator('.controls button', { hasText: 'No bid' }).click();
        continue;
      }
      // Every seat that bid and has not played since shows its bid at its seat.
      for (const [seat, bid] of s.bids) {
        if (s.acted.includes(seat)) continue;
        assert.equal(await page.locator(`.played[data-seat-play="${seat}"]`).innerText(), bid ? `bid ${bid}` : 'no bid', `seat ${seat}'s bid`);
        bids++;
      }
      assert.deepEqual(await badlyOrdered(page), [], 'groups largest first');
      const hint = page.locator('[data-act="hint"]');
      if (!cannot && s.legal.includes('pass') && (await hint.isDisabled())) {
        // Nothing beats it: said, and passing is the one clear button; the typing field
        // stays where it was (disabled) rather than vanish.
        assert.equal(await page.locator('.cardgame .status').innerText(), 'Your turn: nothing in your hand beats it');
        const pass = page.locator('[data-act="pass"]');
        assert.equal(await pass.innerText(), "Can't beat");
        assert.match(await pass.getAttribute('class'), /primary/);
        assert.ok(await page.locator('.controls input.typed').isDisabled(), 'the typing field stays, disabled');
        await page.screenshot({ path: screenshotPath('doudizhu-cannot-beat') });
        cannot = true;
      }
      await takeTurn(page);
    }
  }
  assert.ok(bids > 0, 'a bid was seen at its seat in play');
  assert.ok(cannot, 'a turn where nothing beats the play');
  // The log's earlier lines follow the language too.
  const before = await page.locator('.movelines .note').allInnerTexts();
  assert.ok(before.some((l) => /computer \d: (pass|no bid|bid \d)/i.test(l)), before.join(' | '));
  await page.locator('#lang').click();
  const after = await page.locator('.movelines .note').allInnerTexts();
  assert.equal(after.length, before.length);
  const english = after.filter((l) => /\b(computer|pass|bid)\b/i.test(l));
  assert.deepEqual(english, [], 'no line left in English');
  assert.ok(after.some((l) => /^电脑 \d：(不出|不叫|\d 分)/.test(l)), after.join(' | '));
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Big Two: the end says who went out first, and our score, never a draw', async () => {
  const page = await openPage(env.browser, env.server.url);
  await quickPlay(page, 'bigtwo');
  // We shed as little as we may: pass whenever passing is allowed, otherwise the first
  // hint. The computers go out first.
  while (await ourTurn(page)) {
    const pass = page.locator('[data-act="pass"]');
    if (await pass.isEnabled()) await pass.click();
    else {
      await page.locator('[data-act="hint"]').click();
      await page.locator('[data-act="play"]').click();
    }
  }
  const { winner, you, score } = await page.evaluate(() => {
    const tv = window.qipai.view;
    return { winner: tv.lastView.result.winner, you: tv.you, score: tv.over.scores[tv.you] };
  });
  const title = await page.locator('.overpanel h2').innerText();
  await page.screenshot({ path: screenshotPath('bigtwo-went-out') });
  if (winner === you) {
    assert.equal(title, 'You won!');
  } else {
    assert.match(title, /^computer \d went out first$/);
    const shown = score > 0 ? `+${score}` : String(score);
    assert.equal(await page.locator('.overpanel .overnote').innerText(), `Your score: ${shown}, counted from the cards each player was left holding`);
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('Big Two: a score of 0 when another went out first is no draw', async () => {
  // The case as a player met it: another seat out first, our own score 0 (as many cards
  // left as the others on average). Our score is made 0 on its way from the server.
  const page = await openPage(env.browser, env.server.url);
  let you;
  await page.routeWebSocket(/\/ws$/, (ws) => {
    const server = ws.connectToServer();
    ws.onMessage((m) => server.send(m));
    server.onMessage((m) => {
      const o = JSON.parse(m);
      if (o.type === 'table' && o.you !== undefined) you = o.you;
      if (o.type === 'game_over') {
        o.scores[you] = 0;
        return ws.send(JSON.stringify(o));
      }
      ws.send(m);
    });
  });
  await page.reload();
  await quickPlay(page, 'bigtwo');
  while (await ourTurn(page)) {
    const pass = page.locator('[data-act="pass"]');
    if (await pass.isEnabled()) await pass.click();
    else {
      await page.locator('[data-act="hint"]').click();
      await page.locator('[data-act="play"]').click();
    }
  }
  const winner = await page.evaluate(() => window.qipai.view.lastView.result.winner);
  if (winner !== you) {
    assert.match(await page.locator('.overpanel h2').innerText(), /^computer \d went out first$/);
    assert.equal(await page.locator('.overpanel .overnote').innerText(), 'Your score: 0, counted from the cards each player was left holding');
  } else {
    assert.equal(await page.locator('.overpanel h2').innerText(), 'You won!');
  }
  assert.deepEqual(page.errors, []);
  await page.context().close();
});

test('on a phone, the plays on the felt never cover a seat\'s cards-left count', async (t) => {
  const games = await (await fetch(new URL('api/games', env.server.url))).json();
  // The card games: those whose seats count cards left.
  for (const { id: game } of games.filter((g) => g.screen === 'cards')) {
    await t.test(game, async () => {
      const page = await openPage(env.browser, env.server.url, PHONE);
      await quickPlay(page, game);
      let checked = 0;
      for (let turns = 0; turns < 8 && (await ourTurn(page)); turns++) {
        const covered = await page.evaluate(() => {
          const boxes = (sel) => [...document.querySelectorAll(sel)].map((e) => [e, e.getBoundingClientRect()]);
          const over = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
          const out = [];
          for (const [p, pr] of boxes('.played')) {
            for (const [l, lr] of boxes('.seat .left')) {
              if (over(pr, lr)) out.push(`seat ${p.dataset.seatPlay}'s play over seat ${l.closest('.seat').dataset.seat}'s "${l.innerText}"`);
            }
          }
          return { out, plays: document.querySelectorAll('.played').length };
        });
        if (covered.out.length) await page.screenshot({ path: screenshotPath(`${game}-phone-covered`) });
        assert.deepEqual(covered.out, []);
        checked += covered.plays;
        await takeTurn(page);
      }
      assert.ok(checked > 0 || game === 'doudizhu5', 'plays were on the felt');
      assert.deepEqual(page.errors, []);
      await page.context().close();
    });
  }
});

test('Gomoku: resigning asks in the page; a spectator has no Undo or Resign; no deal to check', async () => {
  const page = await openPage(env.browser, env.server.url);
  const native = [];
  page.on('dialog', (d) => {
    native.push(d.message());
    d.dismiss();
  });
  await quickPlay(page, 'gomoku');
  const table = page.url().split('#/t/')[1];
  const resign = page.locator('button[data-focus="resign"]');
  await resign.and(page.locator(':enabled')).waitFor({ timeout: 15000 });
  // A spectator sees the board and the players, and nothing to press.
  const watcher = await openPage(env.browser, `${env.server.url}#/t/${table}`);
  await watcher.locator('.badge.spect').waitFor();
  await watcher.locator('.goban').waitFor();
  assert.equal(await watcher.locator('.gomoku .controls button').count(), 0, 'no buttons for a spectator');
  // Resign: a question in the page; "Play on" keeps the game.
  await resign.click();
  const ask = page.getByRole('dialog', { name: 'Resign? The game counts as lost.' });
  await ask.waitFor();
  await page.screenshot({ path: screenshotPath('gomoku-resign-ask') });
  await ask.getByRole('button', { name: 'Play on' }).click();
  await ask.waitFor({ state: 'detached' });
  assert.equal(await page.locator('.overpanel').count(), 0, 'still playing');
  await resign.click();
  await ask.getByRole('button', { name: 'Resign' }).click();
  await page.locator('.overpanel').waitFor();
  assert.deepEqual(native, [], 'no browser dialog');
  assert.equal(await page.locator('.overpanel h2').innerText(), 'You lost');
  // Nothing was dealt: no "fair deal" line.
  assert.equal(await page.locator('.overpanel .fair').count(), 0);
  await page.screenshot({ path: screenshotPath('gomoku-resigned') });
  assert.deepEqual([...page.errors, ...watcher.errors], []);
  await page.context().close();
  await watcher.context().close();
});
