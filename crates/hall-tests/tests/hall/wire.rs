//! The server does on the wire what docs/protocol.md says it does.

use crate::common::{enter, fast_config, guest, open_table, until, Connection, TestServer, WAIT};
use server::protocol::{request, ClientMessage, ErrorCode, ServerMessage};
use std::time::Duration;

/// The next error the connection gets: its code and its text.
async fn next_error(conn: &mut Connection) -> (ErrorCode, String) {
    loop {
        match conn.recv_within(WAIT).await.expect("an answer") {
            ServerMessage::Error { code, message, .. } => return (code, message),
            _ => continue,
        }
    }
}

/// A field the message does not have is refused, naming it, whether the message has
/// fields of its own (`act`) or none (`ping`): one rule for every message, as the schema's
/// `additionalProperties: false` says.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_field_a_message_does_not_have_is_refused_in_every_message() {
    let server = TestServer::fresh("unknown-fields").await;
    let (mut conn, _) = guest(&server.addr).await;

    conn.send_raw(r#"{"type":"ping","x":1}"#.into())
        .await
        .expect("sent");
    let (code, message) = next_error(&mut conn).await;
    assert_eq!(code, ErrorCode::BadMessage, "{message}");
    assert!(message.contains("`x`"), "the field is named: {message}");

    conn.send_raw(r#"{"type":"act","table":"t1","action":"pass","seat":0}"#.into())
        .await
        .expect("sent");
    let (code, message) = next_error(&mut conn).await;
    assert_eq!(code, ErrorCode::BadMessage, "{message}");
    assert!(message.contains("`seat`"), "the field is named: {message}");

    conn.send_raw(r#"{"type":"games","all":true}"#.into())
        .await
        .expect("sent");
    let (code, message) = next_error(&mut conn).await;
    assert_eq!(code, ErrorCode::BadMessage, "{message}");

    // The same messages without the stray field are answered.
    conn.send_raw(r#"{"type":"ping"}"#.into())
        .await
        .expect("sent");
    let m = conn.recv_within(WAIT).await.expect("an answer");
    assert_eq!(m, ServerMessage::Pong);
    server.stop().await;
}

/// A `commitment` carries the nonce window the server really gives (not 0): the whole
/// window when it is made, and what is left of it when it is replayed to a player who
/// reconnects while the deal still waits for nonces.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_commitment_says_how_long_is_left_to_send_a_nonce_live_and_replayed() {
    let window = Duration::from_secs(5);
    let mut config = fast_config(crate::common::data_dir("nonce-window"));
    config.timing.nonce_window = window;
    let server = TestServer::start(config).await;
    let window_ms = u64::try_from(window.as_millis()).expect("a window in ms");

    let (mut conn, token) = guest(&server.addr).await;
    let quick = ClientMessage::QuickPlay {
        game: "doudizhu".into(),
        level: None,
    };
    let (table, mut seen) = open_table(&mut conn, quick).await;
    let mut before = seen.seq;
    let live = loop {
        let m = conn.recv_within(WAIT).await.expect("a commitment");
        if let ServerMessage::Commitment { nonce_ms, .. } = &m {
            break *nonce_ms;
        }
        seen.take(&table, &m);
        before = seen.seq;
    };
    assert!(
        live > window_ms - 1000 && live <= window_ms,
        "the live commitment gives the whole window of {window_ms} ms: {live}"
    );

    // Back on a new connection before the window closes: the replay says what is left.
    let (mut back, _, seated) = Connection::open(&server.addr, Some(&token))
        .await
        .expect("back");
    assert_eq!(seated, vec![table.clone()]);
    back.send(&ClientMessage::Resume(request::Resume {
        table: table.clone(),
        last_seq: before,
        invite: None,
    }))
    .await
    .expect("sent");
    let replayed = loop {
        match back.recv_within(WAIT).await.expect("the replay") {
            ServerMessage::Commitment { nonce_ms, .. } => break nonce_ms,
            ServerMessage::Table { .. } => panic!("the snapshot came without the commitment"),
            _ => continue,
        }
    };
    assert!(
        replayed > 0 && replayed <= live,
        "the replayed commitment gives what is left of the window: {replayed} (live {live})"
    );
    server.stop().await;
}

/// A game resumed after a restart shows its seats ready, as they were while it was played
/// before (a seat shown not ready mid-game tells a client to ask its player to get ready
/// for a game they are playing).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_seats_of_a_game_resumed_after_a_restart_are_ready() {
    let config = fast_config(crate::common::data_dir("ready-restart"));
    let server = TestServer::start(config.clone()).await;
    let (mut conn, token) = guest(&server.addr).await;
    let quick = ClientMessage::QuickPlay {
        game: "doudizhu".into(),
        level: None,
    };
    let (table, mut seen) = open_table(&mut conn, quick).await;
    // Dealt: the snapshot after the deal has the game. (The player sends no nonce and
    // makes no move: the game waits for them.)
    let dealt = until(&mut conn, &table, &mut seen, |m| {
        matches!(m, ServerMessage::Table { game: Some(_), .. })
    })
    .await;
    let ServerMessage::Table { info, .. } = dealt else {
        unreachable!("a snapshot")
    };
    assert!(
        info.seats.iter().all(|s| s.ready),
        "ready while played: {:?}",
        info.seats
    );
    drop(conn);
    server.stop().await;

    let server = TestServer::start(config).await;
    let (mut conn, _, seated) = Connection::open(&server.addr, Some(&token))
        .await
        .expect("back");
    assert_eq!(seated, vec![table.clone()]);
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
    let ServerMessage::Table { info, game, .. } = snapshot else {
        unreachable!("a snapshot")
    };
    assert!(game.is_some(), "the game goes on after the restart");
    assert_eq!(info.status, "playing");
    assert!(
        info.seats.iter().all(|s| s.ready),
        "every seat of the game resumed is ready: {:?}",
        info.seats
    );
    server.stop().await;
}

/// A quick-play table restored while its player waits for computers (a restart, or another
/// node taking it over after this one died) counts down again, and its computers come: the
/// countdown lived only in the old task's memory, and the player was left at a table whose
/// empty seats nobody would ever fill.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quick_play_table_restored_while_waiting_still_fills_with_computers() {
    let mut config = fast_config(crate::common::data_dir("quick-restart"));
    // Long enough that the first hall never fills the seats itself.
    config.timing.quick_play_wait = Duration::from_secs(3600);
    let server = TestServer::start(config.clone()).await;
    let (mut conn, token) = guest(&server.addr).await;
    let quick = ClientMessage::QuickPlay {
        game: "doudizhu".into(),
        level: None,
    };
    let (table, _) = open_table(&mut conn, quick).await;
    drop(conn);
    server.stop().await;

    config.timing.quick_play_wait = Duration::from_millis(100);
    let server = TestServer::start(config).await;
    let (mut conn, _, seated) = Connection::open(&server.addr, Some(&token))
        .await
        .expect("back");
    assert_eq!(seated, vec![table.clone()]);
    let (_, mut seen) = enter(
        &mut conn,
        &table,
        ClientMessage::Resume(request::Resume {
            table: table.clone(),
            last_seq: 0,
            invite: None,
        }),
    )
    .await;
    // Waits (and fails after WAIT) for every seat filled: computers beside the player.
    until(&mut conn, &table, &mut seen, |m| match m {
        ServerMessage::Table { info, .. } | ServerMessage::Seats { info, .. } => info
            .seats
            .iter()
            .all(|s| s.user.is_some() || s.bot.is_some()),
        _ => false,
    })
    .await;
    server.stop().await;
}
