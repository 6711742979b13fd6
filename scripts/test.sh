#!/usr/bin/env bash
# Every test qipai has, from a fresh clone: formatting, lints, the docs' links, all tests
# of every crate, the server's tests and the crash tests once more on PostgreSQL, the
# property tests once more with a new seed, the binary exactly as the README's run command
# builds it (so that command starts at once after this one), and the browser client played
# end to end in Chromium against that binary.
# Tests run in release mode: the self-play strength tests play thousands of games.
set -euo pipefail
cd "$(dirname "$0")/.."
# Property tests draw their cases from this seed, so a run is reproducible.
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-20261130}"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --release -- -D warnings
# The docs build without a broken link (private items too: the module maps link them).
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --document-private-items

# A PostgreSQL server (the machine's, or one this starts), and none of the databases an
# earlier run's tests left on it.
QIPAI_TEST_POSTGRES=$(bash scripts/postgres.sh)
export QIPAI_TEST_POSTGRES
drop_test_databases() {
    psql "$QIPAI_TEST_POSTGRES/postgres" -tAc "SELECT format('DROP DATABASE %I;', datname) \
        FROM pg_database WHERE datname LIKE 'qipai\_test\_%'" | psql "$QIPAI_TEST_POSTGRES/postgres" -q
}
drop_test_databases

cargo test --workspace --release

# The hall's tests again with its data in PostgreSQL instead of SQLite: every server test,
# and the real binary killed and restarted through games.
QIPAI_TEST_ON_POSTGRES=1 cargo test --release -p server --tests
QIPAI_TEST_ON_POSTGRES=1 cargo test --release -p cli --test crash
drop_test_databases

# The property tests again, with a seed that changes from run to run, so new cases are
# explored; the seed is printed, so any failure can be reproduced.
rotating="${PROPTEST_ROTATING_SEED:-$(date +%s)}"
echo "Property tests with the rotating seed PROPTEST_RNG_SEED=$rotating"
echo "(to reproduce a failure: PROPTEST_RNG_SEED=$rotating cargo test --release -p CRATE --test TARGET)"
for dir in crates/*/; do
    package=$(basename "$dir")
    targets=()
    for file in $(grep -l "proptest!" "$dir"tests/*.rs 2>/dev/null); do
        targets+=(--test "$(basename "$file" .rs)")
    done
    if [ -f "$dir/src/lib.rs" ] && grep -rqs "proptest!" "$dir/src"; then
        targets+=(--lib)
    fi
    [ ${#targets[@]} -gt 0 ] || continue
    PROPTEST_RNG_SEED="$rotating" cargo test --release --quiet -p "$package" "${targets[@]}"
done

cargo build --release

# The browser client in a real browser (installs Chromium and playwright-core if missing).
bash scripts/web-e2e.sh
