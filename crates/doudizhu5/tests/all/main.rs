//! Every integration test of five-player Dou Dizhu (五人斗地主), in one test binary: one link instead of one per
//! file, which is most of what a change to the crate costs the suite. A module per
//! subject; run one with `cargo test --release -p doudizhu5 --test all <module>::`.

mod bots;
mod common;
mod game;
mod judge;
mod plays;
mod properties;
mod search;
mod secrecy;
mod selfplay;
mod suited;
mod terminal;
