//! A real server on a free port with a temporary data directory, and real WebSocket
//! clients that play through it.

// Each test binary uses some of these helpers, not all.
#![allow(dead_code)]

mod client;
mod schema;

pub use client::{check_frame, Connection};
pub use schema::Validator;

use game::{ErasedGame, Registry, Seed};
use serde_json::Value;
use server::client::ClientError;
use server::protocol::request;
use server::protocol::{ClientMessage, GameState, ServerMessage, TableOptions};
use server::{Hall, Server, ServerConfig};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Every game, as the binary registers them.
pub fn registry() -> Registry {
    games::registry()
}

/// A fresh data directory under the system's temporary directory.
pub fn data_dir(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "qipai-server-{name}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The PostgreSQL server of the tests: the one `QIPAI_TEST_POSTGRES` names
/// (`postgres://user@host:port`, no database; `scripts/test.sh` finds or starts one), or
/// the machine's own at 127.0.0.1:5432.
pub fn postgres() -> String {
    std::env::var("QIPAI_TEST_POSTGRES")
        .ok()
        .filter(|url| !url.is_empty())
        .map_or_else(
            || "postgres://postgres@127.0.0.1:5432".into(),
            |url| url.trim_end_matches('/').to_string(),
        )
}

/// A PostgreSQL database on `server` for a hall on data directory `dir`: one per
/// directory, so a hall restarted on the same directory finds its data, named after it
/// (its name holds the process and a counter, so runs never share one; `scripts/test.sh`
/// drops every `qipai_test_…` database before and after).
pub fn database_on(server: &str, dir: &Path) -> String {
    let name: String = dir
        .file_name()
        .unwrap_or_default()
        .to_string_lossy()
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    // PostgreSQL keeps 63 bytes of a name; the counter and the process are at its end.
    let tail = name.len().saturating_sub(52);
    format!("{server}/qipai_test_{}", &name[tail..])
}

/// Times short enough for tests: computers move at once, quick play fills fast; no limits
/// per address. The data is in SQLite in `dir` (the store's conformance suite,
/// tests/hall/store.rs, holds PostgreSQL to the same contract; tests/hall/postgres.rs runs halls on
/// it).
pub fn fast_config(dir: PathBuf) -> ServerConfig {
    let mut config = ServerConfig {
        addr: "127.0.0.1:0".parse().expect("an address"),
        database: None,
        data_dir: dir,
        ..ServerConfig::default()
    };
    config.timing.bot_delay = Duration::ZERO;
    // Computers play quickly unless a test is about the bot they play.
    config.quick_computers = true;
    config.timing.quick_play_wait = Duration::from_millis(100);
    config.timing.nonce_window = Duration::from_millis(300);
    config.timing.store_retry = Duration::from_millis(200);
    config.limits.messages_per_second = 1000.0;
    config.limits.message_burst = 1000.0;
    // Every player of a test comes from 127.0.0.1, dozens of them: the limits per address
    // have a test of their own (abuse.rs).
    config.limits.connections_per_address = 0;
    config.limits.new_accounts_per_address = 0;
    config.limits.api_requests_per_second = 0.0;
    config
}

/// A running server.
pub struct TestServer {
    /// `host:port`.
    pub addr: String,
    /// Its shared state.
    pub hall: Arc<Hall>,
    /// Its data directory.
    pub dir: PathBuf,
    /// Its PostgreSQL database, if it keeps its data there.
    pub database: Option<String>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    join: Option<tokio::task::JoinHandle<()>>,
}

impl TestServer {
    /// Starts a server with `config`.
    pub async fn start(config: ServerConfig) -> TestServer {
        let dir = config.data_dir.clone();
        let database = config.database.clone();
        let server = Server::bind(registry(), config)
            .await
            .expect("the server starts");
        let addr = server.local_addr().expect("an address").to_string();
        let hall = server.hall();
        let (stop, stopped) = tokio::sync::oneshot::channel();
        let join = tokio::spawn(async move {
            server
                .run(async {
                    let _ = stopped.await;
                })
                .await
                .expect("the server runs");
        });
        TestServer {
            addr,
            hall,
            dir,
            database,
            stop: Some(stop),
            join: Some(join),
        }
    }

    /// A fresh server in a fresh directory.
    pub async fn fresh(name: &str) -> TestServer {
        TestServer::start(fast_config(data_dir(name))).await
    }

    /// Stops it gracefully.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(join) = self.join.take() {
            let _ = join.await;
        }
    }
}

