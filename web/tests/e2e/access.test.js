// A player who cannot see the page: everything here goes through the accessibility tree
// Chromium builds for screen readers (roles and names, as `getByRole` finds them) and the
// keyboard, never through CSS classes or the mouse. What the tree says is what a screen
// reader reads out.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage, quickPlay, screenshotPath, DESKTOP } from './harness.js';

/** These pages keep the server's Content-Security-Policy (see `openPage`). */
const STRICT = { ...DESKTOP, enforceCSP: true };

const env = setup();

/** The move log's lines, where the table announces every action (an `aria-live` list). */
async function log(page) {
  return page.getByRole('list', { name: 'Moves' }).getByRole('listitem').allInnerTexts();
}

/** Waits until `check()` resolves truthy, polling; fails with `what` after `ms`. */
async function until(check, what, ms = 15000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const v = await check();
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('Gomoku by keyboard: the board names the point under the cursor and what is on it', async () => {
  const page = await openPage(env.browser, env.server.url, STRICT);
  await quickPlay(page, 'gomoku');
  await until(() => ourTurn(page), 'our turn');
  const board = page.getByRole('application', { name: /^Gomoku, / });
  await board.focus();
  // The cursor starts on the centre point, and the board says it is empty.
  assert.equal(await board.getAttribute('aria-label'), 'Gomoku, h8: empty');
  await page.keyboard.press('Enter');
  // Our stone is announced in the log, then the computer's answer.
  const answer = await until(async () => {
    const lines = await log(page);
    return lines.length >= 2 && lines[1];
  }, "the computer's answer in the log");
  assert.match((await log(page))[0], /: h8$/);
  const [, point] = answer.match(/: ([a-o])(\d+)$/) || [];
  assert.ok(point, `the log names the point: ${answer}`);
  // The log line comes with the message, the board's name with the next frame.
  await until(async () => (await board.getAttribute('aria-label')) === 'Gomoku, h8: Black', 'the board named after the cursor point');
  // Walk the cursor to the computer's stone with the arrow keys: the board reads it out.
  const [, col, row] = answer.match(/: ([a-o])(\d+)$/);
  const dx = col.charCodeAt(0) - 'h'.charCodeAt(0);
  const dy = Number(row) - 8;
  for (let i = 0; i < Math.abs(dx); i++) await page.keyboard.press(dx > 0 ? 'ArrowRight' : 'ArrowLeft');
  for (let i = 0; i < Math.abs(dy); i++) await page.keyboard.press(dy > 0 ? 'ArrowUp' : 'ArrowDown');
  assert.equal(await board.getAttribute('aria-label'), `Gomoku, ${col}${row}: White, last move`);
  // One step off it is an empty point; Enter plays there, and the log says so.
  const step = dx === 0 && dy === -1 ? 'ArrowLeft' : 'ArrowUp';
  await page.keyboard.press(step);
  const here = (await board.getAttribute('aria-label')).match(/^Gomoku, ([a-o]\d+): empty$/);
  assert.ok(here, await board.getAttribute('aria-label'));
  await until(() => ourTurn(page), 'our turn again');
  await page.keyboard.press('Enter');
  await until(async () => (await log(page)).some((l) => l.endsWith(`: ${here[1]}`)), `our stone on ${here[1]} in the log`);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.refusals, []);
  await page.context().close();
});

/** The names the accessibility tree gives the checkboxes of the hand. */
async function handNames(hand) {
  return [...(await hand.ariaSnapshot()).matchAll(/- checkbox "([^"]*)"/g)].map((m) => m[1]);
}

/** Our own name, as the login button reads it out. */
async function myName(page) {
  return (await page.getByRole('button', { name: /: Log in/ }).getAttribute('aria-label')).split(':')[0];
}

/** Whether the status line says it is our turn. */
async function ourTurn(page) {
  return (await page.getByRole('status').last().innerText()).includes('Your turn');
}

