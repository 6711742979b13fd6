//! Computer players that live outside a game's crate and speak JSON.

use crate::{Outcome, Seat};
use serde_json::Value;

/// A computer player that lives outside the game's crate and speaks JSON: an external
/// engine behind a protocol, or a remote program. It sees exactly what a seat may see —
/// the seat's view and the legal actions, in the game's JSON forms — and answers one
/// action in the same form, which the table checks like any other.
pub trait JsonBot: Send {
    /// The chosen action, or why none could be chosen (the engine crashed, timed out…).
    fn act(&mut self, seat: Seat, view: &Value, legal: &[Value]) -> Result<Value, String>;

    /// Told once, when the game it plays ends: the seat's last view and the result. An
    /// engine that learns from its games, or keeps its own score, needs the end it never
    /// sees as a turn. The default does nothing.
    fn over(&mut self, _seat: Seat, _view: &Value, _outcome: &Outcome) {}
}
