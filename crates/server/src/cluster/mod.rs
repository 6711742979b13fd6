//! Several nodes, one hall: `qipai serve --redis` joins this process to the other
//! `qipai serve` processes on the same PostgreSQL database, through Redis.
//!
//! Without Redis nothing here runs and a hall is one process, as it always was. With it:
//!
//! * [`bus`]: each node listens on a channel of its own and publishes on one connection,
//!   so what one node sends another arrives in order;
//! * [`directory`]: which node serves each table, written by that node for as long as
//!   the table's lease and refreshed with it;
//! * presence: each node keeps `<prefix>:alive:<node>` (holding its run, drawn at its
//!   start) alive every second for a few seconds; a node whose key ran out is gone, and the others drop what stood for its
//!   connections and close the connections that followed its tables (they reconnect and
//!   resume, as after a restart);
//! * [`remote`]: a connection here following a table served elsewhere: its commands go
//!   over the bus, the table's frames come back over it;
//! * [`proxy`]: a connection elsewhere following a table served here: a client whose
//!   outbox drains onto the bus;
//! * [`news`]: what every node hears — an account's newest connection, a ban;
//! * [`shared`]: the limits the nodes keep together (connections and new accounts per
//!   address, failed logins, wrong invite codes, the addresses a ban blocks).
//!
//! Every key and channel starts with the configured prefix (`--redis-prefix`), so halls
//! (and tests) sharing one Redis never see each other.

pub mod bus;
pub mod directory;
pub mod news;
mod proxy;
mod remote;
pub mod shared;

use crate::hall::Hall;
use crate::protocol::TableId;
use crate::table::{Cmd, TableHandle};
use bus::{Bus, Caller, Sender};
use directory::Directory;
use futures_util::StreamExt;
use proxy::Proxies;
use redis::AsyncCommands;
use remote::Remotes;
use shared::Shared;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::task::JoinHandle;

/// How this node reaches the others (`qipai serve --redis URL --redis-prefix P`).
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterConfig {
    /// The Redis server (`redis://host:port`, `redis://:password@host:port/db`).
    pub redis: String,
    /// What every key and channel of this hall starts with.
    pub prefix: String,
}

/// The prefix of a hall that names none.
pub const DEFAULT_PREFIX: &str = "qipai";

/// How often a node says it is alive.
const HEARTBEAT: Duration = Duration::from_secs(1);

/// How long a node's word that it is alive lasts: a node silent this long is gone.
const ALIVE_FOR: Duration = Duration::from_secs(5);

/// The longest wait before subscribing again after the subscription broke: short, since
/// connections to tables elsewhere are refused until then.
const LONGEST_RESUBSCRIBE: Duration = Duration::from_secs(1);

/// Why this node could not join the others.
#[derive(Debug, thiserror::Error)]
pub enum ClusterError {
    /// Redis refused or could not be reached.
    #[error("cannot reach Redis at {address}: {error}")]
    Redis {
        /// The address, without its password.
        address: String,
        /// Why.
        error: redis::RedisError,
    },
}

