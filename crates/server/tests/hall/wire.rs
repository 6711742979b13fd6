//! The server does on the wire what docs/protocol.md says it does.

use crate::common::{guest, Connection, TestServer, WAIT};
use server::protocol::{ErrorCode, ServerMessage};

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
