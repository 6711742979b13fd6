#!/usr/bin/env bash
# Every test qipai has, from a fresh clone: formatting, lints, then all tests of every crate.
# Tests run in release mode: the self-play strength tests play thousands of games.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --release -- -D warnings
cargo test --workspace --release
