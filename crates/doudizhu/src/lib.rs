//! 斗地主 Dou Dizhu: three players, one deck with jokers, a landlord against two peasants.
//!
//! The rules are those of docs/rules/doudizhu.md (a network Dou Dizhu's rule appendix, with
//! decisions where it is silent):
//! bidding 1–3 with redeals, the kitty shown and given to the landlord, the standard
//! 27,472-move play space, effective bombs, spring and anti-spring, and scoring.
//!
//! * [`Play`] and [`Kind`] — what a set of cards is as a play, and what beats what;
//! * [`movegen`] — every legal play of a hand, fast (the hot path of bots and self-play);
//! * [`DouDizhu`] — the [`game::Rules`] state machine: deal, bid, play, score;
//! * [`endgame`] — who wins with every hand open: an exact solver for the last cards;
//! * [`bots`] — `random` and `heuristic`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Module maps and doc comments link the private items a reader of the source goes to
// next; `cargo doc --document-private-items`, which scripts/test.sh runs, renders them.
#![allow(rustdoc::private_intra_doc_links)]

pub mod bots;
pub mod endgame;
mod judge;
pub mod movegen;
mod play;
mod rules;
mod scoring;
mod spec;
mod text;
mod view;

pub use play::PlayError;
pub use play::{Kind, Play};
pub use rules::{Action, Config, CustomDeal, DouDizhu, Event, Phase, State, HAND, MAX_REDEALS};
pub use scoring::{score, ScoreInput, MAX_BOMBS};
pub use text::ParseActionError;
pub use view::View;
