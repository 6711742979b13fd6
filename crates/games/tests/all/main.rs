//! Every integration test of the list of games, in one test binary: one link instead of one per
//! file, which is most of what a change to the crate costs the suite. A module per
//! subject; run one with `cargo test --release -p games --test all <module>::`.

mod every_game;
mod judge;
mod one_list;
