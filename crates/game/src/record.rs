//! Game records: what is stored, replayed and verified.

use crate::{Outcome, RuleError, Rules, Seat, Seed};
use serde::{Deserialize, Serialize};

/// One applied action, as the table received it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedAction {
    /// Who acted.
    pub seat: Seat,
    /// The action in the game's JSON form.
    pub action: serde_json::Value,
}

/// Everything needed to replay a game exactly: the game, its configuration, the seed and the
/// actions in the order they were applied.
///
/// While a game runs the seed stays secret and only its `commitment` (sha256) is public; a
/// finished record carries the seed, so anyone can replay the deal and check it against the
/// commitment (`qipai verify`). Type-erased (JSON config and actions) so that one file format
/// and one verifier serve every game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The game's registry id (`doudizhu`).
    pub game: String,
    /// This game's id, unique at its table or server.
    pub id: String,
    /// The table configuration, in the game's JSON form.
    pub config: serde_json::Value,
    /// Number of seats.
    pub seats: usize,
    /// sha256 of the seed, published before the deal.
    pub commitment: String,
    /// The seed, revealed once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<Seed>,
    /// The applied actions, in order.
    pub actions: Vec<RecordedAction>,
    /// The outcome the table announced, if finished; `verify` checks it against the replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

/// Why a record does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReplayError {
    /// The record belongs to another game.
    #[error("this is a record of '{found}', not '{expected}'")]
    WrongGame {
        /// The game replaying.
        expected: String,
        /// The game the record names.
        found: String,
    },
    /// The seed is still secret: the game is not over, or the record was cut.
    #[error("the record holds no seed (the game is not finished, or the seed was withheld)")]
    NoSeed,
    /// The seed does not hash to the published commitment: the deal was not the promised one.
    #[error(
        "the seed does not match the commitment: sha256(seed) = {actual}, committed {committed}"
    )]
    CommitmentMismatch {
        /// What was published.
        committed: String,
        /// What the seed hashes to.
        actual: String,
    },
    /// The configuration does not parse or cannot be played.
    #[error("bad configuration: {0}")]
    BadConfig(String),
    /// An action does not parse, or is illegal where it stands.
    #[error("action {index} (seat {seat}): {error}")]
    BadAction {
        /// Position in `actions`.
        index: usize,
        /// Who the record says acted.
        seat: Seat,
        /// What is wrong with it.
        error: String,
    },
    /// The replayed game is not over, but the record claims an outcome.
    #[error("the replayed game is not finished")]
    NotFinished,
    /// The replay ends differently from what the record announced.
    #[error("the replay's outcome {replayed} differs from the recorded {recorded}")]
    OutcomeMismatch {
        /// The announced outcome, as JSON.
        recorded: String,
        /// The replay's outcome, as JSON.
        replayed: String,
    },
}

impl Record {
    /// Replays the record from its seed, returning the final state. Every action must apply.
    pub fn replay<R: Rules>(&self) -> Result<R::State, ReplayError> {
        let seed = self.seed.ok_or(ReplayError::NoSeed)?;
        self.replay_with_seed::<R>(&seed)
    }

    /// Replays with a seed supplied from outside (a server resuming a running table keeps
    /// the secret seed apart from the public record).
    pub fn replay_with_seed<R: Rules>(&self, seed: &Seed) -> Result<R::State, ReplayError> {
        if self.game != R::ID {
            return Err(ReplayError::WrongGame {
                expected: R::ID.into(),
                found: self.game.clone(),
            });
        }
        let config: R::Config = serde_json::from_value(self.config.clone())
            .map_err(|e| ReplayError::BadConfig(e.to_string()))?;
        let mut state = R::start(&config, self.seats, seed)
            .map_err(|e: RuleError| ReplayError::BadConfig(e.to_string()))?;
        let mut events = Vec::new();
        for (index, ra) in self.actions.iter().enumerate() {
            let bad = |error: String| ReplayError::BadAction {
                index,
                seat: ra.seat,
                error,
            };
            let action: R::Action =
                serde_json::from_value(ra.action.clone()).map_err(|e| bad(e.to_string()))?;
            R::apply(&mut state, ra.seat, action, &mut events).map_err(|e| bad(e.to_string()))?;
            events.clear();
        }
        Ok(state)
    }

    /// Checks a finished record: the seed matches the commitment, every action replays, the
    /// game is over, and the outcome (if recorded) is the one the replay reaches.
    pub fn verify<R: Rules>(&self) -> Result<Outcome, ReplayError> {
        let seed = self.seed.ok_or(ReplayError::NoSeed)?;
        let actual = seed.commitment();
        if !actual.eq_ignore_ascii_case(self.commitment.trim()) {
            return Err(ReplayError::CommitmentMismatch {
                committed: self.commitment.clone(),
                actual,
            });
        }
        let state = self.replay::<R>()?;
        let outcome = R::outcome(&state).ok_or(ReplayError::NotFinished)?;
        if let Some(recorded) = &self.outcome {
            if recorded != &outcome {
                let json = |o: &Outcome| serde_json::to_string(o).unwrap_or_default();
                return Err(ReplayError::OutcomeMismatch {
                    recorded: json(recorded),
                    replayed: json(&outcome),
                });
            }
        }
        Ok(outcome)
    }
}