/**
 * Our turn in a card game's play: Hint checks the boxes of a play and Play sends it; with
 * nothing to beat the table, Pass. Waits for the cards to leave the hand and for a computer
 * to answer, and returns the log lines from our action on.
 */
async function hintPlayOrPass(page, hand, actions) {
  const hint = actions.getByRole('button', { name: 'Hint' });
  await until(async () => (await ourTurn(page)) && (await hint.count()) > 0, 'our turn to play', 30000);
  const before = (await handNames(hand)).length;
  const said = (await log(page)).length;
  let played = 0;
  if (await hint.isEnabled()) {
    await hint.click();
    played = await hand.getByRole('checkbox', { checked: true }).count();
    assert.ok(played > 0, 'Hint checks the cards of a play');
    await actions.getByRole('button', { name: 'Play' }).click();
  } else {
    // Nothing beats the play on the table: the pass button says so.
    await actions.getByRole('button', { name: "Can't beat" }).click();
  }
  // Should the play not go through, the failure says what the server and the page said.
  await until(async () => (await handNames(hand)).length === before - played, 'the played cards to leave the hand').catch(async (e) => {
    const toast = await page.locator('#toast').innerText();
    throw new Error(`${e.message}; refusals: ${page.refusals.join(' ') || 'none'}; toast: ${toast || 'none'}; status: ${await page.locator('.status').first().innerText().catch(() => '?')}`);
  });
  await until(async () => (await log(page)).length >= said + 2, 'a computer answering');
  return (await log(page)).slice(said);
}

test('Dou Dizhu from the accessibility tree: the seats, the hand, the turn, the actions and every play are read out', async () => {
  const page = await openPage(env.browser, env.server.url, STRICT);
  await quickPlay(page, 'doudizhu');
  const me = await myName(page);
  const hand = page.getByRole('group', { name: 'your hand' });
  // Seventeen cards, each a checkbox, once the deal has arrived.
  const names = await until(async () => {
    const n = await handNames(hand);
    return n.length === 17 && n;
  }, 'a hand of seventeen cards');
  for (const name of names) {
    assert.match(name, /^((3|4|5|6|7|8|9|10|J|Q|K|A|2)[♠♥♣♦]|Small joker|Big joker)$/, `a card read with its suit: ${name}`);
  }
  const actions = page.getByRole('toolbar', { name: 'actions' });
  // Bidding, if a computer has not already bid 3: the highest bid offered, or no bid.
  await until(() => ourTurn(page), 'our turn');
  const bids = actions.getByRole('button', { name: /^Bid \d$/ });
  const noBid = actions.getByRole('button', { name: 'No bid' });
  if (await noBid.count()) await ((await bids.count()) ? bids.last() : noBid).click();
  // Our first turn in play. The log reads out our action, then a computer's answer, each
  // under the seat's name.
  const lines = await hintPlayOrPass(page, hand, actions);
  assert.ok(lines[0].startsWith(`${me}: `), lines.join(' | '));
  assert.match(lines[1], /^computer /, lines.join(' | '));
  // Every seat is a group named after its player, holding its role and cards left, so
  // one seat's words do not run into the next's.
  const table = await page.getByRole('region', { name: 'table' }).ariaSnapshot();
  // The two computers are told apart by their seats.
  const computers = [...table.matchAll(/- group "(computer \d)"/g)].map((m) => m[1]);
  assert.equal(new Set(computers).size, 2, table);
  assert.ok(table.includes(`- group "${me}"`), table);
  assert.equal(table.match(/\d+ left/g)?.length, 3, table);
  assert.match(table, /Landlord/, table);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.refusals, []);
  await page.context().close();
});

