//! Life at a table through the real server: a disconnect and a reconnect mid-game, a
//! second connection taking the seat over, timeouts that trigger the default move and then
//! 托管, Gomoku undo accepted and refused, chat and mutes, a spectator.

mod common;

use common::{guest, play_game, registry, Seen, TestServer};
use serde_json::{json, Value};
use server::client::Connection;
use server::protocol::{ClientMessage, ServerMessage, TableOptions};
use std::collections::BTreeMap;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// Waits for a message matching `pred`, feeding everything into `seen`.
async fn until(
    conn: &mut Connection,
    table: &str,
    seen: &mut Seen,
    mut pred: impl FnMut(&ServerMessage) -> bool,
) -> ServerMessage {
    loop {
        let m = conn.recv_within(WAIT).await.expect("a message in time");
        seen.take(table, &m);
        if pred(&m) {
            return m;
        }
    }
}

async fn create(conn: &mut Connection, game: &str, options: TableOptions) -> (String, Seen) {
    conn.send(&ClientMessage::CreateTable {
        game: game.into(),
        options,
    })
    .await
    .expect("sent");
    let mut seen = Seen::default();
    let m = loop {
        let m = conn.recv_within(WAIT).await.expect("a table");
        if matches!(m, ServerMessage::Table { .. }) {
            break m;
        }
    };
    let ServerMessage::Table { table, .. } = &m else {
        unreachable!()
    };
    let table = table.clone();
    seen.take(&table, &m);
    (table, seen)
}

