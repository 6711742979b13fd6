//! The type-erased registry: every game behind one JSON-in, JSON-out interface.
//!
//! The server and the `qipai` binary never name a game's types. They look a game up by id in
//! a [`Registry`] and talk to it through [`ErasedGame`] (judge, self-play, new tables,
//! replay, the text face of remote views) and [`Table`] (one game in progress). [`entry`]
//! builds that interface for any [`GameSpec`](crate::GameSpec), so adding a game is one line
//! where the registry is filled.
//!
//! * [`error`]: [`GameError`], with a stable code for programs;
//! * [`erased`]: [`ErasedGame`] and [`entry`];
//! * [`table`]: [`Table`], [`Applied`] and [`BotTask`];
//! * [`json_bot`]: [`JsonBot`], a player speaking JSON from outside the game's crate;
//! * [`observe`](mod@observe): what one seat receives while a game is played.

pub mod erased;
pub mod error;
pub mod json_bot;
pub mod observe;
pub mod table;

pub use erased::{entry, ErasedGame, ReplayStep, TableSetup};
pub use error::GameError;
pub use json_bot::JsonBot;
pub use observe::{first_difference, observe, observe_state, play_with_bots};
pub use table::{Applied, BotTask, Table};

use serde_json::Value;

/// A game value as JSON. Our own plain data types always encode; should one ever fail, the
/// caller gets an error instead of a `null` in a record.
pub(crate) fn to_json<T: serde::Serialize>(value: &T) -> Result<Value, GameError> {
    serde_json::to_value(value).map_err(|e| GameError::Encode(e.to_string()))
}

/// All games, by id. Cloning it is cheap: the games are shared.
#[derive(Default, Clone)]
pub struct Registry {
    games: Vec<std::sync::Arc<dyn ErasedGame>>,
}

impl Registry {
    /// An empty registry; fill it with [`Registry::with`].
    pub fn new() -> Self {
        Registry::default()
    }

    /// Adds a game.
    pub fn with(mut self, game: Box<dyn ErasedGame>) -> Self {
        self.games.push(game.into());
        self
    }

    /// The game with this id.
    pub fn get(&self, id: &str) -> Result<&dyn ErasedGame, GameError> {
        self.games
            .iter()
            .find(|g| g.id() == id)
            .map(|g| g.as_ref())
            .ok_or_else(|| GameError::UnknownGame {
                game: id.into(),
                known: self.ids().join(", "),
            })
    }

    /// Every game, in registration order.
    pub fn games(&self) -> impl Iterator<Item = &dyn ErasedGame> {
        self.games.iter().map(|g| g.as_ref())
    }

    /// The ids, for help texts.
    pub fn ids(&self) -> Vec<&'static str> {
        self.games.iter().map(|g| g.id()).collect()
    }
}
