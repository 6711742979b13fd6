//! Connections on other nodes, as the tables of this node see them.
//!
//! A table keeps a [`Client`] for each connection that follows it and sends it frames
//! through the client's [`Outbox`]. For a connection on another node this node makes a
//! proxy: a client whose outbox is drained by a task that puts the frames on the bus to
//! the connection's node, in order, several at a time. The outbox keeps its bounds, so a
//! remote client that reads slowly costs this node what a local one would, and is closed
//! as a local one would be (its node is told, [`Bus::Close`]).

use super::bus::{Bus, Caller, Sender};
use crate::config::Limits;
use crate::outbox::{ConnId, Outbox};
use crate::protocol::TableId;
use crate::table::Client;
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

/// Frames put in one bus message at most.
const FRAMES_PER_MESSAGE: usize = 256;

/// One remote connection's proxy.
struct Proxy {
    node: String,
    client: Client,
    /// The tables here it follows.
    tables: HashSet<TableId>,
}

/// The proxies of this node.
#[derive(Default)]
pub struct Proxies {
    by_conn: Mutex<HashMap<ConnId, Proxy>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Proxies {
    /// The client that stands for `caller` at `table`: its proxy, made on its first
    /// request, with the person it has now.
    pub fn client(&self, bus: &Sender, limits: &Limits, caller: &Caller, table: &str) -> Client {
        let mut by_conn = lock(&self.by_conn);
        let proxy = by_conn.entry(caller.conn).or_insert_with(|| {
            let (out, drain, closing) =
                Outbox::new(caller.conn, limits.send_queue, limits.send_queue_bytes);
            tokio::spawn(pass_on(
                bus.clone(),
                caller.node.clone(),
                caller.conn,
                drain,
                closing,
            ));
            Proxy {
                node: caller.node.clone(),
                client: Client {
                    conn: caller.conn,
                    user: None,
                    out,
                },
                tables: HashSet::new(),
            }
        });
        proxy.client.user = caller.user.clone();
        proxy.tables.insert(table.to_string());
        proxy.client.clone()
    }

    /// Connection `conn` no longer follows `table`; its proxy goes with its last table
    /// (its drain task ends once the table has let go of its outbox too).
    pub fn gone(&self, conn: ConnId, table: &str) {
        let mut by_conn = lock(&self.by_conn);
        if let Some(p) = by_conn.get_mut(&conn) {
            p.tables.remove(table);
            if p.tables.is_empty() {
                by_conn.remove(&conn);
            }
        }
    }

    /// The nodes whose connections follow tables here.
    pub fn nodes(&self) -> HashSet<String> {
        lock(&self.by_conn)
            .values()
            .map(|p| p.node.clone())
            .collect()
    }

    /// `node` is gone: every proxy of its connections is dropped, and returned with the
    /// tables it followed, each to be told the connection is gone.
    pub fn node_gone(&self, node: &str) -> Vec<(ConnId, Vec<TableId>)> {
        let mut by_conn = lock(&self.by_conn);
        let conns: Vec<ConnId> = by_conn
            .iter()
            .filter(|(_, p)| p.node == node)
            .map(|(c, _)| *c)
            .collect();
        conns
            .into_iter()
            .filter_map(|c| by_conn.remove(&c))
            .map(|p| (p.client.conn, p.tables.into_iter().collect()))
            .collect()
    }
}

/// Drains one proxy's outbox onto the bus to `node`, in order, until every holder of the
/// outbox has let it go or it is closed (then its node is told why).
async fn pass_on(
    bus: Sender,
    node: String,
    conn: ConnId,
    mut drain: crate::outbox::Drain,
    closing: std::sync::Arc<crate::outbox::Closing>,
) {
    loop {
        tokio::select! {
            frame = drain.next() => {
                let Some(first) = frame else { return };
                let mut frames = vec![first.to_string()];
                while frames.len() < FRAMES_PER_MESSAGE {
                    match drain.try_next() {
                        Some(f) => frames.push(f.to_string()),
                        None => break,
                    }
                }
                bus.send(&node, &Bus::Frames { conn, frames }).await;
            }
            (code, reason) = closing.wait() => {
                let mut frames = Vec::new();
                while let Some(f) = drain.try_next() {
                    frames.push(f.to_string());
                }
                if !frames.is_empty() {
                    bus.send(&node, &Bus::Frames { conn, frames }).await;
                }
                bus.send(&node, &Bus::Close { conn, code, reason }).await;
                return;
            }
        }
    }
}
