//! The protocol: JSON messages over a WebSocket at `/ws`, one message per text frame.
//!
//! Every message is an object with a `type`. A client first says [`ClientMessage::Hello`]
//! with the protocol version it speaks; the server answers [`ServerMessage::Welcome`] or an
//! [`ServerMessage::Error`] with code `bad_version` and closes. Everything a table
//! publishes carries the table's sequence number `seq`, so a client that reconnects can ask
//! for what it missed ([`ClientMessage::Resume`]).
//!
//! docs/protocol.md shows every message with an example; docs/protocol.schema.json is
//! generated from these types, and a test fails when the two and the types disagree.

mod code;
mod info;
pub mod request;

pub use code::ErrorCode;
pub use info::{
    BanInfo, GameInfo, GameState, LevelInfo, RatingChange, SeatInfo, TableInfo, TableOptions,
    UserInfo,
};
pub use request::TableRequest;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The protocol version this server speaks.
pub const VERSION: u32 = 1;

/// A table's id, as the lobby lists it (`t3k9`).
pub type TableId = String;

/// What a client sends. A field the message does not have is refused (`bad_message`,
/// naming it), in every message alike: a misspelt field silently ignored would leave a
/// bot's author guessing why the server did not do what was asked.
// `remote = "Self"` makes serde derive the (de)serializer as plain functions, so that the
// `Deserialize` below can refuse fields on the messages without any (serde lets those
// through whatever the attributes say) before handing over to the derived one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(
    remote = "Self",
    tag = "type",
    rename_all = "snake_case",
    deny_unknown_fields
)]
#[schemars(rename = "ClientMessage")]
pub enum ClientMessage {
    /// The first message of a connection: the protocol version, and a session token to
    /// resume a session (after a reconnect, or from a saved login).
    Hello {
        /// The protocol version the client speaks.
        version: u32,
        /// A session token from an earlier [`ServerMessage::Session`].
        #[serde(default, skip_serializing_if = "Option::is_none")]
        token: Option<String>,
    },
    /// Create an account, or give the current guest a name and password (the guest's
    /// history is kept).
    Register {
        /// 2–24 letters, digits, `_` or `-`.
        name: String,
        /// At least 8 characters.
        password: String,
    },
    /// Log in to an account.
    Login {
        /// The account's name.
        name: String,
        /// Its password.
        password: String,
    },
    /// Change the session's account's password. Every other session of the account ends
    /// (a password changed because it leaked must lock out whoever holds it); this one
    /// goes on. Failed attempts count as failed logins.
    ChangePassword {
        /// The current password.
        password: String,
        /// The new one: at least 8 characters.
        new_password: String,
    },
    /// Delete the session's account, with its password. The name is released, the
    /// password and ratings go, every session ends; the games stay, under the name
    /// `deleted-<id>`, as the other players' records. Refused while the account holds a
    /// seat (`seated`): leave the tables first.
    DeleteAccount {
        /// The account's password.
        password: String,
    },
    /// A moderator (an account `qipai serve --moderator` names) bans an account: it
    /// cannot log in, its sessions end, its connection closes, and its address makes no
    /// new account for a day. Its games, ratings and seats' histories stay.
    Ban {
        /// The account's name.
        user: String,
        /// Why, shown to the player: at most 300 characters.
        reason: String,
    },
    /// A moderator lifts a ban.
    Unban {
        /// The account's name.
        user: String,
    },
    /// A moderator asks which accounts are banned; answered with [`ServerMessage::Bans`].
    Bans,
    /// Play as a guest: an account with a generated name and no password.
    Guest,
    /// End the session: its token stops working.
    Logout,
    /// The games this server offers, with their bots and options.
    Games,
    /// Watch the lobby: a snapshot of the open tables, then every change. `game` limits it
    /// to one game.
    Lobby {
        /// Only this game's tables.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<String>,
    },
    /// Stop watching the lobby.
    LeaveLobby,
    /// Open a table and sit at it.
    CreateTable {
        /// The game's id (`doudizhu`).
        game: String,
        /// How the table plays.
        #[serde(default)]
        options: TableOptions,
    },
    /// Sit at a table: at `seat`, or at the first free seat.
    Join(request::Join),
    /// Watch a table as a spectator.
    Watch(request::Watch),
    /// Get up from one's seat (between games) and keep watching.
    Stand(request::Stand),
    /// Leave a table: stand up (between games) and stop watching.
    Leave(request::Leave),
    /// Ready (or not) for the next game; a game starts when every seat is filled and ready.
    Ready(request::Ready),
    /// Put a computer in an empty seat (the table's host only).
    AddBot(request::AddBot),
    /// Take a computer out of a seat between games (the table's host only).
    RemoveBot(request::RemoveBot),
    /// Sit at an open table of `game`, or open one that computers fill after a short wait.
    QuickPlay {
        /// The game.
        game: String,
        /// The computers' strength ([`TableOptions::level`]): quick play joins only a
        /// table that plays at this level, or opens one; none for the hall's default.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        level: Option<String>,
    },
    /// A seat's contribution to the next deal's randomness, answering a
    /// [`ServerMessage::Commitment`].
    Nonce(request::Nonce),
    /// A move, in the game's JSON form (`{"play":"3 3 4 4 5 5"}`, `{"place":[7,7]}`).
    Act(request::Act),
    /// Let a computer play one's seat (托管), or take it back.
    Auto(request::Auto),
    /// Say something at a table, or in the lobby without `table`.
    Chat {
        /// The table, or none for the lobby.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        table: Option<TableId>,
        /// Up to 300 characters.
        text: String,
    },
    /// Stop (or start again) receiving someone's chat.
    Mute {
        /// Their name.
        user: String,
        /// Mute or unmute.
        mute: bool,
    },
    /// After a reconnect: what the table published since `last_seq`.
    Resume(request::Resume),
    /// A keep-alive; answered with [`ServerMessage::Pong`].
    Ping,
}