/// This node's part in a hall of several nodes.
pub struct Cluster {
    node: String,
    /// This run of the node: drawn when it joins, and what its presence key holds, so
    /// that what a run counted in [`shared`] leaves the counts when it is gone.
    run: String,
    prefix: String,
    shared: Arc<Shared>,
    bus: Sender,
    redis: redis::aio::ConnectionManager,
    directory: Directory,
    remotes: Arc<Remotes>,
    proxies: Arc<Proxies>,
    /// The tables other nodes listed in this node's lobby, and the node of each.
    listed: Mutex<std::collections::HashMap<TableId, String>>,
    /// From when the presence keys in Redis are to be believed: [`ALIVE_FOR`] after
    /// Redis came back (a Redis that restarted keeps no keys, and each node needs a
    /// heartbeat to say again that it is alive), so that no node is taken for gone then.
    trusted_from: Mutex<Instant>,
    tasks: Mutex<Vec<JoinHandle<()>>>,
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// An address fit to print: without its password.
fn without_password(url: &str) -> String {
    match (url.split_once("://"), url.rfind('@')) {
        (Some((scheme, _)), Some(at)) => format!("{scheme}://…@{}", &url[at + 1..]),
        _ => url.to_string(),
    }
}

impl Cluster {
    /// Joins `hall` to the other nodes through the Redis of `config`: connects, subscribes
    /// to this node's channel, and starts saying it is alive, writing its tables in the
    /// directory and watching the nodes it deals with.
    pub async fn join(
        hall: &Arc<Hall>,
        config: &ClusterConfig,
    ) -> Result<Arc<Cluster>, ClusterError> {
        let failed = |error| ClusterError::Redis {
            address: without_password(&config.redis),
            error,
        };
        let client = redis::Client::open(config.redis.as_str()).map_err(failed)?;
        let redis = client.get_connection_manager().await.map_err(failed)?;
        let channel = bus::channel(&config.prefix, &hall.node);
        let mut pubsub = client.get_async_pubsub().await.map_err(failed)?;
        pubsub
            .subscribe(&[channel.as_str(), news::channel(&config.prefix).as_str()])
            .await
            .map_err(failed)?;
        let run = crate::ids::random_id("", 12).unwrap_or_else(|_| std::process::id().to_string());
        let shared = Arc::new(Shared::new(&config.prefix, &hall.node, &run, redis.clone()));
        hall.share_limits(shared.clone());
        let cluster = Arc::new(Cluster {
            node: hall.node.clone(),
            run,
            prefix: config.prefix.clone(),
            shared,
            bus: Sender::new(&config.prefix, redis.clone()),
            directory: Directory::new(
                &config.prefix,
                &hall.node,
                hall.config.timing.lease_ttl,
                redis.clone(),
            ),
            redis,
            remotes: Arc::default(),
            proxies: Arc::default(),
            listed: Mutex::default(),
            trusted_from: Mutex::new(Instant::now() + ALIVE_FOR),
            tasks: Mutex::new(Vec::new()),
        });
        cluster.alive().await;
        let listen = tokio::spawn(listen(hall.clone(), cluster.clone(), client, pubsub));
        let keep = tokio::spawn(keep_up(hall.clone(), cluster.clone()));
        let mut tasks = vec![listen, keep];
        if let Some(told) = hall.lobby.tap() {
            tasks.push(tokio::spawn(news::share_lobby(
                cluster.bus.clone(),
                cluster.node.clone(),
                told,
            )));
        }
        if let Ok(mut t) = cluster.tasks.lock() {
            t.extend(tasks);
        }
        let hello = news::News::Hello {
            node: cluster.node.clone(),
        };
        news::tell(&cluster.bus, &hello).await;
        tracing::info!(node = %hall.node, prefix = %config.prefix, redis = %without_password(&config.redis), "joined the hall's other nodes through Redis");
        Ok(cluster)
    }

    /// Leaves the others: stops listening, and takes back the word that this node is
    /// alive, so the others let go of its connections at once.
    pub async fn leave(&self) {
        if let Ok(mut tasks) = self.tasks.lock() {
            for t in tasks.drain(..) {
                t.abort();
            }
        }
        let mut redis = self.redis.clone();
        let _: Result<i64, _> = redis.del(self.alive_key(&self.node)).await;
    }

    fn alive_key(&self, node: &str) -> String {
        format!("{}:alive:{node}", self.prefix)
    }

    /// The limits this node keeps with the others.
    pub fn shared(&self) -> &Shared {
        &self.shared
    }

    /// Says this node is alive for [`ALIVE_FOR`], naming this run of it (a restarted
    /// node's counts in the shared limits drop out). When Redis does not answer, or no
    /// longer had the word said a heartbeat ago (it restarted and kept nothing), the
    /// presence of the others is not believed for [`ALIVE_FOR`].
    async fn alive(&self) {
        let mut redis = self.redis.clone();
        let ms = u64::try_from(ALIVE_FOR.as_millis()).unwrap_or(u64::MAX);
        let key = self.alive_key(&self.node);
        let said: Result<(bool, ()), _> = redis::pipe()
            .exists(&key)
            .pset_ex(&key, &self.run, ms)
            .query_async(&mut redis)
            .await;
        match said {
            Ok((true, ())) => {}
            Ok((false, ())) => self.distrust_presence(),
            Err(e) => {
                tracing::warn!(error = %e, "cannot tell the other nodes this one is alive");
                self.distrust_presence();
            }
        }
    }

