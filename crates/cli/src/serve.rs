//! `qipai serve`: the hall on one machine, its data in an embedded SQLite file or in a
//! PostgreSQL database.

use anyhow::{Context, Result};
use game::Registry;
use server::{Server, ServerConfig};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Server options.
#[derive(clap::Args)]
pub struct Args {
    /// Where to listen.
    #[arg(long, default_value = "127.0.0.1:7878")]
    addr: SocketAddr,
    /// Where to keep the data (created if missing).
    #[arg(long, default_value = "qipai-data")]
    data_dir: PathBuf,
    /// Keep the data in this PostgreSQL database instead of under --data-dir
    /// (`postgres://user:password@host:port/name`; created if missing and the role may).
    /// Several nodes may serve one database: each table is served by one node at a time,
    /// and another takes it over when that node dies.
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// Computers thinking at once (default: the number of cores).
    #[arg(long)]
    bot_threads: Option<usize>,
    /// The least milliseconds a computer takes to move, its thinking included, so people
    /// can follow the game.
    #[arg(long, default_value_t = 700)]
    bot_delay_ms: u64,
    /// Seconds a disconnected player's seat is held before a computer plays it.
    #[arg(long, default_value_t = 30)]
    grace_seconds: u64,
    /// Seconds quick play waits for people before computers fill the table.
    #[arg(long, default_value_t = 5)]
    quick_play_seconds: u64,
    /// Messages a connection may send per second on average, beyond which it is refused
    /// (default 20). Raise it for load tests whose clients move flat out; keep the default
    /// for people.
    #[arg(long)]
    messages_per_second: Option<f64>,
    /// Messages a connection may send in a burst (default 40).
    #[arg(long)]
    message_burst: Option<f64>,
    /// WebSocket connections one address may hold open at once; 0 for no limit (a load
    /// test from one machine).
    #[arg(long, default_value_t = 64)]
    connections_per_address: usize,
    /// New accounts (guests and registrations) one address may make in an hour; 0 for no
    /// limit (a load test from one machine).
    #[arg(long, default_value_t = 60)]
    new_accounts_per_hour: u32,
    /// Requests one address may make of the HTTP API (`/api/…`) a second, with bursts of
    /// five seconds' worth; 0 for no limit (a load test checking its records).
    #[arg(long, default_value_t = 20.0)]
    api_requests_per_second: f64,
    /// The hall sits behind a reverse proxy on this machine (Caddy or nginx, for HTTPS):
    /// take each client's address from the last entry of X-Forwarded-For, so that the
    /// per-address limits count clients, not the proxy. Only with a proxy that sets it.
    #[arg(long)]
    behind_proxy: bool,
    /// Serve `/metrics` to every client, not only to this machine (for a Prometheus on
    /// another machine).
    #[arg(long)]
    public_metrics: bool,
    /// A registered account that may ban and unban players (`ban NAME REASON` in
    /// `qipai connect`); repeat for several. The account is made as any other: register
    /// it, then name it here.
    #[arg(long = "moderator", value_name = "NAME")]
    moderators: Vec<String>,
    /// Computers play each game's quick bot (a millisecond a move) instead of its usual
    /// one: for load runs and tests, where only the table's pace matters.
    #[arg(long)]
    quick_computers: bool,
    /// Another web origin whose pages may open the hall's WebSocket
    /// (`https://cards.example.org`); repeat for several. The hall's own page always may,
    /// and programs (which send no origin) always may; other sites' pages may not.
    #[arg(long = "allowed-origin", value_name = "ORIGIN")]
    allowed_origins: Vec<String>,
    /// This process's name among the nodes serving the hall, which each table's lease
    /// names; this host's name and the port it listens on if not given, so a node
    /// restarted where it was takes its tables back at once. Each node needs its own.
    /// Claiming its tables again under the same name after a restart still fences
    /// whatever its old process wrote.
    #[arg(long, value_name = "ID")]
    node_id: Option<String>,
    /// Milliseconds a table's lease lasts unless renewed (renewed every three tenths of
    /// it): how long a dead node's tables wait before another node takes them over, plus
    /// a look for them every half of it. Shorter for tests; a lease shorter than the
    /// store's slowest write would be lost while the node is well.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(200..))]
    lease_ttl_ms: u64,
    /// On SIGTERM, hand this node's tables to the other nodes on the database before
    /// exiting (for an upgrade or to take the node away): open no new table, let go of
    /// each table's lease at a safe point, close the clients with "service restart" so
    /// they reconnect. Also `QIPAI_DRAIN=1`. Without it a node on a shared database keeps
    /// its leases, to take its tables back when it restarts.
    #[arg(long)]
    drain: bool,
    /// With --drain: milliseconds the node goes on serving after SIGTERM, answering
    /// `/healthz` with 503 `draining` and refusing new WebSockets, before it hands its
    /// tables over and closes its clients: long enough for the reverse proxy's health
    /// checks to see it (two of their intervals), so the clients reconnect to another node
    /// at once.
    #[arg(long, value_name = "MS", default_value_t = 0)]
    drain_notice_ms: u64,
    /// Join the other `qipai serve` processes on the same --database through this Redis
    /// (`redis://host:port`): players connected to any of them play at any table. Without
    /// it this process is the whole hall.
    #[arg(long, value_name = "URL", env = "QIPAI_REDIS", requires = "database")]
    redis: Option<String>,
    /// What every Redis key and channel of this hall starts with: halls (or tests)
    /// sharing one Redis each take their own.
    #[arg(long, value_name = "PREFIX", env = "QIPAI_REDIS_PREFIX", default_value = server::cluster::DEFAULT_PREFIX)]
    redis_prefix: String,
}

