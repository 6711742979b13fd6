//! No secret leaks through the server: every frame sent to every connection, over many
//! complete games of every game, is recorded; after each game the revealed record
//! says exactly what each connection was allowed to receive (`game::registry::observe`,
//! whose own secrecy every game crate tests across twin worlds), and each connection's
//! game content must be exactly that — its own seat's view, public actions of the others,
//! its own private actions, public events. Before the end no frame holds the seed.

use crate::common::Connection;
use crate::common::{guest, registry, Seen, TestServer};
use game::registry::{first_difference, observe};
use game::{Record, Seed, TableSetup, Viewer};
use serde_json::Value;
use server::protocol::request;
use server::protocol::{ClientMessage, ServerMessage, TableOptions};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(30);

/// One connection at the table: its seat (none for the spectator), what it saw, and every
/// frame it received, as text.
struct Watcher {
    conn: Connection,
    seen: Seen,
    seat: Option<usize>,
    frames: Vec<ServerMessage>,
}

/// Plays one game with every seat a person (moves by the random bot) and a spectator;
/// returns the record and every connection's frames.
async fn one_game(
    server: &TestServer,
    game: &'static str,
    seats: usize,
    seed: u64,
) -> (Record, Vec<Watcher>) {
    let mut people = Vec::new();
    for _ in 0..seats {
        let (conn, _) = guest(&server.addr).await;
        people.push(Watcher {
            conn,
            seen: Seen::default(),
            seat: None,
            frames: Vec::new(),
        });
    }
    people[0]
        .conn
        .send(&ClientMessage::CreateTable {
            game: game.into(),
            options: TableOptions {
                seats: Some(seats),
                computers: false,
                ..TableOptions::default()
            },
        })
        .await
        .expect("sent");
    let table = loop {
        let m = people[0].conn.recv_within(WAIT).await.expect("a table");
        if let ServerMessage::Table { table, .. } = &m {
            break table.clone();
        }
    };
    for (seat, w) in people.iter_mut().enumerate() {
        w.seat = Some(seat);
        if seat > 0 {
            w.conn
                .send(&ClientMessage::Join(request::Join {
                    table: table.clone(),
                    seat: Some(seat),
                    invite: None,
                }))
                .await
                .expect("sent");
        }
    }
    let (conn, _) = guest(&server.addr).await;
    let mut spectator = Watcher {
        conn,
        seen: Seen::default(),
        seat: None,
        frames: Vec::new(),
    };
    spectator
        .conn
        .send(&ClientMessage::Watch(request::Watch {
            table: table.clone(),
            invite: None,
        }))
        .await
        .expect("sent");
    for w in people.iter_mut() {
        w.conn
            .send(&ClientMessage::Ready(request::Ready {
                table: table.clone(),
                ready: true,
            }))
            .await
            .expect("sent");
    }
    // Everyone plays, each connection on its own task, until it has seen the game end.
    people.push(spectator);
    let tasks: Vec<_> = people
        .into_iter()
        .enumerate()
        .map(|(i, mut w)| {
            let table = table.clone();
            tokio::spawn(async move {
                let games = registry();
                let erased = games.get(game).expect("a game");
                let mut moves = 0u64;
                loop {
                    let m = w.conn.recv_within(WAIT).await.expect("a message");
                    w.frames.push(m.clone());
                    if let (ServerMessage::Commitment { game_id, .. }, Some(_)) = (&m, w.seat) {
                        w.conn
                            .send(&ClientMessage::Nonce(request::Nonce {
                                table: table.clone(),
                                game_id: game_id.clone(),
                                nonce: format!("{i:02x}{seed:06x}"),
                            }))
                            .await
                            .expect("sent");
                    }
                    if w.seen.take(&table, &m) {
                        return w;
                    }
                    if let Some(action) = w.seen.my_move(erased, "random", seed ^ moves) {
                        moves += 1;
                        w.conn
                            .send(&ClientMessage::Act(request::Act {
                                table: table.clone(),
                                action,
                                seq: Some(w.seen.seq),
                            }))
                            .await
                            .expect("sent");
                    }
                }
            })
        })
        .collect();
    let mut people = Vec::new();
    for t in tasks {
        people.push(t.await.expect("a connection finished"));
    }
    let record: Record =
        serde_json::from_value(people[0].seen.records[0].clone()).expect("a record");
    (record, people)
}

