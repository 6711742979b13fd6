//! Chaos under load: three real `qipai serve` nodes on one PostgreSQL database and a
//! Redis of this test's own (`redis-server` on a free port), and `qipai loadtest`
//! playing ten tables of every game over them, each client connected to a node at
//! random, flat out. In the middle of the measured window one node is killed with
//! SIGKILL; in a second run Redis is killed instead and started again on its port a few
//! seconds later.
//!
//! Either way: every game finishes, every acknowledged action is in its stored record
//! once (none lost, none doubled: the loadtest counts a replayed action once, by its
//! sequence number), every stored record verifies with `qipai verify`, and every table
//! where a player's connection dropped played again. After the node's death each of its
//! tables is taken over by another node; after Redis's restart every node says again
//! that it is alive and writes its tables in the directory again, and every node's lobby
//! lists every open table. The time from a table's first drop to its next action is
//! printed (p50/p99/max), not asserted.

use crate::common::{get, postgres_database, qipai, said, serve};
use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A deadlock guard for every wait, not a timing claim.
const WAIT: Duration = Duration::from_secs(60);

/// The nodes' leases: short, so a dead node's tables move within seconds.
const LEASE_TTL_MS: &str = "1500";

/// The prefix of the hall's keys in its Redis.
const PREFIX: &str = "chaos";

/// A private `redis-server` that keeps nothing on disk, killed when dropped.
struct Redis {
    child: Child,
    port: u16,
}

impl Redis {
    /// Starts one on a free port, and waits until it answers.
    fn start() -> Redis {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        Redis::start_on(port)
    }

    /// Starts one on `port` (again, after it was killed), and waits until it answers.
    fn start_on(port: u16) -> Redis {
        let child = Command::new("redis-server")
            .args(["--port", &port.to_string(), "--bind", "127.0.0.1"])
            .args(["--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server runs (it is needed for the chaos tests)");
        let redis = Redis { child, port };
        let deadline = Instant::now() + WAIT;
        while redis.cli(&["PING"]).trim() != "PONG" {
            assert!(Instant::now() < deadline, "redis-server did not answer");
            std::thread::sleep(Duration::from_millis(50));
        }
        redis
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}", self.port)
    }

    /// What `redis-cli ARGS` says to this server.
    fn cli(&self, args: &[&str]) -> String {
        Command::new("redis-cli")
            .args(["-p", &self.port.to_string()])
            .args(args)
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).to_string())
            .unwrap_or_default()
    }

    /// SIGKILL, and wait for it to be gone.
    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Three nodes of one hall, killed when dropped.
struct Hall {
    children: Vec<Option<Child>>,
    addrs: Vec<String>,
    dirs: Vec<PathBuf>,
    database: String,
}

impl Drop for Hall {
    fn drop(&mut self) {
        for c in self.children.iter_mut().flatten() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Hall {
    /// Three nodes (`node-0` …) on a fresh database named after `root`, on `redis`.
    fn start(root: &Path, redis: &Redis) -> Hall {
        let _ = std::fs::remove_dir_all(root);
        let database = postgres_database(root);
        let mut hall = Hall {
            children: Vec::new(),
            addrs: Vec::new(),
            dirs: Vec::new(),
            database: database.clone(),
        };
        for i in 0..3 {
            let dir = root.join(format!("node{i}"));
            let id = format!("node-{i}");
            let (child, addr) = serve(
                &dir,
                &[
                    "--database",
                    &database,
                    "--redis",
                    &redis.url(),
                    "--redis-prefix",
                    PREFIX,
                    "--node-id",
                    &id,
                    "--lease-ttl-ms",
                    LEASE_TTL_MS,
                    "--grace-seconds",
                    "300",
                    "--messages-per-second",
                    "1000",
                    "--message-burst",
                    "1000",
                    "--api-requests-per-second",
                    "0",
                    "--connections-per-address",
                    "0",
                    "--new-accounts-per-hour",
                    "0",
                ],
            );
            hall.children.push(Some(child));
            hall.addrs.push(addr);
            hall.dirs.push(dir);
        }
        hall
    }

    /// Node `i`'s log so far.
    fn log(&self, i: usize) -> String {
        std::fs::read_to_string(self.dirs[i].join("server.log")).unwrap_or_default()
    }

    /// Every node's log, for a failure's message (the tail of each).
    fn logs(&self) -> String {
        (0..self.dirs.len())
            .map(|i| {
                let log = self.log(i);
                let tail: Vec<&str> = log.lines().rev().take(40).collect();
                let tail: Vec<&str> = tail.into_iter().rev().collect();
                format!("--- node {i} ---\n{}\n", tail.join("\n"))
            })
            .collect()
    }
}

/// Runs `qipai loadtest` over the nodes at `addrs`: 30 clients, ten tables (two of every
/// game), flat out. When the window has run five seconds, `strike` is called (a kill).
/// Returns the JSON report; `logs` says what the nodes logged, for a failure's message.
fn load(addrs: &[String], logs: &dyn Fn() -> String, strike: impl FnOnce()) -> Value {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qipai"))
        .args(["loadtest", "--url", &addrs.join(",")])
        .args(["--clients", "30", "--tables", "10", "--pace", "flat"])
        .args(["--duration", "12", "--drain", "90", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qipai loadtest runs");
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line.clone());
            all.push_str(&line);
            all.push('\n');
        }
        all
    });
    let mut strike = Some(strike);
    let deadline = Instant::now() + WAIT;
    while strike.is_some() {
        match rx.recv_timeout(Duration::from_millis(200)) {
            Ok(line) if line.trim_start().starts_with("5s:") => {
                if let Some(s) = strike.take() {
                    s();
                }
            }
            Ok(_) => {}
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                assert!(
                    Instant::now() < deadline,
                    "the loadtest's window did not start\n{}",
                    logs()
                );
            }
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        }
    }
    assert!(strike.is_none(), "the loadtest ended before its window");
    let out = child.wait_with_output().expect("the loadtest ends");
    let stderr = reader.join().unwrap_or_default();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "loadtest failed: {stderr}\n{stdout}\n{}",
        logs()
    );
    serde_json::from_str(&stdout).unwrap_or_else(|e| panic!("{e}: {stdout}\n{stderr}"))
}