    /// Takes no node for gone until [`ALIVE_FOR`] from now.
    fn distrust_presence(&self) {
        *lock(&self.trusted_from) = Instant::now() + ALIVE_FOR;
    }

    /// This node's subscription broke: what other nodes sent it meanwhile is lost, and
    /// what it sends them may go unanswered. Every connection here following a table
    /// elsewhere, and every connection elsewhere following a table here, is closed to
    /// reconnect and resume (see [`bus`]); the tables here are told theirs are gone.
    async fn lost_touch(&self, hall: &Arc<Hall>) {
        self.distrust_presence();
        self.remotes.lost_touch();
        for (conn, tables) in self.proxies.lost_touch() {
            for t in tables {
                if let Some(h) = hall.table(&t) {
                    h.send(Cmd::Gone { conn }).await;
                }
            }
        }
    }

    /// This node listens again after its subscription broke: it tells the others so,
    /// and its tables, as a node that starts does, so that every lobby catches up with
    /// what it missed; and it writes its tables in the directory again (a Redis that
    /// restarted lost them).
    async fn back_in_touch(&self, hall: &Arc<Hall>) {
        self.remotes.set_listening(true);
        let here: Vec<(TableId, String)> = hall
            .tables_here()
            .into_iter()
            .map(|h| (h.id.clone(), h.game.clone()))
            .collect();
        self.directory.refresh(&here).await;
        let hello = news::News::Hello {
            node: self.node.clone(),
        };
        news::tell(&self.bus, &hello).await;
        news::tell_tables(hall, &self.bus).await;
    }

    /// Whether `node` said lately that it is alive; `None` when Redis did not answer (then
    /// nothing is dropped on its account).
    async fn is_alive(&self, node: &str) -> Option<bool> {
        let mut redis = self.redis.clone();
        redis.exists(self.alive_key(node)).await.ok()
    }

    /// Whether another node serves table `id` now (the directory names it, and it is
    /// alive): a node that starts leaves such a table to it instead of restoring it.
    pub async fn serves_elsewhere(&self, id: &str) -> bool {
        match self.directory.owner(id).await {
            Some(entry) if entry.node != self.node => {
                self.is_alive(&entry.node).await != Some(false)
            }
            _ => false,
        }
    }

    /// A handle of table `id` served by another node: the one the directory names, or,
    /// when the directory does not know the table (Redis restarted, or did not answer),
    /// the node holding its lease in the store.
    async fn remote_table(&self, store: &dyn crate::store::Store, id: &str) -> Option<TableHandle> {
        if let Some(h) = self.remotes.cached(id) {
            return Some(h);
        }
        let entry = match self.directory.owner(id).await {
            Some(entry) => entry,
            None => match store.serving(id, crate::store::unix_millis()).await {
                Ok(Some(s)) => directory::Entry {
                    node: s.node,
                    game: s.game,
                },
                Ok(None) => return None,
                Err(e) => {
                    tracing::warn!(table = %id, error = %e, "cannot read which node serves the table");
                    return None;
                }
            },
        };
        if entry.node == self.node {
            return None;
        }
        Some(
            self.remotes
                .handle(&self.bus, &self.node, id, &entry.node, &entry.game),
        )
    }

    /// A bus message for this node.
    async fn receive(&self, hall: &Arc<Hall>, message: Bus) {
        match message {
            Bus::Request {
                table,
                from,
                request,
            } => {
                let cmd = |client| Cmd::Request {
                    from: client,
                    request,
                    at: Instant::now(),
                };
                self.to_table(hall, &table, &from, cmd).await;
            }
            Bus::Sit {
                table,
                from,
                seat,
                invite,
                ready,
            } => {
                let cmd = |client| Cmd::Sit {
                    from: client,
                    seat,
                    invite,
                    ready,
                };
                self.to_table(hall, &table, &from, cmd).await;
            }
            Bus::User { table, from } => {
                self.to_table(hall, &table, &from, |client| Cmd::User { from: client })
                    .await;
            }
            Bus::Gone { table, conn } => {
                self.proxies.gone(conn, &table);
                if let Some(h) = hall.table(&table) {
                    h.send(Cmd::Gone { conn }).await;
                }
            }
            Bus::Unfollow {
                table,
                conn,
                node,
                ask,
            } => {
                let (done, answer) = tokio::sync::oneshot::channel();
                let asked = match hall.table(&table) {
                    Some(h) => h.send(Cmd::Unfollow { conn, done }).await,
                    None => false,
                };
                let bus = self.bus.clone();
                let proxies = self.proxies.clone();
                // The answer is awaited off the bus's one task, which serves every table.
                tokio::spawn(async move {
                    let let_go = !asked || answer.await.unwrap_or(true);
                    if let_go {
                        proxies.gone(conn, &table);
                    }
                    bus.send(&node, &Bus::Unfollowed { ask, let_go }).await;
                });
            }
            Bus::Missing { table, conn } => self.remotes.missing(&table, conn),
            Bus::Unfollowed { ask, let_go } => self.remotes.unfollowed(ask, let_go),
            Bus::Frames { conn, frames } => self.remotes.frames(conn, frames),
            Bus::Close { conn, code, reason } => self.remotes.close(conn, code, &reason),
        }
    }

