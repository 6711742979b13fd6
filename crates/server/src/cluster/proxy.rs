//! Connections on other nodes, as the tables of this node see them.
//!
//! A table keeps a [`Client`] for each connection that follows it and sends it frames
//! through the client's [`Outbox`]. For a connection on another node this node makes a
//! proxy: a client whose outbox is drained by a task that puts the frames on the bus to
//! the connection's node, in order, several at a time. The outbox keeps its bounds, so a
//! remote client that reads slowly costs this node what a local one would, and is closed
//! as a local one would be (its node is told, [`Bus::Close`]). Frames that cannot reach
//! the connection's node close it too: its client resumes rather than miss them.

use super::bus::{Bus, Caller, Sender};
use crate::hall::Hall;
use crate::outbox::{ConnId, Outbox, CLOSE_RESTART};
use crate::protocol::TableId;
use crate::table::{Client, Cmd};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};

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
    /// The client that stands for `caller` at `table` of `hall`: its proxy, made on its
    /// first request, with the person it has now.
    pub fn client(
        self: &Arc<Self>,
        hall: &Arc<Hall>,
        bus: &Sender,
        caller: &Caller,
        table: &str,
    ) -> Client {
        let limits = &hall.config.limits;
        let mut by_conn = lock(&self.by_conn);
        let proxy = by_conn.entry(caller.conn).or_insert_with(|| {
            let (out, drain, closing) =
                Outbox::new(caller.conn, limits.send_queue, limits.send_queue_bytes);
            tokio::spawn(pass_on(
                Passing {
                    bus: bus.clone(),
                    node: caller.node.clone(),
                    conn: caller.conn,
                    proxies: Arc::downgrade(self),
                    hall: Arc::downgrade(hall),
                },
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
        self.drop_where(|p| p.node == node)
            .into_iter()
            .map(|(client, tables)| (client.conn, tables))
            .collect()
    }

    /// This node's subscription broke, so requests of connections elsewhere may have been
    /// lost: every proxy is dropped and its connection closed as by a restarting server
    /// (its node is told, when Redis takes it), to reconnect and resume. Returns each
    /// connection with the tables it followed, each to be told it is gone.
    pub fn lost_touch(&self) -> Vec<(ConnId, Vec<TableId>)> {
        self.drop_where(|_| true)
            .into_iter()
            .map(|(client, tables)| {
                client.out.close_with(CLOSE_RESTART, LOST);
                (client.conn, tables)
            })
            .collect()
    }

    /// Drops the proxies `which` picks: each one's client and the tables it followed.
    fn drop_where(&self, which: impl Fn(&Proxy) -> bool) -> Vec<(Client, Vec<TableId>)> {
        let mut by_conn = lock(&self.by_conn);
        let conns: Vec<ConnId> = by_conn
            .iter()
            .filter(|(_, p)| which(p))
            .map(|(c, _)| *c)
            .collect();
        conns
            .into_iter()
            .filter_map(|c| by_conn.remove(&c))
            .map(|p| (p.client, p.tables.into_iter().collect()))
            .collect()
    }

    /// Drops the proxy of connection `conn`: the tables it followed.
    fn drop_conn(&self, conn: ConnId) -> Vec<TableId> {
        lock(&self.by_conn)
            .remove(&conn)
            .map(|p| p.tables.into_iter().collect())
            .unwrap_or_default()
    }
}

/// Why a connection elsewhere is closed when its frames could not reach it.
const LOST: &str = "lost touch with the server of one of your tables; reconnect";

/// How many times a proxy whose frames were lost tries to tell its connection's node to
/// close the connection, a second apart, before leaving it to that node (which closes it
/// anyway when its own subscription broke, or when this node is gone).
const CLOSE_TRIES: u32 = 10;

/// What a proxy's drain task needs: where its frames go, and whom to tell when they
/// cannot.
struct Passing {
    bus: Sender,
    node: String,
    conn: ConnId,
    proxies: Weak<Proxies>,
    hall: Weak<Hall>,
}

impl Passing {
    /// Frames did not reach the connection: it must not go on past the gap. The proxy is
    /// dropped, its tables told the connection is gone (its seat waits for it as for any
    /// dropped connection), and its node asked to close it.
    async fn lost(&self) {
        tracing::warn!(conn = self.conn, node = %self.node, "frames for a connection on another node were lost; closing it");
        let tables = match self.proxies.upgrade() {
            Some(p) => p.drop_conn(self.conn),
            None => Vec::new(),
        };
        if let Some(hall) = self.hall.upgrade() {
            for t in tables {
                if let Some(h) = hall.table(&t) {
                    h.send(Cmd::Gone { conn: self.conn }).await;
                }
            }
        }
        let close = Bus::Close {
            conn: self.conn,
            code: CLOSE_RESTART,
            reason: LOST.into(),
        };
        for _ in 0..CLOSE_TRIES {
            if self.bus.send(&self.node, &close).await {
                return;
            }
            tokio::time::sleep(std::time::Duration::from_secs(1)).await;
        }
    }
}

/// Drains one proxy's outbox onto the bus to its connection's node, in order, until every
/// holder of the outbox has let it go or it is closed (then its node is told why). Frames
/// that do not reach the node end the proxy ([`Passing::lost`]).
async fn pass_on(
    to: Passing,
    mut drain: crate::outbox::Drain,
    closing: Arc<crate::outbox::Closing>,
) {
    let conn = to.conn;
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
                if !to.bus.send(&to.node, &Bus::Frames { conn, frames }).await {
                    return to.lost().await;
                }
            }
            (code, reason) = closing.wait() => {
                let mut frames = Vec::new();
                while let Some(f) = drain.try_next() {
                    frames.push(f.to_string());
                }
                if !frames.is_empty() {
                    to.bus.send(&to.node, &Bus::Frames { conn, frames }).await;
                }
                to.bus.send(&to.node, &Bus::Close { conn, code, reason }).await;
                return;
            }
        }
    }
}
