//! Why a judge refused a request, in one vocabulary for every game.

use crate::{RuleError, Seat};
use serde_json::{json, Value};
use std::fmt;

/// Where in a request a value sits: a field (`"hand"`) or one element of an array field
/// (`"hands"[2]`). Errors name it as the request spells it, quoted as a JSON key, so a
/// tool author finds the line to fix without guessing which of two hands was meant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    name: String,
    index: Option<usize>,
}

impl Field {
    /// The field `name` of the request (or of an action inside it).
    pub fn new(name: impl Into<String>) -> Field {
        Field {
            name: name.into(),
            index: None,
        }
    }

    /// Element `index` of the array field `name`.
    pub fn at(name: impl Into<String>, index: usize) -> Field {
        Field {
            name: name.into(),
            index: Some(index),
        }
    }

    /// The field's name, without the index.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The element's index, for an element of an array field.
    pub fn index(&self) -> Option<usize> {
        self.index
    }
}

impl From<&str> for Field {
    fn from(name: &str) -> Field {
        Field::new(name)
    }
}

impl fmt::Display for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Value::String(self.name.clone()))?;
        match self.index {
            Some(i) => write!(f, "[{i}]"),
            None => Ok(()),
        }
    }
}

/// Why a judge refused a request. Every game's judge answers with one of these, so the
/// same mistake reads the same in every game, and [`JudgeError::answer`] turns it into the
/// `{"ok":false,…}` line. The messages are for the person writing the requests: they
/// name the field and say what it should hold.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum JudgeError {
    /// The line is not JSON at all; the parser's words say where it broke.
    #[error("not JSON: {0}")]
    NotJson(String),
    /// The line was skipped unread (longer than a judge reads); the words say why.
    #[error("{0}")]
    Unread(String),
    /// The request is JSON but not an object, so it cannot have an `op`.
    #[error("a request is a JSON object with an \"op\"")]
    NotAnObject,
    /// A required field is absent.
    #[error("missing {0}")]
    Missing(Field),
    /// A field holds the wrong kind of JSON value (a number where cards go).
    #[error("{field} must be {expected}")]
    WrongType {
        /// The field.
        field: Field,
        /// What it must be, as words that follow "must be": `a string`, `true or false`.
        expected: &'static str,
    },
    /// The game's judge has no such op; the message lists the ones it has, so a typo is
    /// fixed without opening the docs.
    #[error("unknown op '{op}' (ops: {})", .known.join(", "))]
    UnknownOp {
        /// The op asked for.
        op: String,
        /// The ops this game's judge answers.
        known: &'static [&'static str],
    },
    /// A field of the right type whose value the game cannot take: cards that do not
    /// parse, a seat the table does not have, a bid of 7.
    #[error("{field}: {reason}")]
    Invalid {
        /// The field.
        field: Field,
        /// What is wrong with it, in the game's words.
        reason: String,
    },
    /// Every field reads, but together they describe nothing the game can reach (a
    /// showdown of no hands, a best move on a finished board).
    #[error("{0}")]
    Unreachable(String),
    /// The rules refused: an action a replay applied, or a table the rules cannot deal.
    /// `seat` is the seat that acted, when one did.
    #[error("{}", rule_text(.seat, .error))]
    Rule {
        /// Who acted.
        seat: Option<Seat>,
        /// The rules' refusal, with its code.
        #[source]
        error: RuleError,
    },
    /// An action of a replayed list failed: the answer carries the action's index as
    /// `"at"` beside the message, so a tool points at the move without parsing words.
    #[error("{error} (action {at})")]
    At {
        /// The index of the action, from 0, in the list the request gave.
        at: usize,
        /// What went wrong with it.
        error: Box<JudgeError>,
    },
    /// `act` named a bot the game does not have.
    #[error("no bot '{name}' (bots: {})", .known.join(", "))]
    UnknownBot {
        /// The name asked for.
        name: String,
        /// The game's bots.
        known: &'static [&'static str],
    },
    /// `act` asked for a seat that may do nothing in the view given.
    #[error("seat {0} has nothing to do in this view")]
    NothingToDo(Seat),
    /// The bot failed on a view no table would send.
    #[error("the bot could not decide from this view")]
    BotFailed,
    /// The judge could not write its own answer (a bug in a game's types), reported
    /// rather than answered with something half-written.
    #[error("internal: {0}")]
    Internal(String),
}

/// A rule's refusal, prefixed by the seat that acted when there is one.
fn rule_text(seat: &Option<Seat>, error: &RuleError) -> String {
    match seat {
        Some(seat) => format!("seat {seat}: {error}"),
        None => error.to_string(),
    }
}

impl JudgeError {
    /// An invalid value of `field`, for `reason`.
    pub fn invalid(field: impl Into<Field>, reason: impl fmt::Display) -> JudgeError {
        JudgeError::Invalid {
            field: field.into(),
            reason: reason.to_string(),
        }
    }

    /// The error of the op `op`, which is none of `known`.
    pub fn unknown_op(op: &str, known: &'static [&'static str]) -> JudgeError {
        JudgeError::UnknownOp {
            op: op.to_string(),
            known,
        }
    }

    /// A refusal of the rules; `seat` is the seat that acted, if any.
    pub fn rule(seat: Option<Seat>, error: RuleError) -> JudgeError {
        JudgeError::Rule { seat, error }
    }

    /// This error as the failure of action `at` of a replayed list. An error already at
    /// an index keeps the innermost one: that is the action that failed.
    pub fn at(self, at: usize) -> JudgeError {
        match self {
            JudgeError::At { .. } => self,
            error => JudgeError::At {
                at,
                error: Box::new(error),
            },
        }
    }

    /// The answer line: `{"ok":false,"error":"…"}`, with `"at":i` for an action of a
    /// replayed list.
    pub fn answer(&self) -> Value {
        match self {
            JudgeError::At { at, error } => {
                json!({ "ok": false, "error": error.to_string(), "at": at })
            }
            other => json!({ "ok": false, "error": other.to_string() }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_field_as_the_request_spells_it() {
        assert_eq!(
            JudgeError::Missing(Field::new("hand")).to_string(),
            "missing \"hand\""
        );
        let wrong = JudgeError::WrongType {
            field: Field::at("hands", 2),
            expected: "a string of cards",
        };
        assert_eq!(wrong.to_string(), "\"hands\"[2] must be a string of cards");
        assert_eq!(
            JudgeError::invalid("cards", "unknown card 'Xz'").to_string(),
            "\"cards\": unknown card 'Xz'"
        );
        assert_eq!(
            JudgeError::unknown_op("fly", &["classify", "act"]).to_string(),
            "unknown op 'fly' (ops: classify, act)"
        );
        let rule = JudgeError::rule(Some(2), RuleError::NotYourTurn(2));
        assert_eq!(rule.to_string(), "seat 2: not your turn");
        assert_eq!(
            JudgeError::rule(None, RuleError::GameOver).to_string(),
            "the game is over"
        );
    }

    #[test]
    fn an_error_at_an_action_answers_with_its_index() {
        let e = JudgeError::rule(Some(1), RuleError::NotYourTurn(1)).at(3);
        assert_eq!(
            e.answer(),
            json!({"ok":false,"error":"seat 1: not your turn","at":3})
        );
        assert_eq!(
            e.clone().at(7),
            e,
            "the innermost index is the action that failed"
        );
        assert_eq!(
            JudgeError::NotAnObject.answer(),
            json!({"ok":false,"error":"a request is a JSON object with an \"op\""})
        );
    }
}
