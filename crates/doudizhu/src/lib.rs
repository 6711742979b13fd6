//! 斗地主 Dou Dizhu: three players, one deck with jokers, a landlord against two peasants.
//!
//! The rules are those of docs/rules/doudizhu.md (a network Dou Dizhu's rule appendix, with
//! decisions where it is silent):
//! bidding 1–3 with redeals, the kitty shown and given to the landlord, the standard
//! 27,472-move play space, effective bombs, spring and anti-spring, and scoring; and, as
//! table options off by default, 加倍 / 超级加倍 (each seat doubles its own stake) and
//! 明牌 (the landlord shows their hand) as 欢乐斗地主 plays them.
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
mod event;
mod judge;
pub mod movegen;
mod play;
mod rules;
mod scoring;
mod spec;
mod stakes;
mod suits;
mod text;
mod view;

pub use event::Event;
pub use play::PlayError;
pub use play::{Kind, Play};
pub use rules::{Action, Config, CustomDeal, DouDizhu, Phase, State, HAND, MAX_REDEALS};
pub use scoring::{score, settle, ScoreInput, MAX_BOMBS};
pub use stakes::{BadDoubling, Doubling};
pub use suits::Suits;
pub use text::ParseActionError;
pub use view::View;
