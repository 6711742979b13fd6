//! The hall: what every connection and table shares — the games, the store, accounts, the
//! lobby, the open tables, who is online, the bot pool and the metrics.

use crate::accounts::Accounts;
use crate::bots::BotPool;
use crate::config::ServerConfig;
use crate::ids::random_id;
use crate::lobby::Lobby;
use crate::metrics::Metrics;
use crate::moderation::Moderators;
use crate::outbox::Outbox;
use crate::protocol::ErrorCode;
use crate::protocol::TableRequest;
use crate::protocol::{GameInfo, TableOptions, UserInfo};
use crate::ratelimit::{address_key, Bucket, PerAddress};
use crate::store::{unix_millis, Claim, Lease, Store, StoredSeat, StoredTable};
use crate::table::{self, TableHandle};
use game::{ErasedGame, Registry};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;
use tokio::task::JoinHandle;

pub use crate::refusal::Refusal;

/// What every connection and table shares.
pub struct Hall {
    /// The games.
    pub registry: Registry,
    /// The database.
    pub store: Arc<dyn Store>,
    /// How the server runs.
    pub config: ServerConfig,
    /// Accounts and sessions.
    pub accounts: Accounts,
    /// The lobby.
    pub lobby: Lobby,
    /// The metrics.
    pub metrics: Arc<Metrics>,
    /// Where computers think.
    pub bots: BotPool,
    /// What each address may still ask of the HTTP API
    /// ([`Limits::api_requests_per_second`]).
    ///
    /// [`Limits::api_requests_per_second`]: crate::config::Limits::api_requests_per_second
    pub api_requests: PerAddress,
    /// The accounts the host's moderators are ([`Moderators`]).
    pub moderators: Moderators,
    /// This process's node id, which its tables' leases name
    /// ([`ServerConfig::node_id`]; [`crate::Server::bind`] fills it in with this host's
    /// name and port when none is given).
    pub node: String,
    /// This node's part in a hall of several nodes, once joined (`qipai serve --redis`);
    /// empty for a hall of one.
    pub cluster: std::sync::OnceLock<Arc<crate::cluster::Cluster>>,
    tables: Mutex<HashMap<String, (TableHandle, JoinHandle<()>)>>,
    /// Set when the hall stops its tables ([`Hall::shutdown`]): no table opens after.
    closing: AtomicBool,
    /// Set when a draining node got its signal ([`Hall::start_draining`]).
    draining: AtomicBool,
    /// The invite code of each open private table, to count wrong ones per address before
    /// a request reaches its table ([`Hall::check_invite`]).
    invites: crate::invites::Invites,
    /// Each account's live connection, and the address (its key for limits) it is at.
    online: crate::online::Online,
    chat: Mutex<HashMap<i64, Bucket>>,
    messages: Mutex<HashMap<i64, Bucket>>,
    /// Set once the server stops: every connection then closes with
    /// [`crate::outbox::CLOSE_RESTART`].
    stopping: watch::Sender<bool>,
    /// Connections still being served (see [`Hall::connection`]).
    live: watch::Sender<usize>,
    /// Connections open per client address, for [`Limits::connections_per_address`].
    ///
    /// [`Limits::connections_per_address`]: crate::config::Limits::connections_per_address
    by_address: Mutex<HashMap<IpAddr, usize>>,
}

/// One connection being served, counted until it is dropped, so that a stopping server
/// can wait for every client to have been told why it goes, and so that one address holds
/// at most its share of connections (in the hall: `shared` when the other nodes count it
/// too, [`crate::cluster::shared`]).
pub struct LiveConnection {
    hall: Arc<Hall>,
    address: IpAddr,
    shared: bool,
}

