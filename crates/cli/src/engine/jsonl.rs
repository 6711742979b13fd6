//! qipai's own engine protocol: one JSON request a line in, one JSON answer a line out.
//!
//! At each of its turns the engine reads one line,
//!
//! ```json
//! {"game":"doudizhu","seat":1,"view":{…},"legal":[{"play":"4 4"},{"play":"pass"}],"ms":1000}
//! ```
//!
//! the seat's view as a table sends it to that seat (nothing another seat hides), every
//! legal action in its JSON form, and the time it may take. It answers one line: the action
//! as one of `legal`, `{"action":{"play":"4 4"}}`, or as a player types it,
//! `{"text":"4 4"}`; or `{"error":"…"}` to give up, which ends the run with its words.
//! Requests carry everything, so one process serves every seat and game of a run, and an
//! engine keeps no state unless it wants to. It exits when its input closes. Its stderr is
//! the terminal's, for its author's logs; its stdout is for answers only.
//!
//! With `--engine-results` the engine is also told, after each game, its seat's last view
//! and the result, in a line with `over` that it does not answer ([`JsonEngine::tell`]).
//!
//! `qipai bot` (`crate::bot`) is the other side: any qipai bot as such an engine.

use super::process::Process;
use anyhow::Result;
use game::{JsonBot, Outcome, Registry, Seat};
use serde_json::{json, Value};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// Extra time allowed beyond the engine's budget before it is declared dead: a process
/// that starts an interpreter on its first request needs more than the budget.
const GRACE: Duration = Duration::from_secs(3);

/// How much of a wrong answer an error message quotes.
const QUOTED: usize = 200;

/// A running engine that speaks the protocol, shared by every seat it plays, in whatever
/// game.
pub(super) struct JsonEngine {
    process: Process,
    turn: Duration,
    /// Whether the engine asked to be told each game's result (`--engine-results`).
    results: bool,
    /// The games, to read `text` answers.
    registry: Registry,
}

impl JsonEngine {
    /// Starts `command` with `turn` a move, told each game's result if `results`; it reads
    /// text answers by the `registry`'s games.
    pub(super) fn spawn(
        command: &str,
        turn: Duration,
        results: bool,
        registry: Registry,
    ) -> Result<Self> {
        Ok(JsonEngine {
            process: Process::spawn(command, Stdio::inherit())?,
            turn,
            results,
            registry,
        })
    }

    /// Asks for `seat`'s action in `game` and checks that it is one of `legal`.
    fn ask(
        &mut self,
        game: &str,
        seat: Seat,
        view: &Value,
        legal: &[Value],
    ) -> Result<Value, String> {
        let request = json!({
            "game": game,
            "seat": seat,
            "view": view,
            "legal": legal,
            "ms": self.turn.as_millis() as u64,
        });
        let line = self
            .process
            .send(&[request.to_string()])
            .and_then(|()| self.process.line(self.turn + GRACE))
            .map_err(|e| format!("{e:#}"))?;
        let answer: Value = serde_json::from_str(&line).map_err(|_| {
            format!(
                "the engine answered '{}', which is not a JSON object (an answer is \
                 {{\"action\":…}} or {{\"text\":…}}; logs go to stderr)",
                quoted(&line)
            )
        })?;
        let action = if let Some(action) = answer.get("action") {
            action.clone()
        } else if let Some(text) = answer.get("text").and_then(Value::as_str) {
            self.registry
                .get(game)
                .and_then(|g| g.parse_action(view, text))
                .map_err(|e| format!("the engine played '{}': {e}", quoted(text)))?
        } else if let Some(error) = answer.get("error") {
            let words = error
                .as_str()
                .map_or_else(|| error.to_string(), str::to_string);
            return Err(format!("the engine gave up: {}", quoted(&words)));
        } else {
            return Err(format!(
                "the engine answered '{}', which has no \"action\" or \"text\"",
                quoted(&line)
            ));
        };
        if !legal.contains(&action) {
            return Err(format!(
                "the engine played {}, which is not legal here",
                quoted(&action.to_string())
            ));
        }
        Ok(action)
    }

    /// Tells the engine, if it asked, how `seat`'s game of `game` ended: one line,
    /// `{"game":…,"seat":…,"view":{…},"over":{"scores":…,"won":…,"roles":…}}`, with no
    /// answer. An engine that has gone is found out at its next turn, if there is one.
    fn tell(&mut self, game: &str, seat: Seat, view: &Value, outcome: &Outcome) {
        if !self.results {
            return;
        }
        let notice = json!({"game": game, "seat": seat, "view": view, "over": outcome});
        if let Err(e) = self.process.send(&[notice.to_string()]) {
            tracing::debug!("the engine was not told the result: {e:#}");
        }
    }
}

/// The first [`QUOTED`] characters of `text`, marked when cut.
fn quoted(text: &str) -> String {
    match text.char_indices().nth(QUOTED) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// One seat of a game, played by a shared [`JsonEngine`].
pub(super) struct JsonSeat {
    pub(super) engine: Arc<Mutex<JsonEngine>>,
    /// The game's id, sent with each request.
    pub(super) game: &'static str,
}

impl JsonBot for JsonSeat {
    fn act(&mut self, seat: Seat, view: &Value, legal: &[Value]) -> Result<Value, String> {
        let mut engine = self
            .engine
            .lock()
            .map_err(|_| "the engine was lost by a thread that panicked".to_string())?;
        engine.ask(self.game, seat, view, legal)
    }

    fn over(&mut self, seat: Seat, view: &Value, outcome: &Outcome) {
        if let Ok(mut engine) = self.engine.lock() {
            engine.tell(self.game, seat, view, outcome);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_answer_is_quoted_in_part() {
        assert_eq!(quoted("4 4"), "4 4");
        let long = "语".repeat(QUOTED + 5);
        assert_eq!(quoted(&long), format!("{}…", "语".repeat(QUOTED)));
    }
}
