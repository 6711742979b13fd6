//! Computer players for Dou Dizhu.
//!
//! * `random` — a uniformly random legal action ([`game::RandomBot`]): the baseline and the
//!   load of speed benchmarks.
//! * `heuristic` — [`HeuristicBot`]: splits its hand into few strong groups, plays the
//!   cheapest, cooperates as a peasant, bids by hand strength.
//! * `search` — [`game::search::SearchBot`]: deals the unseen cards into worlds that agree
//!   with its view, plays each candidate out in them with the heuristic, keeps the best
//!   (`search:fast`, `search`, `search:strong`, `search:N` worlds, `search:Nms`; see
//!   [`game::search::Budget`]).

#[cfg(test)]
mod against_random;
mod careless;
pub mod heuristic;
mod inference;
mod search;

pub use heuristic::HeuristicBot;

use crate::DouDizhu;
use game::search::{Budget, SearchBot, CARD_BOT_NAMES};
use game::{Bot, RandomBot, Seed};

/// The bot names, weakest first.
pub const NAMES: &[&str] = CARD_BOT_NAMES;

/// A bot by name.
pub fn by_name(name: &str, seed: &Seed) -> Option<Box<dyn Bot<DouDizhu>>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "heuristic" => Some(Box::new(HeuristicBot::new(seed))),
        _ => Budget::from_name(name, "search")
            .map(|b| Box::new(SearchBot::<DouDizhu>::new(b, seed, 3)) as Box<dyn Bot<DouDizhu>>),
    }
}
