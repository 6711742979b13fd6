//! The spine of qipai: what every game is, and what can be done with any game.
//!
//! A game crate implements [`Rules`] — pure rules, no I/O — and [`GameSpec`], which adds what
//! people and tools need around the rules: bots, a text rendering for terminals, the judge.
//! From those two traits this crate derives everything generic:
//!
//! * seeded, provably fair dealing ([`Seed`], [`deal`], [`fair`]): a game is a pure function
//!   of (config, seed, actions); a commitment to the server's seed is published before the
//!   deal, and the players' nonces are mixed in so that nobody picks the cards alone;
//! * [`Record`]s that replay exactly and can be verified against their commitment;
//! * [`Bot`]s that see only a seat's view and the legal actions, with [`RandomBot`] for every game;
//! * search by determinization ([`search`]): the card games' `search` bot plays sampled
//!   worlds out with a fast bot;
//! * self-play ([`sim`]) with per-bot, per-role statistics;
//! * a type-erased [`registry`] (JSON in, JSON out) through which the server and the `qipai`
//!   binary reach every game without knowing any of them.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Module maps and doc comments link the private items a reader of the source goes to
// next; `cargo doc --document-private-items`, which scripts/test.sh runs, renders them.
#![allow(rustdoc::private_intra_doc_links)]

pub mod bot;
pub mod brain;
pub mod deal;
pub mod fair;
pub mod judge;
pub mod presentation;
pub mod record;
pub mod registry;
pub mod rules;
pub mod search;
pub mod seat;
pub mod seed;
pub mod sim;
pub mod stats;
pub mod text;

pub use bot::{Bot, Decision, RandomBot};
pub use brain::Brain;
pub use deal::GameRng;
pub use fair::{Nonce, NonceError};
pub use presentation::Presentation;
pub use record::{Record, RecordedAction, ReplayError, Verdict, VerifyOptions};
pub use registry::{Applied, BotTask, ErasedGame, GameError, JsonBot, Registry, Table, TableSetup};
pub use rules::{Clock, GameSpec, Outcome, RuleError, Rules};
pub use seat::{Seat, SeatSet, ToAct, Viewer};
pub use seed::{Seed, SeedError};

/// Re-exported so game crates use the same `rand` as the dealing code.
pub use rand;

/// docs/new-game.md, the guide to adding a game: its examples run as doctests, so the tiny
/// game it builds (取石子, *Stones*) compiles and plays through the registry as written.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/new-game.md")]
pub struct NewGameGuide;