/// The types of the client's messages that have no fields besides `type`.
const WITHOUT_FIELDS: &[&str] = &["bans", "guest", "logout", "games", "leave_lobby", "ping"];

impl Serialize for ClientMessage {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        ClientMessage::serialize(self, serializer)
    }
}

impl<'de> Deserialize<'de> for ClientMessage {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let value = Value::deserialize(deserializer)?;
        if let Some(kind) = value.get("type").and_then(Value::as_str) {
            if WITHOUT_FIELDS.contains(&kind) {
                let extra = value
                    .as_object()
                    .and_then(|fields| fields.keys().find(|k| *k != "type"));
                if let Some(extra) = extra {
                    return Err(D::Error::custom(format!(
                        "unknown field `{extra}`: a `{kind}` message has no fields"
                    )));
                }
            }
        }
        ClientMessage::deserialize(value).map_err(D::Error::custom)
    }
}

/// What the server sends.
// A message lives only until it is encoded, so the size of its largest variant costs
// nothing worth boxing for.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ServerMessage {
    /// The answer to [`ClientMessage::Hello`].
    Welcome {
        /// The protocol version.
        version: u32,
        /// The user, when the hello carried a valid token.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        user: Option<UserInfo>,
        /// The tables where this user has a seat (to resume after a reconnect).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        seated: Vec<TableId>,
    },
    /// A new session: after register, login or guest. Keep the token to resume it.
    Session {
        /// The session token; send it in the next hello.
        token: String,
        /// The user.
        user: UserInfo,
    },
    /// The session ended.
    LoggedOut,
    /// The answer to [`ClientMessage::DeleteAccount`]: the account is gone, and this
    /// connection has no session (play on as a guest, or log in).
    AccountDeleted,
    /// The answer to [`ClientMessage::Ban`] and [`ClientMessage::Unban`].
    Moderated {
        /// The account.
        user: String,
        /// Whether it is banned now.
        banned: bool,
        /// Sessions the ban ended (0 for an unban).
        sessions_ended: u64,
    },
    /// The answer to [`ClientMessage::Bans`]: every banned account, the latest ban first.
    Bans {
        /// The bans.
        bans: Vec<BanInfo>,
    },
    /// The answer to [`ClientMessage::ChangePassword`]: the new password holds.
    PasswordChanged {
        /// How many other sessions of the account it ended.
        sessions_ended: u64,
    },
    /// The games offered.
    Games {
        /// Every game.
        games: Vec<GameInfo>,
    },
    /// The open tables (a snapshot).
    Lobby {
        /// Every listed table.
        tables: Vec<TableInfo>,
    },
    /// A listed table was opened or changed.
    LobbyTable {
        /// The table as it is now.
        table: TableInfo,
    },
    /// A table left the lobby (closed, or became private).
    LobbyClosed {
        /// The table.
        table: TableId,
    },
    /// A table opened for this client (after create_table); a [`ServerMessage::Table`]
    /// follows as it sits down.
    Created {
        /// The table.
        table: TableId,
        /// Its game.
        game: String,
        /// The invite code, for a private table: whoever has it may join.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        invite: Option<String>,
    },
    /// Everything a client needs to draw a table: sent on joining or watching, after a
    /// deal, and to end a resume.
    Table {
        /// The table.
        table: TableId,
        /// Its sequence number.
        seq: u64,
        /// The seats, options, totals.
        info: TableInfo,
        /// The client's seat, or none for a spectator.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        you: Option<usize>,
        /// The game running, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<GameState>,
    },
    /// The seats changed (someone sat, stood, got ready, dropped, came back).
    Seats {
        /// The table.
        table: TableId,
        /// Its sequence number.
        seq: u64,
        /// The table as it is now.
        info: TableInfo,
    },
    /// The server committed to the next deal's seed: send a nonce now.
    Commitment {
        /// The table.
        table: TableId,
        /// Its sequence number.
        seq: u64,
        /// The game about to be dealt.
        game_id: String,
        /// The commitment (docs/fairness.md).
        commitment: String,
        /// Milliseconds left to send a nonce: the whole window (2000 by default) as the
        /// commitment is made, what is left of it when replayed after a reconnect.
        nonce_ms: u64,
    },
    /// A move was made.
    Action {
        /// The table.
        table: TableId,
        /// Its sequence number.
        seq: u64,
        /// The seat that moved.
        seat: usize,
        /// The action: its private form for the seat that made it, its public form for
        /// everyone else.
        action: Value,
        /// What happened, as the game's public events.
        events: Vec<Value>,
        /// The seat's turn ran out and this is the rules' default move made for it (a
        /// Gomoku resignation, a Dou Dizhu pass), not one its player chose; absent
        /// otherwise, so a client can say "time ran out" instead of "resigns".
        #[serde(default, skip_serializing_if = "is_false")]
        timed_out: bool,
        /// The game after it, as this client may see it; none in a replay after a
        /// reconnect (which ends with a fresh [`ServerMessage::Table`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        game: Option<GameState>,
    },
    /// A game ended: the record with its seed revealed, and the match's running totals.
    GameOver {
        /// The table.
        table: TableId,
        /// Its sequence number.
        seq: u64,
        /// The game.
        game_id: String,
        /// Each seat's score change.
        scores: Vec<i64>,
        /// The full record, which `qipai verify` checks.
        record: Value,
        /// Each seat's running total over the match.
        totals: Vec<i64>,
        /// At a rated table, each seat's rating before and after the game, in seat order:
        /// `null` for a seat not rated (a guest, a computer); absent when the game was not
        /// rated, and in a game-over sent again after a reconnect.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        ratings: Vec<Option<RatingChange>>,
    },
    /// Someone said something.
    Chat {
        /// The table, or none for the lobby.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        table: Option<TableId>,
        /// The table's sequence number (table chat only).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
        /// Who.
        from: String,
        /// What.
        text: String,
    },
    /// A request failed. Nothing changed.
    Error {
        /// A stable code to act on (`not_your_turn`, `illegal`, `rate_limited`…).
        code: ErrorCode,
        /// What went wrong, for people.
        message: String,
        /// The table concerned, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        table: Option<TableId>,
    },
    /// The answer to [`ClientMessage::Ping`].
    Pong,
}

