//! What every node hears: the lobby (every node's tables and the lobby chat), an
//! account's newest connection and a moderator's ban, so that the lobby, one live
//! connection per account and a ban hold across nodes as on one. (A ban's block of its
//! player's address is kept in Redis by the node the player was connected to,
//! [`super::shared`], so every node refuses new accounts from there.)
//!
//! A node that starts says [`News::Hello`]; every other node answers with its tables'
//! entries, so the new node's lobby lists them before their next change. Entries of a
//! node that is gone leave the lobby with it ([`super::Cluster`]'s presence).
//!
//! News goes on a channel every node listens to (`<prefix>:all`), each message naming
//! the node that sent it, which ignores its own.

use super::bus::Sender;
use super::Cluster;
use crate::hall::Hall;
use crate::lobby::Shared;
use crate::outbox::ConnId;
use crate::protocol::{ErrorCode, TableInfo};
use serde::{Deserialize, Serialize};

/// One piece of news, from `node`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum News {
    /// `node` started: every other node tells its tables again.
    Hello {
        /// The node.
        node: String,
    },
    /// A table `node` serves opened, changed or closed.
    Table {
        /// The node.
        node: String,
        /// The table as the lobby shows it.
        info: Box<TableInfo>,
    },
    /// Someone on `node` spoke in the lobby.
    Chat {
        /// The node.
        node: String,
        /// Who.
        from: String,
        /// What.
        text: String,
    },
    /// Account `user` is now online on connection `conn` of `node`: an older connection
    /// of it on another node is told and closed, as one on the same node is. Older is
    /// told by `login`, the login's number ([`super::shared::Shared::login`]): news that
    /// arrives late never closes a connection logged in after the one it tells of.
    Online {
        /// The node.
        node: String,
        /// The account.
        user: i64,
        /// Its new connection.
        conn: ConnId,
        /// The login's number; none when Redis did not number it (then any connection of
        /// the account elsewhere is the older).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        login: Option<u64>,
    },
    /// A moderator on `node` banned account `user`: its live connection, wherever it is,
    /// is told `told` and closed, and its address blocked from new accounts.
    Banned {
        /// The node.
        node: String,
        /// The account.
        user: i64,
        /// The moderator's reason.
        reason: String,
        /// What its connection is told.
        told: String,
    },
}

/// The channel every node listens to.
pub fn channel(prefix: &str) -> String {
    format!("{prefix}:all")
}

/// Sends `news` to every node.
pub async fn tell(bus: &Sender, news: &News) {
    bus.publish_to(&channel(bus.prefix()), news).await;
}

/// Tells every node what this node's lobby is told, in order, as long as the lobby
/// lives.
pub async fn share_lobby(
    bus: Sender,
    node: String,
    mut told: tokio::sync::mpsc::UnboundedReceiver<Shared>,
) {
    while let Some(shared) = told.recv().await {
        let news = match shared {
            Shared::Table(info) => News::Table {
                node: node.clone(),
                info,
            },
            Shared::Chat { from, text } => News::Chat {
                node: node.clone(),
                from,
                text,
            },
        };
        tell(&bus, &news).await;
    }
}

/// Every table this node serves, to the lobby of every node.
pub async fn tell_tables(hall: &Hall, bus: &Sender) {
    for table in hall.tables_here() {
        if let Some(info) = hall.lobby.get(&table.id) {
            let news = News::Table {
                node: hall.node.clone(),
                info: Box::new(info),
            };
            tell(bus, &news).await;
        }
    }
}

/// News from another node, carried out here.
pub fn heard(hall: &std::sync::Arc<Hall>, cluster: &Cluster, news: News) {
    let here = cluster.node.as_str();
    match news {
        News::Hello { node } if node != here => {
            let (hall, bus) = (hall.clone(), cluster.bus.clone());
            tokio::spawn(async move { tell_tables(&hall, &bus).await });
        }
        News::Table { node, info } if node != here => {
            cluster.listed(&node, &info);
            hall.lobby.heard(*info);
        }
        News::Chat { node, from, text } if node != here => hall.lobby.heard_chat(&from, &text),
        News::Online {
            node, user, login, ..
        } if node != here => hall.online_elsewhere(user, login),
        News::Banned {
            node,
            user,
            reason,
            told,
        } if node != here => {
            if let Some(address) = hall.disconnect(user, ErrorCode::Banned, &told) {
                let hall = hall.clone();
                tokio::spawn(async move {
                    hall.accounts.block_address(&address, user, &reason).await;
                });
            }
        }
        News::Hello { .. }
        | News::Table { .. }
        | News::Chat { .. }
        | News::Online { .. }
        | News::Banned { .. } => {}
    }
}
