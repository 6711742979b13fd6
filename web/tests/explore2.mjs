import { startServer, launch, openPage, quickPlay, playToEnd, PHONE, DESKTOP } from './e2e/harness.js';
const server = await startServer();
const browser = await launch();
const dev = process.argv[2] === 'phone' ? PHONE : DESKTOP;
const tag = process.argv[2] || 'desktop';
const page = await openPage(browser, server.url, dev);
await page.screenshot({ path: `/tmp/shots/lobby-${tag}.png` });
await quickPlay(page, 'bigtwo');
await playToEnd(page);
await page.waitForTimeout(500);
await page.screenshot({ path: `/tmp/shots/over-${tag}.png` });
// replay
const replay = page.locator('.overpanel a, .overpanel button').filter({ hasText: /Replay|回放/ });
if (await replay.count()) { await replay.first().click(); await page.waitForTimeout(800); await page.screenshot({ path: `/tmp/shots/replay-${tag}.png` }); }
await page.goto(server.url + '#/profile');
await page.waitForTimeout(800);
await page.screenshot({ path: `/tmp/shots/profile-${tag}.png`, fullPage: true });
console.log('errors', page.errors, 'refusals', page.refusals);
await browser.close();
await server.stop();
