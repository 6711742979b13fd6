//! Every integration test of Gomoku (五子棋), in one test binary: one link instead of one per
//! file, which is most of what a change to the crate costs the suite. A module per
//! subject; run one with `cargo test --release -p gomoku --test all <module>::`.

mod common;
mod engine;
mod gomocup;
mod judge;
mod opening;
mod properties;
mod puzzles;
mod records;
mod renju;
mod rules;
mod secrecy;
mod strength;
mod swap2;
mod terminal;
