//! Every integration test of Ten and a half (十点半), in one test binary: one link instead of one per
//! file, which is most of what a change to the crate costs the suite. A module per
//! subject; run one with `cargo test --release -p tenhalf --test all <module>::`.

mod bots;
mod common;
mod judge;
mod properties;
mod rules;
mod secrecy;
mod strength;
mod terminal;
