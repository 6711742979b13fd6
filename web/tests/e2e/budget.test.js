// The budget: the whole client under 200 KB compressed (gzip -9 of every file the server
// builds in), and the first contentful paint on localhost under one second.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { setup, openPage, root } from './harness.js';

const env = setup();

function clientFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return relative(join(root, 'web'), path) === 'tests' ? [] : clientFiles(path);
    return [path];
  });
}

test('the whole client is under 200 KB compressed', () => {
  let raw = 0;
  let gz = 0;
  for (const f of clientFiles(join(root, 'web'))) {
    const bytes = readFileSync(f);
    raw += bytes.length;
    gz += gzipSync(bytes, { level: 9 }).length;
  }
  console.log(`client: ${raw} bytes, ${gz} bytes gzip -9`);
  assert.ok(gz < 200 * 1024, `${gz} bytes compressed`);
});

test('the first contentful paint comes within a second', async () => {
  const times = [];
  for (let i = 0; i < 3; i++) {
    // A fresh context each time: nothing cached.
    const page = await openPage(env.browser, env.server.url);
    await page.locator('.gamecard .quick').first().waitFor();
    const fcp = await page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime);
    assert.ok(fcp !== undefined, 'a first-contentful-paint entry');
    times.push(fcp);
    await page.context().close();
  }
  times.sort((a, b) => a - b);
  console.log(`first contentful paint: ${times.map((t) => t.toFixed(0)).join(', ')} ms (median ${times[1].toFixed(0)} ms)`);
  assert.ok(times[1] < 1000, `median ${times[1]} ms`);
});
