//! 五子棋 Gomoku for qipai: the rules, a strong engine, records and the Gomocup
//! brain protocol.
//!
//! * [`board`], [`renju`], [`rules`]: the rules — 15×15 (19×19 and 20×20 as options),
//!   freestyle (the original program's game), standard (exactly five) and renju (black's forbidden
//!   double-three, double-four and overline, decided exactly, recursion included); undo
//!   negotiation, resignation and the full-board draw are part of the rules; [`config`]:
//!   a table's options; [`action`]: moves and events; [`view`]: what every seat sees; [`opening`]: the free opening and
//!   the tournaments' swap2.
//! * [`engine`]: the computer opponent (see its module docs for the design) and the original program's
//!   classic evaluator; [`bots`] offers them to tables as `random`, `classic`,
//!   `engine:L1` … `engine:L10`.
//! * [`records`]: SGF (`GM[4]`) and Piskvork PSQ export and import.
//! * [`gomocup`]: the Gomocup brain protocol as a pure state machine, and its client side;
//!   [`swap2`]: the engine's swap2 choices, for the brain and the bots.
//! * [`judge`]: rules questions over JSON; [`spec`]: the terminal face.
//!
//! The crate does no I/O: the `qipai` binary pipes terminals and brains through it.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod action;
pub mod board;
pub mod bots;
pub mod config;
pub mod engine;
pub mod gomocup;
pub mod judge;
pub mod notation;
pub mod opening;
pub mod records;
pub mod renju;
pub mod rules;
pub mod spec;
pub mod swap2;
pub mod view;

pub use board::{Board, Color, Point, Rule};
pub use opening::{OpeningRule, Swap2Step};
pub use rules::{Action, Config, Event, Gomoku, State, UndoPolicy, View};