/// What every run must show: games played and every one checked, none lost or doubled,
/// every game a player acted in finished, every table that stood still played again.
fn assert_sound(report: &Value, hall: &Hall) {
    let context = || format!("{report:#}\n{}", hall.logs());
    let r = &report["resumes"];
    eprintln!(
        "{} reconnects; {} tables stood still, {} played again; first drop → next action: p50 {} ms, p99 {} ms, max {} ms",
        report["reconnects"], r["stopped"], r["resumed"], r["p50_ms"], r["p99_ms"], r["max_ms"]
    );
    assert!(report["games_finished"].as_u64() > Some(0), "{}", context());
    assert!(
        report["records"]["games"].as_u64() > Some(0),
        "{}",
        context()
    );
    assert_eq!(report["lost"], 0, "{}", context());
    assert_eq!(report["doubled"], 0, "{}", context());
    assert_eq!(report["records"]["miscounted"], 0, "{}", context());
    assert_eq!(report["unchecked_acks"], 0, "{}", context());
    assert!(report["reconnects"].as_u64() > Some(0), "{}", context());
    assert!(r["stopped"].as_u64() > Some(0), "{}", context());
    assert_eq!(r["resumed"], r["stopped"], "{}", context());
}

/// Every finished game of the hall, read from node `at`, checked with `qipai verify`.
async fn verify_all(hall: &Hall, at: usize, pool: &sqlx::PgPool) {
    let ids: Vec<String> =
        sqlx::query_scalar("SELECT id FROM games WHERE outcome IS NOT NULL ORDER BY id")
            .fetch_all(pool)
            .await
            .expect("the finished games");
    assert!(!ids.is_empty(), "no finished game");
    let mut lines = String::new();
    for id in &ids {
        let (status, body) = get(&hall.addrs[at], &format!("/api/games/{id}")).await;
        assert!(status.contains("200"), "{id}: {status}: {body}");
        let record: Value = serde_json::from_str(&body).expect("a record");
        lines.push_str(&record.to_string());
        lines.push('\n');
    }
    let file = hall.dirs[at].join("records.jsonl");
    std::fs::write(&file, lines).expect("written");
    let verified = qipai(&["verify", &file.display().to_string()], b"");
    assert!(verified.status.success(), "{}", said(&verified));
    eprintln!("{} stored records verify", ids.len());
}

async fn pool(hall: &Hall) -> sqlx::PgPool {
    sqlx::PgPool::connect(&hall.database)
        .await
        .expect("the hall's database")
}

