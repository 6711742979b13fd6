#!/usr/bin/env bash
# The browser client end to end: Debian's Chromium, driven by playwright-core, plays every
# game on the pages of the real `qipai serve`. Installs what it needs when it is missing
# (Chromium and CJK fonts from Debian, playwright-core and axe-core, the accessibility
# audit, from npm into web/tests/), builds the binary if needed, then runs web/tests/e2e/.
# Screenshots go to target/screenshots/; QIPAI_SCREENSHOTS=docs/screenshots refreshes the
# ones the docs show.
set -euo pipefail
cd "$(dirname "$0")/.."
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -d /usr/share/fonts/opentype/noto ] || missing+=(fonts-noto-cjk)
command -v node >/dev/null || missing+=(nodejs)
command -v npm >/dev/null || missing+=(npm)
if [ ${#missing[@]} -gt 0 ]; then
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi
if [ ! -d web/tests/node_modules/playwright-core ] || [ ! -d web/tests/node_modules/axe-core ]; then
    (cd web/tests && npm ci --no-audit --no-fund)
fi
[ -x target/release/qipai ] || cargo build --release --workspace --bin qipai
cd web/tests
# Two files at a time (each its own server and browser): the tests mostly wait on the page
# and the server, so two share the cores well; QIPAI_WEB_JOBS=1 runs them one by one.
node --test --test-concurrency="${QIPAI_WEB_JOBS:-2}" e2e/*.test.js
