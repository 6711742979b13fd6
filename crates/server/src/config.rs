//! How a server runs: where it listens, where it keeps its data, and the limits and times
//! that protect it and pace its games.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Everything `qipai serve` can be told.
#[derive(Debug, Clone)]
pub struct ServerConfig {
    /// Where to listen.
    pub addr: SocketAddr,
    /// Where the SQLite file lives (unless `database` is given).
    pub data_dir: PathBuf,
    /// A PostgreSQL database to keep the data in instead
    /// (`postgres://user:password@host:port/name`); created if missing and the role may.
    /// Several nodes may serve one database ([`crate::takeover`]).
    pub database: Option<String>,
    /// Limits that protect the server from floods and oversize input.
    pub limits: Limits,
    /// Times that pace games and hold seats.
    pub timing: Timing,
    /// Bots thinking at once; more wait their turn.
    pub bot_threads: usize,
    /// Whether a reverse proxy on this machine (Caddy or nginx, for HTTPS) passes the
    /// clients on: a client's address is then the last one the proxy added to
    /// `X-Forwarded-For`, not the proxy's own. Without it, behind a proxy every client
    /// would share one address and its per-address limits.
    pub behind_proxy: bool,
    /// Whether `/metrics` answers every client, not only this machine's. It tells anyone
    /// how busy the hall is and what errors it sends; a host who scrapes it from another
    /// machine turns this on (or scrapes through the proxy from this one).
    pub public_metrics: bool,
    /// The hall's moderators, by account name (matched as names are, without case or
    /// width: [`crate::names::key`]): registered players who may ban and unban accounts
    /// (`ban`, `unban`). Empty by default: a host names them with `qipai serve
    /// --moderator NAME`. The role is the account's, not the name's: each name is bound
    /// when the hall starts to the account registered under it then (a name nobody holds
    /// yet, to the first account seen under it), so an account that takes a freed name
    /// later is no moderator ([`crate::moderation::Moderators`]).
    pub moderators: Vec<String>,
    /// Computers that fill seats play each game's quick bot ([`game::GameSpec::quick_bot`],
    /// a millisecond a move) instead of its default, which searches for up to a second: for
    /// test halls and load runs, where only the pace of the table matters.
    pub quick_computers: bool,
    /// Web origins besides the hall's own whose pages may open its WebSocket
    /// (`https://cards.example.org`), for a host who serves the page from another
    /// address. Programs, which send no origin, are always welcome.
    pub allowed_origins: Vec<String>,
    /// This process's name among the nodes that may serve the hall's tables, which each
    /// table's lease names ([`crate::store::Lease::node`]); this host's name and the port
    /// it listens on if not given ([`crate::takeover::default_node_id`]; `qipai serve
    /// --node-id`).
    pub node_id: Option<String>,
    /// Whether a stopping node hands its tables to the others (`qipai serve --drain`):
    /// each table lets go of its lease at a safe point, so the other nodes on the database
    /// take it over at once. Without it a node stopped on a shared database keeps its
    /// leases, to take its tables back when it restarts under its id. A store one hall
    /// alone serves (SQLite) has no other node: its tables always let go.
    pub drain: bool,
    /// The Redis server through which this node joins a hall of several nodes on one
    /// PostgreSQL database (`qipai serve --redis`); `None` for a hall of one node, which
    /// needs no Redis ([`crate::cluster`]).
    pub cluster: Option<crate::cluster::ClusterConfig>,
}

/// Limits on what one client may send.
#[derive(Debug, Clone)]
pub struct Limits {
    /// The largest message accepted, in bytes; larger frames close the connection.
    pub max_message: usize,
    /// Messages a connection may send per second on average…
    pub messages_per_second: f64,
    /// …and in a burst.
    pub message_burst: f64,
    /// Chat lines an account may send per minute.
    pub chats_per_minute: f64,
    /// The longest chat line, in characters.
    pub max_chat: usize,
    /// Failed logins of one name from one address in `login_window` before that address's
    /// further tries at the name are refused until the window passes. Counted per address
    /// and name, not per name alone, so nobody can lock a player out of their account from
    /// elsewhere.
    pub failed_logins: u32,
    /// Failed logins from one address, whatever the names, in `login_window` before its
    /// further tries are refused: guessing many names' passwords from one address.
    pub failed_logins_per_address: u32,
    /// The window of `failed_logins`.
    pub login_window: Duration,
    /// Messages queued for a connection that does not read before it is dropped (it can
    /// reconnect and resume).
    pub send_queue: usize,
    /// Bytes queued for a connection that does not read before it is dropped: with
    /// `send_queue`, what one client that never reads can make the server hold.
    pub send_queue_bytes: usize,
    /// Tables one account may have open as host at once.
    pub tables_per_user: usize,
    /// WebSocket connections open at once from one address (a person needs one a tab);
    /// 0 for no limit (load tests from one machine).
    pub connections_per_address: usize,
    /// New accounts (guests and registrations) one address may make in `accounts_window`:
    /// each is a row kept for good, and a registration costs a deliberately slow password
    /// hash. 0 for no limit.
    pub new_accounts_per_address: u32,
    /// How long a client has to send an HTTP request's headers (and a connection may
    /// wait idle for its first request): a connection that sends half a request is closed
    /// after this rather than held for ever.
    pub request_headers_within: Duration,
    /// A WebSocket the server has heard nothing from (no message, no answer to its pings,
    /// which it sends every two fifths of this) for this long is dead and is closed.
    pub silent_for: Duration,
    /// The window of `new_accounts_per_address`.
    pub accounts_window: Duration,
    /// Requests one address may make of the HTTP API (`/api/…`) per second on average…
    /// (0 for no limit: a load test's record checks). Each costs reads of the database
    /// that logins share, so a flood of them must not crowd out people's logins.
    pub api_requests_per_second: f64,
    /// …and in a burst.
    pub api_burst: f64,
}

