// The new-table dialog's three undo choices for Gomoku each open a table whose
// configuration the engine takes: "opponent decides" asks with three undos, "always
// allowed" grants at once, "never" asks with none to grant. The dialog used to send
// `always` and `never`, which the engine does not know, and the table was refused.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setup, openPage } from './harness.js';

const env = setup();

const CHOICES = [
  ['ask', { undo: 'ask', undo_limit: 3 }],
  ['always', { undo: 'granted' }],
  ['never', { undo: 'ask', undo_limit: 0 }],
];

for (const [choice, expected] of CHOICES) {
  test(`Gomoku's new table with undo "${choice}" opens, configured as the engine reads it`, async () => {
    const page = await openPage(env.browser, env.server.url);
    await page.locator('.g-gomoku .gamebtns button.ghost', { hasText: 'New table' }).click();
    const dialog = page.locator('dialog[open]');
    await dialog.locator('select').filter({ has: page.locator('option[value="always"]') }).selectOption(choice);
    await dialog.locator('button[value="go"]').click();
    await page.waitForFunction(() => window.qipai.view?.info?.options);
    const config = await page.evaluate(() => window.qipai.view.info.options.config);
    for (const [key, value] of Object.entries(expected)) assert.equal(config[key], value, `${key} of ${JSON.stringify(config)}`);
    assert.deepEqual(page.refusals, [], 'the server took the table');
    assert.deepEqual(page.errors, []);
    await page.context().close();
  });
}
