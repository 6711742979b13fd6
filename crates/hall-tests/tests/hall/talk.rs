//! What the people at a table say and ask of each other, through the real server: Gomoku's
//! undo, asked of the opponent who accepts or refuses, and chat at a table and in the
//! lobby, with its limits and mutes.

use crate::common::Connection;
use crate::common::{create_table, enter, guest, send, until, Seen, TestServer, WAIT};
use serde_json::{json, Value};
use server::protocol::request;
use server::protocol::{ClientMessage, ServerMessage, TableOptions};

/// Two people at a Gomoku table; returns both connections, the table and their records.
async fn gomoku_pair(server: &TestServer) -> (Connection, Seen, Connection, Seen, String) {
    let (mut a, _) = guest(&server.addr).await;
    let (mut b, _) = guest(&server.addr).await;
    let (table, mut sa) = create_table(
        &mut a,
        "gomoku",
        TableOptions {
            computers: false,
            ..TableOptions::default()
        },
    )
    .await;
    let join = ClientMessage::Join(request::Join {
        table: table.clone(),
        seat: Some(1),
        invite: None,
    });
    let (_, mut sb) = enter(&mut b, &table, join).await;
    for c in [&mut a, &mut b] {
        send(
            c,
            ClientMessage::Ready(request::Ready {
                table: table.clone(),
                ready: true,
            }),
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
        ClientMessage::Act(request::Act {
            table: table.into(),
            action,
            seq: None,
        }),
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

/// Whether `m` is the action `what`.
fn is_action(m: &ServerMessage, what: &Value) -> bool {
    matches!(m, ServerMessage::Action { action, .. } if action == what)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gomoku_undo_is_asked_right_after_ones_own_move_and_a_refusal_costs_nothing() {
    let server = TestServer::fresh("undo-own").await;
    let (mut a, mut sa, mut b, mut sb, table) = gomoku_pair(&server).await;
    let placed = json!({"place": [7, 7]});
    act(&mut a, &table, placed.clone()).await;
    until(&mut a, &table, &mut sa, |m| is_action(m, &placed)).await;
    // White is to move; black, who has just played, may ask to take the stone back.
    let waiting = sa.game.as_ref().expect("a game");
    assert_eq!(waiting.to_act, vec![1]);
    assert!(
        waiting.legal.contains(&json!("request_undo")),
        "{:?}",
        waiting.legal
    );
    act(&mut a, &table, json!("request_undo")).await;
    until(&mut b, &table, &mut sb, |m| {
        is_action(m, &json!("request_undo"))
    })
    .await;
    act(&mut b, &table, json!({"answer_undo": false})).await;
    let refused = json!({"answer_undo": false});
    until(&mut a, &table, &mut sa, |m| is_action(m, &refused)).await;
    // Refused: the stone stays and no undo is used up.
    let view = &sa.game.as_ref().expect("a game").view;
    assert_eq!(moves(&sa), 1);
    assert_eq!(view["undo_left"], json!([3, 3]));
    assert_eq!(view["undo_refused"], json!([true, false]));
    assert!(sa
        .game
        .as_ref()
        .expect("a game")
        .legal
        .contains(&json!("request_undo")));
    // Asked again before another stone, it costs one at once; granted, nothing more.
    act(&mut a, &table, json!("request_undo")).await;
    until(&mut a, &table, &mut sa, |m| {
        is_action(m, &json!("request_undo"))
    })
    .await;
    assert_eq!(
        sa.game.as_ref().expect("a game").view["undo_left"],
        json!([2, 3])
    );
    until(&mut b, &table, &mut sb, |m| {
        is_action(m, &json!("request_undo"))
    })
    .await;
    let granted = json!({"answer_undo": true});
    act(&mut b, &table, granted.clone()).await;
    until(&mut a, &table, &mut sa, |m| is_action(m, &granted)).await;
    assert_eq!(moves(&sa), 0);
    let view = &sa.game.as_ref().expect("a game").view;
    assert_eq!(view["undo_left"], json!([2, 3]));
    assert_eq!(view["undo_refused"], json!([false, false]));
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gomoku_colours_swap_from_game_to_game_and_the_records_verify() {
    let server = TestServer::fresh("swap").await;
    let (mut a, mut sa, mut b, mut sb, table) = gomoku_pair(&server).await;
    let game_over = |m: &ServerMessage| matches!(m, ServerMessage::GameOver { .. });
    let mut records = Vec::new();
    for game in 0..3 {
        let black = game % 2;
        let state = sa.game.as_ref().expect("a game");
        assert_eq!(state.view["black"], json!(black), "game {game}");
        assert_eq!(state.to_act, vec![black], "black opens game {game}");
        // Black opens at the centre; white resigns.
        let (opener, other, other_seen) = if black == 0 {
            (&mut a, &mut b, &mut sb)
        } else {
            (&mut b, &mut a, &mut sa)
        };
        act(opener, &table, json!({"place": [7, 7]})).await;
        until(other, &table, other_seen, |m| {
            is_action(m, &json!({"place": [7, 7]}))
        })
        .await;
        act(other, &table, json!("resign")).await;
        let mut record = Value::Null;
        for (c, s) in [(&mut a, &mut sa), (&mut b, &mut sb)] {
            if let ServerMessage::GameOver {
                scores, record: r, ..
            } = until(c, &table, s, game_over).await
            {
                let mut expected = vec![-1, -1];
                expected[black] = 1;
                assert_eq!(scores, expected, "black won game {game}");
                record = r;
            }
        }
        records.push(record);
        for c in [&mut a, &mut b] {
            send(
                c,
                ClientMessage::Ready(request::Ready {
                    table: table.clone(),
                    ready: true,
                }),
            )
            .await;
        }
        for (c, s) in [(&mut a, &mut sa), (&mut b, &mut sb)] {
            until(c, &table, s, |m| {
                matches!(m, ServerMessage::Table { game: Some(_), .. })
            })
            .await;
        }
    }
    let registry = crate::common::registry();
    let gomoku = registry.get("gomoku").expect("gomoku");
    for (i, record) in records.into_iter().enumerate() {
        assert_eq!(
            record["config"].get("black").cloned().unwrap_or(json!(0)),
            json!(i % 2),
            "game {i}'s record says who had black"
        );
        let record: game::Record = serde_json::from_value(record).expect("a record");
        assert_eq!(record.outcome.as_ref().expect("over").roles[i % 2], "black");
        gomoku
            .verify(&record, &game::VerifyOptions::default())
            .expect("the record verifies");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_and_lobby_chat_with_limits_and_mutes() {
    let server = TestServer::fresh("chat").await;
    let (mut a, _) = guest(&server.addr).await;
    let (mut b, _) = guest(&server.addr).await;
    let (table, mut sa) = create_table(&mut a, "tenhalf", TableOptions::default()).await;
    let watch = ClientMessage::Watch(request::Watch {
        table: table.clone(),
        invite: None,
    });
    let (_, mut sb) = enter(&mut b, &table, watch).await;
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

/// Chat used to pass on what changes how text reads: a right-to-left override that makes
/// `abc\u{202e}gnp.exe` read as "abcexe.png", isolates, characters of no width (a line
/// of them looked empty), and 240 marks stacked on one letter that spilled over the lines
/// around it. They are taken out; a line of nothing else is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chat_cannot_reorder_hide_or_stack_characters() {
    let server = TestServer::fresh("chat-marks").await;
    let (mut a, _) = guest(&server.addr).await;
    let (mut b, _) = guest(&server.addr).await;
    let (table, mut sa) = create_table(&mut a, "tenhalf", TableOptions::default()).await;
    let watch = ClientMessage::Watch(request::Watch {
        table: table.clone(),
        invite: None,
    });
    let (_, mut sb) = enter(&mut b, &table, watch).await;
    let tower = format!("a{}", "\u{301}".repeat(240));
    for (said, heard) in [
        ("abc\u{202e}gnp.exe", "abcgnp.exe".to_string()),
        ("\u{2066}x\u{2069} y\u{200b}z\u{feff}", "x yz".to_string()),
        (tower.as_str(), format!("a{}", "\u{301}".repeat(3))),
    ] {
        send(
            &mut a,
            ClientMessage::Chat {
                table: Some(table.clone()),
                text: said.into(),
            },
        )
        .await;
        let m = until(&mut b, &table, &mut sb, |m| {
            matches!(m, ServerMessage::Chat { .. })
        })
        .await;
        let ServerMessage::Chat { text, .. } = m else {
            unreachable!()
        };
        assert_eq!(text, heard, "{said:?}");
    }
    send(
        &mut a,
        ClientMessage::Chat {
            table: Some(table.clone()),
            text: "\u{200b}\u{200e}".into(),
        },
    )
    .await;
    let refused = until(&mut a, &table, &mut sa, |m| {
        matches!(m, ServerMessage::Error { .. })
    })
    .await;
    assert!(matches!(refused, ServerMessage::Error { ref code, .. } if code == "bad_chat"));
    server.stop().await;
}

/// A page loaded again holds nothing of its table, and used to get only the table as it
/// is: the moves before and the chat were gone. A resume from 0 is sent everything the
/// table still keeps, chat and moves in order, before the snapshot.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_holds_nothing_is_sent_the_moves_and_the_chat_kept() {
    let server = TestServer::fresh("replay-all").await;
    let (mut a, token) = guest(&server.addr).await;
    let quick = ClientMessage::QuickPlay {
        game: "gomoku".into(),
        level: None,
    };
    let (table, mut seen) = crate::common::open_table(&mut a, quick).await;
    send(
        &mut a,
        ClientMessage::Chat {
            table: Some(table.clone()),
            text: "good luck".into(),
        },
    )
    .await;
    until(&mut a, &table, &mut seen, |m| {
        matches!(m, ServerMessage::Table { game: Some(_), .. })
    })
    .await;
    // Our first stone (black moves first), and the computer's answer.
    act(&mut a, &table, json!({"place": [7, 7]})).await;
    until(&mut a, &table, &mut seen, |m| {
        matches!(m, ServerMessage::Action { seat: 1, .. })
    })
    .await;
    a.close().await;
    let (mut back, _, seated) = Connection::open(&server.addr, Some(&token))
        .await
        .expect("back");
    assert_eq!(seated, vec![table.clone()]);
    let resume = ClientMessage::Resume(request::Resume {
        table: table.clone(),
        last_seq: 0,
        invite: None,
    });
    let (_, replayed) = enter(&mut back, &table, resume).await;
    let said: Vec<String> = replayed
        .messages
        .iter()
        .filter_map(|m| match m {
            ServerMessage::Chat { text, .. } => Some(format!("chat {text}")),
            ServerMessage::Action { seat, action, .. } => Some(format!("{seat}: {action}")),
            _ => None,
        })
        .collect();
    assert_eq!(
        said.first().map(String::as_str),
        Some("chat good luck"),
        "{said:?}"
    );
    assert_eq!(
        said.get(1).map(String::as_str),
        Some(r#"0: {"place":[7,7]}"#),
        "{said:?}"
    );
    assert!(
        said.get(2).is_some_and(|s| s.starts_with("1: ")),
        "{said:?}"
    );
    server.stop().await;
}
