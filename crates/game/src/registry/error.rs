//! What can go wrong between a caller and a game, with a stable code for programs.

use crate::record::ReplayError;
use crate::{RuleError, Seat};

/// Anything that can go wrong between a caller and a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// No game has this id.
    #[error("unknown game '{game}' (games: {known})")]
    UnknownGame {
        /// The id asked for.
        game: String,
        /// The ids there are.
        known: String,
    },
    /// The rules refused; the state is unchanged.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// The action is not in the game's JSON or text form.
    #[error("cannot read the action: {0}")]
    BadAction(String),
    /// The configuration does not parse or cannot be played.
    #[error("bad configuration: {0}")]
    BadConfig(String),
    /// No bot of that name in that game.
    #[error("{game} has no bot '{bot}' (bots: {known})")]
    UnknownBot {
        /// The game.
        game: String,
        /// The name asked for.
        bot: String,
        /// The names it has.
        known: String,
    },
    /// The seat has no bot to move for it.
    #[error("seat {0} has no bot")]
    NoBot(Seat),
    /// A record would not replay or verify.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// A game made no progress (a bug, reported rather than hung on).
    #[error("game stuck: {0}")]
    Stuck(String),
    /// A bot outside the game's crate (an external engine, a remote client) failed or
    /// answered with something that is not a legal action.
    #[error("the bot of seat {seat} failed: {message}")]
    BotFailed {
        /// The seat it plays.
        seat: Seat,
        /// What went wrong.
        message: String,
    },
    /// Another program's record could not be read or replayed by the rules.
    #[error("cannot import the record: {0}")]
    BadImport(String),
    /// A game's value could not be written as JSON (a bug in the game's types). Reported
    /// instead of writing `null` into a record.
    #[error("cannot encode {0}")]
    Encode(String),
}

impl GameError {
    /// A stable machine-readable code: the rules' own codes ([`RuleError::code`]) for a
    /// refused action, and `unknown_game`, `bad_action`, `bad_config`, `unknown_bot`,
    /// `no_bot`, `bad_record`, `stuck`, `bot_failed`, `internal` for the rest.
    pub fn code(&self) -> &'static str {
        match self {
            GameError::UnknownGame { .. } => "unknown_game",
            GameError::Rule(e) => e.code(),
            GameError::BadAction(_) => "bad_action",
            GameError::BadConfig(_) => "bad_config",
            GameError::UnknownBot { .. } => "unknown_bot",
            GameError::NoBot(_) => "no_bot",
            GameError::Replay(_) | GameError::BadImport(_) => "bad_record",
            GameError::Stuck(_) => "stuck",
            GameError::BotFailed { .. } => "bot_failed",
            GameError::Encode(_) => "internal",
        }
    }

    /// A configuration error, whether the configuration did not parse or the rules refused
    /// it — one message, never "bad configuration: bad configuration".
    pub(crate) fn config(e: RuleError) -> GameError {
        match e {
            RuleError::BadConfig(m) => GameError::BadConfig(m),
            other => GameError::Rule(other),
        }
    }
}