/// Runs SQL statements on a running hall's database beside it (SQLite in WAL mode lets
/// a second writer wait its turn), to put there what many games would have left. The
/// statements must read the same in both dialects (`TRUE`, not `1`; no `?` parameters).
pub async fn execute_sql(server: &TestServer, statements: &[&str]) {
    execute_sql_at(&server.dir, server.database.as_deref(), statements).await;
}

/// [`execute_sql`] on the data of a hall that may be stopped: its directory, or its
/// PostgreSQL database.
pub async fn execute_sql_at(dir: &Path, database: Option<&str>, statements: &[&str]) {
    use sqlx::{ConnectOptions, Connection as _};
    match database {
        Some(url) => {
            let mut db = sqlx::postgres::PgConnection::connect(url)
                .await
                .expect("the hall's database");
            for sql in statements {
                sqlx::query(sqlx::AssertSqlSafe(*sql))
                    .execute(&mut db)
                    .await
                    .expect(sql);
            }
            db.close().await.expect("closed");
        }
        None => {
            let mut db = sqlx::sqlite::SqliteConnectOptions::new()
                .filename(dir.join("qipai.db"))
                .connect()
                .await
                .expect("the hall's database");
            for sql in statements {
                sqlx::query(sqlx::AssertSqlSafe(*sql))
                    .execute(&mut db)
                    .await
                    .expect(sql);
            }
            db.close().await.expect("closed");
        }
    }
}

/// Everything a hall has stored, as bytes to search: the SQLite file and its log, or
/// every row of every table of the PostgreSQL database as text.
pub async fn stored_bytes(server: &TestServer) -> Vec<u8> {
    use sqlx::Connection as _;
    match &server.database {
        Some(url) => {
            let mut db = sqlx::postgres::PgConnection::connect(url)
                .await
                .expect("the hall's database");
            let mut bytes = Vec::new();
            for table in [
                "users",
                "sessions",
                "tables",
                "games",
                "game_seats",
                "actions",
                "ratings",
            ] {
                let sql = format!("SELECT coalesce(string_agg(x::text, ' '), '') FROM {table} x");
                let text: String = sqlx::query_scalar(sqlx::AssertSqlSafe(sql))
                    .fetch_one(&mut db)
                    .await
                    .expect("the rows");
                bytes.extend_from_slice(text.as_bytes());
            }
            db.close().await.expect("closed");
            bytes
        }
        None => {
            let mut bytes = std::fs::read(server.dir.join("qipai.db")).expect("the database");
            bytes.extend(std::fs::read(server.dir.join("qipai.db-wal")).unwrap_or_default());
            bytes
        }
    }
}

/// A connected guest.
pub async fn guest(addr: &str) -> (Connection, String) {
    let (mut conn, _, _) = Connection::open(addr, None).await.expect("connects");
    let (token, _) = conn
        .session(ClientMessage::Guest)
        .await
        .expect("a guest session");
    (conn, token)
}

/// A player's view of one table, kept up to date from what the server sends.
#[derive(Default, Debug)]
pub struct Seen {
    /// The table's last sequence number.
    pub seq: u64,
    /// The seat played.
    pub you: Option<usize>,
    /// The game as last seen.
    pub game: Option<GameState>,
    /// The commitment shown before the last deal.
    pub commitment: Option<String>,
    /// The nonce this client sent for the last deal.
    pub nonce: Option<String>,
    /// Finished games' records.
    pub records: Vec<Value>,
    /// Every message received, in order.
    pub messages: Vec<ServerMessage>,
}