/// A node is killed with SIGKILL under load: each of its tables is taken over by another
/// node and plays on; every game finishes, nothing is lost or doubled, every record
/// verifies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_killed_under_load_loses_no_action_and_its_tables_play_on() {
    let root = std::env::temp_dir().join(format!("qipai-chaos-kill-{}", std::process::id()));
    let redis = Redis::start();
    let mut hall = Hall::start(&root, &redis);
    let db = pool(&hall).await;
    let victim = 1;
    let mut doomed = hall.children[victim].take().expect("the node runs");
    let mut owned: Vec<String> = Vec::new();
    let runtime = tokio::runtime::Handle::current();
    let report = tokio::task::block_in_place(|| {
        load(&hall.addrs, &|| hall.logs(), || {
            // The tables it serves, from their leases, just before it dies.
            owned = runtime
                .block_on(
                    sqlx::query_scalar(
                        "SELECT table_id FROM table_leases WHERE node = $1 AND expires_at > $2",
                    )
                    .bind(format!("node-{victim}"))
                    .bind(unix_millis())
                    .fetch_all(&db),
                )
                .expect("the leases");
            let _ = doomed.kill();
            let _ = doomed.wait();
        })
    });
    assert!(
        !owned.is_empty(),
        "node {victim} served no table when killed"
    );
    for table in &owned {
        let took = format!("took over table {table} from node node-{victim}");
        assert!(
            [0, 2].iter().any(|&i| hall.log(i).contains(&took)),
            "table {table} of the killed node was not taken over\n{}",
            hall.logs()
        );
    }
    eprintln!(
        "node {victim} served {} tables when killed; every one was taken over",
        owned.len()
    );
    assert_sound(&report, &hall);
    verify_all(&hall, 0, &db).await;
    drop(redis);
}

/// Redis is killed under load and started again on its port three seconds later: the
/// tables keep playing or pause and resume; nothing is lost, doubled or reordered; every
/// record verifies; every node says again that it is alive, writes its tables in the
/// directory again, and every node's lobby lists every open table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redis_restarting_under_load_loses_no_action_and_the_hall_comes_back() {
    let root = std::env::temp_dir().join(format!("qipai-chaos-redis-{}", std::process::id()));
    let mut redis = Redis::start();
    let hall = Hall::start(&root, &redis);
    let db = pool(&hall).await;
    let port = redis.port;
    let report = tokio::task::block_in_place(|| {
        load(&hall.addrs, &|| hall.logs(), || {
            redis.kill();
            std::thread::sleep(Duration::from_secs(3));
            redis = Redis::start_on(port);
        })
    });
    assert_sound(&report, &hall);
    verify_all(&hall, 0, &db).await;
    let open: Vec<String> = sqlx::query_scalar("SELECT id FROM tables WHERE open ORDER BY id")
        .fetch_all(&db)
        .await
        .expect("the open tables");
    assert!(!open.is_empty(), "no open table");
    back_in_redis(&redis, &hall, open.len());
    for i in 0..3 {
        lobby_lists(&hall, i, &open).await;
    }
}

/// Waits until every node is alive again in Redis and the directory holds `tables`
/// tables.
fn back_in_redis(redis: &Redis, hall: &Hall, tables: usize) {
    let deadline = Instant::now() + WAIT;
    loop {
        let alive = (0..3)
            .filter(|i| {
                redis
                    .cli(&["EXISTS", &format!("{PREFIX}:alive:node-{i}")])
                    .trim()
                    == "1"
            })
            .count();
        let listed = redis
            .cli(&["--scan", "--pattern", &format!("{PREFIX}:table:*")])
            .lines()
            .filter(|l| !l.trim().is_empty())
            .count();
        if alive == 3 && listed == tables {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "after Redis's restart: {alive} nodes alive, {listed} of {tables} tables in the directory\n{}",
            hall.logs()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Waits until node `i`'s lobby lists every table of `open`.
async fn lobby_lists(hall: &Hall, i: usize, open: &[String]) {
    use server::client::Connection;
    use server::protocol::{ClientMessage, ServerMessage};
    let deadline = Instant::now() + WAIT;
    loop {
        let (mut conn, _, _) = Connection::open(&hall.addrs[i], None)
            .await
            .expect("connects");
        conn.session(ClientMessage::Guest).await.expect("a guest");
        conn.send(&ClientMessage::Lobby { game: None })
            .await
            .expect("sent");
        let listed: Vec<String> = loop {
            match conn.recv_within(WAIT).await.expect("the lobby") {
                ServerMessage::Lobby { tables } => {
                    break tables.into_iter().map(|t| t.id).collect()
                }
                _ => continue,
            }
        };
        conn.close().await;
        let missing: Vec<&String> = open.iter().filter(|t| !listed.contains(t)).collect();
        if missing.is_empty() {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "node {i}'s lobby lacks {missing:?}\n{}",
            hall.logs()
        );
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// Now in Unix milliseconds, as the leases count.
fn unix_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}
