//! What a client asks of one table. Each request is its own type, carried whole from the
//! frame to the table's task: a [`ClientMessage`](super::ClientMessage) of a table's kind
//! holds one of these, and the connection hands it on as a [`TableRequest`] without
//! reading it, so the table alone decides what it means.

use super::TableId;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Sit at a table: at `seat`, or at the first free seat.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Join {
    /// The table.
    pub table: TableId,
    /// The seat wanted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<usize>,
    /// The invite code of a private table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// Watch a table as a spectator.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Watch {
    /// The table.
    pub table: TableId,
    /// The invite code of a private table.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// Get up from one's seat (between games) and keep watching.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Stand {
    /// The table.
    pub table: TableId,
}

/// Leave a table: stand up (between games) and stop watching.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Leave {
    /// The table.
    pub table: TableId,
}

/// Ready (or not) for the next game; a game starts when every seat is filled and ready.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Ready {
    /// The table.
    pub table: TableId,
    /// Ready or not.
    pub ready: bool,
}

/// Put a computer in an empty seat (the table's host only).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AddBot {
    /// The table.
    pub table: TableId,
    /// The seat.
    pub seat: usize,
    /// One of the game's bots (`heuristic`, `engine:L5`).
    pub bot: String,
}

/// Take a computer out of a seat between games (the table's host only).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RemoveBot {
    /// The table.
    pub table: TableId,
    /// The seat.
    pub seat: usize,
}

/// A seat's contribution to the next deal's randomness, answering a
/// [`ServerMessage::Commitment`](super::ServerMessage::Commitment).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Nonce {
    /// The table.
    pub table: TableId,
    /// The game the nonce is for.
    pub game_id: String,
    /// 1–32 random bytes, in hex.
    pub nonce: String,
}

/// A move, in the game's JSON form (`{"play":"3 3 4 4 5 5"}`, `{"place":[7,7]}`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Act {
    /// The table.
    pub table: TableId,
    /// The action.
    pub action: Value,
    /// The table sequence number the client last saw; an action sent against an older
    /// state than the current one is refused with `stale`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seq: Option<u64>,
}

/// Let a computer play one's seat (托管), or take it back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Auto {
    /// The table.
    pub table: TableId,
    /// On or off.
    pub on: bool,
}

/// After a reconnect: what the table published since `last_seq`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Resume {
    /// The table.
    pub table: TableId,
    /// The last sequence number received from it; 0 for a client that holds nothing of
    /// the table yet (a page just loaded), which is sent every entry the table still
    /// keeps, to draw its log of moves and its chat from.
    pub last_seq: u64,
    /// The invite code of a private table, for a spectator whose connection is new (a
    /// player seated there needs none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invite: Option<String>,
}

/// A request to one table, as the table's task receives it. Its wire form is the client's
/// message itself (`{"type":"join","table":…}`), so a request can be passed on whole —
/// to the task today, to the node that owns the table when there are several.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum TableRequest {
    /// [`Join`].
    Join(Join),
    /// [`Watch`].
    Watch(Watch),
    /// [`Stand`].
    Stand(Stand),
    /// [`Leave`].
    Leave(Leave),
    /// [`Ready`].
    Ready(Ready),
    /// [`AddBot`].
    AddBot(AddBot),
    /// [`RemoveBot`].
    RemoveBot(RemoveBot),
    /// [`Nonce`].
    Nonce(Nonce),
    /// [`Act`].
    Act(Act),
    /// [`Auto`].
    Auto(Auto),
    /// [`Resume`].
    Resume(Resume),
    /// Table chat, already checked by the connection (not empty, not too long, within
    /// the account's chat allowance).
    Chat {
        /// The table.
        table: TableId,
        /// The line.
        text: String,
    },
}

impl TableRequest {
    /// The table the request is for.
    pub fn table(&self) -> &TableId {
        match self {
            TableRequest::Join(r) => &r.table,
            TableRequest::Watch(r) => &r.table,
            TableRequest::Stand(r) => &r.table,
            TableRequest::Leave(r) => &r.table,
            TableRequest::Ready(r) => &r.table,
            TableRequest::AddBot(r) => &r.table,
            TableRequest::RemoveBot(r) => &r.table,
            TableRequest::Nonce(r) => &r.table,
            TableRequest::Act(r) => &r.table,
            TableRequest::Auto(r) => &r.table,
            TableRequest::Resume(r) => &r.table,
            TableRequest::Chat { table, .. } => table,
        }
    }
}
