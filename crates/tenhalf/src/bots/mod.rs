//! Computer players: the seed's fixed policy and a card counter (plus `game::RandomBot`).

mod counting;
mod odds;
mod seed;

pub use counting::{CountingBot, Estimate};
pub use seed::{SeedBot, SEED_STANDS_AT};