    /// Hands a remote caller's command to table `table` here, through its proxy; a table
    /// that is not here is answered [`Bus::Missing`].
    async fn to_table(
        &self,
        hall: &Arc<Hall>,
        table: &str,
        from: &Caller,
        cmd: impl FnOnce(crate::table::Client) -> Cmd,
    ) {
        let handle = hall.table(table);
        let sent = match handle {
            Some(h) => {
                let client = self.proxies.client(hall, &self.bus, from, table);
                h.send(cmd(client)).await
            }
            None => false,
        };
        if !sent {
            self.proxies.gone(from.conn, table);
            let missing = Bus::Missing {
                table: table.to_string(),
                conn: from.conn,
            };
            self.bus.send(&from.node, &missing).await;
        }
    }

    /// Every [`HEARTBEAT`]: says this node is alive; every lease renewal, writes its
    /// tables in the directory; and drops what stands for the nodes that went away.
    async fn keep_up_once(&self, hall: &Arc<Hall>, written: &mut HashSet<TableId>, refresh: bool) {
        self.alive().await;
        if refresh {
            let here: Vec<(TableId, String)> = hall
                .tables_here()
                .into_iter()
                .map(|h| (h.id.clone(), h.game.clone()))
                .collect();
            if self.directory.refresh(&here).await {
                let now: HashSet<TableId> = here.into_iter().map(|(id, _)| id).collect();
                for closed in written.difference(&now) {
                    self.directory.forget(closed).await;
                }
                *written = now;
            }
        }
        if Instant::now() < *lock(&self.trusted_from) {
            return;
        }
        let mut nodes = self.proxies.nodes();
        nodes.extend(self.remotes.nodes());
        nodes.extend(lock(&self.listed).values().cloned());
        nodes.remove(&self.node);
        for node in nodes {
            if self.is_alive(&node).await == Some(false) {
                tracing::warn!(gone = %node, "another node is gone; dropping what stood for its connections and tables");
                self.remotes.node_gone(&node);
                self.unlist(hall, &node);
                for (conn, tables) in self.proxies.node_gone(&node) {
                    for t in tables {
                        if let Some(h) = hall.table(&t) {
                            h.send(Cmd::Gone { conn }).await;
                        }
                    }
                }
            }
        }
    }

    /// Notes that `node` listed `info` in this node's lobby (or took it out); a table
    /// listed by another node than the one this node reaches it on has moved.
    fn listed(&self, node: &str, info: &crate::protocol::TableInfo) {
        if info.status == "closed" {
            lock(&self.listed).remove(&info.id);
        } else {
            lock(&self.listed).insert(info.id.clone(), node.to_string());
            self.remotes.served_by(&info.id, node);
        }
    }

    /// Takes the tables `node` listed out of this node's lobby (it is gone).
    fn unlist(&self, hall: &Hall, node: &str) {
        let mut gone = Vec::new();
        lock(&self.listed).retain(|table, n| {
            if n == node {
                gone.push(table.clone());
            }
            n != node
        });
        for table in gone {
            if let Some(mut info) = hall.lobby.get(&table) {
                info.status = "closed".into();
                hall.lobby.heard(info);
            }
        }
    }

