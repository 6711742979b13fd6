//! Nothing accepted is lost: the real `qipai serve` is killed with SIGKILL at random
//! moments during a game of every game, restarted on the same data, and the player
//! reconnects into the same game and finishes it. Every action the player saw broadcast
//! before a kill is in the final record, in its place; the record verifies. A host's
//! SIGTERM is held to the same promise, and the server must also exit by itself, cleanly.

use crate::common::serve;
use game::{ErasedGame, Record, Registry, Seed, VerifyOptions};
use serde_json::Value;
use server::client::{ClientError, Connection};
use server::protocol::request;
use server::protocol::{ClientMessage, GameState, ServerMessage};
use std::path::PathBuf;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

/// The most actions a kill may leave committed but unseen by the player (see the end of
/// [`play_through_kills`]).
const UNSEEN: usize = 40;

fn registry() -> Registry {
    games::registry()
}

/// What the player has seen of the game (also of a game that moves between nodes,
/// nodes.rs).
#[derive(Default)]
pub(crate) struct Player {
    pub(crate) table: String,
    pub(crate) seq: u64,
    pub(crate) you: Option<usize>,
    pub(crate) state: Option<GameState>,
    /// Actions seen broadcast, in order, split at each kill.
    pub(crate) segments: Vec<Vec<(usize, Value)>>,
}

impl Player {
    /// Takes in a message; the finished record when it ends the game.
    pub(crate) fn take(&mut self, m: &ServerMessage) -> Option<Value> {
        match m {
            ServerMessage::Table {
                table,
                seq,
                you,
                game,
                ..
            } if *table == self.table => {
                self.seq = *seq;
                self.you = *you;
                self.state = game.clone();
            }
            ServerMessage::Action {
                table,
                seq,
                seat,
                action,
                game,
                ..
            } if *table == self.table => {
                self.seq = *seq;
                if let Some(segment) = self.segments.last_mut() {
                    segment.push((*seat, action.clone()));
                }
                if game.is_some() {
                    self.state = game.clone();
                }
            }
            ServerMessage::Seats { table, seq, .. }
            | ServerMessage::Commitment { table, seq, .. }
                if *table == self.table =>
            {
                self.seq = *seq;
            }
            ServerMessage::GameOver { table, record, .. } if *table == self.table => {
                return Some(record.clone());
            }
            _ => {}
        }
        None
    }

    /// Takes in a message on `conn`: the first table seen is the player's, a commitment
    /// is answered with a nonce; the finished record when the message ends the game.
    pub(crate) async fn answer(
        &mut self,
        conn: &mut Connection,
        m: &ServerMessage,
    ) -> Option<Value> {
        if let ServerMessage::Table { table, .. } = m {
            if self.table.is_empty() {
                self.table = table.clone();
            }
        }
        if let ServerMessage::Commitment { game_id, table, .. } = m {
            conn.send(&ClientMessage::Nonce(request::Nonce {
                table: table.clone(),
                game_id: game_id.clone(),
                nonce: "c0ffee".into(),
            }))
            .await
            .expect("sent");
        }
        self.take(m)
    }

    pub(crate) fn my_move(&self, game: &dyn ErasedGame, n: u64) -> Option<Value> {
        let state = self.state.as_ref()?;
        let seat = self.you?;
        if !state.to_act.contains(&seat) || state.legal.is_empty() {
            return None;
        }
        game.bot_act(
            "random",
            &Seed::from_u64(n),
            seat,
            &state.view,
            &state.legal,
        )
        .ok()
    }
}

/// The record's actions as this player saw them: its own in private form.
pub(crate) fn as_seen(record: &Record, you: usize) -> Vec<(usize, Value)> {
    record
        .actions
        .iter()
        .map(|a| {
            let action = if a.seat == you {
                a.sealed.clone().unwrap_or_else(|| a.action.clone())
            } else {
                a.action.clone()
            };
            (a.seat, action)
        })
        .collect()
}

/// How the server is stopped in the middle of a game.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Stop {
    /// SIGKILL: a crash, nothing of the server runs after it.
    Kill,
    /// SIGTERM: a host stopping the server; it stops accepting, lets its tables stop and
    /// exits with success.
    Term,
}

