//! The bus: what one node tells another, over Redis.
//!
//! Each node subscribes to its own channel (`<prefix>:node:<id>`) on a connection of its
//! own and publishes on one other connection. Redis delivers the messages one publisher's
//! connection sent to one channel in the order it received them, so what a sender on this
//! node publishes one message after the other (awaiting each) reaches the other node in
//! that order: a connection's requests reach their table in the order the client sent
//! them, and a table's frames reach the connection in the order the table published
//! them. Pub/sub keeps nothing: a node that is not subscribed (gone, or its Redis
//! connection broken) misses what was sent meanwhile. So a sender that finds nobody
//! listening, and a node whose subscription broke, close the connections that may have
//! missed something (`1012`): their clients reconnect and resume from their last
//! sequence number, as after any dropped connection, and never go on past a gap.

use crate::outbox::ConnId;
use crate::protocol::{TableId, TableRequest, UserInfo};
use redis::aio::ConnectionManager;
use redis::AsyncCommands;
use serde::{Deserialize, Serialize};

/// A connection on another node, as the table's node knows it: enough to answer it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Caller {
    /// The node it is connected to, where its frames go.
    pub node: String,
    /// The connection (unique across nodes: [`crate::outbox::next_conn_id`]).
    pub conn: ConnId,
    /// Its person, if logged in.
    pub user: Option<UserInfo>,
}

/// One message between two nodes. The first five go from a connection's node to the
/// node that owns the table; the last four come back.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Bus {
    /// A client's request to a table, whole as it sent it.
    Request {
        /// The table.
        table: TableId,
        /// Who asks.
        from: Caller,
        /// What.
        request: TableRequest,
    },
    /// Seat the caller (at `seat`, or the first free one), as quick play does at a table
    /// served elsewhere; `ready` for the next game at once.
    Sit {
        /// The table.
        table: TableId,
        /// Who sits.
        from: Caller,
        /// The seat wanted.
        seat: Option<usize>,
        /// The invite code of a private table.
        invite: Option<String>,
        /// Ready at once.
        ready: bool,
    },
    /// The connection's person changed (a login, a registration): the table shows the new
    /// name and the view the new person may have.
    User {
        /// The table.
        table: TableId,
        /// The connection with its new person.
        from: Caller,
    },
    /// The connection closed.
    Gone {
        /// The table it followed.
        table: TableId,
        /// The connection.
        conn: ConnId,
    },
    /// A connection at its bound of tables asks to stop following this one; the table's
    /// node answers [`Bus::Unfollowed`] with `ask`.
    Unfollow {
        /// The table.
        table: TableId,
        /// The connection.
        conn: ConnId,
        /// The node that waits for the answer.
        node: String,
        /// Which question this is, on that node.
        ask: u64,
    },
    /// The answer to [`Bus::Unfollow`]: whether the table let the connection go.
    Unfollowed {
        /// The question.
        ask: u64,
        /// Whether it let go.
        let_go: bool,
    },
    /// The node asked has no table of that id (it closed, or another node serves it
    /// now): the asking node forgets where it sent it and tells the connection.
    Missing {
        /// The table.
        table: TableId,
        /// The connection whose request found no table.
        conn: ConnId,
    },
    /// Frames a table sent a connection, in order, each already encoded.
    Frames {
        /// The connection.
        conn: ConnId,
        /// The frames.
        frames: Vec<String>,
    },
    /// The table's node closed its end of the connection (the client was too slow to
    /// read): the connection's node closes the socket with this code and reason.
    Close {
        /// The connection.
        conn: ConnId,
        /// The WebSocket close code.
        code: u16,
        /// Why.
        reason: String,
    },
}

/// The channel a node listens on.
pub fn channel(prefix: &str, node: &str) -> String {
    format!("{prefix}:node:{node}")
}

/// The sending side of the bus: one Redis connection that reconnects by itself.
#[derive(Clone)]
pub struct Sender {
    prefix: String,
    redis: ConnectionManager,
}

impl Sender {
    /// A sender over `redis`, naming channels under `prefix`.
    pub fn new(prefix: &str, redis: ConnectionManager) -> Sender {
        Sender {
            prefix: prefix.to_string(),
            redis,
        }
    }

    /// The prefix of the hall's keys and channels.
    pub fn prefix(&self) -> &str {
        &self.prefix
    }

    /// Publishes `message` to `node`; false when it did not reach the node: Redis did
    /// not take it (logged), or nobody listens on the node's channel (the node died, or
    /// its subscription broke and it has not subscribed again). The caller awaits each
    /// send before the next, which is what keeps them in order.
    pub async fn send(&self, node: &str, message: &Bus) -> bool {
        let listeners = self.publish_to(&channel(&self.prefix, node), message).await;
        if listeners == Some(0) {
            tracing::debug!(node = %node, "nobody listens for that node now");
        }
        listeners.is_some_and(|n| n > 0)
    }

    /// Publishes `message` on `channel`: how many listened, or `None` (logged) when Redis
    /// did not take it.
    pub async fn publish_to(&self, channel: &str, message: &impl Serialize) -> Option<i64> {
        let text = match serde_json::to_string(message) {
            Ok(t) => t,
            Err(e) => {
                tracing::error!(error = %e, "a bus message that does not encode");
                return None;
            }
        };
        let mut redis = self.redis.clone();
        match redis.publish::<_, _, i64>(channel, text).await {
            Ok(n) => Some(n),
            Err(e) => {
                tracing::warn!(channel = %channel, error = %e, "cannot publish to the other nodes");
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_travels_whole() {
        let request: TableRequest =
            serde_json::from_str(r#"{"type":"act","table":"t1","action":{"play":"3"},"seq":7}"#)
                .expect("a request");
        let message = Bus::Request {
            table: "t1".into(),
            from: Caller {
                node: "a".into(),
                conn: 1 << 40,
                user: None,
            },
            request,
        };
        let text = serde_json::to_string(&message).expect("encodes");
        let back: Bus = serde_json::from_str(&text).expect("decodes");
        assert_eq!(back, message);
    }
}
