//! Game records: what is stored, replayed and verified.

use crate::fair::{self, Nonce};
use crate::{GameSpec, Outcome, Rules, Seat, Seed};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// One applied action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordedAction {
    /// Who acted.
    pub seat: Seat,
    /// The action's public form ([`Rules::public_action`]): what every other seat saw.
    pub action: Value,
    /// The action itself where its public form hides something (a hidden solo): sealed
    /// while the game runs, revealed with the seed when it is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sealed: Option<Value>,
}

/// Everything needed to replay a game exactly: the game, its configuration, the seed, the
/// players' nonces and the actions in the order they were applied.
///
/// While a game runs, the seed and the sealed private forms of actions stay secret: the
/// public record holds only the [`fair::commitment`] and what everyone saw. A finished
/// record carries the seed and the sealed parts, so anyone can replay the deal and check it
/// against the commitment (`qipai verify`). Type-erased (JSON config and actions) so that
/// one file format and one verifier serve every game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The game's registry id (`doudizhu`).
    pub game: String,
    /// This game's id, unique at its server. The commitment covers it.
    pub id: String,
    /// The table configuration, in the game's JSON form.
    pub config: Value,
    /// Number of seats.
    pub seats: usize,
    /// The commitment published before the deal ([`fair::commitment`]).
    pub commitment: String,
    /// Each seat's nonce, in seat order (`null` for a seat that sent none); empty when no
    /// seat was asked for one. Public from the deal on.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nonces: Vec<Option<Nonce>>,
    /// The server seed, revealed once the game is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<Seed>,
    /// The applied actions, in order.
    pub actions: Vec<RecordedAction>,
    /// The outcome the table announced, once finished; `verify` checks it against the
    /// replay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
}

/// Why a record does not replay or verify.
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
    /// The seed does not give the commitment: the deal was not the promised one, or the
    /// record's game, id, seats or configuration were changed.
    #[error("the seed does not match the commitment {checked}: this record makes {actual}")]
    CommitmentMismatch {
        /// The commitment checked against.
        checked: String,
        /// What the record's fields and seed make.
        actual: String,
    },
    /// The record is malformed (nonces for the wrong number of seats…).
    #[error("{0}")]
    Malformed(String),
    /// The configuration does not parse or cannot be played.
    #[error("bad configuration: {0}")]
    BadConfig(String),
    /// The configuration fixes what the seed should decide, and that was not allowed.
    #[error("custom deal, not a random one: {0} (pass --allow-custom to replay it anyway)")]
    Custom(String),
    /// An action does not parse, is illegal where it stands, or does not match its public
    /// form.
    #[error("action {index} (seat {seat}): {error}")]
    BadAction {
        /// Position in `actions`.
        index: usize,
        /// Who the record says acted.
        seat: Seat,
        /// What is wrong with it.
        error: String,
    },
    /// The replayed game is not over.
    #[error("the replayed game is not finished")]
    NotFinished,
    /// The record announces no outcome, so there is no result to check.
    #[error("the record announces no outcome")]
    NoOutcome,
    /// The replay ends differently from what the record announced.
    #[error("the replay's outcome {replayed} differs from the recorded {recorded}")]
    OutcomeMismatch {
        /// The announced outcome, as JSON.
        recorded: String,
        /// The replay's outcome, as JSON.
        replayed: String,
    },
    /// A nonce the verifier sent is not in the record.
    #[error("your nonce {0} is not in the record: the deal ignored it")]
    NonceMissing(String),
}

/// What `verify` is asked to check beyond the record itself.
#[derive(Debug, Clone, Default)]
pub struct VerifyOptions {
    /// The commitment the player was shown before the deal. Without it, the record's own
    /// `commitment` field is checked, which proves only that the record is consistent.
    pub commitment: Option<String>,
    /// A nonce the player sent: it must be in the record.
    pub nonce: Option<Nonce>,
    /// Accept a configuration that fixes what the seed should decide (a custom deal).
    pub allow_custom: bool,
}

/// Where the checked commitment came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CommitmentSource {
    /// The one the verifier was shown before the deal.
    Given,
    /// The record's own field.
    Record,
}

/// A record that verified, and what exactly was checked.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The replayed outcome (equal to the recorded one).
    pub outcome: Outcome,
    /// Which commitment the seed was checked against.
    pub source: CommitmentSource,
    /// The configuration fixes part of the deal (only with `allow_custom`): why.
    pub custom: Option<String>,
    /// The seat of the verifier's nonce, when one was given.
    pub nonce_seat: Option<Seat>,
}

impl Record {
    /// The record as everyone may see it while the game runs: no seed and no sealed
    /// private forms.
    pub fn public(&self) -> Record {
        let mut public = self.clone();
        public.seed = None;
        for a in &mut public.actions {
            a.sealed = None;
        }
        public
    }

    /// The seed's commitment for this record's game, id, seats and configuration.
    pub fn commitment_of(&self, seed: &Seed) -> String {
        fair::commitment(&self.game, &self.id, self.seats, &self.config, seed)
    }

