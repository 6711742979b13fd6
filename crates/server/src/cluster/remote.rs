//! Tables served by another node, as this node's connections reach them.
//!
//! A connection asks [`Hall::find_table`](crate::Hall::find_table) for a table; one served
//! elsewhere gets a [`TableHandle`] like any other, whose commands go to a forwarder task
//! here (one per remote table) that puts each on the bus to the table's node, in the
//! order the connections sent them. What the table sends back ([`Bus::Frames`]) is
//! written to the connection's own outbox, so the client sees it as from a table here:
//! the same messages, numbered by the table as ever.

use super::bus::{Bus, Caller, Sender};
use crate::outbox::{ConnId, Outbox, CLOSE_RESTART};
use crate::protocol::TableId;
use crate::table::{Client, Cmd, TableHandle};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot};

/// A connection of this node that follows tables elsewhere.
struct Local {
    out: Outbox,
    /// The remote tables it follows, and the node of each.
    tables: HashMap<TableId, String>,
}

/// A connection's question to a remote table: may it stop following it?
struct Ask {
    /// Who waits for the answer.
    done: oneshot::Sender<bool>,
    /// The connection.
    conn: ConnId,
    /// The table.
    table: TableId,
}

/// This node's way to the tables other nodes serve.
pub struct Remotes {
    /// Each remote table's handle and the node that serves it.
    tables: Mutex<HashMap<TableId, (String, TableHandle)>>,
    /// The connections here that follow remote tables, for their frames.
    local: Mutex<HashMap<ConnId, Local>>,
    /// Questions of [`Cmd::Unfollow`] waiting for their table's answer: who asks, and
    /// which connection and table they are about.
    asks: Mutex<HashMap<u64, Ask>>,
    next_ask: AtomicU64,
    /// Whether this node is subscribed to its channel now: while it is not, the answers
    /// of tables elsewhere would be lost, so nothing is sent to them.
    listening: AtomicBool,
}

/// Why a connection following a table elsewhere is closed when that table cannot be
/// reached: its client reconnects and resumes, wherever the table is by then.
const UNREACHABLE: &str = "the server of one of your tables cannot be reached now; reconnect";

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Default for Remotes {
    fn default() -> Remotes {
        Remotes {
            tables: Mutex::default(),
            local: Mutex::default(),
            asks: Mutex::default(),
            next_ask: AtomicU64::new(0),
            listening: AtomicBool::new(true),
        }
    }
}

impl Remotes {
    /// Says whether this node's subscription to its channel stands.
    pub fn set_listening(&self, listening: bool) {
        self.listening.store(listening, Ordering::Release);
    }

    /// The subscription broke: whatever tables elsewhere sent meanwhile is lost. Every
    /// handle is forgotten and every connection here that followed a table elsewhere is
    /// closed as by a restarting server, so that its client reconnects and resumes from
    /// what it saw last instead of going on past a gap.
    pub fn lost_touch(&self) {
        self.set_listening(false);
        lock(&self.tables).clear();
        for (_, l) in lock(&self.local).drain() {
            l.out.close_with(CLOSE_RESTART, UNREACHABLE);
        }
    }

    /// Another node's lobby news says `node` serves `table` now: if this node's handle
    /// of it goes elsewhere (the table was taken over from a node that died or drained),
    /// the connections here that follow it are closed at once, to resume where it is
    /// served now, rather than when the old node is found gone.
    pub fn served_by(&self, table: &str, node: &str) {
        let old = lock(&self.tables).get(table).map(|(n, _)| n.clone());
        if let Some(old) = old.filter(|old| old != node) {
            self.unreachable(table, &old);
        }
    }

    /// `table`, served by `node`, cannot be reached (nobody listens for `node`, or Redis
    /// did not take the message): its handle is forgotten, so the next request looks the
    /// table up again, and the connections here that follow it are closed, to reconnect
    /// and resume.
    fn unreachable(&self, table: &str, node: &str) {
        {
            let mut tables = lock(&self.tables);
            if tables.get(table).is_some_and(|(n, _)| n == node) {
                tables.remove(table);
            }
        }
        lock(&self.local).retain(|_, l| {
            if l.tables.contains_key(table) {
                l.out.close_with(CLOSE_RESTART, UNREACHABLE);
                false
            } else {
                true
            }
        });
    }

    /// The handle of `table`, served by `node`: the one made before if it still goes to
    /// that node, else a new forwarder.
    pub fn handle(
        self: &Arc<Self>,
        bus: &Sender,
        here: &str,
        table: &str,
        node: &str,
        game: &str,
    ) -> TableHandle {
        let mut tables = lock(&self.tables);
        if let Some((n, h)) = tables.get(table) {
            if n == node {
                return h.clone();
            }
        }
        let (commands, inbox) = mpsc::channel(1024);
        let handle = TableHandle::new(table.to_string(), game.to_string(), commands);
        tables.insert(table.to_string(), (node.to_string(), handle.clone()));
        tokio::spawn(self.clone().forward(
            bus.clone(),
            here.to_string(),
            table.to_string(),
            node.to_string(),
            inbox,
        ));
        handle
    }

    /// The handle made before for `table`, if any.
    pub fn cached(&self, table: &str) -> Option<TableHandle> {
        lock(&self.tables).get(table).map(|(_, h)| h.clone())
    }