impl Drop for LiveConnection {
    fn drop(&mut self) {
        self.hall.live.send_modify(|n| *n = n.saturating_sub(1));
        self.hall.metrics.connections.dec();
        {
            let mut by_address = lock(&self.hall.by_address);
            if let Some(n) = by_address.get_mut(&self.address) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    by_address.remove(&self.address);
                }
            }
        }
        if let (true, Some(cluster)) = (self.shared, self.hall.cluster.get().cloned()) {
            let address = self.address.to_string();
            tokio::spawn(async move {
                if let Err(e) = cluster.shared().disconnect(&address).await {
                    cluster.shared().unreachable("connections_per_address", &e);
                }
            });
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

impl Hall {
    /// A hall over `store`, with no tables yet (see [`Hall::restore`]).
    pub fn new(
        registry: Registry,
        store: Arc<dyn Store>,
        config: ServerConfig,
        metrics: Arc<Metrics>,
    ) -> Arc<Hall> {
        let node = config
            .node_id
            .clone()
            .unwrap_or_else(|| format!("n{}", std::process::id()));
        tracing::info!(node = %node, "this hall's node id, which its tables' leases name");
        Arc::new(Hall {
            node,
            cluster: std::sync::OnceLock::new(),
            accounts: Accounts::new(
                store.clone(),
                config.timing.session,
                &config.limits,
                std::thread::available_parallelism().map_or(2, usize::from),
            ),
            bots: BotPool::new(config.bot_threads, metrics.clone()),
            api_requests: PerAddress::new(
                config.limits.api_requests_per_second,
                config.limits.api_burst,
            ),
            moderators: Moderators::new(&config.moderators),
            registry,
            store,
            config,
            lobby: Lobby::new(),
            metrics,
            tables: Mutex::new(HashMap::new()),
            closing: AtomicBool::new(false),
            draining: AtomicBool::new(false),
            invites: crate::invites::Invites::default(),
            online: crate::online::Online::default(),
            chat: Mutex::new(HashMap::new()),
            messages: Mutex::new(HashMap::new()),
            stopping: watch::Sender::new(false),
            live: watch::Sender::new(0),
            by_address: Mutex::new(HashMap::new()),
        })
    }

    /// From now on, counts what a stranger could multiply by spreading over the nodes
    /// (failed logins, new accounts, wrong invite codes, API requests; connections,
    /// through [`Hall::cluster`]) with the other nodes of the hall, through `shared`.
    pub(crate) fn share_limits(&self, shared: Arc<crate::cluster::shared::Shared>) {
        self.accounts.share(shared.clone());
        self.api_requests.share(shared.clone());
        self.invites.share(shared);
    }

    /// Counts a connection from `address` as served until the guard is dropped; `None`
    /// when that address (counted by [`address_key`]: an IPv6 client by its /64) already
    /// has [`Limits::connections_per_address`] open, in a hall of several nodes on all of
    /// them together (on this node alone, logged, while Redis does not answer).
    ///
    /// [`Limits::connections_per_address`]: crate::config::Limits::connections_per_address
    pub async fn connection(self: &Arc<Self>, address: IpAddr) -> Option<LiveConnection> {
        let address = address_key(address);
        let limit = self.config.limits.connections_per_address;
        {
            let mut by_address = lock(&self.by_address);
            let open = by_address.entry(address).or_insert(0);
            if limit > 0 && *open >= limit {
                return None;
            }
            *open += 1;
        }
        self.live.send_modify(|n| *n += 1);
        self.metrics.connections.inc();
        let mut live = LiveConnection {
            hall: self.clone(),
            address,
            shared: false,
        };
        if let (Some(cluster), true) = (self.cluster.get(), limit > 0) {
            match cluster.shared().connect(&address.to_string(), limit).await {
                Ok(true) => live.shared = true,
                Ok(false) => return None,
                Err(e) => cluster.shared().unreachable("connections_per_address", &e),
            }
        }
        Some(live)
    }

    /// A draining node got its signal ([`crate::Server::run`]): from now on `/healthz`
    /// answers 503 and new WebSockets are refused, so a reverse proxy sends new
    /// connections to the other nodes.
    pub fn start_draining(&self) {
        self.draining.store(true, Ordering::SeqCst);
    }

    /// Whether this node drains ([`Hall::start_draining`]).
    pub fn draining(&self) -> bool {
        self.draining.load(Ordering::SeqCst)
    }

    /// Changes to `true` when the server stops: a connection that sees it closes.
    pub fn stopping(&self) -> watch::Receiver<bool> {
        self.stopping.subscribe()
    }

    /// Tells every connection that the server is stopping, so each client gets a close
    /// frame with [`crate::outbox::CLOSE_RESTART`] (reconnect and resume) instead of a reset
    /// socket, and waits up to `within` for them to be gone. Called after
    /// [`Hall::shutdown`], so no table is left to answer.
    pub async fn close_connections(&self, within: Duration) {
        self.stopping.send_replace(true);
        let mut live = self.live.subscribe();
        if tokio::time::timeout(within, live.wait_for(|n| *n == 0))
            .await
            .is_err()
        {
            tracing::warn!(
                left = *live.borrow(),
                "connections still open when the server stopped"
            );
        }
    }

    /// Serves a stored table here: lists it in the lobby at once (so a player who
    /// reconnects right away finds their seat) and starts its task, under `lease` if the
    /// caller claimed it (a takeover), else the task claims it first (a restore). A table
    /// of a game this build lacks is left alone.
    pub(crate) fn serve_stored(self: &Arc<Self>, stored: StoredTable, lease: Option<Lease>) {
        if self.registry.get(&stored.game).is_err() {
            tracing::warn!(table = %stored.id, game = %stored.game, "a stored table of a game this build lacks");
            return;
        }
        self.lobby.update(table::stored_info(&stored));
        if let Some(code) = &stored.invite {
            self.invites.open(&stored.id, code);
            if let Some(cluster) = self.cluster.get().cloned() {
                let (table, code) = (stored.id.clone(), code.clone());
                tokio::spawn(async move {
                    crate::invites::publish(&cluster, &table, &code).await;
                });
            }
        }
        let (handle, join) = table::open(self.clone(), stored, lease);
        lock(&self.tables).insert(handle.id.clone(), (handle, join));
    }

    /// The games offered, as the lobby and `GET /api/games` show them.
    pub fn games(&self) -> Vec<GameInfo> {
        crate::catalog::games(&self.registry)
    }

    /// The bot a computer plays `game` with when nobody picks one: the game's default, or
    /// its quick bot in a hall that asks for quick computers.
    pub fn computer_in(&self, game: &dyn ErasedGame) -> &'static str {
        if self.config.quick_computers {
            game.quick_bot()
        } else {
            game.default_bot()
        }
    }

    /// The bot a computer plays `game` with at a table of `options`: its level's bot when
    /// the table chose one, else [`Hall::computer_in`]. A chosen level is kept in a hall
    /// of quick computers too: the player asked for that strength.
    pub fn computer_at(&self, game: &dyn ErasedGame, options: &TableOptions) -> &'static str {
        options
            .level
            .as_deref()
            .and_then(|l| game.levels().into_iter().find(|(name, _)| *name == l))
            .map_or_else(|| self.computer_in(game), |(_, bot)| bot)
    }

    /// An open table.
    pub fn table(&self, id: &str) -> Option<TableHandle> {
        lock(&self.tables).get(id).map(|(h, _)| h.clone())
    }

    /// Every table this node serves.
    pub fn tables_here(&self) -> Vec<TableHandle> {
        lock(&self.tables)
            .values()
            .map(|(h, _)| h.clone())
            .collect()
    }

    /// Forgets a table that closed.
    pub fn forget_table(&self, id: &str) {
        lock(&self.tables).remove(id);
        self.invites.close(id, self.cluster.get());
    }

    /// Counts the wrong invite codes an address sends, before a request reaches its table
    /// ([`crate::invites::Invites::check`]).
    pub async fn check_invite(&self, request: &TableRequest, address: &str) -> Result<(), Refusal> {
        self.invites
            .check(request, address, self.cluster.get())
            .await
    }

    /// Opens a table of `game` hosted by `host`, who will sit at it. Returns its handle
    /// and, for a private table, the invite code.
    pub async fn create_table(
        self: &Arc<Self>,
        host: &UserInfo,
        game: &str,
        options: TableOptions,
        quick: bool,
    ) -> Result<(TableHandle, Option<String>), Refusal> {
        let erased = self.registry.get(game).map_err(|e| Refusal::game(&e))?;
        let config = erased
            .normalize_config(&options.config)
            .map_err(|e| Refusal::new(ErrorCode::BadOptions, e.to_string()))?;
        if let Some(why) = erased
            .custom_setup(&config)
            .map_err(|e| Refusal::new(ErrorCode::BadOptions, e.to_string()))?
        {
            return Err(Refusal::new(
                ErrorCode::BadOptions,
                format!("tables for people deal at random: {why}"),
            ));
        }
        if let Some(level) = &options.level {
            let levels = erased.levels();
            if !levels.iter().any(|(name, _)| name == level) {
                let names: Vec<&str> = levels.iter().map(|(name, _)| *name).collect();
                return Err(Refusal::new(
                    ErrorCode::UnknownBot,
                    format!(
                        "{game} has no computer level '{level}' (levels: {})",
                        names.join(", ")
                    ),
                ));
            }
        }
        let allowed = erased
            .seats(&config)
            .map_err(|e| Refusal::new(ErrorCode::BadOptions, e.to_string()))?;
        let seats = options.seats.unwrap_or_else(|| usual_seats(&allowed));
        if !allowed.contains(&seats) {
            return Err(Refusal::new(
                ErrorCode::BadOptions,
                format!(
                    "{game} takes {}, not {seats}",
                    game::text::players(&allowed)
                ),
            ));
        }
        if self.closing.load(Ordering::SeqCst) {
            return Err(Refusal::new(
                ErrorCode::HallFull,
                "this server is stopping and opens no new tables; reconnect in a moment",
            ));
        }
        let hosted = lock(&self.tables).len();
        if hosted >= 100_000 {
            return Err(Refusal::new(
                ErrorCode::HallFull,
                "the server has too many tables open",
            ));
        }
        let id = loop {
            let id = random_id("t", 6)?;
            if !lock(&self.tables).contains_key(&id) {
                break id;
            }
        };
        let invite = if options.private {
            Some(random_id("", crate::invites::INVITE_LENGTH)?)
        } else {
            None
        };
        let stored = StoredTable {
            id: id.clone(),
            game: game.into(),
            options: TableOptions {
                config: config.clone(),
                seats: Some(seats),
                ..options
            },
            invite: invite.clone(),
            host: host.clone(),
            seats: vec![
                StoredSeat {
                    user: None,
                    bot: None
                };
                seats
            ],
            games: 0,
            totals: vec![0; seats],
            next_config: config,
            quick,
            epoch: 0,
            last_game: None,
        };
        let lease = self
            .store
            .claim_table(
                &id,
                &self.node,
                self.config.timing.lease_ttl,
                unix_millis(),
                Claim::IfFree,
            )
            .await?;
        self.store.save_table(&lease.fence(), &stored).await?;
        if let Some(code) = &invite {
            self.invites.open(&id, code);
            if let Some(cluster) = self.cluster.get() {
                crate::invites::publish(cluster, &id, code).await;
            }
        }
        let (handle, join) = table::open(self.clone(), stored, Some(lease));
        lock(&self.tables).insert(id.clone(), (handle.clone(), join));
        if let Some(cluster) = self.cluster.get() {
            cluster.claimed(&id, game).await;
        }
        Ok((handle, invite))
    }

    /// Quick play: an open public quick-play table of `game` at computer `level` with a
    /// free seat, or a new one.
    pub async fn quick_play(
        self: &Arc<Self>,
        user: &UserInfo,
        game: &str,
        level: Option<String>,
    ) -> Result<TableHandle, Refusal> {
        // No level is the game's usual one: a client that names none (the terminal, an
        // older page) and a page that names the usual level meet at the same tables.
        let usual = self
            .registry
            .get(game)
            .ok()
            .and_then(|g| crate::catalog::level_of(g, g.default_bot()));
        let level_or_usual = |l: &Option<String>| l.clone().or(usual.map(str::to_string));
        let wanted = level_or_usual(&level);
        let open = self.lobby.snapshot(Some(game)).into_iter().find(|t| {
            t.status == "waiting"
                && t.quick
                && level_or_usual(&t.options.level) == wanted
                && t.seats.iter().any(|s| s.user.is_none() && s.bot.is_none())
        });
        // A table another node serves too: the seat is asked for there.
        if let Some(t) = open {
            if let Some(t) = self.find_table(&t.id).await {
                return Ok(t);
            }
        }
        let options = TableOptions {
            level,
            ..TableOptions::default()
        };
        self.create_table(user, game, options, true)
            .await
            .map(|(h, _)| h)
    }

    /// Records that `user` is online on `out`; an older connection of the same account is
    /// told and closed (the new one takes its seats over), on this node or, in a hall of
    /// several nodes, on another: the login is numbered in Redis, and every node told.
    pub async fn claim_online(&self, user: &UserInfo, out: &Outbox, address: &str) {
        let cluster = self.cluster.get();
        self.online.claim(user.id, out, address, cluster.is_some());
        let Some(cluster) = cluster else {
            return;
        };
        let login = match cluster.shared().login().await {
            Ok(n) => Some(n),
            Err(e) => {
                cluster.shared().unreachable("logins", &e);
                None
            }
        };
        if self.online.numbered(user.id, out.conn, login) {
            cluster.online(user.id, out.conn, login);
        }
    }

    /// Account `user` logged in on another node, that login numbered `login`: its
    /// connection here closes if it is the older ([`crate::online`]).
    pub fn online_elsewhere(&self, user: i64, login: Option<u64>) {
        self.online.elsewhere(user, login);
    }

    /// Forgets `user`'s connection `conn` when it closes.
    pub fn release_online(&self, user: &UserInfo, conn: crate::outbox::ConnId) {
        self.online.release(user.id, conn);
    }

    /// Tells `user`'s live connection, if any, why it ends (`code`, `message`) and closes
    /// it; returns the address it was at. Its seats are then held and played as any
    /// dropped player's are.
    pub fn disconnect(&self, user: i64, code: ErrorCode, message: &str) -> Option<String> {
        self.online.disconnect(user, code, message)
    }

    /// The tables where `user` holds a seat.
    pub fn seated_tables(&self, user: &UserInfo) -> Vec<String> {
        self.lobby.seated(user.id)
    }

    /// Whether `user` may chat now (the per-account rate limit).
    pub fn may_chat(&self, user: &UserInfo) -> bool {
        let rate = self.config.limits.chats_per_minute / 60.0;
        let burst = (self.config.limits.chats_per_minute / 4.0).max(1.0);
        lock(&self.chat)
            .entry(user.id)
            .or_insert_with(|| Bucket::new(rate, burst))
            .take()
    }

    /// Whether `user` may send another message now: the account's own bucket, at one
    /// connection's rate. An account holds one connection at a time, but a new connection
    /// gets a full bucket of its own; this one it does not, so reconnecting is no way
    /// around the limit.
    pub fn may_send(&self, user: &UserInfo) -> bool {
        let limits = &self.config.limits;
        lock(&self.messages)
            .entry(user.id)
            .or_insert_with(|| Bucket::new(limits.messages_per_second, limits.message_burst))
            .take()
    }

    /// Stops every table (they have stored everything already) and waits for them; no
    /// table opens after it. Each lets go of its lease when the hall drains
    /// ([`ServerConfig::drain`]), so the other nodes take it over at once, and in a store
    /// this hall alone serves; a node stopped without draining on a shared database keeps
    /// them, to claim them again when it restarts under its id (the other nodes take them
    /// over if it is not back before they run out). Returns how many tables stopped.
    pub async fn shutdown(&self) -> usize {
        self.closing.store(true, Ordering::SeqCst);
        let release = self.config.drain || self.store.exclusive();
        let tables: Vec<(TableHandle, JoinHandle<()>)> =
            lock(&self.tables).drain().map(|(_, t)| t).collect();
        let n = tables.len();
        for (handle, join) in tables {
            let (done, wait) = tokio::sync::oneshot::channel();
            if handle.send(table::Cmd::Shutdown { done, release }).await {
                let _ = wait.await;
            }
            let _ = join.await;
        }
        n
    }
}

/// The seats of a table opened without a count: four where the game allows it, else the
/// count nearest to four. A game of 2 to 8 (Ten and a half) then opens with three others
/// at the table, as the browser's form proposes, not as a heads-up duel; games of a fixed
/// count get it.
fn usual_seats(allowed: &std::ops::RangeInclusive<usize>) -> usize {
    4.clamp(*allowed.start(), *allowed.end())
}
