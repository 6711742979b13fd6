//! `qipai connect --engine`: your own program plays this client's turns at a hall.
//!
//! The engine speaks qipai's JSON-lines protocol (docs/engines.md), as in `qipai sim`: at
//! each turn of this client's seat it gets the view and legal actions the server sent, and
//! its answer is sent as the move, with the table's sequence number, so an answer that
//! comes after the game moved on is refused as stale rather than played out of place.
//! Each turn is asked once: a turn is known by its view, since news of the table (a seat
//! changing hands, a player reconnecting) moves the sequence number on and leaves the turn
//! as it was. An engine that fails leaves the turn to the person at the terminal, who may
//! play it, or hand the seat to the hall's computer (`auto`).
//!
//! Where seats act at once (五人斗地主's grab), another seat's move can come back before
//! the engine's, and the turn still looks open: so once a move is sent, no turn is asked
//! at that table until the server has answered it.
//!
//! The engine's moves go out at most ten a second ([`GAP`]): a hall allows a connection
//! twenty messages a second, and two fast engines at one table would otherwise run into
//! that limit and lose moves to it.
//!
//! An engine of qipai's JSON lines is one process for every table. A Gomocup brain
//! (`--engine-protocol gomocup`, Gomoku only) keeps the game's state, so each game at each
//! table gets a brain of its own, which ends with the game.
//!
//! With `--engine-results` the engine is told how each game it played here ended, as in
//! `qipai sim`: the hall sends the game's record, which is replayed to the seat's last view.
//!
//! A bot plays on unattended: at a table where it sits and is not ready, it says `ready`
//! once for each wait between games (`unready` by hand keeps it out of the next one).

use super::tables::{Tables, Turn};
use crate::engine::Engine;
use anyhow::Result;
use game::{ErasedGame, JsonBot, Record, Registry};
use serde_json::Value;
use server::protocol::ServerMessage;
use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

/// The least time between two moves of the engine's.
pub const GAP: Duration = Duration::from_millis(100);

/// Which of this client's turns an engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plays {
    /// Every game's: an engine of qipai's JSON lines.
    Every,
    /// Gomoku's only: a Gomocup brain.
    Gomoku,
}

impl Plays {
    /// Whether the engine plays this client's turns in `game`.
    pub fn game(self, game: &dyn ErasedGame) -> bool {
        match self {
            Plays::Every => true,
            Plays::Gomoku => game.engine_protocol() == Some("gomocup"),
        }
    }
}

/// The engine, and the turns it was asked.
pub struct Autoplay {
    engine: Engine,
    /// Per table, the view of the turn last asked.
    asked: HashMap<String, Value>,
    /// Per table, the games it had played when this client last said `ready` there.
    readied: HashMap<String, u64>,
    /// The tables where a move of the engine's is on its way.
    sent: HashSet<String>,
    /// When the engine's last move went out.
    last: Option<Instant>,
    /// Per table, the Gomocup brain playing its game, and that game's id.
    brains: HashMap<String, (String, Box<dyn JsonBot>)>,
}

impl Autoplay {
    /// Lets `engine` (started by `--engine`, with its command) play this client's turns.
    pub fn new((_, engine): (String, Engine)) -> Autoplay {
        Autoplay {
            engine,
            asked: HashMap::new(),
            readied: HashMap::new(),
            sent: HashSet::new(),
            last: None,
            brains: HashMap::new(),
        }
    }

    /// Which of this client's turns the engine plays.
    pub fn plays(&self) -> Plays {
        if self.engine.keeps_state() {
            Plays::Gomoku
        } else {
            Plays::Every
        }
    }

    /// The turns of this client not asked yet, each with the engine's seat for it; they
    /// count as asked from now on.
    pub fn due(
        &mut self,
        registry: &Registry,
        tables: &Tables,
    ) -> Result<Vec<(Turn, Box<dyn JsonBot>)>> {
        let mut due = Vec::new();
        for turn in tables.turns() {
            let game = registry.get(&turn.game)?;
            // A Gomocup brain plays Gomoku only; at other tables the turns are the person's.
            if !self.plays().game(game) {
                continue;
            }
            if self.sent.contains(&turn.table) || self.asked.get(&turn.table) == Some(&turn.view) {
                continue;
            }
            self.asked.insert(turn.table.clone(), turn.view.clone());
            let kept = match self.brains.remove(&turn.table) {
                Some((game_id, brain)) if game_id == turn.game_id => Some(brain),
                _ => None,
            };
            let seat = match kept {
                Some(brain) => brain,
                None => self.engine.seat(game)?,
            };
            due.push((turn, seat));
        }
        Ok(due)
    }