/// Serde's test for leaving out a flag that is off.
fn is_false(flag: &bool) -> bool {
    !flag
}

/// The machine-readable schema of the protocol (docs/protocol.schema.json): JSON Schemas
/// of what a client sends and of what the server sends, generated from these types, and
/// of each game's view (`views`, by game id: `games::view_schemas`, which the server
/// cannot name, since it knows no game). A game state's `view` is one of the games' views;
/// which one, its table's `info.game` says.
pub fn schema(views: Value) -> Value {
    let mut server = serde_json::to_value(schemars::schema_for!(ServerMessage))
        .unwrap_or_else(|e| Value::String(format!("cannot encode the schema: {e}")));
    if let Some(view) = server.pointer_mut("/$defs/GameState/properties/view") {
        let each: Vec<Value> = views
            .as_object()
            .into_iter()
            .flat_map(|games| games.values().cloned())
            .collect();
        *view = serde_json::json!({
            "description": "The game's view for this client (its seat's, or a spectator's): \
                one of `views`, the one of the table's game.",
            "anyOf": each,
        });
    }
    serde_json::json!({
        "title": "qipai protocol",
        "version": VERSION,
        "client": schemars::schema_for!(ClientMessage),
        "server": server,
        "views": views,
    })
}

impl ClientMessage {
    /// The request to one table that this message is, passed on whole; any other message
    /// back as it was. Table chat is not one here: the connection checks a chat line (its
    /// length, the account's allowance) before a table hears it.
    // The message given back is the one taken, moved once per message received: its size
    // (a table's options are most of it) costs nothing worth boxing it for.
    #[allow(clippy::result_large_err)]
    pub fn into_table_request(self) -> Result<TableRequest, ClientMessage> {
        Ok(match self {
            ClientMessage::Join(r) => TableRequest::Join(r),
            ClientMessage::Watch(r) => TableRequest::Watch(r),
            ClientMessage::Stand(r) => TableRequest::Stand(r),
            ClientMessage::Leave(r) => TableRequest::Leave(r),
            ClientMessage::Ready(r) => TableRequest::Ready(r),
            ClientMessage::AddBot(r) => TableRequest::AddBot(r),
            ClientMessage::RemoveBot(r) => TableRequest::RemoveBot(r),
            ClientMessage::Nonce(r) => TableRequest::Nonce(r),
            ClientMessage::Act(r) => TableRequest::Act(r),
            ClientMessage::Auto(r) => TableRequest::Auto(r),
            ClientMessage::Resume(r) => TableRequest::Resume(r),
            other => return Err(other),
        })
    }
}

