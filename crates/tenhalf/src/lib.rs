//! 十点半 Ten and a half: a drinking game of hitting towards 10½ for 2 to 8
//! players, with penalty points for the drinks.
//!
//! One shuffle makes a game of several rounds (rule 16). In a round every player gets a
//! face-down base card, then plays a turn: hit while at 7 or less, choose from 7½ to 10,
//! win outright at 10½ or with five cards (五龙), pay 2 and start over on a bust. Those who
//! stood meet at the showdown, and the single worst hand takes the pot: 2, plus 2 for each
//! player who won the round. Lower penalties are better.
//!
//! * [`hand`]: card values, hands and the showdown order;
//! * [`State`]: the rules as a state machine, from a seed or from a given deck order;
//! * [`View`]: what one seat may know (base cards stay hidden until shown);
//! * [`bots`]: the original rules' fixed policy (the `seed` bot) and a card counter;
//! * [`TenHalf`]: the [`game::Rules`] and [`game::GameSpec`] the rest of qipai uses, with the
//!   judge and the terminal face.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod bots;
pub mod hand;
mod judge;
mod rules;
mod spec;
mod state;
mod text;
mod view;

pub use hand::{Hand, Points, WinKind};
pub use state::{
    Action, Config, Event, Showdown, ShownHand, State, Status, BUST_PENALTY, DECK_SIZE,
    MAX_PLAYERS, MIN_PLAYERS, POT_BASE, POT_PER_WINNER,
};
pub use text::NotAMove;
pub use view::{PlayerView, View};

/// The game, as the registry and the tools know it: `game::registry::entry::<TenHalf>()`.
#[derive(Clone, Copy, Debug, Default)]
pub struct TenHalf;