    /// Takes back the engine's seat after `turn`: a Gomocup brain is kept for the game's
    /// next turn; a JSON engine's seat is a handle on the one process, made anew each turn.
    pub fn keep(&mut self, turn: &Turn, seat: Box<dyn JsonBot>) {
        if self.engine.keeps_state() {
            self.brains
                .insert(turn.table.clone(), (turn.game_id.clone(), seat));
        }
    }

    /// Waits until the engine's next move may go out ([`GAP`] after the last one), and
    /// notes that it is on its way at `table`.
    pub async fn send_at(&mut self, table: &str) {
        if let Some(wait) = self.last.and_then(|t| GAP.checked_sub(t.elapsed())) {
            tokio::time::sleep(wait).await;
        }
        self.last = Some(Instant::now());
        self.sent.insert(table.to_string());
    }

    /// Takes in a message before the tables do: this seat's own move come back, a fresh
    /// snapshot, the game's end or a refusal at a table ends the wait there.
    pub fn heard(&mut self, message: &ServerMessage, tables: &Tables) {
        let table = match message {
            ServerMessage::Action { table, seat, .. } if tables.seat_at(table) == Some(*seat) => {
                table
            }
            ServerMessage::Table { table, .. } | ServerMessage::GameOver { table, .. } => table,
            ServerMessage::Error {
                table: Some(table), ..
            } => table,
            _ => return,
        };
        self.sent.remove(table);
    }

    /// Tells the engine, if it asked (`--engine-results`), how this client's game ended at
    /// the table `message` says is over: its seat's last view, worked out by replaying the
    /// record the hall sent, and the outcome. Taken in before the tables take the message,
    /// while they still know the seat. Nothing is told where the engine did not play: a
    /// table this client watches, or a Gomocup brain's game.
    pub async fn tell_result(
        &mut self,
        message: &ServerMessage,
        registry: &Registry,
        tables: &Tables,
    ) -> Result<()> {
        let ServerMessage::GameOver { table, record, .. } = message else {
            return Ok(());
        };
        if !self.engine.tells_results() || self.engine.keeps_state() {
            return Ok(());
        }
        let Some(seat) = tables.seat_at(table) else {
            return Ok(());
        };
        let record: Record = serde_json::from_value(record.clone())?;
        let game = registry.get(&record.game)?;
        let Some(outcome) = record.outcome.clone() else {
            return Ok(());
        };
        let end = game.replay_step(&record, record.actions.len())?;
        let Some(view) = end.seats.get(seat).cloned() else {
            return Ok(());
        };
        let mut engine = self.engine.seat(game)?;
        // The line goes down a pipe, which must not hold up the runtime's thread.
        tokio::task::spawn_blocking(move || engine.over(seat, &view, &outcome)).await?;
        Ok(())
    }

    /// The tables to say `ready` at: where this client waits, not ready, and has not said
    /// it yet during this wait.
    pub fn ready_at(&mut self, tables: &Tables) -> Vec<String> {
        tables
            .waits()
            .into_iter()
            .filter(|(table, games)| self.readied.insert(table.clone(), *games) != Some(*games))
            .map(|(table, _)| table)
            .collect()
    }
}

/// The engine's move for `turn`, asked on a thread of its own: the engine may take its
/// whole time, and the runtime's thread must not wait on a pipe.
/// The engine's seat comes back with the answer, to be kept for the next turn.
pub async fn decide(
    mut engine: Box<dyn JsonBot>,
    turn: &Turn,
) -> Result<(Box<dyn JsonBot>, Result<Value, String>), String> {
    let (seat, view, legal) = (turn.seat, turn.view.clone(), turn.legal.clone());
    tokio::task::spawn_blocking(move || {
        let answer = engine.act(seat, &view, &legal);
        (engine, answer)
    })
    .await
    .map_err(|e| format!("the engine's thread failed: {e}"))
}