test('Big Two from the accessibility tree: thirteen cards read with their suits, Hint and Play, and the log', async () => {
  const page = await openPage(env.browser, env.server.url, STRICT);
  await quickPlay(page, 'bigtwo');
  const me = await myName(page);
  const hand = page.getByRole('group', { name: 'your hand' });
  const names = await until(async () => {
    const n = await handNames(hand);
    return n.length === 13 && n;
  }, 'a hand of thirteen cards');
  // Big Two needs the suits: every card is read as its rank and its suit.
  for (const name of names) {
    assert.match(name, /^(3|4|5|6|7|8|9|10|J|Q|K|A|2)[♠♥♣♦]$/, `a card read with its suit: ${name}`);
  }
  assert.equal(new Set(names).size, 13, names.join(' '));
  const lines = await hintPlayOrPass(page, hand, page.getByRole('toolbar', { name: 'actions' }));
  assert.ok(lines[0].startsWith(`${me}: `), lines.join(' | '));
  assert.match(lines[1], /^computer \d: /, lines.join(' | '));
  // Three computers, each a group of its own with its cards left.
  const table = await page.getByRole('region', { name: 'table' }).ariaSnapshot();
  const computers = [...table.matchAll(/- group "(computer \d)"/g)].map((m) => m[1]);
  assert.equal(new Set(computers).size, 3, table);
  assert.ok(table.includes(`- group "${me}"`), table);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.refusals, []);
  await page.context().close();
});

test("Ten and a half from the accessibility tree: our base card is read out, the others' are not, Hit names the card drawn", async () => {
  const page = await openPage(env.browser, env.server.url, STRICT);
  await quickPlay(page, 'tenhalf');
  const me = await myName(page);
  await until(() => ourTurn(page), 'our turn', 30000);
  const seat = page.getByRole('group', { name: me, exact: true });
  const cards = async () => [...(await seat.ariaSnapshot()).matchAll(/- img "([^"]*)"/g)].map((m) => m[1]);
  // Our own base card is face down to the others but read out to us, with our points.
  const card = /^((A|2|3|4|5|6|7|8|9|10|J|Q|K)[♠♥♣♦]|Small joker|Big joker)$/;
  const ours = await cards();
  assert.ok(ours.length >= 1, await seat.ariaSnapshot());
  for (const name of ours) assert.match(name, card, `our card read out: ${name}`);
  assert.match(await seat.innerText(), /(\d+½?|½) pts/);
  // A computer's base card is read as "base card" while it is face down; only a bust or
  // an outright win shows it, read as any other card (a joker has no suit).
  const table = await page.getByRole('region', { name: 'table' }).ariaSnapshot();
  const computers = [...table.matchAll(/- group "(computer \d)"/g)].map((m) => m[1]);
  assert.ok(computers.length >= 1, table);
  for (const name of computers) {
    const snap = await page.getByRole('group', { name, exact: true }).ariaSnapshot();
    const first = snap.match(/- img "([^"]*)"/);
    if (first) assert.ok(first[1] === 'base card' || card.test(first[1]), snap);
  }
  // Hit: the log names the card drawn, and the seat holds one card more.
  const said = (await log(page)).length;
  await page.getByRole('button', { name: 'Hit' }).click();
  const line = await until(async () => (await log(page)).slice(said).find((l) => l.startsWith(`${me}: `)), 'our hit in the log');
  const [, drawn, outcome] = line.match(/: Hit (\S+(?: joker)?)( · .*)?$/) || [];
  assert.ok(drawn, line);
  // The seat shows it among our cards; a bust or an outright win, which can end the round
  // and clear the seat at once, is said in the log line itself.
  if (outcome) assert.match(outcome, /^ · (Bust −\d+|Ten and a half!|Five dragon!)$/, line);
  else await until(async () => (await cards()).includes(drawn), `${drawn} at our seat`);
  // Play on (stand when we may, else hit: a new round's first card must be drawn; the next
  // game, when ours ended the last round) until the log reads out a computer's action
  // after ours.
  const stand = page.getByRole('button', { name: 'Stand' });
  const next = page.getByRole('button', { name: 'Next game' });
  await until(async () => {
    if ((await log(page)).slice(said).some((l) => /^computer \d: /.test(l))) return true;
    if (await next.count()) await next.click();
    else if (await ourTurn(page)) await ((await stand.isEnabled()) ? stand : page.getByRole('button', { name: 'Hit' })).click();
    return false;
  }, 'a computer acting after us', 30000);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.refusals, []);
  await page.context().close();
});