/// Serves until SIGINT or SIGTERM; then stops accepting, lets the tables stop and exits.
pub fn run(registry: Registry, args: Args) -> Result<()> {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| "info".into()),
        )
        .with_writer(std::io::stderr)
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .init();
    let mut config = ServerConfig {
        addr: args.addr,
        data_dir: args.data_dir,
        database: args.database,
        ..ServerConfig::default()
    };
    if let Some(n) = args.bot_threads {
        config.bot_threads = n.max(1);
    }
    config.timing.bot_delay = Duration::from_millis(args.bot_delay_ms);
    config.timing.grace = Duration::from_secs(args.grace_seconds);
    config.timing.quick_play_wait = Duration::from_secs(args.quick_play_seconds);
    if let Some(rate) = args.messages_per_second {
        config.limits.messages_per_second = rate;
    }
    if let Some(burst) = args.message_burst {
        config.limits.message_burst = burst;
    }
    config.limits.connections_per_address = args.connections_per_address;
    config.limits.new_accounts_per_address = args.new_accounts_per_hour;
    // A rate of 0 (or less) is no limit, and a burst is at least one request
    // (`PerAddress::new`).
    config.limits.api_requests_per_second = args.api_requests_per_second;
    config.limits.api_burst = args.api_requests_per_second * 5.0;
    config.behind_proxy = args.behind_proxy;
    config.public_metrics = args.public_metrics;
    config.moderators = args.moderators;
    config.quick_computers = args.quick_computers;
    config.allowed_origins = args.allowed_origins;
    config.node_id = args.node_id;
    config.timing.lease_ttl = Duration::from_millis(args.lease_ttl_ms);
    config.timing.lease_renew = config.timing.lease_ttl * 3 / 10;
    config.drain = args.drain
        || std::env::var("QIPAI_DRAIN")
            .is_ok_and(|v| matches!(v.trim(), "1" | "true" | "yes" | "on"));
    config.timing.drain_notice = Duration::from_millis(args.drain_notice_ms);
    config.cluster = args.redis.map(|redis| server::cluster::ClusterConfig {
        redis,
        prefix: args.redis_prefix,
    });
    let runtime = tokio::runtime::Runtime::new().context("cannot start the runtime")?;
    runtime.block_on(async move {
        let data = match &config.database {
            Some(url) => redacted(url),
            None => config.data_dir.display().to_string(),
        };
        let server = Server::bind(registry, config).await?;
        let addr = server.local_addr().context("the server has no address")?;
        outln!("qipai hall listening on http://{addr}/ (data in {data}); stop with Ctrl-C");
        server.run(shutdown_signal()).await?;
        outln!("stopped: every accepted move is stored");
        Ok(())
    })
}

/// Options of `qipai copy-data`.
#[derive(clap::Args)]
pub struct CopyArgs {
    /// The SQLite hall's data directory (stop that hall first).
    #[arg(long, value_name = "DIR")]
    from: PathBuf,
    /// The PostgreSQL database to copy it into (`postgres://user:password@host:port/name`):
    /// empty, or created if missing and the role may.
    #[arg(long, value_name = "URL")]
    to: String,
}

/// Copies a stopped SQLite hall into an empty PostgreSQL database, all or nothing, and
/// says what it copied.
pub fn copy_data(args: CopyArgs) -> Result<()> {
    let runtime = tokio::runtime::Runtime::new().context("cannot start the runtime")?;
    let copied = runtime.block_on(server::store::copy::sqlite_to_postgres(
        &args.from, &args.to,
    ))?;
    outln!(
        "copied {copied} from {} into {}; serve it with `qipai serve --database URL`",
        args.from.display(),
        redacted(&args.to)
    );
    Ok(())
}

/// A database address fit to print: without its password.
fn redacted(url: &str) -> String {
    match (url.split_once("://"), url.rfind('@')) {
        (Some((scheme, rest)), Some(at)) if at > scheme.len() + 3 => {
            let credentials = &rest[..at - scheme.len() - 3];
            let user = credentials.split(':').next().unwrap_or_default();
            format!("{scheme}://{user}@{}", &url[at + 1..])
        }
        _ => url.to_string(),
    }
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
    tracing::info!("shutting down");
}

#[cfg(test)]
mod tests {
    use super::redacted;

    #[test]
    fn a_database_address_is_printed_without_its_password() {
        assert_eq!(
            redacted("postgres://ann:s3cr@t@db.example:5432/qipai"),
            "postgres://ann@db.example:5432/qipai"
        );
        assert_eq!(
            redacted("postgres://ann@localhost/qipai"),
            "postgres://ann@localhost/qipai"
        );
        assert_eq!(
            redacted("postgresql://localhost/qipai"),
            "postgresql://localhost/qipai"
        );
    }
}