    /// Tells every node that account `user` is now online on connection `conn` here, its
    /// login numbered `login` ([`Shared::login`]; `None` when Redis did not number it), so
    /// that an older connection of it on another node closes.
    pub fn online(&self, user: i64, conn: crate::outbox::ConnId, login: Option<u64>) {
        let news = news::News::Online {
            node: self.node.clone(),
            user,
            conn,
            login,
        };
        let bus = self.bus.clone();
        tokio::spawn(async move { news::tell(&bus, &news).await });
    }

    /// Tells every node that a moderator here banned account `user`: its connection,
    /// wherever it is, hears `told` and closes.
    pub async fn banned(&self, user: i64, reason: &str, told: &str) {
        let news = news::News::Banned {
            node: self.node.clone(),
            user,
            reason: reason.to_string(),
            told: told.to_string(),
        };
        news::tell(&self.bus, &news).await;
    }

    /// Writes table `id` of `game`, just claimed here, in the directory at once, so a
    /// player connected elsewhere finds it before the next refresh.
    pub async fn claimed(&self, id: &str, game: &str) {
        self.directory
            .refresh(&[(id.to_string(), game.to_string())])
            .await;
    }
}

/// The task that keeps this node known: [`Cluster::keep_up_once`] every [`HEARTBEAT`].
async fn keep_up(hall: Arc<Hall>, cluster: Arc<Cluster>) {
    let mut every = tokio::time::interval(HEARTBEAT);
    let renew = hall.config.timing.lease_renew.max(HEARTBEAT);
    let mut refresh_at = Instant::now();
    let mut written = HashSet::new();
    loop {
        every.tick().await;
        let refresh = Instant::now() >= refresh_at;
        if refresh {
            refresh_at = Instant::now() + renew;
        }
        cluster.keep_up_once(&hall, &mut written, refresh).await;
    }
}

/// The task that reads this node's channel, one message after the other, and subscribes
/// again when the subscription breaks (what was sent meanwhile is lost: the connections
/// that cross nodes are closed, and their clients reconnect and resume).
async fn listen(
    hall: Arc<Hall>,
    cluster: Arc<Cluster>,
    client: redis::Client,
    first: redis::aio::PubSub,
) {
    let channel = bus::channel(&cluster.prefix, &cluster.node);
    let everyone = news::channel(&cluster.prefix);
    let mut pubsub = Some(first);
    let mut wait = Duration::from_millis(100);
    loop {
        let Some(mut subscribed) = pubsub.take() else {
            tokio::time::sleep(wait).await;
            wait = (wait * 2).min(LONGEST_RESUBSCRIBE);
            match client.get_async_pubsub().await {
                Ok(mut p) => match p.subscribe(&[channel.as_str(), everyone.as_str()]).await {
                    Ok(()) => {
                        tracing::info!("listening to the other nodes again");
                        cluster.back_in_touch(&hall).await;
                        pubsub = Some(p);
                    }
                    Err(e) => tracing::warn!(error = %e, "cannot listen to the other nodes yet"),
                },
                Err(e) => tracing::warn!(error = %e, "cannot listen to the other nodes yet"),
            }
            continue;
        };
        wait = Duration::from_millis(100);
        let mut messages = subscribed.on_message();
        while let Some(m) = messages.next().await {
            if m.get_channel_name() == everyone {
                match serde_json::from_slice::<news::News>(m.get_payload_bytes()) {
                    Ok(n) => news::heard(&hall, &cluster, n),
                    Err(e) => tracing::warn!(error = %e, "unreadable news from another node"),
                }
                continue;
            }
            match serde_json::from_slice::<Bus>(m.get_payload_bytes()) {
                Ok(message) => cluster.receive(&hall, message).await,
                Err(e) => tracing::warn!(error = %e, "an unreadable message from another node"),
            }
        }
        tracing::warn!("the subscription to the other nodes broke; closing the connections that cross nodes, subscribing again");
        cluster.lost_touch(&hall).await;
    }
}

impl Hall {
    /// An open table, served here or by another node of the hall: a handle either way.
    pub async fn find_table(&self, id: &str) -> Option<TableHandle> {
        if let Some(h) = self.table(id) {
            return Some(h);
        }
        self.cluster
            .get()?
            .remote_table(self.store.as_ref(), id)
            .await
    }
}
