//! Computer players: `random` (the baseline every game has), `heuristic`, and `search`
//! ([`game::search::SearchBot`]: the unseen cards dealt into worlds that agree with the
//! view, each candidate played out in them by the heuristic; `search:fast`, `search`,
//! `search:strong`, `search:N` worlds, `search:Nms`).

mod heuristic;
pub mod plan;
mod search;

pub use heuristic::{Heuristic, Weights};

use crate::rules::BigTwo;
use game::search::{Budget, SearchBot, CARD_BOT_NAMES};
use game::{Bot, RandomBot, Seed};

/// The bots, weakest first.
pub const NAMES: &[&str] = CARD_BOT_NAMES;

/// A bot by name, its randomness (if any) drawn from `seed`.
pub fn by_name(name: &str, seed: &Seed) -> Option<Box<dyn Bot<BigTwo>>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "heuristic" => Some(Box::new(Heuristic::new())),
        _ => Budget::from_name(name, "search")
            .map(|b| Box::new(SearchBot::<BigTwo>::new(b, seed, 4)) as Box<dyn Bot<BigTwo>>),
    }
}
