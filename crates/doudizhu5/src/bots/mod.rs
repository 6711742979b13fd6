//! Computer players: `random` (uniform over the legal actions) and `heuristic`.

pub(crate) mod heuristic;

pub use heuristic::HeuristicBot;

use crate::rules::DouDizhu5;
use game::{Bot, RandomBot, Seed};

/// The bot names, strongest last.
pub const NAMES: &[&str] = &["random", "heuristic"];

/// A bot by name.
pub fn by_name(name: &str, seed: &Seed) -> Option<Box<dyn Bot<DouDizhu5>>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "heuristic" => Some(Box::new(HeuristicBot)),
        _ => None,
    }
}
