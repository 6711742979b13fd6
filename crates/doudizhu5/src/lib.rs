//! 五人斗地主 (如东三打二): five players, three decks, a grab for the landlord, and a secret
//! partner.
//!
//! The rules, for players, are docs/rules/doudizhu5.md.
//!
//! * [`window`] — sequences where A and 2 may go low (A2345 … TJQKA);
//! * [`Play`] and [`Kind`] — what a set of ranks is as a play, and what beats what
//!   (2222 < joker bombs < 33333; the two-trio plane order AAA222 < … < 222333);
//! * [`movegen`] — every legal play of a hand, exact, counted without listing, prunable;
//! * [`suited`] — plays that name their suited cards, as the player chose them;
//! * [`grab`], [`declare`], [`scoring`] — the grab, the declarations and instant wins, the
//!   score table;
//! * [`DouDizhu5`] — the [`game::Rules`] state machine, with its [`View`];
//! * [`bots`] — `random` and `heuristic`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod action;
pub mod bots;
mod config;
pub mod declare;
pub mod grab;
pub mod hand;
mod judge;
pub mod movegen;
mod play;
mod rules;
pub mod scoring;
mod spec;
pub mod suited;
mod text;
mod view;
pub mod window;

pub use action::{Action, Event, Phase, PublicAction, PublicMode, Turn};
pub use config::{Config, CustomDeal};
pub use play::{Kind, KindSet, Play};
pub use rules::{DouDizhu5, State, DECK, HAND, KITTY, SEATS};
pub use suited::SuitedCards;
pub use text::ParseActionError;
pub use view::{Declaration, OnTable, View};

#[cfg(test)]
mod props;
