//! Bad input never hurts anyone else: malformed JSON, unknown types, oversize frames,
//! floods, actions for a seat one does not hold, out of turn, stale — each gets a typed
//! error and nothing changes. Then a fuzz run throws random and mutated frames at a
//! running server while a real game goes on: the server stays up, the game finishes and
//! its record verifies.

use crate::common::Connection;
use crate::common::{guest, http_get, open_table, play_game, registry, Seen, TestServer};
use game::deal::below;
use game::{GameRng, Record, Seed, VerifyOptions};
use serde_json::json;
use server::client::ClientError;
use server::protocol::request;
use server::protocol::{ClientMessage, ServerMessage, TableOptions};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// The next error this connection gets (skipping other messages).
async fn next_error(conn: &mut Connection) -> String {
    loop {
        match conn.recv_within(WAIT).await.expect("an answer") {
            ServerMessage::Error { code, .. } => return code.to_string(),
            _ => continue,
        }
    }
}

/// The frames a raw WebSocket gets after sending `first`, up to its close (text frames
/// only; the close ends the list).
async fn answers_to_first_frame(addr: &str, first: &str) -> Vec<String> {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let (mut ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/ws"))
        .await
        .expect("connects");
    ws.send(Message::Text(first.into())).await.expect("sent");
    let mut texts = Vec::new();
    loop {
        match tokio::time::timeout(WAIT, ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => texts.push(t.to_string()),
            Ok(Some(Ok(Message::Close(_)))) | Ok(None) | Ok(Some(Err(_))) => return texts,
            Ok(Some(Ok(_))) => continue,
            Err(_) => panic!("the connection stays open after {first}: {texts:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_of_another_protocol_version_or_without_hello_is_refused_and_closed() {
    let server = TestServer::fresh("bad-version").await;
    for (first, code, says) in [
        (
            r#"{"type":"hello","version":2}"#,
            "bad_version",
            "protocol version 1, not 2",
        ),
        (
            r#"{"type":"hello","version":0}"#,
            "bad_version",
            "protocol version 1, not 0",
        ),
        (r#"{"type":"guest"}"#, "hello_first", "hello"),
    ] {
        let answers = answers_to_first_frame(&server.addr, first).await;
        let errors: Vec<serde_json::Value> = answers
            .iter()
            .filter_map(|t| serde_json::from_str(t).ok())
            .filter(|v: &serde_json::Value| v["type"] == "error")
            .collect();
        assert_eq!(
            errors.len(),
            1,
            "{first}: one error, then the close: {answers:?}"
        );
        assert_eq!(errors[0]["code"], code, "{first}");
        let message = errors[0]["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{first}: {message}");
        assert!(
            !answers.iter().any(|t| t.contains("welcome")),
            "{first}: no welcome: {answers:?}"
        );
    }
    // The server is none the worse: a client of this version is welcomed.
    let (conn, _) = guest(&server.addr).await;
    conn.close().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_kind_of_bad_input_gets_a_typed_error_and_changes_nothing() {
    let server = TestServer::fresh("bad-input").await;
    // Before hello: anything else is refused and the connection closes.
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{}/ws", server.addr))
        .await
        .expect("connects");
    drop(ws);
    let (mut conn, _) = guest(&server.addr).await;
    for (frame, code) in [
        ("not json", "bad_json"),
        (r#"{"type":"teleport"}"#, "bad_message"),
        (r#"{"type":"act","table":"t1"}"#, "bad_message"),
        (
            r#"{"type":"act","table":"nope","action":"pass"}"#,
            "no_table",
        ),
        (r#"{"type":"hello","version":1}"#, "hello_again"),
        (r#"{"type":"create_table","game":"chess"}"#, "unknown_game"),
        (
            r#"{"type":"create_table","game":"doudizhu","options":{"config":{"landlord":0}}}"#,
            "bad_options",
        ),
        (
            r#"{"type":"create_table","game":"tenhalf","options":{"seats":9}}"#,
            "bad_options",
        ),
        (r#"{"type":"chat","text":"   "}"#, "bad_chat"),
    ] {
        conn.send_raw(frame.into()).await.expect("sent");
        assert_eq!(next_error(&mut conn).await, code, "{frame}");
    }
    // A table where it is someone else's turn: out of turn, a seat not held, stale.
    let create = ClientMessage::CreateTable {
        game: "gomoku".into(),
        options: TableOptions {
            computers: false,
            ..TableOptions::default()
        },
    };
    let (table, mut seen) = open_table(&mut conn, create).await;
    let (mut other, _) = guest(&server.addr).await;
    other
        .send(&ClientMessage::Join(request::Join {
            table: table.clone(),
            seat: Some(1),
            invite: None,
        }))
        .await
        .expect("sent");
    for c in [&mut conn, &mut other] {
        c.send(&ClientMessage::Ready(request::Ready {
            table: table.clone(),
            ready: true,
        }))
        .await
        .expect("sent");
    }
    loop {
        let m = conn.recv_within(WAIT).await.expect("the game starts");
        let started = matches!(m, ServerMessage::Table { game: Some(_), .. });
        seen.take(&table, &m);
        if started {
            break;
        }
    }
    let before = seen.game.clone().expect("a game");
    let act = |action, seq| {
        ClientMessage::Act(request::Act {
            table: table.clone(),
            action,
            seq,
        })
    };
    other
        .send(&act(json!({"place": [7, 7]}), None))
        .await
        .expect("sent");
    assert_eq!(next_error(&mut other).await, "not_your_turn");
    conn.send(&act(json!({"place": [99, 99]}), None))
        .await
        .expect("sent");
    assert_eq!(next_error(&mut conn).await, "illegal");
    conn.send(&act(json!({"fold": true}), None))
        .await
        .expect("sent");
    assert_eq!(next_error(&mut conn).await, "bad_action");
    conn.send(&act(json!({"place": [7, 7]}), Some(0)))
        .await
        .expect("sent");
    assert_eq!(next_error(&mut conn).await, "stale");
    let (mut stranger, _) = guest(&server.addr).await;
    stranger
        .send(&act(json!({"place": [7, 7]}), None))
        .await
        .expect("sent");
    assert_eq!(next_error(&mut stranger).await, "not_seated");
    // Nothing changed: a fresh look shows the board as it was.
    conn.send(&ClientMessage::Resume(request::Resume {
        table: table.clone(),
        last_seq: seen.seq,
        invite: None,
    }))
    .await
    .expect("sent");
    let after = loop {
        if let ServerMessage::Table { game: Some(g), .. } =
            conn.recv_within(WAIT).await.expect("a snapshot")
        {
            break g;
        }
    };
    assert_eq!(after.view, before.view);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversize_frames_and_floods_close_the_offender_only() {
    let mut config = crate::common::fast_config(crate::common::data_dir("flood"));
    config.limits.messages_per_second = 5.0;
    config.limits.message_burst = 10.0;
    let server = TestServer::start(config).await;
    let (mut bystander, _) = guest(&server.addr).await;
    // An oversize frame: the connection is closed, the server is fine.
    let (mut big, _) = guest(&server.addr).await;
    let _ = big
        .send_raw(format!(
            r#"{{"type":"chat","text":"{}"}}"#,
            "x".repeat(100_000)
        ))
        .await;
    let closed = loop {
        match big.recv_within(WAIT).await {
            Err(ClientError::Closed { .. } | ClientError::Connection(_)) => break true,
            Err(e) => panic!("{e}"),
            Ok(_) => continue,
        }
    };
    assert!(closed);
    // A flood: rate_limited errors, then the connection is closed.
    let (mut flood, _) = guest(&server.addr).await;
    let mut limited = 0;
    for _ in 0..200 {
        if flood.send(&ClientMessage::Ping).await.is_err() {
            break;
        }
    }
    loop {
        match flood.recv_within(WAIT).await {
            Ok(ServerMessage::Error { code, .. }) if code == "rate_limited" => limited += 1,
            Ok(_) => continue,
            Err(_) => break,
        }
    }
    assert!(limited > 0);
    // Everyone else carries on.
    bystander.send(&ClientMessage::Ping).await.expect("sent");
    loop {
        if let ServerMessage::Pong = bystander.recv_within(WAIT).await.expect("an answer") {
            break;
        }
    }
    server.stop().await;
}

/// An account's messages are limited across its connections: reconnecting with the same
/// session (which closes the old connection) does not bring a fresh allowance.
#[tokio::test]
async fn reconnecting_does_not_refill_an_accounts_message_allowance() {
    let mut config = crate::common::fast_config(crate::common::data_dir("account-flood"));
    config.limits.messages_per_second = 0.5;
    config.limits.message_burst = 10.0;
    let server = TestServer::start(config).await;
    let (mut first, token) = guest(&server.addr).await;
    let pings = |n| std::iter::repeat_n(ClientMessage::Ping, n);
    for m in pings(8) {
        first.send(&m).await.expect("sent");
    }
    let mut pongs = 0;
    while pongs < 8 {
        if let ServerMessage::Pong = first.recv_within(WAIT).await.expect("an answer") {
            pongs += 1;
        }
    }
    // The same account again: the old connection is closed; the account has about two
    // messages left, not a new burst of ten.
    let (mut second, _, _) = Connection::open(&server.addr, Some(&token))
        .await
        .expect("connects with the session");
    let mut sent = 0;
    for m in pings(8) {
        if second.send(&m).await.is_err() {
            break;
        }
        sent += 1;
    }
    // Every ping is answered, with a pong or a refusal: count the answers, not a silence.
    let (mut limited, mut answered) = (0, 0);
    while answered < sent {
        match second.recv_within(WAIT).await {
            Ok(ServerMessage::Error { code, .. }) if code == "rate_limited" => {
                limited += 1;
                answered += 1;
            }
            Ok(ServerMessage::Pong) => answered += 1,
            Ok(_) => continue,
            Err(_) => break,
        }
    }
    assert!(
        limited >= 4,
        "{limited} of 8 messages limited after reconnecting"
    );
    server.stop().await;
}

/// Frames a fuzzer sends: random bytes, truncated and mutated valid messages, wrong types,
/// huge numbers, deep nesting.
fn fuzz_frame(rng: &mut GameRng, table: &str) -> String {
    let valid = [
        json!({"type":"act","table":table,"action":{"place":[7,7]}}),
        json!({"type":"act","table":table,"action":"pass","seq":18446744073709551615u64}),
        json!({"type":"join","table":table,"seat":4294967295u64}),
        json!({"type":"ready","table":table,"ready":true}),
        json!({"type":"nonce","table":table,"game_id":"x","nonce":"zz"}),
        json!({"type":"chat","table":table,"text":"hi"}),
        json!({"type":"add_bot","table":table,"seat":0,"bot":"random"}),
        json!({"type":"resume","table":table,"last_seq":0}),
        json!({"type":"auto","table":table,"on":true}),
        json!({"type":"lobby","game":"doudizhu"}),
        json!({"type":"stand","table":table}),
    ];
    let base = valid[below(rng, valid.len())].to_string();
    match below(rng, 6) {
        0 => (0..below(rng, 64))
            .map(|_| (32 + below(rng, 95) as u8) as char)
            .collect(),
        1 => base[..below(rng, base.len())].to_string(),
        2 => {
            let mut b: Vec<char> = base.chars().collect();
            for _ in 0..3 {
                let i = below(rng, b.len());
                b[i] = (32 + below(rng, 95) as u8) as char;
            }
            b.into_iter().collect()
        }
        3 => "[".repeat(200) + &"]".repeat(200),
        4 => base.replace("\"act\"", "\"acts\""),
        _ => base,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fuzzer_cannot_hurt_a_game_in_progress() {
    let server = TestServer::fresh("fuzz").await;
    let games = registry();
    let g = games.get("doudizhu").expect("doudizhu");
    let (mut player, _) = guest(&server.addr).await;
    player
        .send(&ClientMessage::QuickPlay {
            game: "doudizhu".into(),
            level: None,
        })
        .await
        .expect("sent");
    let mut seen = Seen::default();
    let table = loop {
        let m = player.recv_within(WAIT).await.expect("a table");
        if let ServerMessage::Table { table, .. } = &m {
            let t = table.clone();
            seen.take(&t, &m);
            break t;
        }
    };
    let fuzz_table = table.clone();
    let addr = server.addr.clone();
    let fuzzer = tokio::spawn(async move {
        let mut rng = Seed::from_u64(20261201).rng();
        let mut sent = 0;
        for round in 0..20 {
            let Ok((mut conn, _, _)) = Connection::open(&addr, None).await else {
                continue;
            };
            if round % 2 == 0 {
                let _ = conn.session(ClientMessage::Guest).await;
            }
            for _ in 0..50 {
                if conn
                    .send_raw(fuzz_frame(&mut rng, &fuzz_table))
                    .await
                    .is_err()
                {
                    break;
                }
                sent += 1;
            }
            conn.close().await;
        }
        sent
    });
    let record = play_game(&mut player, &table, g, "heuristic", &mut seen, WAIT)
        .await
        .expect("the game finishes despite the fuzzer");
    let sent = fuzzer.await.expect("the fuzzer ran");
    assert!(sent > 500, "{sent} frames");
    let record: Record = serde_json::from_value(record).expect("a record");
    g.verify(&record, &VerifyOptions::default())
        .expect("the record verifies");
    assert_eq!(record.seed.map(|s| s != Seed([0; 32])), Some(true));
    // The server is still up for newcomers.
    let (mut late, _) = guest(&server.addr).await;
    late.send(&ClientMessage::Ping).await.expect("sent");
    loop {
        if let ServerMessage::Pong = late.recv_within(WAIT).await.expect("an answer") {
            break;
        }
    }
    server.stop().await;
}

/// The code a refused request gets.
fn refused<T>(result: Result<T, ClientError>) -> String {
    match result {
        Err(ClientError::Refused { code, .. }) => code.to_string(),
        Err(e) => panic!("not refused but {e}"),
        Ok(_) => panic!("not refused"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_its_share_of_connections_and_makes_its_share_of_accounts() {
    let mut config = crate::common::fast_config(crate::common::data_dir("per-address"));
    config.limits.connections_per_address = 3;
    config.limits.new_accounts_per_address = 4;
    let server = TestServer::start(config).await;
    let mut open = Vec::new();
    for _ in 0..3 {
        let (conn, _, _) = Connection::open(&server.addr, None).await.expect("in");
        open.push(conn);
    }
    // A fourth connection from the same address is told why, then closed.
    assert_eq!(
        refused(Connection::open(&server.addr, None).await),
        "too_many_connections"
    );
    // One closed makes room for another, once the server has seen it go.
    open.pop().expect("a connection").close().await;
    let again = loop {
        match Connection::open(&server.addr, None).await {
            Ok((conn, _, _)) => break conn,
            Err(ClientError::Refused { code, .. }) if code == "too_many_connections" => {
                tokio::time::sleep(Duration::from_millis(20)).await
            }
            Err(e) => panic!("{e}"),
        }
    };
    open.push(again);

    // Four new accounts: three guests and a registration; a fifth is refused, whether a
    // guest or a registration, and changes nothing.
    for conn in &mut open {
        conn.session(ClientMessage::Guest).await.expect("a guest");
    }
    open[0]
        .session(ClientMessage::Register {
            name: "alice".into(),
            password: "correct horse".into(),
        })
        .await
        .expect("registered");
    assert_eq!(
        refused(open[1].session(ClientMessage::Guest).await),
        "too_many_accounts"
    );
    assert_eq!(
        refused(
            open[1]
                .session(ClientMessage::Register {
                    name: "bob".into(),
                    password: "correct horse".into(),
                })
                .await
        ),
        "too_many_accounts"
    );
    // Logging in to an account made before is no new account.
    let (_, user) = open[2]
        .session(ClientMessage::Login {
            name: "alice".into(),
            password: "correct horse".into(),
        })
        .await
        .expect("logged in");
    assert_eq!(user.name, "alice");
    assert!(server
        .hall
        .store
        .user_by_name("bob")
        .await
        .expect("read")
        .is_none());
    for conn in open {
        conn.close().await;
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_asks_the_http_api_its_share_and_is_told_when_to_come_back() {
    let mut config = crate::common::fast_config(crate::common::data_dir("api-per-address"));
    config.limits.api_requests_per_second = 0.5;
    config.limits.api_burst = 3.0;
    // Behind a proxy, the address is the proxy's last X-Forwarded-For entry: two clients.
    config.behind_proxy = true;
    let server = TestServer::start(config).await;
    let from = |client: &'static str| [("X-Forwarded-For", client)];
    for _ in 0..3 {
        let (status, _, body) = http_get(&server.addr, "/api/games", &from("203.0.113.7")).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, head, body) = http_get(&server.addr, "/api/games", &from("203.0.113.7")).await;
    assert_eq!(status, 429, "{head}");
    assert!(head.to_lowercase().contains("retry-after: 1"), "{head}");
    let error: serde_json::Value = serde_json::from_str(&body).expect("a JSON error");
    assert_eq!(
        error["error"],
        "too many requests from your address: slow down"
    );
    // Every API path counts, a refused one too; another address is not held back.
    let (status, _, _) = http_get(
        &server.addr,
        "/api/users/nobody/games",
        &from("203.0.113.7"),
    )
    .await;
    assert_eq!(status, 429);
    let (status, _, _) = http_get(
        &server.addr,
        "/api/users/nobody/games",
        &from("203.0.113.8"),
    )
    .await;
    assert_eq!(status, 404, "another client's request is answered");
    // The page, the health check and the WebSocket are not the API.
    for path in ["/", "/healthz"] {
        let (status, _, _) = http_get(&server.addr, path, &from("203.0.113.7")).await;
        assert_eq!(status, 200, "{path}");
    }
    let (_, _) = guest(&server.addr).await;
    let (_, _, metrics) = http_get(&server.addr, "/metrics", &[]).await;
    assert!(
        metrics.contains("qipai_errors_total{code=\"rate_limited\"} 2"),
        "{metrics}"
    );
    // Two seconds later the rate has given it one more.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    let (status, _, _) = http_get(&server.addr, "/api/games", &from("203.0.113.7")).await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_metrics_are_for_this_machine_unless_the_host_makes_them_public() {
    for public in [false, true] {
        let mut config = crate::common::fast_config(crate::common::data_dir("metrics-access"));
        config.behind_proxy = true;
        config.public_metrics = public;
        let server = TestServer::start(config).await;
        let (status, _, body) = http_get(&server.addr, "/metrics", &[]).await;
        assert_eq!(status, 200, "this machine reads them: {body}");
        assert!(body.contains("qipai_connections"), "{body}");
        let from_afar = [("X-Forwarded-For", "203.0.113.7")];
        let (status, _, body) = http_get(&server.addr, "/metrics", &from_afar).await;
        if public {
            assert_eq!(status, 200, "{body}");
        } else {
            assert_eq!(status, 403, "{body}");
            assert!(body.contains("--public-metrics"), "{body}");
        }
        server.stop().await;
    }
}

/// The first text frame a WebSocket from `client` (its address as a proxy would pass it
/// on) gets after its hello, and the socket, open for as long as the caller holds it.
async fn hello_from(
    addr: &str,
    client: &str,
) -> (
    String,
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>,
) {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    use tokio_tungstenite::tungstenite::Message;
    let mut request = format!("ws://{addr}/ws")
        .into_client_request()
        .expect("a request");
    request
        .headers_mut()
        .insert("X-Forwarded-For", client.parse().expect("a header value"));
    let (mut ws, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("connects");
    ws.send(Message::Text(r#"{"type":"hello","version":1}"#.into()))
        .await
        .expect("sent");
    loop {
        match tokio::time::timeout(WAIT, ws.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return (t.to_string(), ws),
            Ok(Some(Ok(_))) => continue,
            other => panic!("no answer to {client}'s hello: {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ipv6_client_is_counted_by_its_64_network() {
    let mut config = crate::common::fast_config(crate::common::data_dir("per-network"));
    config.limits.connections_per_address = 1;
    config.behind_proxy = true;
    let server = TestServer::start(config).await;
    let (first, _open) = hello_from(&server.addr, "2001:db8:1:2::1").await;
    assert!(!first.contains("too_many_connections"), "{first}");
    // Another address in the same /64 is the same client; one in the next /64 is not.
    let (second, _) = hello_from(&server.addr, "2001:db8:1:2:ffff::9").await;
    assert!(second.contains("too_many_connections"), "{second}");
    let (other, _still) = hello_from(&server.addr, "2001:db8:1:3::1").await;
    assert!(!other.contains("too_many_connections"), "{other}");
    server.stop().await;
}