test('Type cards plays what is typed, and says what it cannot use instead of taking part of it', async () => {
  const page = await openPage(env.browser, env.server.url, STRICT);
  await quickPlay(page, 'doudizhu');
  const hand = page.getByRole('group', { name: 'your hand' });
  const actions = page.getByRole('toolbar', { name: 'actions' });
  const box = actions.getByRole('textbox', { name: 'Type cards' });
  const alert = page.getByRole('alert');
  const checked = hand.getByRole('checkbox', { checked: true });
  // Bids the most it may (to lead), passes when it cannot beat, and starts the next game
  // if this one ends first, until a turn with cards to play, where the box is offered (it
  // is there, but off, at a turn where nothing beats the play on the table).
  await until(async () => {
    if ((await box.count()) && (await box.isEnabled())) return true;
    const next = page.getByRole('button', { name: 'Next game' });
    if (await next.count()) await next.click();
    else if (await ourTurn(page)) {
      const act = actions.getByRole('button', { name: /^(Bid \d|No bid|Pass|Can't beat)$/ });
      const bids = actions.getByRole('button', { name: /^Bid \d$/ });
      if (await bids.count()) await bids.last().click();
      else if (await act.count()) await act.first().click();
    }
    return false;
  }, 'a turn to play', 60000);
  // The cards are read with their suits; typed plays name ranks (the rules play by rank).
  const cards = (await handNames(hand)).map((c) => c.replace(/[♠♥♣♦]$/, ''));

  // Words that are no cards: said, nothing checked, the text kept to be mended.
  await box.fill('zz 99 !!');
  await box.press('Enter');
  await until(async () => (await alert.innerText()).startsWith('Not cards: zz !!'), 'the unread words named');
  assert.equal(await box.inputValue(), 'zz 99 !!');
  assert.equal(await checked.count(), 0);
  // The message leaves the hand in sight: the player reads their cards to mend the text.
  const [said, cardsBox] = [await alert.boundingBox(), await hand.boundingBox()];
  assert.ok(said.y + said.height <= cardsBox.y || said.y >= cardsBox.y + cardsBox.height, `the alert ${JSON.stringify(said)} covers the hand ${JSON.stringify(cardsBox)}`);
  await page.screenshot({ path: screenshotPath('typed-not-cards') });

  // One card more of a rank than the hand holds: the card missing is named.
  const ranks = ['3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A', '2'];
  const short = ranks.find((r) => cards.filter((c) => c === r).length < 4);
  const held = cards.filter((c) => c === short).length;
  await box.fill(Array(held + 1).fill(short).join(' '));
  await box.press('Enter');
  await until(async () => (await alert.innerText()) === `Not in your hand: ${short}`, 'the missing card named');
  assert.equal(await checked.count(), 0);

  // Two cards of different ranks are no play: they are checked, and the page says so.
  const [a, b] = [...new Set(cards.filter((c) => ranks.includes(c)))];
  await box.fill(`${a}${b}`);
  await box.press('Enter');
  // The cards are named as they are in the hand, with their suits.
  const refused = new RegExp(`^${a}[♠♥♣♦] ${b}[♠♥♣♦] cannot be played now$`);
  await until(async () => refused.test(await alert.innerText()), 'the play refused by name');
  assert.equal(await checked.count(), 2);
  assert.equal(await box.inputValue(), '');

  // A play the rules allow, typed: it is played.
  const play = await page.evaluate(() => window.qipai.view.game.legal.find((x) => x && typeof x === 'object' && 'play' in x).play);
  await box.fill(play);
  await box.press('Enter');
  const size = play.trim().split(/\s+/).length;
  await until(async () => (await handNames(hand)).length === cards.length - size, `${play} to leave the hand`);
  assert.deepEqual(page.errors, []);
  assert.deepEqual(page.refusals, []);
  await page.context().close();
});
