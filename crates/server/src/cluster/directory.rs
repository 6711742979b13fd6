//! The table directory: which node serves each table, in Redis.
//!
//! The node that claims a table's lease writes `<prefix>:table:<id>` (its node id and the
//! table's game) for as long as the lease, and writes it again each time its tables renew
//! theirs ([`Directory::refresh`]), so an entry outlives its node by at most one lease:
//! once the node is gone the entry runs out as the lease does. The store's lease is the
//! authority on who may write for a table; the directory only says where to send its
//! requests, and a request sent to a node that no longer has the table is answered
//! `no_table` by that node.

use crate::protocol::TableId;
use redis::aio::ConnectionManager;
use redis::AsyncCommands;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Where a table is served.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// The node that serves it.
    pub node: String,
    /// Its game.
    pub game: String,
}

/// The directory's side of one node.
#[derive(Clone)]
pub struct Directory {
    prefix: String,
    node: String,
    ttl: Duration,
    redis: ConnectionManager,
}

impl Directory {
    /// The directory under `prefix`, as node `node` writes it, entries lasting `ttl`.
    pub fn new(prefix: &str, node: &str, ttl: Duration, redis: ConnectionManager) -> Directory {
        Directory {
            prefix: prefix.to_string(),
            node: node.to_string(),
            ttl,
            redis,
        }
    }

    fn key(&self, table: &str) -> String {
        format!("{}:table:{table}", self.prefix)
    }

    fn ttl_ms(&self) -> u64 {
        u64::try_from(self.ttl.as_millis()).unwrap_or(u64::MAX)
    }

    /// Writes that this node serves `tables` (id and game each), all in one round trip;
    /// false (logged) when Redis did not take it.
    pub async fn refresh(&self, tables: &[(TableId, String)]) -> bool {
        if tables.is_empty() {
            return true;
        }
        let mut pipe = redis::pipe();
        for (id, game) in tables {
            let entry = Entry {
                node: self.node.clone(),
                game: game.clone(),
            };
            let Ok(value) = serde_json::to_string(&entry) else {
                continue;
            };
            pipe.cmd("SET")
                .arg(self.key(id))
                .arg(value)
                .arg("PX")
                .arg(self.ttl_ms())
                .ignore();
        }
        let mut redis = self.redis.clone();
        match pipe.query_async::<()>(&mut redis).await {
            Ok(()) => true,
            Err(e) => {
                tracing::warn!(error = %e, "cannot write this node's tables in the directory");
                false
            }
        }
    }

    /// The node that serves `table`, if the directory knows it.
    pub async fn owner(&self, table: &str) -> Option<Entry> {
        let mut redis = self.redis.clone();
        let value: Option<String> = match redis.get(self.key(table)).await {
            Ok(v) => v,
            Err(e) => {
                tracing::warn!(table = %table, error = %e, "cannot read the directory");
                return None;
            }
        };
        serde_json::from_str(&value?).ok()
    }

    /// Takes `table` out of the directory if this node is still the one it names (the
    /// table closed here).
    pub async fn forget(&self, table: &str) {
        let script = redis::Script::new(
            r"local v = redis.call('GET', KEYS[1])
              if v and cjson.decode(v).node == ARGV[1] then redis.call('DEL', KEYS[1]) end
              return 0",
        );
        let mut redis = self.redis.clone();
        if let Err(e) = script
            .key(self.key(table))
            .arg(&self.node)
            .invoke_async::<i64>(&mut redis)
            .await
        {
            tracing::debug!(table = %table, error = %e, "cannot take a table out of the directory");
        }
    }
}
