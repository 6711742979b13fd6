//! The qipai hall: people play each other and computers over WebSocket — accounts, a live
//! lobby, tables with turn timers and 托管, computers in any seat, chat, spectators,
//! reconnection, ratings and records that survive a crash.
//!
//! ```text
//! client ──ws──▶ connection task ──▶ table task (owns game::Table) ──▶ store (commit) ──▶ broadcast
//!                 limits, accounts     rules, timers, bots off-task      SQLite
//! ```
//!
//! * [`protocol`]: the messages, versioned (docs/protocol.md);
//! * [`listen`]: accepting connections, with time limits and a bound per address;
//! * [`conn`]: one connection — limits, hello, accounts, the lobby, passing table requests;
//! * [`table`]: one task per table, the only owner of its seats and game; an action is
//!   *committed, then broadcast*, each connection getting its own seat's view;
//! * [`store`]: storage behind one interface ([`store::Store`]), SQLite with group commit;
//! * [`takeover`]: which stored tables a node serves — restored at its start, taken over
//!   from a node whose leases ran out;
//! * [`cluster`]: several nodes, one hall, through Redis (`qipai serve --redis`);
//! * [`hall`]: what connections and tables share; [`catalog`] (the games offered);
//!   [`online`] (each account's one live connection); [`invites`] (private tables'
//!   codes); [`lobby`]; [`accounts`] (with
//!   [`names`], which names are one name);
//!   [`moderation`] (bans by the host's moderators); [`rating`]
//!   (Glicko-2); [`bots`] (computers think on a bounded pool); [`metrics`]; [`http`];
//!   [`web`] (the browser client, built in).
//!
//! The server reaches games only through [`game::Registry`]: a sixth game needs no change
//! here.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
// Module maps and doc comments link the private items a reader of the source goes to
// next; `cargo doc --document-private-items`, which scripts/test.sh runs, renders them.
#![allow(rustdoc::private_intra_doc_links)]

pub mod accounts;
pub mod bots;
pub mod catalog;
pub mod chat;
pub mod client;
pub mod cluster;
pub mod config;
pub mod conn;
pub mod hall;
pub mod http;
mod ids;
pub mod invites;
pub mod listen;
pub mod lobby;
pub mod metrics;
pub mod moderation;
pub mod names;
pub mod online;
pub mod outbox;
pub mod protocol;
pub mod ratelimit;
pub mod rating;
pub mod refusal;
pub mod store;
pub mod table;
pub mod takeover;
pub mod web;

pub use config::ServerConfig;
pub use hall::Hall;

use game::Registry;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// How long a stopping server waits for its connections to take their close frames: a
/// client that does not read them in this time has its socket dropped.
const CLOSE_CONNECTIONS_WITHIN: std::time::Duration = std::time::Duration::from_secs(5);

