import { startServer, launch, openPage, quickPlay, takeTurn, PHONE, DESKTOP } from './e2e/harness.js';
const server = await startServer();
const browser = await launch();
const game = process.argv[2] || 'doudizhu5';
const dev = process.argv[3] === 'phone' ? PHONE : DESKTOP;
const page = await openPage(browser, server.url, dev);
await quickPlay(page, game);
let n = 0;
const end = Date.now() + 120000;
while (Date.now() < end && n < 8) {
  if (await page.locator('.overpanel').isVisible()) break;
  const acted = await takeTurn(page, async () => { n++; if (n % 2 === 1) await page.screenshot({ path: `/tmp/shots/${game}-${process.argv[3]}-${n}.png` }); });
  if (!acted) await page.waitForTimeout(100);
}
await page.waitForTimeout(500);
await page.screenshot({ path: `/tmp/shots/${game}-${process.argv[3]}-last.png` });
console.log('errors', page.errors, 'refusals', page.refusals);
await browser.close();
await server.stop();
