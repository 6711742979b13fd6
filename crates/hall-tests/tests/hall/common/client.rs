//! The tests' WebSocket client: the server's own client, except that every frame it
//! receives is checked against the protocol's schema (docs/protocol.schema.json, as
//! `server::protocol::schema` makes it) before it is read, and every game's view against
//! that game's view schema. So every hall test is also a test that the server sends only
//! what the schema says: a frame that does not fit fails the test with the frame and the
//! reason.

use super::schema::Validator;
use serde_json::Value;
use server::client::{self, ClientError};
use server::protocol::{ClientMessage, ErrorCode, ServerMessage, UserInfo, VERSION};
use std::collections::HashMap;
use std::sync::OnceLock;
use std::time::Duration;

/// The protocol's schema, with every game's view.
fn schema() -> serde_json::Value {
    server::protocol::schema(games::view_schemas())
}

/// The schema's validators, made once per test process.
struct Schemas {
    /// Every message the server sends.
    server: Validator,
    /// Each game's view, by the game's id.
    views: HashMap<String, Validator>,
}

fn schemas() -> &'static Schemas {
    static SCHEMAS: OnceLock<Schemas> = OnceLock::new();
    SCHEMAS.get_or_init(|| {
        let schema = schema();
        let server = Validator::new(&schema["server"]).expect("the server's schema");
        let views = schema["views"]
            .as_object()
            .expect("the schema has the games' views")
            .iter()
            .map(|(game, view)| {
                let validator =
                    Validator::new(view).unwrap_or_else(|e| panic!("{game}'s view schema: {e}"));
                (game.clone(), validator)
            })
            .collect();
        Schemas { server, views }
    })
}

/// Panics unless `frame` is a message of the schema, each view in it valid by the schema of
/// the game of its table (`games`: the tables' games seen so far, which it adds to).
pub fn check_frame(frame: &str, games: &mut HashMap<String, String>) {
    let value: Value = serde_json::from_str(frame)
        .unwrap_or_else(|e| panic!("the server sent a frame that is not JSON ({e}): {frame}"));
    let schemas = schemas();
    let errors = schemas.server.errors(&value);
    assert!(
        errors.is_empty(),
        "the server sent a frame the schema does not allow:\n{frame}\n{}",
        errors.join("\n")
    );
    // Which game each table plays, from what names it.
    let mut note = |info: &Value| {
        if let (Some(id), Some(game)) = (info["id"].as_str(), info["game"].as_str()) {
            games.insert(id.to_string(), game.to_string());
        }
    };
    match value["type"].as_str() {
        Some("table" | "seats") => note(&value["info"]),
        Some("lobby_table") => note(&value["table"]),
        Some("lobby") => value["tables"]
            .as_array()
            .into_iter()
            .flatten()
            .for_each(&mut note),
        Some("created") => {
            if let (Some(id), Some(game)) = (value["table"].as_str(), value["game"].as_str()) {
                games.insert(id.to_string(), game.to_string());
            }
        }
        _ => {}
    }
    let view = &value["game"]["view"];
    if view.is_null() {
        return;
    }
    let table = value["table"].as_str().unwrap_or_default();
    let game = games
        .get(table)
        .unwrap_or_else(|| panic!("a view of a table whose game was never named: {frame}"));
    let validator = schemas
        .views
        .get(game)
        .unwrap_or_else(|| panic!("the schema has no view of {game}: {frame}"));
    let errors = validator.errors(view);
    assert!(
        errors.is_empty(),
        "the server sent a {game} view its schema does not allow:\n{view}\n{}",
        errors.join("\n")
    );
}

/// One connection to a server, every frame received checked against the schema.
pub struct Connection {
    inner: client::Connection,
    /// The game of each table this connection has heard of.
    games: HashMap<String, String>,
}

impl Connection {
    /// Connects and says hello (with `token` to resume a session). Returns the connection,
    /// the user the token names (if any) and the tables where that user sits.
    pub async fn open(
        server: &str,
        token: Option<&str>,
    ) -> Result<(Connection, Option<UserInfo>, Vec<String>), ClientError> {
        let mut conn = Connection {
            inner: client::Connection::connect(server).await?,
            games: HashMap::new(),
        };
        conn.send(&ClientMessage::Hello {
            version: VERSION,
            token: token.map(str::to_string),
        })
        .await?;
        loop {
            match conn.recv().await? {
                ServerMessage::Welcome { user, seated, .. } => return Ok((conn, user, seated)),
                ServerMessage::Error { code, message, .. } if code != ErrorCode::BadToken => {
                    return Err(ClientError::Refused { code, message })
                }
                _ => continue,
            }
        }
    }

    /// Sends a message.
    pub async fn send(&mut self, message: &ClientMessage) -> Result<(), ClientError> {
        self.inner.send(message).await
    }

    /// Sends any text frame (the fuzz tests send broken ones).
    pub async fn send_raw(&mut self, text: String) -> Result<(), ClientError> {
        self.inner.send_raw(text).await
    }

    /// The next message from the server, checked against the schema.
    pub async fn recv(&mut self) -> Result<ServerMessage, ClientError> {
        let text = self.inner.recv_text().await?;
        check_frame(&text, &mut self.games);
        serde_json::from_str(&text).map_err(|e| ClientError::Unreadable(format!("{e}: {text}")))
    }

    /// The next message, or [`ClientError::Timeout`] after `wait`.
    pub async fn recv_within(&mut self, wait: Duration) -> Result<ServerMessage, ClientError> {
        tokio::time::timeout(wait, self.recv())
            .await
            .map_err(|_| ClientError::Timeout(wait))?
    }

    /// Sends `message` and waits for the session it opens (register, login, guest).
    pub async fn session(
        &mut self,
        message: ClientMessage,
    ) -> Result<(String, UserInfo), ClientError> {
        self.send(&message).await?;
        loop {
            match self.recv().await? {
                ServerMessage::Session { token, user } => return Ok((token, user)),
                ServerMessage::Error { code, message, .. } => {
                    return Err(ClientError::Refused { code, message })
                }
                _ => continue,
            }
        }
    }

    /// Closes the connection politely.
    pub async fn close(self) {
        self.inner.close().await;
    }
}
