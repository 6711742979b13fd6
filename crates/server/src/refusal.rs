//! Why a request was refused: what every layer of the hall answers a client with.

use crate::protocol::ErrorCode;
use crate::store::StoreError;
use game::GameError;

/// Why a request was refused: a protocol error code and a message for people.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    /// The stable code.
    pub code: ErrorCode,
    /// What went wrong.
    pub message: String,
}

impl Refusal {
    /// A refusal.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }

    /// The request needs a logged-in user.
    pub fn not_logged_in() -> Refusal {
        Refusal::new(
            ErrorCode::NotLoggedIn,
            "log in, register or play as a guest first",
        )
    }

    /// A game's refusal, with the rules' own code (`not_your_turn`, `illegal`…).
    pub fn game(e: &GameError) -> Refusal {
        Refusal::new(ErrorCode::from(e), e.to_string())
    }
}

impl From<StoreError> for Refusal {
    fn from(e: StoreError) -> Self {
        Refusal::new(ErrorCode::Storage, e.to_string())
    }
}
