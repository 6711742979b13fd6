//! What a stranger cannot learn by asking: a private table's invite code (long, random,
//! and guessed at a few tries an address), and the server's own errors behind the HTTP
//! API (logged for the host, said to nobody).

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