/// The longest error message sent, in characters.
pub const MAX_ERROR_TEXT: usize = 240;
/// The longest table id an error names; a longer one cannot be a table's, and is left out.
pub const MAX_TABLE_ID: usize = 64;

impl ServerMessage {
    /// An error message. What a client sent may be quoted in `message` or `table`, so
    /// both are cut short: an answer never costs more than a few hundred bytes, however
    /// large the message it answers ([`MAX_ERROR_TEXT`], [`MAX_TABLE_ID`]).
    pub fn error(
        code: ErrorCode,
        message: impl Into<String>,
        table: Option<&str>,
    ) -> ServerMessage {
        let mut message = message.into();
        if let Some((cut, _)) = message.char_indices().nth(MAX_ERROR_TEXT) {
            message.truncate(cut);
            message.push('…');
        }
        ServerMessage::Error {
            code,
            message,
            table: table
                .filter(|t| t.len() <= MAX_TABLE_ID)
                .map(str::to_string),
        }
    }

    /// The message as the text of one WebSocket frame.
    pub fn to_text(&self) -> String {
        // Our own types hold only strings, numbers and JSON values: they always encode.
        serde_json::to_string(self).unwrap_or_else(|e| {
            format!(r#"{{"type":"error","code":"internal","message":"cannot encode: {e}"}}"#)
        })
    }
}
