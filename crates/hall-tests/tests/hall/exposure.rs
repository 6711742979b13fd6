//! A hall open to the internet: what a stranger's client can make the server hold or send
//! is bounded, connections that never finish or go silent are closed, other sites' pages
//! cannot use their visitors' browsers as clients, and every close says why with the code
//! RFC 6455 has for it.

use crate::common::Connection;
use crate::common::{data_dir, fast_config, guest, http_get, send, TestServer};
use futures_util::{SinkExt, StreamExt};
use server::client::ClientError;
use server::protocol::{request, ClientMessage, ServerMessage, TableOptions};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::Message;

const WAIT: Duration = Duration::from_secs(20);

/// How the connection ends: the close frame's code and reason, skipping what comes first.
async fn close_of(conn: &mut Connection) -> (Option<u16>, String) {
    loop {
        match conn.recv_within(WAIT).await {
            Ok(_) => continue,
            Err(ClientError::Closed { code, reason }) => return (code, reason),
            Err(e) => panic!("expected a close frame, got {e}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn mutes_are_bounded_so_a_connection_cannot_grow_the_server() {
    let server = TestServer::fresh("mutes").await;
    let (mut c, _) = guest(&server.addr).await;
    let mute = |user: String| ClientMessage::Mute { user, mute: true };
    // A name no player could have is refused before it is kept.
    send(&mut c, mute("x".repeat(16_000))).await;
    for n in 0..server::outbox::MAX_MUTED {
        send(&mut c, mute(format!("p{n}"))).await;
    }
    // Muting again a name already muted is fine; one more name is not.
    send(&mut c, mute("p0".into())).await;
    send(&mut c, mute("one-too-many".into())).await;
    send(&mut c, ClientMessage::Ping).await;
    let mut codes = Vec::new();
    loop {
        match c.recv_within(WAIT).await.expect("an answer") {
            ServerMessage::Error { code, .. } => codes.push(code.to_string()),
            ServerMessage::Pong => break,
            _ => continue,
        }
    }
    assert_eq!(codes, ["no_user", "not_allowed"]);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_error_never_echoes_more_than_a_few_hundred_bytes() {
    let server = TestServer::fresh("echo").await;
    let (mut c, _) = guest(&server.addr).await;
    let table = "t".repeat(12_000);
    send(
        &mut c,
        ClientMessage::Watch(request::Watch {
            table: table.clone(),
            invite: None,
        }),
    )
    .await;
    send(
        &mut c,
        ClientMessage::Lobby {
            game: Some("g".repeat(12_000)),
        },
    )
    .await;
    for _ in 0..2 {
        let answer = loop {
            if let ServerMessage::Error { message, table, .. } =
                c.recv_within(WAIT).await.expect("an answer")
            {
                break (message, table);
            }
        };
        assert!(
            answer.0.chars().count() <= server::protocol::MAX_ERROR_TEXT + 1,
            "{} characters",
            answer.0.len()
        );
        assert!(answer.1.is_none_or(|t| t.len() <= 64));
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_is_closed_once_its_queue_is_full() {
    let mut config = fast_config(data_dir("never-reads"));
    config.limits.send_queue_bytes = 64 * 1024;
    let server = TestServer::start(config).await;
    let (mut reader, _) = guest(&server.addr).await;
    let (mut c, _) = guest(&server.addr).await;
    // Each `games` answer is about 5 KB; the client reads none of them until it has asked
    // for about 5 MB, in fewer frames than the queue's count of frames: what closes it is
    // the bound on bytes.
    let requests = 1_000;
    assert!(requests < server::ServerConfig::default().limits.send_queue);
    for _ in 0..requests {
        if c.send(&ClientMessage::Games).await.is_err() {
            break;
        }
    }
    let mut answered = 0;
    let (code, reason) = loop {
        match c.recv_within(WAIT).await {
            Ok(ServerMessage::Games { .. }) => answered += 1,
            Ok(_) => continue,
            Err(ClientError::Closed { code, reason }) => break (code, reason),
            Err(e) => panic!("expected a close frame, got {e}"),
        }
    };
    assert_eq!(code, Some(1008), "{reason}");
    assert!(reason.contains("too slow"), "{reason}");
    assert!(answered < requests, "{answered} answers");
    // Nobody else noticed.
    send(&mut reader, ClientMessage::Ping).await;
    while !matches!(reader.recv_within(WAIT).await, Ok(ServerMessage::Pong)) {}
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watching_again_and_again_sends_the_lobby_and_the_table_nothing() {
    let server = TestServer::fresh("watch-storm").await;
    let (mut host, _) = guest(&server.addr).await;
    let (table, _) = crate::common::open_table(
        &mut host,
        ClientMessage::CreateTable {
            game: "gomoku".into(),
            options: TableOptions::default(),
        },
    )
    .await;
    // Whatever opening the table sent the host is read first.
    send(&mut host, ClientMessage::Ping).await;
    while !matches!(host.recv_within(WAIT).await, Ok(ServerMessage::Pong)) {}
    let (mut lobby, _) = guest(&server.addr).await;
    send(&mut lobby, ClientMessage::Lobby { game: None }).await;
    while !matches!(
        lobby.recv_within(WAIT).await,
        Ok(ServerMessage::Lobby { .. })
    ) {}
    let (mut storm, _) = guest(&server.addr).await;
    for _ in 0..50 {
        send(
            &mut storm,
            ClientMessage::Watch(request::Watch {
                table: table.clone(),
                invite: None,
            }),
        )
        .await;
        send(
            &mut storm,
            ClientMessage::Resume(request::Resume {
                table: table.clone(),
                last_seq: 0,
                invite: None,
            }),
        )
        .await;
    }
    // The storm's own answers, then a marker: everything the storm caused is sent by then.
    send(&mut storm, ClientMessage::Ping).await;
    while !matches!(storm.recv_within(WAIT).await, Ok(ServerMessage::Pong)) {}
    send(&mut lobby, ClientMessage::Ping).await;
    let mut updates = 0;
    loop {
        match lobby.recv_within(WAIT).await.expect("an answer") {
            ServerMessage::LobbyTable { .. } => updates += 1,
            ServerMessage::Pong => break,
            _ => continue,
        }
    }
    // One spectator more: one update, not a hundred.
    assert!(updates <= 1, "{updates} lobby updates");
    let mut seats = 0;
    send(&mut host, ClientMessage::Ping).await;
    loop {
        match host.recv_within(WAIT).await.expect("an answer") {
            ServerMessage::Seats { .. } => seats += 1,
            ServerMessage::Pong => break,
            _ => continue,
        }
    }
    assert!(seats <= 1, "{seats} seat lists");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_steady_flood_is_closed_even_though_some_of_it_gets_through() {
    let mut config = fast_config(data_dir("steady-flood"));
    config.limits.messages_per_second = 20.0;
    config.limits.message_burst = 20.0;
    let server = TestServer::start(config).await;
    let (mut c, _) = guest(&server.addr).await;
    let started = std::time::Instant::now();
    let mut sent = 0;
    // 200 pings a second, ten times the rate: a tenth are answered, which used to forgive
    // the rest.
    while started.elapsed() < Duration::from_secs(10) {
        if c.send(&ClientMessage::Ping).await.is_err() {
            break;
        }
        sent += 1;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    let (code, reason) = close_of(&mut c).await;
    assert_eq!(code, Some(1008), "after {sent} pings: {reason}");
    assert!(reason.contains("flood"), "{reason}");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn half_sent_requests_and_idle_connections_are_closed() {
    let mut config = fast_config(data_dir("half-sent"));
    config.limits.request_headers_within = Duration::from_millis(500);
    let server = TestServer::start(config).await;
    let mut half = tokio::net::TcpStream::connect(&server.addr)
        .await
        .expect("connects");
    half.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ")
        .await
        .expect("sent");
    let idle = tokio::net::TcpStream::connect(&server.addr)
        .await
        .expect("connects");
    for (what, mut s) in [("half a request", half), ("nothing", idle)] {
        let mut buf = Vec::new();
        let read = tokio::time::timeout(WAIT, s.read_to_end(&mut buf)).await;
        assert!(read.is_ok(), "a connection that sent {what} is still open");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_holds_a_bounded_number_of_http_connections() {
    let mut config = fast_config(data_dir("http-per-address"));
    config.limits.connections_per_address = 4;
    let server = TestServer::start(config).await;
    let bound = server::listen::HTTP_FLOOR.max(4 * server::listen::HTTP_PER_WEBSOCKET);
    let mut held = Vec::new();
    for _ in 0..bound {
        let mut s = tokio::net::TcpStream::connect(&server.addr)
            .await
            .expect("connects");
        s.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            .await
            .expect("sent");
        let mut buf = [0u8; 256];
        let n = s.read(&mut buf).await.expect("an answer");
        assert!(String::from_utf8_lossy(&buf[..n]).starts_with("HTTP/1.1 200"));
        held.push(s);
    }
    // One more, while those are kept alive, is closed unanswered.
    let mut one_more = tokio::net::TcpStream::connect(&server.addr)
        .await
        .expect("connects");
    let _ = one_more
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await;
    let mut buf = Vec::new();
    let _ = tokio::time::timeout(WAIT, one_more.read_to_end(&mut buf))
        .await
        .expect("closed");
    assert!(buf.is_empty(), "{}", String::from_utf8_lossy(&buf));
    // One closed, one more may come.
    drop(held.pop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, _, _) = http_get(&server.addr, "/healthz", &[]).await;
    assert_eq!(status, 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_silent_connection_is_closed_and_a_live_one_is_kept() {
    let mut config = fast_config(data_dir("silent"));
    config.limits.silent_for = Duration::from_millis(1500);
    let server = TestServer::start(config).await;
    // A client that reads answers the server's pings (the library does it as it reads).
    let (mut live, _) = guest(&server.addr).await;
    let (silent, _) = guest(&server.addr).await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(4);
    while tokio::time::Instant::now() < deadline {
        match tokio::time::timeout_at(deadline, live.recv()).await {
            Ok(Ok(_)) | Err(_) => {}
            Ok(Err(e)) => panic!("the live connection closed: {e}"),
        }
    }
    send(&mut live, ClientMessage::Ping).await;
    while !matches!(live.recv_within(WAIT).await, Ok(ServerMessage::Pong)) {}
    // The silent one read nothing for four seconds, so answered no ping: the server has
    // closed it (its client, reading now, would first try to answer the pings it missed on
    // a socket already shut).
    assert_eq!(
        server.hall.metrics.connections.get(),
        1,
        "only the live one"
    );
    drop(silent);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_and_non_utf8_frames_close_with_the_codes_rfc_6455_has_for_them() {
    let server = TestServer::fresh("close-codes").await;
    let url = format!("ws://{}/ws", server.addr);
    let big = "x".repeat(100_000);
    let not_utf8 = Message::Frame(Frame::message(
        vec![b'"', 0xff, 0xfe, b'"'],
        OpCode::Data(Data::Text),
        true,
    ));
    for (frame, want) in [(Message::Text(big.into()), 1009), (not_utf8, 1007)] {
        let (mut ws, _) = tokio_tungstenite::connect_async(&url)
            .await
            .expect("connects");
        ws.send(frame).await.expect("sent");
        let code = loop {
            match tokio::time::timeout(WAIT, ws.next())
                .await
                .expect("an answer")
            {
                Some(Ok(Message::Close(close))) => break close.map(|c| u16::from(c.code)),
                Some(Ok(_)) => continue,
                other => panic!("expected a close frame, got {other:?}"),
            }
        };
        assert_eq!(code, Some(want));
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_sites_page_cannot_open_the_websocket() {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut config = fast_config(data_dir("origin"));
    config.allowed_origins = vec!["https://cards.example.org".into()];
    let server = TestServer::start(config).await;
    let url = format!("ws://{}/ws", server.addr);
    let own = format!("http://{}", server.addr);
    for (origin, welcome) in [
        (None, true),
        (Some(own.as_str()), true),
        (Some("https://cards.example.org"), true),
        (Some("https://evil.example"), false),
        (Some("null"), false),
    ] {
        let mut request = url.as_str().into_client_request().expect("a request");
        if let Some(o) = origin {
            request
                .headers_mut()
                .insert("origin", o.parse().expect("a header"));
        }
        let connected = tokio_tungstenite::connect_async(request).await;
        assert_eq!(connected.is_ok(), welcome, "origin {origin:?}");
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_loads_only_its_own_files_and_no_site_may_frame_it() {
    let server = TestServer::fresh("page-headers").await;
    for path in ["/", "/js/app.js", "/api/games", "/healthz"] {
        let (status, head, _) = http_get(&server.addr, path, &[]).await;
        assert_eq!(status, 200, "{path}");
        let head = head.to_ascii_lowercase();
        for header in [
            "content-security-policy: default-src 'self'; script-src 'self';",
            "frame-ancestors 'none'",
            "x-frame-options: deny",
            "referrer-policy: no-referrer",
            "x-content-type-options: nosniff",
        ] {
            assert!(head.contains(header), "{path} lacks {header}: {head}");
        }
    }
    server.stop().await;
}

/// Every table a connection follows sends it every change: one connection may follow
/// [`server::conn::MAX_FOLLOWED`] tables. Past that, it lets go of the table it watched
/// longest ago; a connection seated at as many tables is refused one more, and no table
/// is opened for nobody.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_follows_a_bounded_number_of_tables() {
    use server::conn::MAX_FOLLOWED;
    let server = TestServer::fresh("followed").await;
    let gomoku = || ClientMessage::CreateTable {
        game: "gomoku".into(),
        options: TableOptions::default(),
    };
    let (mut host, _) = guest(&server.addr).await;
    let mut tables = Vec::new();
    for _ in 0..MAX_FOLLOWED {
        tables.push(crate::common::open_table(&mut host, gomoku()).await.0);
    }
    let before = listed_tables(&server.addr).await;
    // Seated at as many tables as it may follow: one more is refused, and not opened.
    send(&mut host, gomoku()).await;
    send(&mut host, ClientMessage::Ping).await;
    let mut codes = Vec::new();
    loop {
        match host.recv_within(WAIT).await.expect("an answer") {
            ServerMessage::Error { code, .. } => codes.push(code.to_string()),
            ServerMessage::Created { .. } => codes.push("created".into()),
            ServerMessage::Pong => break,
            _ => continue,
        }
    }
    assert_eq!(codes, ["too_many_tables"]);
    assert_eq!(listed_tables(&server.addr).await, before);

    // A spectator of all of them, and of one more: the one watched longest ago lets go.
    let (mut other, _) = guest(&server.addr).await;
    let last = crate::common::open_table(&mut other, gomoku()).await.0;
    let (mut watcher, _) = guest(&server.addr).await;
    for table in tables.iter().chain([&last]) {
        let watch = ClientMessage::Watch(request::Watch {
            table: table.clone(),
            invite: None,
        });
        crate::common::enter(&mut watcher, table, watch).await;
    }
    for table in [&tables[0], &tables[1]] {
        let chat = ClientMessage::Chat {
            table: Some(table.clone()),
            text: "hello".into(),
        };
        send(&mut host, chat).await;
    }
    send(&mut host, ClientMessage::Ping).await;
    while !matches!(host.recv_within(WAIT).await, Ok(ServerMessage::Pong)) {}
    send(&mut watcher, ClientMessage::Ping).await;
    let mut heard = Vec::new();
    loop {
        match watcher.recv_within(WAIT).await.expect("an answer") {
            ServerMessage::Chat { table, .. } => heard.extend(table),
            ServerMessage::Pong => break,
            _ => continue,
        }
    }
    assert_eq!(heard, [tables[1].clone()]);
    server.stop().await;
}

/// How many tables the lobby lists, as a new visitor sees it.
async fn listed_tables(addr: &str) -> usize {
    let (mut c, _) = guest(addr).await;
    send(&mut c, ClientMessage::Lobby { game: None }).await;
    loop {
        if let ServerMessage::Lobby { tables } = c.recv_within(WAIT).await.expect("the lobby") {
            return tables.len();
        }
    }
}
