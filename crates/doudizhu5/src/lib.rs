//! 五人斗地主 (如东三打二): five players, three decks, a grab for the landlord, and a secret
//! partner.
//!
//! The rules are seed 002 with the decisions of `shared/rules/doudizhu5.md`; the player's
//! guide is `docs/rules/doudizhu5.md`.
//!
//! * [`window`] — sequences where A and 2 may go low (A2345 … TJQKA);
//! * [`Play`] and [`Kind`] — what a set of ranks is as a play, and what beats what
//!   (2222 < joker bombs < 33333; the two-trio plane order AAA222 < … < 222333);
//! * [`movegen`] — every legal play of a hand, exact, counted without listing, prunable;
//! * [`grab`], [`declare`], [`scoring`] — the grab, the declarations and instant wins, the
//!   score table;
//! * [`Doudizhu5`] — the [`game::Rules`] state machine, with its [`View`];
//! * [`bots`] — `random` and `heuristic`.

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
mod text;
mod view;
pub mod window;

pub use action::{Action, Event, Phase, Turn};
pub use config::{Config, CustomDeal};
pub use play::{Kind, KindSet, Play};
pub use rules::{Doudizhu5, State, DECK, HAND, KITTY, SEATS};
pub use view::{Declaration, OnTable, View};

use game::{Bot, GameSpec, Seed, Viewer};

impl GameSpec for Doudizhu5 {
    fn bot_names() -> &'static [&'static str] {
        bots::NAMES
    }

    fn bot(name: &str, seed: &Seed) -> Option<Box<dyn Bot<Self>>> {
        bots::by_name(name, seed)
    }

    fn judge(request: &serde_json::Value) -> serde_json::Value {
        judge::judge(request)
    }

    fn render(view: &View, viewer: Viewer) -> String {
        text::render(view, viewer)
    }

    fn action_text(action: &Action) -> String {
        text::action_text(action)
    }

    fn parse_action(view: &View, text: &str) -> Result<Action, String> {
        text::parse_action(view, text)
    }

    fn hints(view: &View, legal: &[Action]) -> Vec<Action> {
        text::hints(view, legal)
    }

    fn help() -> &'static str {
        text::HELP
    }
}

#[cfg(test)]
mod props;
