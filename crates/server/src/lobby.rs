//! The lobby: the directory of public tables, live, and the lobby chat.
//!
//! Tables report every change of who sits where; watchers get a snapshot, then each change
//! as it happens (through a broadcast channel, so a slow watcher lags instead of holding up
//! the tables: it is dropped and can reconnect).
//!
//! In a hall of several nodes each node's lobby lists every node's tables: what its own
//! tables and players tell it is also handed to [`crate::cluster`] ([`Lobby::tap`]),
//! which tells the other nodes, and what they tell it comes in through [`Lobby::heard`]
//! and [`Lobby::heard_chat`].

use crate::outbox::Outbox;
use crate::protocol::{ServerMessage, TableId, TableInfo};
use std::collections::BTreeMap;
use std::sync::{Arc, OnceLock, RwLock};
use tokio::sync::{broadcast, mpsc};

/// What the lobby tells its watchers.
#[derive(Debug, Clone)]
pub enum LobbyEvent {
    /// A public table opened or changed.
    Table(Arc<TableInfo>),
    /// A table closed or left the directory.
    Closed(TableId, String),
    /// Someone spoke in the lobby.
    Chat {
        /// Who.
        from: String,
        /// What.
        text: String,
    },
}

/// What this node's lobby was told by its own tables and players, for the other nodes.
#[derive(Debug, Clone)]
pub enum Shared {
    /// A table here opened, changed or closed.
    Table(Box<TableInfo>),
    /// Someone here spoke in the lobby.
    Chat {
        /// Who.
        from: String,
        /// What.
        text: String,
    },
}

/// The lobby.
pub struct Lobby {
    /// Where what this node's lobby is told goes too, once a hall of several nodes taps it.
    tap: OnceLock<mpsc::UnboundedSender<Shared>>,
    /// Every open table, private ones too (only public ones are listed).
    tables: RwLock<BTreeMap<TableId, Arc<TableInfo>>>,
    events: broadcast::Sender<LobbyEvent>,
}

impl Default for Lobby {
    fn default() -> Self {
        Lobby::new()
    }
}

impl Lobby {
    /// An empty lobby.
    pub fn new() -> Lobby {
        Lobby {
            tap: OnceLock::new(),
            tables: RwLock::new(BTreeMap::new()),
            events: broadcast::channel(4096).0,
        }
    }

    /// From now on, everything this node's tables and players tell the lobby comes out of
    /// the receiver too (for the other nodes); `None` if it was tapped before.
    pub fn tap(&self) -> Option<mpsc::UnboundedReceiver<Shared>> {
        let (sender, receiver) = mpsc::unbounded_channel();
        self.tap.set(sender).ok()?;
        Some(receiver)
    }

    /// A table here changed (or closed): watchers hear of public tables.
    pub fn update(&self, info: TableInfo) {
        if let Some(tap) = self.tap.get() {
            let _ = tap.send(Shared::Table(Box::new(info.clone())));
        }
        self.heard(info);
    }

    /// A table changed (or closed), here or on another node.
    pub fn heard(&self, info: TableInfo) {
        let mut tables = self.tables.write().unwrap_or_else(|p| p.into_inner());
        if info.status == "closed" {
            if tables.remove(&info.id).is_some() && !info.options.private {
                let _ = self.events.send(LobbyEvent::Closed(info.id, info.game));
            }
            return;
        }
        let info = Arc::new(info);
        tables.insert(info.id.clone(), info.clone());
        if !info.options.private {
            let _ = self.events.send(LobbyEvent::Table(info));
        }
    }

    /// The open tables (private ones too) where the account `user` holds a seat.
    pub fn seated(&self, user: i64) -> Vec<TableId> {
        self.tables
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .filter(|t| {
                t.seats
                    .iter()
                    .any(|s| s.user.as_ref().is_some_and(|u| u.id == user))
            })
            .map(|t| t.id.clone())
            .collect()
    }

    /// One table's entry, private or not.
    pub fn get(&self, table: &str) -> Option<TableInfo> {
        self.tables
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .get(table)
            .map(|t| (**t).clone())
    }

    /// Lobby chat from a player here.
    pub fn chat(&self, from: &str, text: &str) {
        if let Some(tap) = self.tap.get() {
            let _ = tap.send(Shared::Chat {
                from: from.into(),
                text: text.into(),
            });
        }
        self.heard_chat(from, text);
    }

    /// Lobby chat, from here or another node.
    pub fn heard_chat(&self, from: &str, text: &str) {
        let _ = self.events.send(LobbyEvent::Chat {
            from: from.into(),
            text: text.into(),
        });
    }

    /// The listed (public) tables of `game` (or all).
    pub fn snapshot(&self, game: Option<&str>) -> Vec<TableInfo> {
        self.tables
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .values()
            .filter(|t| !t.options.private && game.is_none_or(|g| t.game == g))
            .map(|t| (**t).clone())
            .collect()
    }

    /// Sends the snapshot to `out`, then forwards every change until the returned task is
    /// aborted or the connection goes.
    pub fn watch(&self, game: Option<String>, out: Outbox) -> tokio::task::JoinHandle<()> {
        let mut events = self.events.subscribe();
        out.send(&ServerMessage::Lobby {
            tables: self.snapshot(game.as_deref()),
        });
        tokio::spawn(async move {
            loop {
                let message = match events.recv().await {
                    Ok(LobbyEvent::Table(t)) if game.as_ref().is_none_or(|g| *g == t.game) => {
                        ServerMessage::LobbyTable {
                            table: (*t).clone(),
                        }
                    }
                    Ok(LobbyEvent::Closed(id, g)) if game.as_ref().is_none_or(|x| *x == g) => {
                        ServerMessage::LobbyClosed { table: id }
                    }
                    Ok(LobbyEvent::Chat { from, text }) if !out.mutes(&from) => {
                        ServerMessage::Chat {
                            table: None,
                            seq: None,
                            from,
                            text,
                        }
                    }
                    Ok(_) => continue,
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        out.close("too slow for the lobby; reconnect");
                        return;
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                };
                if !out.send(&message) {
                    return;
                }
            }
        })
    }
}