impl Stop {
    /// Stops `server` this way and waits for it to be gone.
    pub(crate) fn apply(self, server: &mut std::process::Child, dir: &std::path::Path) {
        match self {
            Stop::Kill => {
                server.kill().expect("killed");
                let _ = server.wait();
            }
            Stop::Term => {
                let sent = std::process::Command::new("kill")
                    .args(["-TERM", &server.id().to_string()])
                    .status()
                    .expect("kill runs");
                assert!(sent.success(), "SIGTERM sent");
                // A deadlock guard, not a timing claim: a clean stop takes milliseconds.
                let deadline = std::time::Instant::now() + WAIT;
                let status = loop {
                    if let Some(status) = server.try_wait().expect("a status") {
                        break status;
                    }
                    if std::time::Instant::now() > deadline {
                        let _ = server.kill();
                        panic!(
                            "the server did not stop on SIGTERM; its log:\n{}",
                            std::fs::read_to_string(dir.join("server.log")).unwrap_or_default()
                        );
                    }
                    std::thread::sleep(Duration::from_millis(20));
                };
                assert!(
                    status.success(),
                    "a SIGTERM ends the server cleanly, not {status}"
                );
            }
        }
    }
}

/// Reads `conn` to its end: a stopping server says so, after what it had queued, with a
/// close frame with 1012 ("service restart"), not a reset socket.
pub(crate) async fn closed_for_restart(conn: &mut Connection, game: &str) {
    let closed = loop {
        match conn.recv_within(WAIT).await {
            Ok(_) => continue,
            Err(e) => break e,
        }
    };
    assert!(
        matches!(
            closed,
            ClientError::Closed {
                code: Some(1012),
                ..
            }
        ),
        "{game}: a SIGTERM closes the connection with 1012, not {closed}"
    );
}