/// Times that pace games and hold seats.
#[derive(Debug, Clone)]
pub struct Timing {
    /// How long a session token lives.
    pub session: Duration,
    /// How long players have to send their nonces before a deal.
    pub nonce_window: Duration,
    /// How long a disconnected player's seat is held before a computer plays it.
    pub grace: Duration,
    /// How long quick play waits for people before computers fill the table.
    pub quick_play_wait: Duration,
    /// The least time from a computer's turn to its move, its thinking included, so people
    /// can follow; zero for tests and load.
    pub bot_delay: Duration,
    /// Timeouts in a row after which a seat is played by a computer (托管).
    pub timeouts_to_auto: u32,
    /// Table messages kept for clients that reconnect.
    pub replay_buffer: usize,
    /// The longest wait between attempts when a table cannot go on without the store (a
    /// game's end to store, a game to read back) and the store is out of reach: the table
    /// waits for it however long it takes, trying at 0.5 s, 1 s, 2 s… up to this.
    pub store_retry: Duration,
    /// How long a table's lease lasts unless renewed ([`crate::store::Lease`]): another
    /// node may claim the table once it has run out. 10 s by default.
    pub lease_ttl: Duration,
    /// How often a table renews its lease: several times a lease's life, so one renewal
    /// delayed by a slow store does not lose it. 3 s by default.
    pub lease_renew: Duration,
    /// How long a draining node ([`ServerConfig::drain`]) goes on serving after its
    /// signal, answering `/healthz` with 503, before it hands its tables over: the time a
    /// reverse proxy's health checks take to send new connections elsewhere, so that its
    /// clients, closed then, reconnect to another node at once. None by default.
    pub drain_notice: Duration,
}

impl Default for ServerConfig {
    fn default() -> Self {
        ServerConfig {
            addr: SocketAddr::from(([127, 0, 0, 1], 7878)),
            data_dir: PathBuf::from("qipai-data"),
            database: None,
            limits: Limits::default(),
            timing: Timing::default(),
            bot_threads: std::thread::available_parallelism().map_or(2, usize::from),
            behind_proxy: false,
            public_metrics: false,
            moderators: Vec::new(),
            quick_computers: false,
            allowed_origins: Vec::new(),
            node_id: None,
            drain: false,
            cluster: None,
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_message: 16 * 1024,
            messages_per_second: 20.0,
            message_burst: 40.0,
            chats_per_minute: 20.0,
            max_chat: 300,
            failed_logins: 5,
            failed_logins_per_address: 20,
            login_window: Duration::from_secs(300),
            send_queue: 1024,
            send_queue_bytes: 1024 * 1024,
            request_headers_within: Duration::from_secs(10),
            silent_for: Duration::from_secs(75),
            tables_per_user: 5,
            connections_per_address: 64,
            new_accounts_per_address: 60,
            accounts_window: Duration::from_secs(3600),
            api_requests_per_second: 20.0,
            api_burst: 100.0,
        }
    }
}

impl Default for Timing {
    fn default() -> Self {
        Timing {
            session: Duration::from_secs(30 * 24 * 3600),
            nonce_window: Duration::from_secs(2),
            grace: Duration::from_secs(30),
            quick_play_wait: Duration::from_secs(5),
            bot_delay: Duration::from_millis(700),
            timeouts_to_auto: 2,
            replay_buffer: 512,
            store_retry: Duration::from_secs(5),
            lease_ttl: Duration::from_secs(10),
            lease_renew: Duration::from_secs(3),
            drain_notice: Duration::ZERO,
        }
    }
}
