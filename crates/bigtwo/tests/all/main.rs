//! Every integration test of Big Two (锄大地), in one test binary: one link instead of one per
//! file, which is most of what a change to the crate costs the suite. A module per
//! subject; run one with `cargo test --release -p bigtwo --test all <module>::`.

mod bots;
mod judge;
mod properties;
mod rules;
mod search;
mod secrecy;
mod sim;
mod terminal;