/// Why the server could not start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The data directory or database.
    #[error(transparent)]
    Store(#[from] store::StoreError),
    /// Redis, for a node of several.
    #[error(transparent)]
    Cluster(#[from] cluster::ClusterError),
    /// The listening socket.
    #[error("cannot listen on {addr}: {error}")]
    Listen {
        /// Where.
        addr: SocketAddr,
        /// Why.
        error: std::io::Error,
    },
}

/// A server, bound and ready: [`Server::run`] serves until the shutdown future resolves.
pub struct Server {
    hall: Arc<Hall>,
    listener: TcpListener,
}

/// How often the server forgets the guests that can never come back.
const HOUSEKEEPING_EVERY: Duration = Duration::from_secs(6 * 3600);

/// At start and every [`HOUSEKEEPING_EVERY`]: the guest accounts that never played and
/// whose sessions have all ended are deleted ([`store::Store::forget_idle_guests`]).
async fn housekeeping(hall: Arc<Hall>) {
    let mut every = tokio::time::interval(HOUSEKEEPING_EVERY);
    loop {
        every.tick().await;
        match hall.store.forget_idle_guests(store::unix_now()).await {
            Ok(0) => {}
            Ok(n) => tracing::info!(guests = n, "forgot the guests that can never come back"),
            Err(e) => tracing::warn!(error = %e, "cannot forget idle guests"),
        }
    }
}

impl Server {
    /// Opens the store (running its migrations), binds the address and restores the
    /// tables this node may serve ([`Hall::restore`]).
    /// A node named by no `node_id` takes this host's name and the port it listens on
    /// ([`takeover::default_node_id`]).
    pub async fn bind(registry: Registry, mut config: ServerConfig) -> Result<Server, ServeError> {
        let metrics = Arc::new(metrics::Metrics::new());
        let store = store::open(&config, metrics.clone()).await?;
        let addr = config.addr;
        let listener = TcpListener::bind(addr)
            .await
            .map_err(|error| ServeError::Listen { addr, error })?;
        if config.node_id.is_none() {
            let bound = listener.local_addr().unwrap_or(addr);
            config.node_id = Some(takeover::default_node_id(bound));
        }
        let hall = Hall::new(registry, store, config, metrics);
        if let Some(config) = hall.config.cluster.clone() {
            let joined = cluster::Cluster::join(&hall, &config).await?;
            let _ = hall.cluster.set(joined);
        }
        let restored = hall.restore().await?;
        if restored > 0 {
            tracing::info!(tables = restored, "restored the open tables");
        }
        Ok(Server { hall, listener })
    }

    /// The address it listens on (useful with port 0).
    pub fn local_addr(&self) -> Option<SocketAddr> {
        self.listener.local_addr().ok()
    }

    /// The shared state, for tests and tools.
    pub fn hall(&self) -> Arc<Hall> {
        self.hall.clone()
    }

    /// Serves until `shutdown` resolves, then stops accepting, lets the tables stop (every
    /// accepted action is already stored), closes every connection with code 1012
    /// ("service restart": reconnect and resume) and returns.
    ///
    /// A draining node ([`ServerConfig::drain`]) goes on listening while it hands its
    /// tables over, answering `/healthz` with `503 draining` and refusing new WebSockets,
    /// so that a reverse proxy sends new connections to the other nodes: first for
    /// [`config::Timing::drain_notice`], the time the proxy's health checks take to see
    /// it, then while its tables let go of their leases.
    pub async fn run(
        self,
        shutdown: impl std::future::Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let app = http::router(self.hall.clone());
        let housekeeping = tokio::spawn(housekeeping(self.hall.clone()));
        let takeover = tokio::spawn(takeover::take_over(self.hall.clone()));
        let config = &self.hall.config;
        let (stop_listening, listening_stops) = tokio::sync::oneshot::channel::<()>();
        let listening = listen::serve(
            self.listener,
            app,
            async move {
                let _ = listening_stops.await;
            },
            &config.limits,
            config.behind_proxy,
        );
        let hall = self.hall.clone();
        let stopping = async move {
            shutdown.await;
            if hall.config.drain {
                hall.start_draining();
                tracing::info!(
                    node = %hall.node,
                    notice_ms = hall.config.timing.drain_notice.as_millis() as u64,
                    "draining: /healthz answers 503 and new connections are refused, so the proxy sends them elsewhere"
                );
                tokio::time::sleep(hall.config.timing.drain_notice).await;
            }
            housekeeping.abort();
            // No table taken over from here on: the tables are about to stop.
            takeover.abort();
            let _ = takeover.await;
            let stopped = if hall.config.drain {
                // While still listening: a proxy checking meanwhile is told it drains.
                Some(hall.shutdown().await)
            } else {
                None
            };
            let _ = stop_listening.send(());
            stopped
        };
        let ((), drained) = tokio::join!(listening, stopping);
        let stopped = match drained {
            Some(n) => n,
            None => self.hall.shutdown().await,
        };
        if self.hall.config.drain {
            tracing::info!(
                tables = stopped,
                node = %self.hall.node,
                "drained: let go of every table's lease; the other nodes take them over"
            );
        }
        if let Some(cluster) = self.hall.cluster.get() {
            cluster.leave().await;
        }
        self.hall.close_connections(CLOSE_CONNECTIONS_WITHIN).await;
        self.hall.store.close().await;
        Ok(())
    }
}