impl Seen {
    /// Takes in one message about `table`. Returns true when it ended a game.
    pub fn take(&mut self, table: &str, m: &ServerMessage) -> bool {
        self.messages.push(m.clone());
        match m {
            ServerMessage::Table {
                table: t,
                seq,
                you,
                game,
                ..
            } if t == table => {
                self.seq = *seq;
                self.you = *you;
                self.game = game.clone();
            }
            ServerMessage::Action {
                table: t,
                seq,
                game,
                ..
            } if t == table => {
                self.seq = *seq;
                if game.is_some() {
                    self.game = game.clone();
                }
            }
            ServerMessage::Seats { table: t, seq, .. } if t == table => self.seq = *seq,
            ServerMessage::Commitment {
                table: t,
                seq,
                commitment,
                ..
            } if t == table => {
                self.seq = *seq;
                self.commitment = Some(commitment.clone());
            }
            ServerMessage::GameOver {
                table: t,
                seq,
                record,
                ..
            } if t == table => {
                self.seq = *seq;
                self.game = None;
                self.records.push(record.clone());
                return true;
            }
            ServerMessage::Chat {
                table: Some(t),
                seq: Some(seq),
                ..
            } if t == table => self.seq = *seq,
            _ => {}
        }
        false
    }

    /// The action this client should send now, chosen by `bot`, if it is to act.
    pub fn my_move(&self, game: &dyn ErasedGame, bot: &str, seed: u64) -> Option<Value> {
        let state = self.game.as_ref()?;
        let seat = self.you?;
        if !state.to_act.contains(&seat) || state.legal.is_empty() {
            return None;
        }
        game.bot_act(bot, &Seed::from_u64(seed), seat, &state.view, &state.legal)
            .ok()
    }
}

/// Plays one game at `table` with `bot` choosing this client's moves, sending a nonce
/// when the server commits; returns when the game ends (its record) or after `wait`
/// without a message.
pub async fn play_game(
    conn: &mut Connection,
    table: &str,
    game: &dyn ErasedGame,
    bot: &str,
    seen: &mut Seen,
    wait: Duration,
) -> Result<Value, ClientError> {
    let mut moves = 0u64;
    let mut acted_at = None;
    loop {
        // A snapshot taken before this call may already put us to move.
        if acted_at != Some(seen.seq) {
            if let Some(action) = seen.my_move(game, bot, moves) {
                moves += 1;
                acted_at = Some(seen.seq);
                conn.send(&ClientMessage::Act(request::Act {
                    table: table.into(),
                    action,
                    seq: Some(seen.seq),
                }))
                .await?;
            }
        }
        let m = conn.recv_within(wait).await?;
        if let ServerMessage::Commitment { game_id, .. } = &m {
            let nonce = format!("{:016x}", moves ^ 0x5eed_0000_1234_abcd);
            seen.nonce = Some(nonce.clone());
            conn.send(&ClientMessage::Nonce(request::Nonce {
                table: table.into(),
                game_id: game_id.clone(),
                nonce,
            }))
            .await?;
        }
        if seen.take(table, &m) {
            return Ok(seen.records.last().cloned().unwrap_or(Value::Null));
        }
        if let ServerMessage::Error { code, message, .. } = &m {
            if code != "stale" && code != "not_your_turn" {
                return Err(ClientError::Refused {
                    code: *code,
                    message: message.clone(),
                });
            }
        }
    }
}

/// How long a test waits for a message before it fails.
pub const WAIT: Duration = Duration::from_secs(20);

/// Waits for a message matching `pred`, feeding everything into `seen`.
pub async fn until(
    conn: &mut Connection,
    table: &str,
    seen: &mut Seen,
    pred: impl FnMut(&ServerMessage) -> bool,
) -> ServerMessage {
    until_within(conn, table, seen, WAIT, pred).await
}

/// [`until`], waiting up to `wait` for each message: for a test whose messages come
/// after something slower than usual, such as the store's own retries.
pub async fn until_within(
    conn: &mut Connection,
    table: &str,
    seen: &mut Seen,
    wait: Duration,
    mut pred: impl FnMut(&ServerMessage) -> bool,
) -> ServerMessage {
    loop {
        let m = conn.recv_within(wait).await.expect("a message in time");
        seen.take(table, &m);
        if pred(&m) {
            return m;
        }
    }
}