/// Plays one game of `game`, stopping the server (`how`) after `kills[i]` more
/// acknowledged actions.
async fn play_through_kills(game: &str, kills: &[usize], dir: PathBuf, how: Stop, on: Data) {
    let games = registry();
    let erased = games.get(game).expect("a game");
    let database = match on {
        Data::Sqlite => None,
        Data::Postgres => Some(crate::common::postgres_database(&dir)),
    };
    let mut flags = vec!["--grace-seconds", "300"];
    flags.extend(database.iter().flat_map(|url| ["--database", url.as_str()]));
    // Restarted on another port, the node keeps its name, as a node restarted where it
    // ran does by default (host and port): it takes its tables back at once, where a new
    // node would wait for their leases to run out.
    flags.extend(["--node-id", "crash-node"]);
    let (mut server, addr) = serve(&dir, &flags);
    let (mut conn, _, _) = Connection::open(&addr, None).await.expect("connects");
    let (token, _) = conn.session(ClientMessage::Guest).await.expect("a guest");
    conn.send(&ClientMessage::QuickPlay {
        game: game.into(),
        level: None,
    })
    .await
    .expect("sent");
    let mut p = Player {
        segments: vec![Vec::new()],
        ..Player::default()
    };
    let mut kills = kills
        .iter()
        .copied()
        .collect::<std::collections::VecDeque<_>>();
    let mut moves = 0u64;
    let mut acted_at = None;
    let record = loop {
        if acted_at != Some(p.seq) {
            if let Some(action) = p.my_move(erased, moves) {
                moves += 1;
                acted_at = Some(p.seq);
                let _ = conn
                    .send(&ClientMessage::Act(request::Act {
                        table: p.table.clone(),
                        action,
                        seq: Some(p.seq),
                    }))
                    .await;
            }
        }
        let m = match conn.recv_within(WAIT).await {
            Ok(m) => m,
            Err(e) => panic!(
                "{game}: {e}; server log:\n{}",
                std::fs::read_to_string(dir.join("server.log")).unwrap_or_default()
            ),
        };
        if let Some(record) = p.answer(&mut conn, &m).await {
            break record;
        }
        let seen_here = p.segments.last().map_or(0, Vec::len);
        if kills.front().is_some_and(|&k| seen_here >= k) {
            kills.pop_front();
            // A moment later, wherever the server is (committing a computer's move,
            // broadcasting), it dies.
            tokio::time::sleep(Duration::from_millis(seen_here as u64 % 7)).await;
            how.apply(&mut server, &dir);
            if matches!(how, Stop::Term) {
                closed_for_restart(&mut conn, game).await;
            }
            drop(conn);
            let (again, addr) = serve(&dir, &flags);
            server = again;
            let (c, user, seated) = Connection::open(&addr, Some(&token))
                .await
                .expect("reconnects");
            assert!(user.is_some(), "{game}: the session survives the crash");
            assert_eq!(seated, vec![p.table.clone()], "{game}: still seated");
            conn = c;
            conn.send(&ClientMessage::Resume(request::Resume {
                table: p.table.clone(),
                last_seq: p.seq,
                invite: None,
            }))
            .await
            .expect("sent");
            p.segments.push(Vec::new());
            acted_at = None;
        }
    };
    let _ = server.kill();
    let _ = server.wait();
    let record: Record = serde_json::from_value(record).expect("a record");
    erased
        .verify(&record, &VerifyOptions::default())
        .unwrap_or_else(|e| panic!("{game}: {e}"));
    // Every acknowledged action is in the record, in order and in its place: the first
    // segment from the start, each later one after the one before, the last one up to the
    // end. Between two segments lie the actions committed but not seen by the player when
    // the server died: computers move at once here, so in the few milliseconds before a
    // kill they may make several; a bound far above that still catches a record that
    // lost its order.
    let all = as_seen(&record, p.you.expect("a seat"));
    let mut at = 0;
    let last = p.segments.len() - 1;
    for (i, segment) in p.segments.iter().enumerate() {
        // After the last restart the player sees every move to the end, so a last segment
        // is the record's tail. Earlier ones are found at their first place after the one
        // before: a short run of passes can occur twice, and the first place is the one
        // that leaves room for what follows.
        let found = if i == last && !segment.is_empty() {
            let tail = all.len().checked_sub(segment.len()).filter(|&t| t >= at);
            tail.filter(|&t| all[t..] == segment[..])
                .unwrap_or_else(|| panic!("{game}: the last segment is not the record's end"))
        } else {
            (at..=all.len().saturating_sub(segment.len()))
                .find(|&start| all[start..start + segment.len()] == segment[..])
                .unwrap_or_else(|| panic!("{game}: segment {i} is not in the record"))
        };
        if i == 0 {
            assert_eq!(found, 0, "{game}: the first actions are the record's first");
        }
        assert!(
            found - at <= UNSEEN,
            "{game}: {} unacknowledged actions",
            found - at
        );
        at = found + segment.len();
    }
    if p.segments.last().is_some_and(Vec::is_empty) {
        // The game ended in the moment of the last kill: its last moves were stored but
        // never broadcast, and the player learnt of them from the game's end, sent again
        // after the restart with the whole record.
        assert!(
            all.len() - at <= UNSEEN,
            "{game}: {} unacknowledged actions at the end",
            all.len() - at
        );
    } else {
        assert_eq!(
            at,
            all.len(),
            "{game}: the record ends with what was broadcast last"
        );
    }
    assert!(p.segments.len() > 1, "{game}: the server was killed");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The kill points: for each game `rounds` times, three kills after 1 to 9 acknowledged
/// actions each, drawn from a seed that changes every run and is printed
/// (`QIPAI_CRASH_SEED=N` repeats a run).
fn kill_plans(rounds: usize) -> Vec<(&'static str, Vec<usize>)> {
    let seed = std::env::var("QIPAI_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
        });
    eprintln!("crash plan: QIPAI_CRASH_SEED={seed}");
    let mut state = seed | 1;
    let mut next = move || {
        // xorshift64: a reproducible stream of kill points, nothing more.
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        1 + (state % 9) as usize
    };
    let mut plans = Vec::new();
    let games = registry().ids();
    for _ in 0..rounds {
        for &game in &games {
            plans.push((game, vec![next(), next(), next()]));
        }
    }
    plans
}

/// Where the server keeps its data.
#[derive(Debug, Clone, Copy)]
enum Data {
    /// The embedded SQLite file in its data directory.
    Sqlite,
    /// A PostgreSQL database of its own (`--database`).
    Postgres,
}

/// Plays every plan of `rounds` rounds, each in a data directory of its own.
async fn play_plans(rounds: usize, how: Stop, on: Data) {
    for (i, (game, stops)) in kill_plans(rounds).into_iter().enumerate() {
        let dir =
            std::env::temp_dir().join(format!("qipai-{how:?}-{on:?}-{}-{i}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        play_through_kills(game, &stops, dir, how, on).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_survives_sigkill_with_every_acknowledged_action() {
    play_plans(2, Stop::Kill, Data::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_the_server_cleanly_and_every_game_resumes_after_it() {
    play_plans(1, Stop::Term, Data::Sqlite).await;
}

/// The same promise with the hall's data in PostgreSQL: a commit there is a network
/// round trip, and a kill may fall between it and its answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_survives_sigkill_on_postgresql() {
    play_plans(2, Stop::Kill, Data::Postgres).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_stops_a_postgresql_hall_cleanly_and_every_game_resumes() {
    play_plans(1, Stop::Term, Data::Postgres).await;
}
