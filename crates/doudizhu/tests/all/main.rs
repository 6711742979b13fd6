//! Every integration test of Dou Dizhu (斗地主), in one test binary: one link instead of one per
//! file, which is most of what a change to the crate costs the suite. A module per
//! subject; run one with `cargo test --release -p doudizhu --test all <module>::`.

mod doubling;
mod heuristic;
mod judge;
mod moves;
mod options_bots;
mod options_judge;
mod options_properties;
mod options_terminal;
mod properties;
mod rules;
mod search;
mod secrecy;
mod showing;
mod suits;
mod terminal;
