//! Whole games of every game through the real server: people with computers, people only,
//! and the records they leave verify.

use crate::common::{guest, play_game, registry, Seen, TestServer};
use game::{Record, VerifyOptions};
use server::protocol::request;
use server::protocol::{ClientMessage, ServerMessage, TableOptions};
use std::time::Duration;

/// The table a quick play or create put this client at.
async fn wait_table(conn: &mut crate::common::Connection, seen: &mut Seen) -> String {
    loop {
        let m = conn
            .recv_within(Duration::from_secs(10))
            .await
            .expect("a table");
        if let ServerMessage::Table { table, .. } = &m {
            let id = table.clone();
            seen.take(&id, &m);
            return id;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_person_with_computers_plays_a_whole_game_of_every_game() {
    let server = TestServer::fresh("computers").await;
    let games = registry();
    for g in games.games() {
        let (mut conn, _) = guest(&server.addr).await;
        conn.send(&ClientMessage::QuickPlay {
            game: g.id().into(),
            level: None,
        })
        .await
        .expect("sent");
        let mut seen = Seen::default();
        let table = wait_table(&mut conn, &mut seen).await;
        let seats = seen.messages.iter().find_map(|m| match m {
            ServerMessage::Table { info, .. } => Some(info.seats.len()),
            _ => None,
        });
        // Four where the game allows it: Ten and a half (2 to 8) is not a heads-up duel.
        let usual = match g.id() {
            "gomoku" => 2,
            "doudizhu" => 3,
            "doudizhu5" => 5,
            _ => 4,
        };
        assert_eq!(seats, Some(usual), "{}: the quick table's seats", g.id());
        // Quick play sits the person ready, in the snapshot that seats them: nobody is
        // told to get ready and then shown ready.
        let ready = seen.messages.iter().find_map(|m| match m {
            ServerMessage::Table {
                info, you: Some(s), ..
            } => Some(info.seats[*s].ready),
            _ => None,
        });
        assert_eq!(ready, Some(true), "{}: seated ready", g.id());
        // The person is told how soon computers come (the test hall waits 100 ms) ...
        let fill = seen.messages.iter().find_map(|m| match m {
            ServerMessage::Table { info, .. } => Some(info.fill_ms),
            _ => None,
        });
        assert!(
            matches!(fill, Some(Some(ms)) if ms <= 100),
            "{}: the quick table says when computers come: {fill:?}",
            g.id()
        );
        let record = play_game(
            &mut conn,
            &table,
            g,
            "random",
            &mut seen,
            Duration::from_secs(30),
        )
        .await
        .unwrap_or_else(|e| panic!("{}: {e}", g.id()));
        let record: Record = serde_json::from_value(record).expect("a record");
        let verdict = g
            .verify(
                &record,
                &VerifyOptions {
                    commitment: seen.commitment.clone(),
                    nonce: seen
                        .nonce
                        .as_deref()
                        .map(|n| game::Nonce::from_hex(n).expect("hex")),
                    allow_custom: false,
                },
            )
            .unwrap_or_else(|e| panic!("{}: {e}", g.id()));
        assert!(
            verdict.nonce_seat.is_some(),
            "{}: our nonce is in the deal",
            g.id()
        );
        // ... and once they have come, no more is said of it.
        let filled = seen.messages.iter().find_map(|m| match m {
            ServerMessage::Seats { info, .. } if info.seats.iter().any(|s| s.bot.is_some()) => {
                Some(info.fill_ms)
            }
            _ => None,
        });
        assert_eq!(filled, Some(None), "{}: the computers' seats", g.id());
        // Every state that puts the person to move says how long they have.
        for m in &seen.messages {
            if let ServerMessage::Action {
                game: Some(state), ..
            } = m
            {
                if seen.you.is_some_and(|me| state.to_act.contains(&me)) {
                    assert!(
                        state.deadline_ms.is_some(),
                        "{}: a turn without a deadline: {state:?}",
                        g.id()
                    );
                }
            }
        }
        conn.close().await;
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_people_play_each_other_without_computers() {
    let server = TestServer::fresh("people").await;
    let games = registry();
    let g = games.get("gomoku").expect("gomoku");
    let (mut a, _) = guest(&server.addr).await;
    let (mut b, _) = guest(&server.addr).await;
    a.send(&ClientMessage::CreateTable {
        game: "gomoku".into(),
        options: TableOptions {
            computers: false,
            ..TableOptions::default()
        },
    })
    .await
    .expect("sent");
    let mut seen_a = Seen::default();
    let table = wait_table(&mut a, &mut seen_a).await;
    b.send(&ClientMessage::Join(request::Join {
        table: table.clone(),
        seat: None,
        invite: None,
    }))
    .await
    .expect("sent");
    let mut seen_b = Seen::default();
    wait_table(&mut b, &mut seen_b).await;
    for m in seen_a.messages.iter().chain(&seen_b.messages) {
        if let ServerMessage::Table { info, .. } = m {
            assert_eq!(
                info.fill_ms, None,
                "no computer comes to a table without them"
            );
        }
    }
    for (conn, table) in [(&mut a, &table), (&mut b, &table)] {
        conn.send(&ClientMessage::Ready(request::Ready {
            table: table.clone(),
            ready: true,
        }))
        .await
        .expect("sent");
    }
    let wait = Duration::from_secs(30);
    let (ra, rb) = tokio::join!(
        play_game(&mut a, &table, g, "engine:L1", &mut seen_a, wait),
        play_game(&mut b, &table, g, "engine:L1", &mut seen_b, wait)
    );
    let (ra, rb) = (ra.expect("a plays"), rb.expect("b plays"));
    assert_eq!(ra, rb, "both see the same record");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_move_that_puts_a_person_to_act_carries_their_deadline() {
    let server = TestServer::fresh("deadline").await;
    let (mut conn, _) = guest(&server.addr).await;
    conn.send(&ClientMessage::QuickPlay {
        game: "bigtwo".into(),
        level: None,
    })
    .await
    .expect("sent");
    let mut seen = Seen::default();
    let table = wait_table(&mut conn, &mut seen).await;
    loop {
        let m = conn
            .recv_within(Duration::from_secs(10))
            .await
            .expect("the game goes on");
        seen.take(&table, &m);
        let ServerMessage::Action {
            game: Some(game), ..
        } = &m
        else {
            // Our first move may be due already in the snapshot: make it.
            if let (Some(state), Some(you)) = (&seen.game, seen.you) {
                if state.to_act.contains(&you) && !state.legal.is_empty() {
                    conn.send(&ClientMessage::Act(request::Act {
                        table: table.clone(),
                        action: state.legal[0].clone(),
                        seq: Some(seen.seq),
                    }))
                    .await
                    .expect("sent");
                }
            }
            continue;
        };
        if seen.you.is_some_and(|you| game.to_act.contains(&you)) {
            // A page shows the turn timer from this message, with no snapshot.
            assert!(game.deadline_ms.is_some(), "{game:?}");
            break;
        }
    }
    server.stop().await;
}