    /// Checks that `seed` is the one this record committed to (see [`fair::commitment`]),
    /// or the one `expected` names when given.
    pub fn check_seed(&self, seed: &Seed, expected: Option<&str>) -> Result<(), ReplayError> {
        if let Some(shown) = expected {
            if !shown.trim().eq_ignore_ascii_case(self.commitment.trim()) {
                return Err(ReplayError::Malformed(format!(
                    "the record's commitment {} is not the one you were shown, {}",
                    self.commitment,
                    shown.trim()
                )));
            }
        }
        let actual = self.commitment_of(seed);
        let checked = expected.unwrap_or(&self.commitment).trim();
        if !actual.eq_ignore_ascii_case(checked) {
            return Err(ReplayError::CommitmentMismatch {
                checked: checked.to_string(),
                actual,
            });
        }
        Ok(())
    }

    /// Replays the record from its revealed seed, returning the final state.
    pub fn replay<R: Rules>(&self) -> Result<R::State, ReplayError> {
        let seed = self.seed.ok_or(ReplayError::NoSeed)?;
        self.replay_with_seed::<R>(&seed)
    }

    /// Replays with a seed supplied from outside (a server resuming a running table keeps
    /// the secret seed apart from the record). Every action must apply, and each public
    /// form must be the one its private form makes.
    pub fn replay_with_seed<R: Rules>(&self, seed: &Seed) -> Result<R::State, ReplayError> {
        if self.game != R::ID {
            return Err(ReplayError::WrongGame {
                expected: R::ID.into(),
                found: self.game.clone(),
            });
        }
        if !self.nonces.is_empty() && self.nonces.len() != self.seats {
            return Err(ReplayError::Malformed(format!(
                "{} nonces for {} seats",
                self.nonces.len(),
                self.seats
            )));
        }
        let config: R::Config = serde_json::from_value(self.config.clone())
            .map_err(|e| ReplayError::BadConfig(e.to_string()))?;
        let mut state = R::start(&config, self.seats, &fair::game_seed(seed, &self.nonces))
            .map_err(|e| ReplayError::BadConfig(e.to_string()))?;
        let mut events = Vec::new();
        for (index, ra) in self.actions.iter().enumerate() {
            let bad = |error: String| ReplayError::BadAction {
                index,
                seat: ra.seat,
                error,
            };
            let private = ra.sealed.as_ref().unwrap_or(&ra.action);
            let action: R::Action = serde_json::from_value(private.clone()).map_err(|e| {
                bad(if ra.sealed.is_none() {
                    format!("{e} (is its sealed private form missing?)")
                } else {
                    e.to_string()
                })
            })?;
            let public =
                serde_json::to_value(R::public_action(&action)).map_err(|e| bad(e.to_string()))?;
            if public != ra.action {
                return Err(bad(format!(
                    "its public form is {public}, the record says {}",
                    ra.action
                )));
            }
            R::apply(&mut state, ra.seat, action, &mut events).map_err(|e| bad(e.to_string()))?;
            events.clear();
        }
        Ok(state)
    }

    /// Checks a finished record: the seed gives the commitment (the one the verifier was
    /// shown, if given), the configuration lets the seed decide the deal (unless allowed),
    /// every action replays, the game is over and the announced outcome is the replay's.
    pub fn verify<R: GameSpec>(&self, opts: &VerifyOptions) -> Result<Verdict, ReplayError> {
        let seed = self.seed.ok_or(ReplayError::NoSeed)?;
        self.check_seed(&seed, opts.commitment.as_deref())?;
        let nonce_seat = match &opts.nonce {
            None => None,
            Some(n) => Some(
                self.nonces
                    .iter()
                    .position(|m| m.as_ref() == Some(n))
                    .ok_or_else(|| ReplayError::NonceMissing(n.to_hex()))?,
            ),
        };
        let config: R::Config = serde_json::from_value(self.config.clone())
            .map_err(|e| ReplayError::BadConfig(e.to_string()))?;
        let custom = R::custom_setup(&config);
        if let Some(why) = &custom {
            if !opts.allow_custom {
                return Err(ReplayError::Custom(why.clone()));
            }
        }
        let recorded = self.outcome.as_ref().ok_or(ReplayError::NoOutcome)?;
        let state = self.replay_with_seed::<R>(&seed)?;
        let outcome = R::outcome(&state).ok_or(ReplayError::NotFinished)?;
        if recorded != &outcome {
            let json = |o: &Outcome| serde_json::to_string(o).unwrap_or_default();
            return Err(ReplayError::OutcomeMismatch {
                recorded: json(recorded),
                replayed: json(&outcome),
            });
        }
        Ok(Verdict {
            outcome,
            source: if opts.commitment.is_some() {
                CommitmentSource::Given
            } else {
                CommitmentSource::Record
            },
            custom,
            nonce_seat,
        })
    }
}
