//! Driving an external Gomocup brain (`pbrain-*`) as a qipai player.
//!
//! The brain is a child process speaking the Piskvork/Gomocup protocol on its stdin and
//! stdout. [`ExternalBrain`] is a [`JsonBot`]: at each of its turns it reads the seat's
//! Gomoku view (JSON), tells the brain what happened since it last moved (`BEGIN`, `TURN`
//! or a whole `BOARD`), and waits for its move, with a deadline. The brain is told the board
//! size, the rule bitmask and the time per move once, after `START`.

use super::process::Process;
use anyhow::{bail, Context, Result};
use game::{JsonBot, Seat};
use serde_json::{json, Value};
use std::process::Stdio;
use std::time::Duration;

/// Extra time allowed beyond the brain's own move budget before it is declared dead.
const GRACE: Duration = Duration::from_secs(3);

/// An external brain, started and ready to be told a position.
pub struct ExternalBrain {
    process: Process,
    turn: Duration,
    /// The moves the brain knows, in order (black first), its own included.
    known: Vec<[u8; 2]>,
    started: bool,
}

impl ExternalBrain {
    /// Starts `command` (a program and its arguments, split on whitespace) as a brain that
    /// gets `turn` per move. Its stderr is dropped: brains are chatty there.
    pub fn spawn(command: &str, turn: Duration) -> Result<ExternalBrain> {
        Ok(ExternalBrain {
            process: Process::spawn(command, Stdio::null())?,
            turn,
            known: Vec::new(),
            started: false,
        })
    }

    fn send(&mut self, lines: &[String]) -> Result<()> {
        self.process.send(lines)
    }

    /// Reads lines until one that is not a message: the answer to the last command.
    fn answer(&mut self, wait: Duration) -> Result<String> {
        loop {
            let line = self.process.line(wait)?;
            let head = line
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_ascii_uppercase();
            match head.as_str() {
                "MESSAGE" | "DEBUG" | "" => continue,
                "ERROR" | "UNKNOWN" => bail!("the engine said: {line}"),
                _ => return Ok(line),
            }
        }
    }

    fn start(&mut self, size: u64, rule: &str) -> Result<()> {
        self.send(&[format!("START {size}")])?;
        let ok = self.answer(GRACE)?;
        if !ok.trim().eq_ignore_ascii_case("OK") {
            bail!("the engine refused START {size}: {ok}");
        }
        // The Gomocup rule bitmask: 1 exactly five, 4 renju, 0 five or more.
        let bits = match rule {
            "standard" => 1,
            "renju" => 4,
            _ => 0,
        };
        self.send(&[
            format!("INFO timeout_turn {}", self.turn.as_millis()),
            "INFO timeout_match 0".into(),
            format!("INFO rule {bits}"),
        ])?;
        self.started = true;
        Ok(())
    }

    /// The brain's move in the position of `moves` (black first), the brain to play.
    fn next_move(&mut self, size: u64, rule: &str, moves: &[[u8; 2]]) -> Result<[u8; 2]> {
        if !self.started {
            self.start(size, rule)?;
        }
        let n = self.known.len();
        let command =
            if moves.is_empty() {
                vec!["BEGIN".to_string()]
            } else if moves.len() == n + 1 && moves[..n] == self.known[..] {
                let [x, y] = moves[n];
                vec![format!("TURN {x},{y}")]
            } else {
                // Anything else (a takeback, a first move as white): the whole position. Field
                // 1 is the brain's own stone, 2 the opponent's; the brain moves next.
                let own_parity = moves.len() % 2;
                let mut lines = vec!["BOARD".to_string()];
                lines.extend(moves.iter().enumerate().map(|(i, [x, y])| {
                    format!("{x},{y},{}", if i % 2 == own_parity { 1 } else { 2 })
                }));
                lines.push("DONE".into());
                lines
            };
        self.send(&command)?;
        let line = self.answer(self.turn + GRACE)?;
        let point = parse_point(&line).with_context(|| format!("the engine answered '{line}'"))?;
        self.known = moves.to_vec();
        self.known.push(point);
        Ok(point)
    }
}

fn parse_point(line: &str) -> Option<[u8; 2]> {
    let (x, y) = line.trim().split_once(',')?;
    Some([x.trim().parse().ok()?, y.trim().parse().ok()?])
}

impl JsonBot for ExternalBrain {
    fn act(&mut self, _seat: Seat, view: &Value, legal: &[Value]) -> Result<Value, String> {
        // A brain knows nothing of undo: it declines every request.
        if !view["pending_undo"].is_null() {
            return Ok(json!({ "answer_undo": false }));
        }
        let size = view["size"].as_u64().ok_or("the view has no board size")?;
        let rule = view["rule"].as_str().unwrap_or("freestyle");
        let moves: Vec<[u8; 2]> = serde_json::from_value(view["moves"].clone())
            .map_err(|e| format!("the view's moves: {e}"))?;
        let point = self
            .next_move(size, rule, &moves)
            .map_err(|e| format!("{e:#}"))?;
        let action = json!({ "place": point });
        if !legal.contains(&action) {
            return Err(format!(
                "the engine played {},{}, which is not legal here",
                point[0], point[1]
            ));
        }
        Ok(action)
    }
}

impl Drop for ExternalBrain {
    /// A brain is told `END`; the process then closes its input and reaps it.
    fn drop(&mut self) {
        let _ = self.send(&["END".to_string()]);
    }
}
