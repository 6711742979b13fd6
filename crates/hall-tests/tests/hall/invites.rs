//! What a stranger cannot learn by asking: a private table's invite code (long, random,
//! and guessed at a few tries an address), a private game its host keeps to its players,
//! and the server's own errors behind the HTTP API (logged for the host, said to nobody).

use crate::common::Connection;
use crate::common::{execute_sql, get, guest, send, TestServer, WAIT};
use server::protocol::request;
use server::protocol::{ClientMessage, ServerMessage, TableOptions};

/// The answer to a join: the table's snapshot (`table`), or the refusal's code.
async fn joined(c: &mut Connection, table: &str, invite: &str) -> String {
    send(
        c,
        ClientMessage::Join(request::Join {
            table: table.into(),
            seat: None,
            invite: Some(invite.into()),
        }),
    )
    .await;
    loop {
        match c.recv_within(WAIT).await.expect("an answer") {
            ServerMessage::Table { .. } => return "table".into(),
            ServerMessage::Error { code, .. } => return code.to_string(),
            _ => continue,
        }
    }
}

/// An invite code used to be six characters (about 30 bits) that anyone could try at the
/// pace of their messages. It is 16 characters from the system's random source (79 bits),
/// and an address that has sent ten wrong codes is refused every code, the right one too,
/// for ten minutes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invite_codes_cannot_be_guessed() {
    let server = TestServer::fresh("invites").await;
    let (mut host, _) = guest(&server.addr).await;
    let private = TableOptions {
        private: true,
        ..TableOptions::default()
    };
    send(
        &mut host,
        ClientMessage::CreateTable {
            game: "doudizhu".into(),
            options: private,
        },
    )
    .await;
    let (table, code) = loop {
        if let ServerMessage::Created { table, invite, .. } =
            host.recv_within(WAIT).await.expect("created")
        {
            break (table, invite.expect("a private table's invite code"));
        }
    };
    assert!(
        code.len() >= 16 && code.chars().all(|c| c.is_ascii_alphanumeric()),
        "{code}"
    );
    let (mut stranger, _) = guest(&server.addr).await;
    for i in 0..10 {
        let wrong = format!("{code}{i}");
        assert_eq!(joined(&mut stranger, &table, &wrong).await, "private");
    }
    assert_eq!(
        joined(&mut stranger, &table, &code).await,
        "rate_limited",
        "past ten wrong codes, even the right one is refused: the answer tells nothing"
    );
    server.stop().await;
}

/// The HTTP API used to answer a failure of the database with the database's own words
/// (which table is missing, where the file is). It answers "internal error" and logs the
/// rest.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_http_api_keeps_its_internal_errors_to_itself() {
    let server = TestServer::fresh("internal-errors").await;
    let (_, token) = guest(&server.addr).await;
    let me = server.hall.accounts.resume(&token).await.expect("a user");
    execute_sql(&server, &["DROP TABLE ratings"]).await;
    let (status, body) = get(&server.addr, &format!("/api/users/{}/games", me.name)).await;
    assert_eq!(status, 500, "{body}");
    let answer: serde_json::Value = serde_json::from_str(&body).expect("json");
    assert_eq!(answer, serde_json::json!({"error": "internal error"}));
    server.stop().await;
}

/// Opens a private two-seat Gomoku table for people, `spectators` or not; returns the
/// table, its invite code and the host's connection.
async fn private_gomoku(server: &TestServer, spectators: bool) -> (String, String, Connection) {
    let (mut host, _) = guest(&server.addr).await;
    let options = TableOptions {
        private: true,
        spectators,
        computers: false,
        ..TableOptions::default()
    };
    send(
        &mut host,
        ClientMessage::CreateTable {
            game: "gomoku".into(),
            options,
        },
    )
    .await;
    loop {
        if let ServerMessage::Created { table, invite, .. } =
            host.recv_within(WAIT).await.expect("created")
        {
            return (table, invite.expect("an invite code"), host);
        }
    }
}

/// The next answer about `table`: `table` for its snapshot (with the seat, if any), or
/// the refusal's code. A refusal names the table, so that a client waiting to get in
/// knows its way in was refused.
async fn answer(c: &mut Connection, table: &str) -> (String, Option<usize>) {
    loop {
        match c.recv_within(WAIT).await.expect("an answer") {
            ServerMessage::Table { table: t, you, .. } if t == table => {
                return ("table".into(), you)
            }
            ServerMessage::Error { code, table: t, .. } => {
                assert_eq!(t.as_deref(), Some(table), "the refusal names the table");
                return (code.to_string(), None);
            }
            _ => continue,
        }
    }
}

/// A private table is its players' own: somebody with its link, once the seats are
/// taken, is told the table is full and that its host lets nobody watch. A host who lets
/// people watch (`spectators`) lets them in as spectators, and a spectator who reconnects
/// comes back with the code.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_private_tables_host_says_whether_people_with_its_link_may_watch() {
    let server = TestServer::fresh("spectators").await;
    for spectators in [false, true] {
        let (table, code, _host) = private_gomoku(&server, spectators).await;
        let (mut friend, _) = guest(&server.addr).await;
        let (got, seat) = joined_at(&mut friend, &table, &code).await;
        assert_eq!((got.as_str(), seat), ("table", Some(1)));
        let (mut third, _) = guest(&server.addr).await;
        assert_eq!(joined(&mut third, &table, &code).await, "table_full");
        let watch = |invite: Option<&str>| {
            ClientMessage::Watch(request::Watch {
                table: table.clone(),
                invite: invite.map(str::to_string),
            })
        };
        send(&mut third, watch(None)).await;
        assert_eq!(
            answer(&mut third, &table).await.0,
            "private",
            "no code, no table"
        );
        send(&mut third, watch(Some(&code))).await;
        let (got, seat) = answer(&mut third, &table).await;
        if !spectators {
            assert_eq!(got, "no_spectators");
            continue;
        }
        assert_eq!((got.as_str(), seat), ("table", None), "a spectator");
        // A new connection of the spectator resumes with the code, and only with it.
        let (mut again, _) = guest(&server.addr).await;
        let resume = |invite: Option<&str>| {
            ClientMessage::Resume(request::Resume {
                table: table.clone(),
                last_seq: 0,
                invite: invite.map(str::to_string),
            })
        };
        send(&mut again, resume(None)).await;
        assert_eq!(answer(&mut again, &table).await.0, "private");
        send(&mut again, resume(Some(&code))).await;
        assert_eq!(answer(&mut again, &table).await, ("table".into(), None));
    }
    server.stop().await;
}

/// [`joined`], with the seat given.
async fn joined_at(c: &mut Connection, table: &str, invite: &str) -> (String, Option<usize>) {
    send(
        c,
        ClientMessage::Join(request::Join {
            table: table.into(),
            seat: None,
            invite: Some(invite.into()),
        }),
    )
    .await;
    answer(c, table).await
}