async fn send(conn: &mut Connection, m: ClientMessage) {
    conn.send(&m).await.expect("sent");
}

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
                ClientMessage::Nonce {
                    table: table.clone(),
                    game_id: game_id.clone(),
                    nonce: "0123456789abcdef".into(),
                },
            )
            .await;
        }
        seen.take(&table, &m);
        if let Some(action) = seen.my_move(g, "heuristic", moves) {
            moves += 1;
            send(
                &mut conn,
                ClientMessage::Act {
                    table: table.clone(),
                    action,
                    seq: Some(seen.seq),
                },
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
        ClientMessage::Resume {
            table: table.clone(),
            last_seq,
        },
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
        ClientMessage::Resume {
            table: table.clone(),
            last_seq: before_the_deal,
        },
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
    let (table, _) = create(&mut first, "bigtwo", TableOptions::default()).await;
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
    send(
        &mut second,
        ClientMessage::Resume {
            table: table.clone(),
            last_seq: 0,
        },
    )
    .await;
    let mut seen = Seen::default();
    let m = until(&mut second, &table, &mut seen, |m| {
        matches!(m, ServerMessage::Table { .. })
    })
    .await;
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
    let (table, mut seen) = create(
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
            ClientMessage::AddBot {
                table: table.clone(),
                seat,
                bot: "heuristic".into(),
            },
        )
        .await;
    }
    send(
        &mut conn,
        ClientMessage::Ready {
            table: table.clone(),
            ready: true,
        },
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
                ClientMessage::Nonce {
                    table: table.clone(),
                    game_id: game_id.clone(),
                    nonce: "aa".into(),
                },
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

/// Two people at a Gomoku table; returns both connections, the table and their records.
async fn gomoku_pair(server: &TestServer) -> (Connection, Seen, Connection, Seen, String) {
    let (mut a, _) = guest(&server.addr).await;
    let (mut b, _) = guest(&server.addr).await;
    let (table, mut sa) = create(
        &mut a,
        "gomoku",
        TableOptions {
            computers: false,
            ..TableOptions::default()
        },
    )
    .await;
    send(
        &mut b,
        ClientMessage::Join {
            table: table.clone(),
            seat: Some(1),
            invite: None,
        },
    )
    .await;
    let mut sb = Seen::default();
    until(&mut b, &table, &mut sb, |m| {
        matches!(m, ServerMessage::Table { .. })
    })
    .await;
    for c in [&mut a, &mut b] {
        send(
            c,
            ClientMessage::Ready {
                table: table.clone(),
                ready: true,
            },
        )
        .await;
    }
    for (c, s) in [(&mut a, &mut sa), (&mut b, &mut sb)] {
        until(c, &table, s, |m| {
            matches!(m, ServerMessage::Table { game: Some(_), .. })
        })
        .await;
    }
    (a, sa, b, sb, table)
}

async fn act(c: &mut Connection, table: &str, action: Value) {
    send(
        c,
        ClientMessage::Act {
            table: table.into(),
            action,
            seq: None,
        },
    )
    .await;
}

fn moves(s: &Seen) -> usize {
    s.game
        .as_ref()
        .and_then(|g| g.view["moves"].as_array().map(Vec::len))
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gomoku_undo_goes_to_the_opponent_who_accepts_or_refuses() {
    let server = TestServer::fresh("undo").await;
    let (mut a, mut sa, mut b, mut sb, table) = gomoku_pair(&server).await;
    let action = |m: &ServerMessage| matches!(m, ServerMessage::Action { .. });
    act(&mut a, &table, json!({"place": [7, 7]})).await;
    until(&mut b, &table, &mut sb, action).await;
    act(&mut b, &table, json!({"place": [8, 8]})).await;
    until(&mut a, &table, &mut sa, action).await;
    until(&mut a, &table, &mut sa, action).await;
    act(&mut a, &table, json!({"place": [7, 8]})).await;
    until(&mut b, &table, &mut sb, action).await;
    until(&mut b, &table, &mut sb, action).await;
    assert_eq!(moves(&sb), 3);
    // Black asks to take back h7… white is asked, and accepts.
    act(&mut a, &table, json!("request_undo")).await;
    until(&mut b, &table, &mut sb, action).await;
    let asked = sb.game.as_ref().expect("a game");
    assert!(
        asked.legal.contains(&json!({"answer_undo": true})),
        "{:?}",
        asked.legal
    );
    act(&mut b, &table, json!({"answer_undo": true})).await;
    until(&mut b, &table, &mut sb, action).await;
    assert_eq!(moves(&sb), 2, "the stone is taken back");
    // Black plays again and asks again; this time white refuses.
    until(&mut a, &table, &mut sa, |m| {
        matches!(m, ServerMessage::Action { seat: 1, .. })
    })
    .await;
    act(&mut a, &table, json!({"place": [6, 6]})).await;
    until(&mut b, &table, &mut sb, action).await;
    act(&mut a, &table, json!("request_undo")).await;
    until(&mut b, &table, &mut sb, action).await;
    act(&mut b, &table, json!({"answer_undo": false})).await;
    until(&mut b, &table, &mut sb, action).await;
    assert_eq!(moves(&sb), 3, "refused: the stone stays");
    let _ = (a, sa);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_and_lobby_chat_with_limits_and_mutes() {
    let server = TestServer::fresh("chat").await;
    let (mut a, _) = guest(&server.addr).await;
    let (mut b, _) = guest(&server.addr).await;
    let (table, mut sa) = create(&mut a, "tenhalf", TableOptions::default()).await;
    send(
        &mut b,
        ClientMessage::Watch {
            table: table.clone(),
            invite: None,
        },
    )
    .await;
    let mut sb = Seen::default();
    until(&mut b, &table, &mut sb, |m| {
        matches!(m, ServerMessage::Table { .. })
    })
    .await;
    send(
        &mut a,
        ClientMessage::Chat {
            table: Some(table.clone()),
            text: "  你好 \u{7} ".into(),
        },
    )
    .await;
    let said = until(&mut b, &table, &mut sb, |m| {
        matches!(m, ServerMessage::Chat { .. })
    })
    .await;
    let ServerMessage::Chat { text, seq, .. } = said else {
        unreachable!()
    };
    assert_eq!(text, "你好", "trimmed, control characters removed");
    assert!(
        seq.is_some(),
        "table chat is numbered, so a reconnect gets it"
    );
    // Too long: refused to the sender.
    send(
        &mut a,
        ClientMessage::Chat {
            table: Some(table.clone()),
            text: "x".repeat(301),
        },
    )
    .await;
    let refused = until(&mut a, &table, &mut sa, |m| {
        matches!(m, ServerMessage::Error { .. })
    })
    .await;
    assert!(matches!(refused, ServerMessage::Error { ref code, .. } if code == "bad_chat"));
    // Lobby chat reaches lobby watchers; a mute stops it.
    send(&mut b, ClientMessage::Lobby { game: None }).await;
    until(&mut b, &table, &mut sb, |m| {
        matches!(m, ServerMessage::Lobby { .. })
    })
    .await;
    send(
        &mut a,
        ClientMessage::Chat {
            table: None,
            text: "anyone for ten and a half?".into(),
        },
    )
    .await;
    let heard = until(&mut b, &table, &mut sb, |m| {
        matches!(m, ServerMessage::Chat { table: None, .. })
    })
    .await;
    let ServerMessage::Chat { from, .. } = heard else {
        unreachable!()
    };
    send(
        &mut b,
        ClientMessage::Mute {
            user: from.clone(),
            mute: true,
        },
    )
    .await;
    send(&mut b, ClientMessage::Ping).await;
    until(&mut b, &table, &mut sb, |m| {
        matches!(m, ServerMessage::Pong)
    })
    .await;
    send(
        &mut a,
        ClientMessage::Chat {
            table: Some(table.clone()),
            text: "muted now".into(),
        },
    )
    .await;
    send(&mut a, ClientMessage::Ping).await;
    until(&mut a, &table, &mut sa, |m| {
        matches!(m, ServerMessage::Pong)
    })
    .await;
    send(&mut b, ClientMessage::Ping).await;
    let m = until(&mut b, &table, &mut sb, |m| {
        matches!(m, ServerMessage::Pong | ServerMessage::Chat { .. })
    })
    .await;
    assert!(
        matches!(m, ServerMessage::Pong),
        "a muted player's chat does not arrive"
    );
    // A flood of chat is limited per account.
    let mut limited = false;
    for i in 0..40 {
        send(
            &mut a,
            ClientMessage::Chat {
                table: None,
                text: format!("spam {i}"),
            },
        )
        .await;
    }
    send(&mut a, ClientMessage::Ping).await;
    loop {
        match a.recv_within(WAIT).await.expect("answers") {
            ServerMessage::Error { code, .. } if code == "rate_limited" => limited = true,
            ServerMessage::Pong => break,
            _ => {}
        }
    }
    assert!(limited);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spectator_sees_the_spectators_view_and_may_not_act() {
    let server = TestServer::fresh("spectator").await;
    let games = registry();
    let g = games.get("bigtwo").expect("bigtwo");
    let (mut player, _) = guest(&server.addr).await;
    send(
        &mut player,
        ClientMessage::QuickPlay {
            game: "bigtwo".into(),
        },
    )
    .await;
    let mut sp = Seen::default();
    let m = loop {
        let m = player.recv_within(WAIT).await.expect("a table");
        if matches!(m, ServerMessage::Table { .. }) {
            break m;
        }
    };
    let ServerMessage::Table { table, .. } = &m else {
        unreachable!()
    };
    let table = table.clone();
    sp.take(&table, &m);
    let (mut watcher, _) = guest(&server.addr).await;
    send(
        &mut watcher,
        ClientMessage::Watch {
            table: table.clone(),
            invite: None,
        },
    )
    .await;
    let mut sw = Seen::default();
    let first = until(&mut watcher, &table, &mut sw, |m| {
        matches!(m, ServerMessage::Table { .. })
    })
    .await;
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
                            .send(&ClientMessage::Act {
                                table: table.clone(),
                                action: json!("pass"),
                                seq: None,
                            })
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