    /// The node asked has no table `table`: its handle is forgotten (the next request
    /// looks the table up again) and connection `conn` is told.
    pub fn missing(&self, table: &str, conn: ConnId) {
        lock(&self.tables).remove(table);
        let out = lock(&self.local).get(&conn).map(|l| l.out.clone());
        self.unfollows(conn, table);
        if let Some(out) = out {
            out.send(&crate::protocol::ServerMessage::error(
                crate::protocol::ErrorCode::NoTable,
                format!("there is no table {table}"),
                Some(table),
            ));
        }
    }

    /// The nodes whose tables this node's connections reach now.
    pub fn nodes(&self) -> HashSet<String> {
        lock(&self.tables)
            .values()
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// `node` is gone: its tables' handles are dropped, and every connection here that
    /// followed one of them is closed as by a restarting server, so that its client
    /// reconnects and resumes wherever the table is served next.
    pub fn node_gone(&self, node: &str) {
        lock(&self.tables).retain(|_, (n, _)| n != node);
        let mut local = lock(&self.local);
        local.retain(|_, l| {
            if l.tables.values().any(|n| n == node) {
                l.out
                    .close_with(CLOSE_RESTART, "the server of one of your tables went away");
                false
            } else {
                true
            }
        });
    }

    /// Connection `client` follows `table`, served by `node`.
    fn follows(&self, client: &Client, table: &str, node: &str) {
        let mut local = lock(&self.local);
        let entry = local.entry(client.conn).or_insert_with(|| Local {
            out: client.out.clone(),
            tables: HashMap::new(),
        });
        entry.tables.insert(table.to_string(), node.to_string());
    }

    /// Connection `conn` no longer follows `table`.
    fn unfollows(&self, conn: ConnId, table: &str) {
        let mut local = lock(&self.local);
        if let Some(l) = local.get_mut(&conn) {
            l.tables.remove(table);
            if l.tables.is_empty() {
                local.remove(&conn);
            }
        }
    }

    /// Frames a table elsewhere sent connection `conn`, written to its outbox in order
    /// (but chat from the names it mutes, [`Outbox::send_relayed`]).
    pub fn frames(&self, conn: ConnId, frames: Vec<String>) {
        let Some(out) = lock(&self.local).get(&conn).map(|l| l.out.clone()) else {
            return;
        };
        for frame in frames {
            if !out.send_relayed(frame.into()) {
                break;
            }
        }
    }

    /// The table's node closed connection `conn` (too slow to read).
    pub fn close(&self, conn: ConnId, code: u16, reason: &str) {
        if let Some(l) = lock(&self.local).remove(&conn) {
            l.out.close_with(code, reason);
        }
    }

    /// The answer to an [`Cmd::Unfollow`] sent over the bus.
    pub fn unfollowed(&self, ask: u64, let_go: bool) {
        let Some(Ask { done, conn, table }) = lock(&self.asks).remove(&ask) else {
            return;
        };
        if let_go {
            self.unfollows(conn, &table);
        }
        let _ = done.send(let_go);
    }

    /// The forwarder of one remote table: each command, in order, onto the bus.
    async fn forward(
        self: Arc<Self>,
        bus: Sender,
        here: String,
        table: TableId,
        node: String,
        mut inbox: mpsc::Receiver<Cmd>,
    ) {
        let caller = |from: &Client| Caller {
            node: here.clone(),
            conn: from.conn,
            user: from.user.clone(),
        };
        while let Some(cmd) = inbox.recv().await {
            let message = match cmd {
                Cmd::Request { from, request, .. } => {
                    self.follows(&from, &table, &node);
                    Bus::Request {
                        table: table.clone(),
                        from: caller(&from),
                        request,
                    }
                }
                Cmd::Sit {
                    from,
                    seat,
                    invite,
                    ready,
                } => {
                    self.follows(&from, &table, &node);
                    Bus::Sit {
                        table: table.clone(),
                        from: caller(&from),
                        seat,
                        invite,
                        ready,
                    }
                }
                Cmd::User { from } => {
                    self.follows(&from, &table, &node);
                    Bus::User {
                        table: table.clone(),
                        from: caller(&from),
                    }
                }
                Cmd::Gone { conn } => {
                    self.unfollows(conn, &table);
                    Bus::Gone {
                        table: table.clone(),
                        conn,
                    }
                }
                Cmd::Unfollow { conn, done } => {
                    let ask = self.next_ask.fetch_add(1, Ordering::Relaxed);
                    lock(&self.asks).insert(
                        ask,
                        Ask {
                            done,
                            conn,
                            table: table.clone(),
                        },
                    );
                    Bus::Unfollow {
                        table: table.clone(),
                        conn,
                        node: here.clone(),
                        ask,
                    }
                }
                // A table's own commands never reach a remote handle.
                Cmd::BotMoved { .. } | Cmd::Shutdown { .. } => continue,
            };
            let sent = self.listening.load(Ordering::Acquire) && bus.send(&node, &message).await;
            if !sent {
                if let Bus::Unfollow { ask, .. } = message {
                    // Unanswered: the connection lets go (as of a closed table).
                    lock(&self.asks).remove(&ask);
                }
                self.unreachable(&table, &node);
            }
        }
    }
}
