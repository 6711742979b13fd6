//! Computer players: the original rules' fixed policy (bot `seed`) and a card counter (plus `game::RandomBot`).

mod counting;
mod odds;
mod seed;

pub use counting::{CountingBot, Estimate};
pub use seed::{SeedBot, SEED_STANDS_AT};
