#!/usr/bin/env bash
# Every test qipai has, from a fresh clone: formatting, lints, the docs' links, all tests
# of every crate (the store's conformance suite on SQLite and on PostgreSQL among them),
# the property tests once more with a new seed, and the browser client played end to end
# in Chromium against the binary the tests built.
#
# One build serves it all: clippy, the docs and the tests share the release profile and
# the workspace's features, so the dependencies are checked once and compiled once. The
# order keeps both cores busy: the binary first, then the browser's tests (which mostly
# wait) beside everything else; the tests' build; the tests with clippy and rustdoc beside
# them. The test binaries run in parallel, a test to a process (cargo-nextest, which the
# machine has; it is installed if missing). Tests run in release mode: the strength tests
# play thousands of games.
#
# QIPAI_TEST_STEPS limits a run to some of its steps, for working on one part:
# `QIPAI_TEST_STEPS=tests bash scripts/test.sh` (steps: lint, docs, tests, rotating, web).
set -euo pipefail
cd "$(dirname "$0")/.."
steps="${QIPAI_TEST_STEPS:-lint docs tests rotating web}"
step() { [[ " $steps " == *" $1 "* ]]; }
started=$(date +%s)
say() { echo "== $* ($(( $(date +%s) - started )) s)"; }

# Property tests draw their cases from this seed, so a run is reproducible.
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-20261130}"

if step lint; then
    say "formatting"
    cargo fmt --all -- --check
fi

# The browser's tests need only the binary, and mostly wait (on the page, on the server, on
# animations): they start as soon as it is built, run beside the lints, the build of the
# crates' tests and the tests themselves, and are reported at the end.
web_pid=""
if step web; then
    say "building the binary for the browser's tests"
    # The workspace's one set of features (Cargo.toml: the first feature resolver), so the
    # binary and its dependencies are the very units the tests' build below needs.
    # `--workspace` matters: a build of one package would resolve its features alone.
    cargo build --release --workspace --bin qipai
    say "the page in a real browser, started beside the rest (target/web-e2e.log)"
    mkdir -p target
    bash scripts/web-e2e.sh > target/web-e2e.log 2>&1 &
    web_pid=$!
fi
# A step that fails ends the run: the browser's tests with it.
stop_web() {
    if [ -n "$web_pid" ] && kill -0 "$web_pid" 2>/dev/null; then
        pkill -P "$web_pid" || true
        kill "$web_pid" 2>/dev/null || true
    fi
}
trap stop_web EXIT

# The lints, then the docs' links (private items too: the module maps link them), in
# release and with the tests' features (Cargo.toml's resolver), so that the docs use
# clippy's checks of the dependencies and check none again.
run_lints_and_docs() {
    if step lint; then
        cargo clippy --workspace --all-targets --release -- -D warnings
    fi
    if step docs; then
        RUSTDOCFLAGS="-D warnings" cargo doc --workspace --release --no-deps --document-private-items
    fi
}
# With the tests, they run beside them (below); alone, here.
if ! step tests && { step lint || step docs; }; then
    say "lints and the docs' links"
    run_lints_and_docs
fi

if step tests || step rotating; then
    command -v cargo-nextest >/dev/null || cargo install cargo-nextest --locked
    # Two tests to a core: many tests wait on sockets, timers and the database, so a core
    # would idle with one (on this 2-core machine the run takes 149 s with 2, 115 s with 4).
    threads=$(( $(nproc) * 2 ))
    # A PostgreSQL server (the machine's, or one this starts) for the store's conformance
    # suite and the PostgreSQL hall's own tests, and none of the databases an earlier
    # run's tests left on it.
    QIPAI_TEST_POSTGRES=$(bash scripts/postgres.sh)
    export QIPAI_TEST_POSTGRES
    drop_test_databases() {
        psql "$QIPAI_TEST_POSTGRES/postgres" -tAc "SELECT format('DROP DATABASE %I;', datname) \
            FROM pg_database WHERE datname LIKE 'qipai\_test\_%'" | psql "$QIPAI_TEST_POSTGRES/postgres" -q
    }
    drop_test_databases
    trap 'drop_test_databases; stop_web' EXIT
fi

if step tests; then
    say "building every crate's tests"
    cargo nextest run --workspace --release --no-run --hide-progress-bar
    say "every test of every crate"
    docs_pid=""
    if step lint || step docs; then
        # Clippy and rustdoc use the cores the tests leave while they wait on sockets and
        # timers, and a core that a long strength test leaves alone at the end. Cargo lets
        # one build at a time use target/, so they start once nextest has its binaries
        # and has started the tests.
        say "lints and the docs' links, beside the tests (target/docs.log)"
        rm -f target/nextest.log target/nextest.done
        (
            until grep -qs "Starting" target/nextest.log || [ -e target/nextest.done ]; do
                sleep 1
            done
            run_lints_and_docs
        ) > target/docs.log 2>&1 &
        docs_pid=$!
    fi
    tests_ok=0
    cargo nextest run --workspace --release --no-fail-fast --hide-progress-bar \
        --test-threads "$threads" 2>&1 | tee target/nextest.log || tests_ok=$?
    touch target/nextest.done
    if [ -n "$docs_pid" ]; then
        docs_ok=0
        wait "$docs_pid" || docs_ok=$?
        say "lints and the docs' links: done"
        [ "$docs_ok" = 0 ] || { cat target/docs.log; echo "the lints or the docs' links failed"; exit "$docs_ok"; }
    fi
    [ "$tests_ok" = 0 ] || { echo "some tests failed"; exit "$tests_ok"; }
    # nextest runs no doctests: the examples in the docs run here.
    cargo test --workspace --release --doc --quiet
fi

if step rotating; then
    # The property tests again, with a seed that changes from run to run, so new cases
    # are explored; the seed is printed, so any failure can be reproduced. Only the tests
    # written with `proptest!` run again (every `fn` from a file's first `proptest!` on).
    rotating="${PROPTEST_ROTATING_SEED:-$(date +%s)}"
    say "property tests with the rotating seed PROPTEST_RNG_SEED=$rotating"
    echo "(to reproduce a failure: PROPTEST_RNG_SEED=$rotating cargo nextest run --release --workspace NAME)"
    names=$(grep -rl --include='*.rs' 'proptest!' crates \
        | xargs sed -n '/proptest!/,$p' \
        | grep -oP '^\s*(async\s+)?fn\s+\K\w+(?=\s*[(<])' | sort -u | paste -sd'|')
    PROPTEST_RNG_SEED="$rotating" cargo nextest run --workspace --release --hide-progress-bar \
        --test-threads "$threads" \
        -E "test(/(^|::)($names)\$/)"
fi

if step web; then
    web_ok=0
    wait "$web_pid" || web_ok=$?
    say "the page in a real browser: done"
    cat target/web-e2e.log
    [ "$web_ok" = 0 ] || { echo "the browser's tests failed"; exit "$web_ok"; }
fi
say "done"