/// Creates a table of `game` and waits for it; returns its id and what was seen of it.
pub async fn create_table(
    conn: &mut Connection,
    game: &str,
    options: TableOptions,
) -> (String, Seen) {
    let create = ClientMessage::CreateTable {
        game: game.into(),
        options,
    };
    open_table(conn, create).await
}

/// Sends `m`, which seats the client at a table it does not know yet (creating one, quick
/// play), and waits for that table; returns its id and what was seen of it.
pub async fn open_table(conn: &mut Connection, m: ClientMessage) -> (String, Seen) {
    send(conn, m).await;
    let m = loop {
        let m = conn.recv_within(WAIT).await.expect("a table");
        if matches!(m, ServerMessage::Table { .. }) {
            break m;
        }
    };
    let ServerMessage::Table { table, .. } = &m else {
        unreachable!()
    };
    let table = table.clone();
    let mut seen = Seen::default();
    seen.take(&table, &m);
    (table, seen)
}

/// Sends `m`, which brings the client to `table` (join, watch, resume), and waits for the
/// table's snapshot; returns it and what was seen of the table.
pub async fn enter(conn: &mut Connection, table: &str, m: ClientMessage) -> (ServerMessage, Seen) {
    send(conn, m).await;
    let mut seen = Seen::default();
    let snapshot = until(conn, table, &mut seen, |m| {
        matches!(m, ServerMessage::Table { .. })
    })
    .await;
    (snapshot, seen)
}

/// Sends `m`, which must go out.
pub async fn send(conn: &mut Connection, m: ClientMessage) {
    conn.send(&m).await.expect("sent");
}

/// `GET path` over a plain HTTP/1.1 connection with the extra `headers`: the status, the
/// response's head and its body (a chunked body put back together).
pub async fn http_get(addr: &str, path: &str, headers: &[(&str, &str)]) -> (u16, String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(addr)
        .await
        .expect("connects");
    let extra: String = headers
        .iter()
        .map(|(name, value)| format!("{name}: {value}\r\n"))
        .collect();
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\n{extra}Connection: close\r\n\r\n");
    s.write_all(request.as_bytes()).await.expect("sent");
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).await.expect("read");
    let text = String::from_utf8_lossy(&buf).to_string();
    let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let body = if head.to_lowercase().contains("transfer-encoding: chunked") {
        body.lines()
            .collect::<Vec<_>>()
            .chunks(2)
            .filter_map(|c| c.get(1).copied())
            .collect::<Vec<_>>()
            .join("")
    } else {
        body.to_string()
    };
    (status, head.to_string(), body)
}

/// The code of a refused session request; fails the test on anything else.
pub fn refused(r: Result<(String, server::protocol::UserInfo), ClientError>) -> String {
    match r {
        Err(ClientError::Refused { code, .. }) => code.to_string(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Plays one quick game of `game` as the connected user; returns the record.
pub async fn quick_game(conn: &mut Connection, game: &str, bot: &str) -> game::Record {
    let games = registry();
    let g = games.get(game).expect("a game");
    let quick = ClientMessage::QuickPlay {
        game: game.into(),
        level: None,
    };
    let (table, mut seen) = open_table(conn, quick).await;
    let record = play_game(conn, &table, g, bot, &mut seen, WAIT)
        .await
        .expect("the game finishes");
    serde_json::from_value(record).expect("a record")
}

/// `GET path`: the status and the body.
pub async fn get(addr: &str, path: &str) -> (u16, String) {
    get_as(addr, path, None).await
}

/// `GET path`, with `Authorization: Bearer <token>` if a token is given.
pub async fn get_as(addr: &str, path: &str, token: Option<&str>) -> (u16, String) {
    let auth = token.map(|t| format!("Bearer {t}"));
    let headers: Vec<(&str, &str)> = auth.iter().map(|a| ("Authorization", a.as_str())).collect();
    let (status, _, body) = http_get(addr, path, &headers).await;
    (status, body)
}
