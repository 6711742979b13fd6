//! Computer players: `random` (the baseline every game has) and `heuristic`.

mod heuristic;
pub mod plan;

pub use heuristic::{Heuristic, Weights};

use crate::rules::BigTwo;
use game::{Bot, RandomBot, Seed};

/// The bots, weakest first.
pub const NAMES: &[&str] = &["random", "heuristic"];

/// A bot by name, its randomness (if any) drawn from `seed`.
pub fn by_name(name: &str, seed: &Seed) -> Option<Box<dyn Bot<BigTwo>>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "heuristic" => Some(Box::new(Heuristic::new())),
        _ => None,
    }
}
