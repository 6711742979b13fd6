//! Computer players for Dou Dizhu.
//!
//! * `random` — a uniformly random legal action ([`game::RandomBot`]): the baseline and the
//!   load of speed benchmarks.
//! * `heuristic` — [`HeuristicBot`]: splits its hand into few strong groups, plays the
//!   cheapest, cooperates as a peasant, bids by hand strength.

pub mod heuristic;

pub use heuristic::HeuristicBot;

use crate::DouDizhu;
use game::{Bot, RandomBot, Seed};

/// The bot names, weakest first.
pub const NAMES: &[&str] = &["random", "heuristic"];

/// A bot by name.
pub fn by_name(name: &str, seed: &Seed) -> Option<Box<dyn Bot<DouDizhu>>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "heuristic" => Some(Box::new(HeuristicBot::new(seed))),
        _ => None,
    }
}