/// Checks one connection's frames against what its viewer may receive.
fn check(game: &str, record: &Record, w: &Watcher) {
    let games = registry();
    let erased = games.get(game).expect("a game");
    let viewer = w.seat.map_or(Viewer::Spectator, Viewer::Seat);
    let seed: Seed = record.seed.expect("a revealed seed");
    let setup = TableSetup {
        id: record.id.clone(),
        config: record.config.clone(),
        seats: record.seats,
        seed,
        nonces: record.nonces.clone(),
    };
    let script: Vec<(usize, Value)> = record
        .actions
        .iter()
        .map(|a| (a.seat, a.sealed.clone().unwrap_or_else(|| a.action.clone())))
        .collect();
    let mut table = erased.new_table(&setup).expect("a table");
    let allowed = observe(table.as_mut(), viewer, &script, |_, _| false).expect("observes");
    // What the connection got: the view at the deal, then each action with its view.
    let mut got = Vec::new();
    let mut secret_seen = false;
    for m in &w.frames {
        let text = serde_json::to_string(m).expect("encodes");
        if !matches!(m, ServerMessage::GameOver { .. }) && text.contains(&seed.to_hex()) {
            secret_seen = true;
        }
        match m {
            ServerMessage::Table {
                game: Some(state), ..
            } if got.is_empty() => {
                got.push(state.view.clone());
                assert!(
                    state.legal.is_empty() || w.seat.is_some(),
                    "legal actions only for a seated player"
                );
            }
            ServerMessage::Action {
                seat,
                action,
                events,
                game: Some(state),
                ..
            } => {
                assert!(
                    state.legal.is_empty() || w.seat.is_some(),
                    "legal actions only for a seated player"
                );
                got.push(serde_json::json!({
                    "seat": seat,
                    "action": action,
                    "events": events,
                    "view": state.view,
                }));
            }
            _ => {}
        }
    }
    assert!(
        !secret_seen,
        "{game} {viewer:?}: the seed showed before the end"
    );
    // The last step's view shows the finished game (every game may reveal hands then); the
    // stream up to there must match exactly, and the last action's public parts too.
    assert_eq!(
        got.len(),
        allowed.len(),
        "{game} {viewer:?}: one frame per action"
    );
    let n = allowed.len() - 1;
    if let Some(d) = first_difference(&got[..n], &allowed[..n]) {
        panic!("{game} {viewer:?}: {d}");
    }
    for key in ["seat", "action", "events", "view"] {
        assert_eq!(
            got[n][key], allowed[n][key],
            "{game} {viewer:?}: last {key}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_connection_ever_receives_what_it_may_not_know() {
    let server = TestServer::fresh("secrecy").await;
    let mut games_played = 0;
    let games = registry();
    const ROUNDS: u64 = 3;
    for g in games.games() {
        // Four seats where the game allows it (Ten and a half takes 2 to 8).
        let range = g.seats(&Value::Null).expect("a default configuration");
        let seats = 4.clamp(*range.start(), *range.end());
        let (game, rounds) = (g.id(), ROUNDS);
        for round in 0..rounds {
            let (record, watchers) = one_game(&server, game, seats, round).await;
            for w in &watchers {
                check(game, &record, w);
            }
            games_played += 1;
            for w in watchers {
                w.conn.close().await;
            }
        }
    }
    assert_eq!(games_played, ROUNDS as usize * games.ids().len());
    server.stop().await;
}
