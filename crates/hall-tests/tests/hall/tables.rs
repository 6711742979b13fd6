//! Life at a table through the real server: a disconnect and a reconnect mid-game, a
//! second connection taking the seat over, timeouts that trigger the default move and then
//! 托管, a spectator. What the players say and ask of each other is in `talk.rs`.

use crate::common::Connection;
use crate::common::{
    create_table, enter, guest, open_table, play_game, registry, send, until, Seen, TestServer,
    WAIT,
};
use serde_json::json;
use server::protocol::request;
use server::protocol::{ClientMessage, ServerMessage, TableOptions};
use std::collections::BTreeMap;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_drops_mid_game_reconnects_into_the_same_game() {
    let server = TestServer::fresh("reconnect").await;
    let games = registry();
    let g = games.get("doudizhu").expect("doudizhu");
    let (mut conn, token) = guest(&server.addr).await;
    send(
        &mut conn,
        ClientMessage::QuickPlay {
            game: "doudizhu".into(),
            level: None,
        },
    )
    .await;
    let mut seen = Seen::default();
    let m = loop {
        let m = conn.recv_within(WAIT).await.expect("a table");
        if let ServerMessage::Table { .. } = m {
            break m;
        }
    };
    let ServerMessage::Table { table, .. } = &m else {
        unreachable!()
    };
    let table = table.clone();
    seen.take(&table, &m);
    let before_the_deal = seen.seq;
    // Play until a few actions have been made, then drop the connection.
    let mut moves = 0;
    while seen
        .game
        .as_ref()
        .is_none_or(|s| s.view["history"].as_array().map_or(0, Vec::len) < 3)
    {
        let m = conn.recv_within(WAIT).await.expect("play goes on");
        if let ServerMessage::Commitment { game_id, .. } = &m {
            send(
                &mut conn,
                ClientMessage::Nonce(request::Nonce {
                    table: table.clone(),
                    game_id: game_id.clone(),
                    nonce: "0123456789abcdef".into(),
                }),
            )
            .await;
        }
        seen.take(&table, &m);
        if let Some(action) = seen.my_move(g, "heuristic", moves) {
            moves += 1;
            send(
                &mut conn,
                ClientMessage::Act(request::Act {
                    table: table.clone(),
                    action,
                    seq: Some(seen.seq),
                }),
            )
            .await;
        }
    }
    let last_seq = seen.seq;
    let game_id = seen.game.as_ref().map(|s| s.game_id.clone());
    drop(conn);
    tokio::time::sleep(Duration::from_millis(200)).await;
    // Back with the same token: the welcome names the table, a resume brings the missed
    // messages and then a fresh snapshot of the same game.
    let (mut back, user, seated) = Connection::open(&server.addr, Some(&token))
        .await
        .expect("reconnects");
    assert!(user.is_some(), "the session survives");
    assert_eq!(seated, vec![table.clone()]);
    send(
        &mut back,
        ClientMessage::Resume(request::Resume {
            table: table.clone(),
            last_seq,
            invite: None,
        }),
    )
    .await;
    let snapshot = until(&mut back, &table, &mut seen, |m| {
        matches!(m, ServerMessage::Table { .. })
    })
    .await;
    let ServerMessage::Table { game, you, .. } = snapshot else {
        unreachable!()
    };
    assert!(you.is_some(), "still in the seat");
    assert_eq!(game.map(|s| s.game_id), game_id, "the same game");
    // Resumed from before the deal, the replay leaves out the call for nonces: that deal
    // is done, and a nonce sent for it could only be refused.
    send(
        &mut back,
        ClientMessage::Resume(request::Resume {
            table: table.clone(),
            last_seq: before_the_deal,
            invite: None,
        }),
    )
    .await;
    loop {
        match back.recv_within(WAIT).await.expect("the replay") {
            ServerMessage::Commitment { .. } => panic!("a past deal's commitment was replayed"),
            m @ ServerMessage::Table { .. } => {
                seen.take(&table, &m);
                break;
            }
            m => {
                seen.take(&table, &m);
            }
        }
    }
    let record = play_game(&mut back, &table, g, "heuristic", &mut seen, WAIT)
        .await
        .expect("the game finishes");
    assert_eq!(record["game"], "doudizhu");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_connection_of_the_same_account_takes_the_seat_over() {
    let server = TestServer::fresh("takeover").await;
    let (mut first, token) = guest(&server.addr).await;
    let (table, _) = create_table(&mut first, "bigtwo", TableOptions::default()).await;
    let (mut second, _, seated) = Connection::open(&server.addr, Some(&token))
        .await
        .expect("connects");
    assert_eq!(seated, vec![table.clone()]);
    // The older connection is told and closed.
    let mut told = false;
    loop {
        match first.recv_within(WAIT).await {
            Ok(ServerMessage::Error { code, .. }) if code == "taken_over" => told = true,
            Ok(_) => continue,
            Err(_) => break,
        }
    }
    assert!(told);
    let resume = ClientMessage::Resume(request::Resume {
        table: table.clone(),
        last_seq: 0,
        invite: None,
    });
    let (m, _) = enter(&mut second, &table, resume).await;
    assert!(matches!(m, ServerMessage::Table { you: Some(0), .. }));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_lets_the_clock_run_out_gets_the_default_move_then_a_computer() {
    let server = TestServer::fresh("timeout").await;
    let (mut conn, _) = guest(&server.addr).await;
    let mut seconds = BTreeMap::new();
    seconds.insert("bid".to_string(), 1);
    seconds.insert("play".to_string(), 1);
    let (table, mut seen) = create_table(
        &mut conn,
        "doudizhu",
        TableOptions {
            turn_seconds: seconds,
            ..TableOptions::default()
        },
    )
    .await;
    for seat in [1, 2] {
        send(
            &mut conn,
            ClientMessage::AddBot(request::AddBot {
                table: table.clone(),
                seat,
                bot: "heuristic".into(),
            }),
        )
        .await;
    }
    send(
        &mut conn,
        ClientMessage::Ready(request::Ready {
            table: table.clone(),
            ready: true,
        }),
    )
    .await;
    // The person never moves: the first timeout plays the default (no bid, or the
    // cheapest move), the second hands the seat to a computer, which ends the game. Each
    // default move says so (`timed_out`); the computers' moves, and the seat's own once a
    // computer plays it, do not.
    let mut my_timeouts = 0;
    let mut auto_seen = false;
    loop {
        let m = conn
            .recv_within(WAIT)
            .await
            .expect("the game goes on without us");
        if let ServerMessage::Commitment { game_id, .. } = &m {
            send(
                &mut conn,
                ClientMessage::Nonce(request::Nonce {
                    table: table.clone(),
                    game_id: game_id.clone(),
                    nonce: "aa".into(),
                }),
            )
            .await;
        }
        if let ServerMessage::Action {
            seat, timed_out, ..
        } = &m
        {
            let by_the_clock = *seat == 0 && !auto_seen;
            assert_eq!(*timed_out, by_the_clock, "seat {seat}'s move: {m:?}");
            if by_the_clock {
                my_timeouts += 1;
            }
        }
        if let ServerMessage::Seats { info, .. } = &m {
            if info.seats[0].auto {
                auto_seen = true;
                assert!(my_timeouts >= 2, "托管 only after two timeouts in a row");
            }
        }
        if seen.take(&table, &m) {
            break;
        }
    }
    assert!(auto_seen, "the seat went to a computer");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_sees_the_spectators_view_and_may_not_act() {
    let server = TestServer::fresh("spectator").await;
    let games = registry();
    let g = games.get("bigtwo").expect("bigtwo");
    let (mut player, _) = guest(&server.addr).await;
    let quick = ClientMessage::QuickPlay {
        game: "bigtwo".into(),
        level: None,
    };
    let (table, mut sp) = open_table(&mut player, quick).await;
    let (mut watcher, _) = guest(&server.addr).await;
    let watch = ClientMessage::Watch(request::Watch {
        table: table.clone(),
        invite: None,
    });
    let (first, mut sw) = enter(&mut watcher, &table, watch).await;
    assert!(matches!(first, ServerMessage::Table { you: None, .. }));
    let (p, w) = tokio::join!(
        play_game(&mut player, &table, g, "heuristic", &mut sp, WAIT),
        async {
            let mut refused = false;
            loop {
                let m = watcher
                    .recv_within(WAIT)
                    .await
                    .expect("the game is watched");
                if let ServerMessage::Action { game: Some(s), .. } = &m {
                    assert!(s.view["hand"].is_null(), "a spectator sees no hand");
                    assert!(s.legal.is_empty());
                    if !refused {
                        watcher
                            .send(&ClientMessage::Act(request::Act {
                                table: table.clone(),
                                action: json!("pass"),
                                seq: None,
                            }))
                            .await
                            .expect("sent");
                    }
                }
                if let ServerMessage::Error { code, .. } = &m {
                    assert_eq!(code, "not_seated");
                    refused = true;
                }
                if sw.take(&table, &m) {
                    return refused;
                }
            }
        }
    );
    p.expect("the game finishes");
    assert!(w, "the spectator's move was refused");
    server.stop().await;
}

/// A game's end the store cannot take (a full disk, a database away for longer than its
/// own retries) is waited for, however long: the table says so, shows itself stalled and
/// takes no move, and once the store takes writes again the end is stored and published.
/// A hall stopped while it waits loses nothing either: started again, it finds the game
/// stored up to its last move, ends it, and counts it once. Here the database refuses
/// every game's end (a trigger) until the test lifts the refusal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_games_end_the_store_refuses_is_waited_for_and_never_lost() {
    let config = crate::common::fast_config(crate::common::data_dir("end-again"));
    let (dir, database) = (config.data_dir.clone(), config.database.clone());
    let server = TestServer::start(config.clone()).await;
    let (refuse, lift): (&[&str], &[&str]) = match server.database {
        Some(_) => (
            &[
                "CREATE OR REPLACE FUNCTION refuse_end() RETURNS trigger AS \
                 'BEGIN RAISE EXCEPTION ''refused''; END' LANGUAGE plpgsql",
                "CREATE TRIGGER refuse_end BEFORE UPDATE OF outcome ON games \
                 FOR EACH ROW EXECUTE FUNCTION refuse_end()",
            ],
            &["DROP TRIGGER refuse_end ON games"],
        ),
        None => (
            &[
                "CREATE TRIGGER refuse_end BEFORE UPDATE OF outcome ON games \
               BEGIN SELECT RAISE(ABORT, 'refused'); END",
            ],
            &["DROP TRIGGER refuse_end"],
        ),
    };
    let games = registry();
    let g = games.get("tenhalf").expect("tenhalf");
    let quick = || ClientMessage::QuickPlay {
        game: "tenhalf".into(),
        level: None,
    };

    crate::common::execute_sql(&server, refuse).await;
    let (mut conn, _) = guest(&server.addr).await;
    let (table, mut seen) = open_table(&mut conn, quick()).await;
    let said = play_until_stalled(&mut conn, &table, g, &mut seen).await;
    assert!(said.contains("waits for its storage"), "{said}");
    until(
        &mut conn,
        &table,
        &mut seen,
        |m| matches!(m, ServerMessage::Seats { info, .. } if info.status == "stalled"),
    )
    .await;
    send(
        &mut conn,
        ClientMessage::Act(request::Act {
            table: table.clone(),
            action: json!("stand"),
            seq: None,
        }),
    )
    .await;
    let m = until(&mut conn, &table, &mut seen, |m| {
        matches!(m, ServerMessage::Error { .. })
    })
    .await;
    assert!(
        matches!(&m, ServerMessage::Error { code, .. } if code == "storage"),
        "{m:?}"
    );
    // Long enough for several attempts to fail: the end is neither published nor dropped.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    crate::common::execute_sql(&server, lift).await;
    let over = until(&mut conn, &table, &mut seen, |m| {
        matches!(m, ServerMessage::GameOver { .. })
    })
    .await;
    let ServerMessage::GameOver {
        game_id,
        scores,
        totals,
        ..
    } = over
    else {
        unreachable!("a game over")
    };
    assert_eq!(totals, scores, "the first game, counted once");
    let (status, body) = crate::common::get(&server.addr, &format!("/api/games/{game_id}")).await;
    assert_eq!(status, 200, "the finished record is stored: {body}");

    // Stopped while it waits: the next start ends the game and counts it once.
    crate::common::execute_sql(&server, refuse).await;
    let (mut conn, token) = guest(&server.addr).await;
    let (table, mut seen) = open_table(&mut conn, quick()).await;
    play_until_stalled(&mut conn, &table, g, &mut seen).await;
    drop(conn);
    server.stop().await;
    crate::common::execute_sql_at(&dir, database.as_deref(), lift).await;
    let server = TestServer::start(config).await;
    let (mut conn, _, seated) = Connection::open(&server.addr, Some(&token))
        .await
        .expect("back");
    assert_eq!(seated, vec![table.clone()]);
    let game_id = format!("{table}-1");
    let (snapshot, _) = enter(
        &mut conn,
        &table,
        ClientMessage::Resume(request::Resume {
            table: table.clone(),
            last_seq: 0,
            invite: None,
        }),
    )
    .await;
    let ServerMessage::Table { info, .. } = snapshot else {
        unreachable!("a snapshot")
    };
    assert_eq!(info.games, 1, "the game is counted once");
    let (status, body) = crate::common::get(&server.addr, &format!("/api/games/{game_id}")).await;
    assert_eq!(status, 200, "the finished record is stored: {body}");
    let stored: game::Record = serde_json::from_str(&body).expect("a record");
    let scores = stored.outcome.expect("an outcome").scores;
    assert_eq!(info.totals, scores);
    server.stop().await;
}

/// Plays the game at `table` until the table says it waits for the store: what it said.
async fn play_until_stalled(
    conn: &mut Connection,
    table: &str,
    game: &dyn game::ErasedGame,
    seen: &mut Seen,
) -> String {
    match play_game(conn, table, game, "random", seen, WAIT).await {
        Err(server::client::ClientError::Refused { code, message }) if code == "storage" => message,
        other => panic!("expected the table to wait for the store, got {other:?}"),
    }
}

/// The next refusal this connection gets, skipping other messages: its code and message.
async fn next_refusal(conn: &mut Connection) -> (String, String) {
    loop {
        if let ServerMessage::Error { code, message, .. } =
            conn.recv_within(WAIT).await.expect("an answer")
        {
            return (code.to_string(), message);
        }
    }
}

/// A refusal about a seat names it as people count, from 1, as the browser and the
/// terminal show it, while the request names it by its index from 0.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_seat_is_named_by_its_number_from_one() {
    let server = TestServer::fresh("seat-numbers").await;
    let (mut host, _) = guest(&server.addr).await;
    let (table, _) = create_table(&mut host, "doudizhu", TableOptions::default()).await;
    let asks = [
        (
            ClientMessage::AddBot(request::AddBot {
                table: table.clone(),
                seat: 0,
                bot: "heuristic".into(),
            }),
            ("seat_taken", "seat 1 is taken"),
        ),
        (
            ClientMessage::AddBot(request::AddBot {
                table: table.clone(),
                seat: 5,
                bot: "heuristic".into(),
            }),
            ("no_seat", "there is no seat 6 (seats 1 to 3)"),
        ),
        (
            ClientMessage::RemoveBot(request::RemoveBot {
                table: table.clone(),
                seat: 1,
            }),
            ("no_bot", "no computer sits in seat 2"),
        ),
    ];
    for (ask, (code, message)) in asks {
        send(&mut host, ask).await;
        assert_eq!(next_refusal(&mut host).await, (code.into(), message.into()));
    }
    let (mut other, _) = guest(&server.addr).await;
    for (seat, code, message) in [
        (0, "seat_taken", "seat 1 is taken"),
        (3, "no_seat", "there is no seat 4 (seats 1 to 3)"),
    ] {
        send(
            &mut other,
            ClientMessage::Join(request::Join {
                table: table.clone(),
                seat: Some(seat),
                invite: None,
            }),
        )
        .await;
        assert_eq!(
            next_refusal(&mut other).await,
            (code.into(), message.into())
        );
    }
    server.stop().await;
}

/// A player who walks away mid-game is played for by a computer after the grace period;
/// when that game ends their seat empties, so the table can fill it and play on. (It
/// used to stay theirs, not ready, for good: the next game never started.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_left_mid_game_empties_when_the_game_ends() {
    let mut config = crate::common::fast_config(crate::common::data_dir("left-mid-game"));
    config.timing.grace = Duration::from_millis(300);
    let server = TestServer::start(config).await;
    let (mut a, _) = guest(&server.addr).await;
    let (mut b, _) = guest(&server.addr).await;
    let (table, mut sa) = create_table(&mut a, "gomoku", TableOptions::default()).await;
    let join = ClientMessage::Join(request::Join {
        table: table.clone(),
        seat: Some(1),
        invite: None,
    });
    enter(&mut b, &table, join).await;
    for c in [&mut a, &mut b] {
        let ready = ClientMessage::Ready(request::Ready {
            table: table.clone(),
            ready: true,
        });
        send(c, ready).await;
    }
    until(&mut a, &table, &mut sa, |m| {
        matches!(m, ServerMessage::Table { game: Some(_), .. })
    })
    .await;
    // Each step says it is done, so a step that never comes is named by the last one.
    eprintln!("the game started");
    b.close().await;
    until(
        &mut a,
        &table,
        &mut sa,
        |m| matches!(m, ServerMessage::Seats { info, .. } if info.seats[1].auto),
    )
    .await;
    eprintln!("a computer plays the seat left");
    let resign = ClientMessage::Act(request::Act {
        table: table.clone(),
        action: json!("resign"),
        seq: None,
    });
    send(&mut a, resign).await;
    until(&mut a, &table, &mut sa, |m| {
        matches!(m, ServerMessage::GameOver { .. })
    })
    .await;
    eprintln!("the game is over");
    let seats = until(&mut a, &table, &mut sa, |m| {
        matches!(m, ServerMessage::Seats { .. })
    })
    .await;
    eprintln!("the seats after it: {seats:?}");
    let ServerMessage::Seats { info, .. } = seats else {
        unreachable!()
    };
    assert!(
        info.seats[1].user.is_none(),
        "the seat left empties: {:?}",
        info.seats[1]
    );
    assert!(
        info.seats[0].user.is_some(),
        "the player still here keeps theirs"
    );
    // The table plays on: a computer takes the empty seat and the next game starts.
    send(
        &mut a,
        ClientMessage::AddBot(request::AddBot {
            table: table.clone(),
            seat: 1,
            bot: "random".into(),
        }),
    )
    .await;
    let ready = ClientMessage::Ready(request::Ready {
        table: table.clone(),
        ready: true,
    });
    send(&mut a, ready).await;
    until(&mut a, &table, &mut sa, |m| {
        matches!(m, ServerMessage::Commitment { .. })
    })
    .await;
    server.stop().await;
}
