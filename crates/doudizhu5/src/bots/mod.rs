//! Computer players: `random` (uniform over the legal actions), `heuristic`, and `search`
//! ([`game::search::SearchBot`] in the play phase, the heuristic's grab and declaration;
//! `search:fast`, `search`, `search:strong`, `search:N` worlds, `search:Nms`).
//!
//! Each chooses by rank; `heuristic` and `search` put their plays down suited ([`Suits`]),
//! as a person does.

pub(crate) mod heuristic;
mod search;
mod suits;

pub use heuristic::HeuristicBot;
pub use suits::Suits;

use crate::rules::DouDizhu5;
use game::search::{Budget, SearchBot, CARD_BOT_NAMES};
use game::{Bot, RandomBot, Seed};

/// The bot names, strongest last.
pub const NAMES: &[&str] = CARD_BOT_NAMES;

/// A bot by name.
pub fn by_name(name: &str, seed: &Seed) -> Option<Box<dyn Bot<DouDizhu5>>> {
    match name {
        "random" => Some(Box::new(RandomBot::new(seed))),
        "heuristic" => Some(Box::new(Suits::new(HeuristicBot))),
        _ => Budget::from_name(name, "search").map(|b| {
            Box::new(Suits::new(SearchBot::<DouDizhu5>::new(b, seed, 5))) as Box<dyn Bot<DouDizhu5>>
        }),
    }
}
