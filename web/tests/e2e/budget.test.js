// The budget: the whole client under 200 KB compressed (gzip -9 of every file the server
// builds in), and a first paint that waits only on the page and its stylesheet, under
// 16 KB compressed together. Sizes and what blocks rendering are checked; times are only
// printed, since a test must not fail for a slow machine.

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

test('the first paint waits on the page and its stylesheet only, both small', async () => {
  // What makes the first paint quick on any machine, checked rather than timed: only the
  // HTML and the one stylesheet block rendering (the scripts are modules, which do not),
  // and those two are a few kilobytes. The paint times are printed for the record.
  const times = [];
  for (let i = 0; i < 3; i++) {
    // A fresh context each time: nothing cached.
    const page = await openPage(env.browser, env.server.url);
    await page.locator('.gamecard .quick').first().waitFor();
    const seen = await page.evaluate(() => ({
      blocking: performance
        .getEntriesByType('resource')
        .filter((e) => e.renderBlockingStatus === 'blocking')
        .map((e) => new URL(e.name).pathname),
      fcp: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    }));
    assert.deepEqual(seen.blocking, ['/app.css'], 'render-blocking resources');
    assert.ok(seen.fcp !== undefined, 'a first-contentful-paint entry');
    times.push(seen.fcp);
    await page.context().close();
  }
  const first = ['index.html', 'app.css'].reduce((n, f) => n + gzipSync(readFileSync(join(root, 'web', f)), { level: 9 }).length, 0);
  console.log(`first paint needs ${first} bytes gzip -9; first contentful paint: ${times.map((t) => t.toFixed(0)).join(', ')} ms`);
  assert.ok(first < 16 * 1024, `${first} bytes before the first paint`);
});
