//! The hall on PostgreSQL (`qipai serve --database`), on a real server
//! ([`crate::common::postgres`]). The store's contract is held on both databases by
//! tests/hall/store.rs; these are the claims only PostgreSQL has: the database is made if
//! missing, several halls serve one database, lost connections are waited out, a
//! SQLite hall moves into one whole (`qipai copy-data`), and older accounts keep their
//! names on both.

use crate::common::Connection;
use crate::common::{data_dir, fast_config, get, get_as, quick_game, refused, TestServer};
use server::client::ClientError;
use server::metrics::Metrics;
use server::protocol::request;
use server::protocol::UserInfo;
use server::protocol::{ClientMessage, ServerMessage};
use server::store::postgres::PostgresStore;
use server::store::sqlite::SqliteStore;
use server::store::{Store, StoreError, StoreResult};
use server::{Server, ServerConfig};
use sqlx::migrate::MigrateDatabase;
use sqlx::postgres::PgConnection;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection as _};
use std::sync::Arc;
use std::time::Instant;

/// A configuration on a database of its own, which does not exist yet.
fn on_postgres(name: &str) -> ServerConfig {
    let dir = data_dir(name);
    let database = crate::common::database_on(&crate::common::postgres(), &dir);
    let mut config = fast_config(dir);
    config.database = Some(database);
    config
}

fn register(name: &str) -> ClientMessage {
    ClientMessage::Register {
        name: name.into(),
        password: "a long password".into(),
    }
}

/// Several halls (nodes) serve one database: a second starts at once beside the first,
/// an account made on one logs in on the other, and the second does not restore a table
/// whose lease the first holds. When the first stops and lets its leases go, the second
/// takes the table over at its next look.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn several_halls_serve_one_database() {
    let mut config = on_postgres("many-halls");
    config.timing.lease_ttl = std::time::Duration::from_millis(1000);
    config.timing.lease_renew = std::time::Duration::from_millis(300);
    let first = TestServer::start(config.clone()).await;
    let (mut c, _, _) = Connection::open(&first.addr, None).await.expect("connects");
    c.session(register("olga")).await.expect("registered");
    let (table, _) = crate::common::open_table(
        &mut c,
        ClientMessage::QuickPlay {
            game: "gomoku".into(),
            level: None,
        },
    )
    .await;

    let second = TestServer::start(config).await;
    assert_ne!(first.hall.node, second.hall.node, "each node its own id");
    assert!(
        second.hall.table(&table).is_none(),
        "the second hall leaves the first's table alone"
    );
    let (mut d, _, _) = Connection::open(&second.addr, None)
        .await
        .expect("connects");
    assert_eq!(refused(d.session(register("OLGA")).await), "name_taken");
    d.session(ClientMessage::Login {
        name: "olga".into(),
        password: "a long password".into(),
    })
    .await
    .expect("the account made on the first hall");

    drop(c);
    first.stop().await;
    // A deadlock guard, not a timing claim: the takeover comes within a look.
    let deadline = Instant::now() + std::time::Duration::from_secs(30);
    while second.hall.table(&table).is_none() {
        assert!(Instant::now() < deadline, "the table was never taken over");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    second.stop().await;
}

/// A database server is reached over a network that breaks, and restarts: a hall whose
/// every connection to it is cut again and again while games are played finishes them,
/// every move and every end stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hall_rides_out_broken_database_connections() {
    use sqlx::Connection as _;
    let config = on_postgres("cuts");
    let database = config.database.clone().expect("a database");
    let name = database.rsplit('/').next().expect("a name").to_string();
    let hall = TestServer::start(config).await;
    let (mut c, _, _) = Connection::open(&hall.addr, None).await.expect("connects");
    c.session(register("cora")).await.expect("registered");

    let mut admin =
        sqlx::postgres::PgConnection::connect(&format!("{}/postgres", crate::common::postgres()))
            .await
            .expect("the server");
    let (stop, mut stopped) = tokio::sync::oneshot::channel::<()>();
    let cutter = tokio::spawn(async move {
        let mut cuts = 0;
        while stopped.try_recv().is_err() {
            let cut: i64 = sqlx::query_scalar(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
                 WHERE datname = $1 AND pid <> pg_backend_pid()",
            )
            .bind(&name)
            .fetch_one(&mut admin)
            .await
            .expect("cut");
            cuts += cut;
            tokio::time::sleep(std::time::Duration::from_millis(40)).await;
        }
        cuts
    });
    let mut records = Vec::new();
    for game in ["doudizhu", "bigtwo", "gomoku"] {
        records.push(game_through_cuts(&mut c, game).await);
    }
    let _ = stop.send(());
    let cuts = cutter.await.expect("the cutter");
    assert!(cuts >= 10, "only {cuts} connections cut");
    for record in &records {
        let (status, body) = get(&hall.addr, &format!("/api/games/{}", record.id)).await;
        assert_eq!(status, 200, "{body}");
        let stored: game::Record = serde_json::from_str(&body).expect("a record");
        assert_eq!(stored.actions.len(), record.actions.len(), "{}", record.id);
        assert_eq!(stored.outcome, record.outcome, "{}", record.id);
    }

    drop(c);
    hall.stop().await;
}

/// One quick game of `game` played to its end while the database's connections are cut.
/// The store tries each write again for a few seconds; a write that still fails (every
/// attempt cut, which a loaded machine makes likelier) stalls the table with a `storage`
/// notice until the store answers, which is the hall riding the cuts out too: the player
/// goes on, sending a refused move again, as the page and the terminal do.
async fn game_through_cuts(c: &mut Connection, game: &str) -> game::Record {
    let games = crate::common::registry();
    let g = games.get(game).expect("a game");
    let quick = ClientMessage::QuickPlay {
        game: game.into(),
        level: None,
    };
    let (table, mut seen) = crate::common::open_table(c, quick).await;
    let mut stalls = 0;
    loop {
        match crate::common::play_game(c, &table, g, "random", &mut seen, crate::common::WAIT).await
        {
            Ok(record) => return serde_json::from_value(record).expect("a record"),
            Err(ClientError::Refused { code, message }) if code == "storage" && stalls < 20 => {
                stalls += 1;
                eprintln!("{game}: the table waits for the store ({message}); playing on");
            }
            Err(e) => panic!("the {game} game finishes: {e:?}"),
        }
    }
}

/// A hall whose database is reached through a [`Relay`] the test can cut, and a guest at
/// a quick-play Dou Dizhu table there: the relay, the hall, the guest's connection, the
/// table and what it has seen of it.
async fn quick_play_through_relay(
    name: &str,
) -> (Relay, TestServer, Connection, String, crate::common::Seen) {
    let server = crate::common::postgres();
    let (user, host) = server.rsplit_once('@').expect("user@host:port");
    let relay = Relay::start(host.to_string()).await;
    let dir = data_dir(name);
    let mut config = fast_config(dir.clone());
    config.database = Some(crate::common::database_on(
        &format!("{user}@{}", relay.addr),
        &dir,
    ));
    let hall = TestServer::start(config).await;
    let (mut conn, _) = crate::common::guest(&hall.addr).await;
    let quick = ClientMessage::QuickPlay {
        game: "doudizhu".into(),
        level: None,
    };
    let (table, seen) = crate::common::open_table(&mut conn, quick).await;
    (relay, hall, conn, table, seen)
}

/// A TCP relay to the test's PostgreSQL server that the test can cut: every connection
/// through it closed, and new ones closed as they come, until it is mended. A network
/// between a hall and its database that drops, as real as this machine allows.
struct Relay {
    /// `host:port` to connect to instead of the server.
    addr: String,
    up: tokio::sync::watch::Sender<bool>,
}

impl Relay {
    async fn start(to: String) -> Relay {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("a port");
        let addr = listener.local_addr().expect("an address").to_string();
        let (up, watch) = tokio::sync::watch::channel(true);
        tokio::spawn(async move {
            while let Ok((mut inbound, _)) = listener.accept().await {
                let mut watch = watch.clone();
                if !*watch.borrow() {
                    continue;
                }
                let to = to.clone();
                tokio::spawn(async move {
                    let Ok(mut outbound) = tokio::net::TcpStream::connect(&to).await else {
                        return;
                    };
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                        _ = watch.wait_for(|up| !up) => {}
                    }
                });
            }
        });
        Relay { addr, up }
    }

    fn cut(&self) {
        self.up.send_replace(false);
    }

    fn mend(&self) {
        self.up.send_replace(true);
    }
}

/// How long [`a_table_waits_out_a_lost_database_and_goes_on_with_its_game`] waits for
/// each message. Several come only after the store's own retries have run out (seconds
/// each), and the moves after the network is back are commits to the PostgreSQL server
/// that every test of the suite shares, which can be slow to answer under the suite's
/// full load: twenty seconds were once not enough. No claim of the test is about speed.
const PATIENCE: std::time::Duration = std::time::Duration::from_secs(90);

/// The database out of reach for longer than the store's own retries, a network that
/// drops everything for about ten seconds: a move made then is refused, and the table
/// neither goes on without the store nor drops its game. It says it waits, shows itself
/// stalled and refuses moves at once, saying why; when the network is back it goes on
/// with the same game, from its last stored move, to an end that is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_waits_out_a_lost_database_and_goes_on_with_its_game() {
    let (relay, hall, mut conn, table, mut seen) = quick_play_through_relay("lost-database").await;
    let games = crate::common::registry();
    let g = games.get("doudizhu").expect("doudizhu");
    let action = loop {
        if let Some(action) = seen.my_move(g, "random", 1) {
            break action;
        }
        let m = conn.recv_within(PATIENCE).await.expect("a message");
        seen.take(&table, &m);
    };
    let game_id = seen.game.as_ref().expect("a game").game_id.clone();
    let me = seen.you.expect("a seat");
    let act = |action: &serde_json::Value, seq| {
        ClientMessage::Act(request::Act {
            table: table.clone(),
            action: action.clone(),
            seq: Some(seq),
        })
    };

    relay.cut();
    let cut_at = Instant::now();
    crate::common::send(&mut conn, act(&action, seen.seq)).await;
    let mut errors = Vec::new();
    crate::common::until_within(&mut conn, &table, &mut seen, PATIENCE, |m| {
        if let ServerMessage::Error { code, message, .. } = m {
            errors.push(format!("{code}: {message}"));
        }
        matches!(m, ServerMessage::Seats { info, .. } if info.status == "stalled")
    })
    .await;
    assert_eq!(
        errors,
        [
            "storage: the server could not store that move; try again",
            "storage: the server cannot read this game back from its storage; the table waits for it",
        ]
    );
    crate::common::send(&mut conn, act(&action, seen.seq)).await;
    let m = crate::common::until_within(&mut conn, &table, &mut seen, PATIENCE, |m| {
        matches!(m, ServerMessage::Error { .. })
    })
    .await;
    assert!(
        matches!(&m, ServerMessage::Error { code, message, .. }
            if code == "storage" && message.contains("waiting for its storage")),
        "a move while the table waits is refused at once: {m:?}"
    );
    tokio::time::sleep(std::time::Duration::from_secs(10).saturating_sub(cut_at.elapsed())).await;
    relay.mend();

    let snapshot = crate::common::until_within(&mut conn, &table, &mut seen, PATIENCE, |m| {
        matches!(m, ServerMessage::Table { game: Some(_), .. })
    })
    .await;
    let ServerMessage::Table {
        game: Some(state), ..
    } = snapshot
    else {
        unreachable!("a snapshot with its game")
    };
    assert_eq!(state.game_id, game_id, "the same game goes on");
    assert!(
        state.to_act.contains(&me) && state.deadline_ms.is_some(),
        "the move is ours again, against the clock: {state:?}"
    );
    let record: game::Record = serde_json::from_value(
        crate::common::play_game(&mut conn, &table, g, "random", &mut seen, PATIENCE)
            .await
            .expect("the game is played to its end"),
    )
    .expect("a record");
    assert_eq!(record.id, game_id);
    let (status, body) = get(&hall.addr, &format!("/api/games/{game_id}")).await;
    assert_eq!(status, 200, "{body}");
    let stored: game::Record = serde_json::from_str(&body).expect("a record");
    assert_eq!(stored.actions, record.actions);
    assert_eq!(stored.outcome, record.outcome);
    drop(conn);
    hall.stop().await;
}

/// The network to the database drops as a quick-play table is about to deal: the deal,
/// whose commitment everyone has, cannot be stored. The table says so, waits for the
/// store (every seat still ready) and deals that same game when the network is back; it
/// is played to an end that is stored. (It used to go back to waiting with every seat
/// ready and no deal coming.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deal_the_store_could_not_take_is_dealt_when_it_answers() {
    let (relay, hall, mut conn, table, mut seen) = quick_play_through_relay("lost-deal").await;
    let games = crate::common::registry();
    let g = games.get("doudizhu").expect("doudizhu");
    relay.cut();
    let cut_at = Instant::now();
    let mut committed = None;
    crate::common::until_within(&mut conn, &table, &mut seen, PATIENCE, |m| {
        if let ServerMessage::Commitment { game_id, .. } = m {
            committed = Some(game_id.clone());
        }
        matches!(m, ServerMessage::Error { code, message, .. }
            if code == "storage" && message.contains("could not store the deal"))
    })
    .await;
    let committed = committed.expect("a commitment before the deal");
    assert!(
        seen.game.is_none(),
        "no card is seen before the deal is stored"
    );
    tokio::time::sleep(std::time::Duration::from_secs(8).saturating_sub(cut_at.elapsed())).await;
    relay.mend();

    let record: game::Record = serde_json::from_value(
        crate::common::play_game(&mut conn, &table, g, "random", &mut seen, PATIENCE)
            .await
            .expect("the game is dealt and played to its end"),
    )
    .expect("a record");
    assert_eq!(
        record.id, committed,
        "the game committed to is the one dealt"
    );
    let (status, body) = get(&hall.addr, &format!("/api/games/{}", record.id)).await;
    assert_eq!(status, 200, "{body}");
    let stored: game::Record = serde_json::from_str(&body).expect("a record");
    assert_eq!(stored.actions, record.actions);
    assert_eq!(stored.outcome, record.outcome);
    drop(conn);
    hall.stop().await;
}

/// An address that is no database, or a server that is not there, stops the hall before
/// it listens, saying why.
#[tokio::test]
async fn a_bad_database_address_stops_the_hall() {
    for (database, says) in [
        ("mysql://somewhere/qipai", "bad database address"),
        ("postgres://postgres@127.0.0.1:1/qipai", "storage failed"),
    ] {
        let mut config = fast_config(data_dir("bad-database"));
        config.database = Some(database.into());
        let error = Server::bind(crate::common::registry(), config)
            .await
            .err()
            .expect("refused")
            .to_string();
        assert!(error.contains(says), "{database}: {error}");
    }
}

/// A host who started on SQLite moves the hall into PostgreSQL and loses nothing: the
/// same records, byte for byte, the same histories, the accounts with their passwords
/// and sessions, the open tables; new accounts go on numbering after the old ones. A
/// database that already holds a hall is not copied into, and a directory with no hall
/// is said so.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sqlite_hall_moves_into_postgresql_whole() {
    let mut config = fast_config(data_dir("copy-from"));
    config.database = None;
    let dir = config.data_dir.clone();
    let sqlite = TestServer::start(config).await;
    let (mut c, _, _) = Connection::open(&sqlite.addr, None)
        .await
        .expect("connects");
    let (token, user) = c.session(register("vera")).await.expect("registered");
    let mut records = Vec::new();
    for game in ["doudizhu", "gomoku", "tenhalf"] {
        records.push(quick_game(&mut c, game, "random").await.id);
    }
    let history = "/api/users/vera/games?limit=100";
    let (_, before) = get_as(&sqlite.addr, history, Some(&token)).await;
    let mut games_before = Vec::new();
    for id in &records {
        games_before.push(get(&sqlite.addr, &format!("/api/games/{id}")).await);
    }
    drop(c);
    let target = on_postgres("copy-to");
    let url = target.database.clone().expect("a database");
    let error = server::store::copy::sqlite_to_postgres(&dir, &url)
        .await
        .expect_err("a hall still serving the directory is not copied")
        .to_string();
    assert!(error.contains("another qipai hall is serving"), "{error}");
    sqlite.stop().await;

    let copied = server::store::copy::sqlite_to_postgres(&dir, &url)
        .await
        .expect("copied");
    let counts: std::collections::HashMap<_, _> = copied.0.iter().cloned().collect();
    assert_eq!(counts["games"], 3, "{copied}");
    assert!(counts["actions"] > 3 && counts["users"] >= 1, "{copied}");

    let pg = TestServer::start(target.clone()).await;
    let (_, after) = get_as(&pg.addr, history, Some(&token)).await;
    assert_eq!(
        after, before,
        "the history, read with the session that moved"
    );
    for (id, game) in records.iter().zip(&games_before) {
        assert_eq!(&get(&pg.addr, &format!("/api/games/{id}")).await, game);
    }
    let (mut c, _, _) = Connection::open(&pg.addr, None).await.expect("connects");
    let (_, again) = c
        .session(ClientMessage::Login {
            name: "Vera".into(),
            password: "a long password".into(),
        })
        .await
        .expect("the password moved");
    assert_eq!(again.id, user.id);
    let (_, newcomer) = c.session(register("walt")).await.expect("registered");
    assert!(newcomer.id > user.id, "{newcomer:?} after {user:?}");
    drop(c);
    pg.stop().await;

    let error = server::store::copy::sqlite_to_postgres(&dir, &url)
        .await
        .expect_err("a database with a hall")
        .to_string();
    assert!(error.contains("already holds a hall"), "{error}");
    let error = server::store::copy::sqlite_to_postgres(&data_dir("nothing"), &url)
        .await
        .expect_err("no hall")
        .to_string();
    assert!(error.contains("no hall's data"), "{error}");
}

/// The accounts a typed name reaches: every form of a name each older account below
/// should still log in by (the stored id, or none).
async fn reached(store: &dyn Store) -> Vec<(&'static str, Option<i64>)> {
    let mut got = Vec::new();
    for typed in ["ÉLISE", "Élise", "élise", "mia", "ＭＩＡ", "BOB", "nobody"] {
        let user = store.user_by_name(typed).await.expect("a lookup");
        got.push((typed, user.map(|u| u.info.id)));
    }
    got
}

/// Accounts made before the hall kept a key beside each name. SQLite's case-folding
/// told "Élise" and "élise" apart, and PostgreSQL's `lower()` "mia" and "ｍｉａ" (full
/// width); the keys fold them alike. Opening such a database gives every account its
/// key: of two that fold alike the older keeps it, and the other still logs in by its
/// exact name. Nothing new may take any form of those names; a copy into PostgreSQL
/// (which refused such a pair before) keeps it all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn older_accounts_whose_names_fold_alike_keep_their_logins() {
    let metrics = || Arc::new(Metrics::new());
    let dir = data_dir("legacy-names");
    std::fs::create_dir_all(&dir).expect("a data directory");
    let mut conn = SqliteConnectOptions::new()
        .filename(dir.join("qipai.db"))
        .create_if_missing(true)
        .connect()
        .await
        .expect("a database");
    sqlx::migrate!("../server/migrations/sqlite")
        .run_to(3, &mut conn)
        .await
        .expect("the migrations before the keys");
    sqlx::query(
        "INSERT INTO users (id, name, password_hash, guest, created_at) VALUES \
         (1, 'Élise', 'h', 0, 0), (2, 'élise', 'h', 0, 0), (3, 'ｍｉａ', 'h', 0, 0), \
         (4, 'bob', 'h', 0, 0)",
    )
    .execute(&mut conn)
    .await
    .expect("the older accounts");
    conn.close().await.expect("closed");
    let expected = [
        ("ÉLISE", Some(1)),
        ("Élise", Some(1)),
        ("élise", Some(2)),
        ("mia", Some(3)),
        ("ＭＩＡ", Some(3)),
        ("BOB", Some(4)),
        ("nobody", None),
    ];
    let taken = |r: StoreResult<UserInfo>| matches!(r, Err(StoreError::NameTaken(_)));

    let sqlite = SqliteStore::open(&dir, metrics()).await.expect("opened");
    assert_eq!(reached(&sqlite).await, expected);
    // "e" is not "é": another name.
    assert!(!taken(sqlite.create_user("elise", None, false).await));
    for name in ["élise", "ÉLISE", "mia", "Bob", "ELISE"] {
        assert!(taken(sqlite.create_user(name, None, false).await), "{name}");
    }
    sqlite.close().await;

    let url =
        crate::common::database_on(&crate::common::postgres(), &data_dir("legacy-names-copy"));
    server::store::copy::sqlite_to_postgres(&dir, &url)
        .await
        .expect("copied, keys and all");
    let copied = PostgresStore::open(&url, metrics()).await.expect("opened");
    assert_eq!(reached(&copied).await, expected);
    assert!(taken(copied.create_user("ÉLISE", None, false).await));
    copied.close().await;

    let url = crate::common::database_on(&crate::common::postgres(), &data_dir("legacy-names-pg"));
    sqlx::Postgres::create_database(&url)
        .await
        .expect("a database");
    let mut conn = PgConnection::connect(&url).await.expect("connects");
    sqlx::migrate!("../server/migrations/postgres")
        .run_to(1, &mut conn)
        .await
        .expect("the first migration");
    sqlx::query(
        "INSERT INTO users (id, name, password_hash, guest, created_at) VALUES \
         (1, 'Élise', 'h', FALSE, 0), (3, 'ｍｉａ', 'h', FALSE, 0), (4, 'bob', 'h', FALSE, 0), \
         (5, 'mia', 'h', FALSE, 0)",
    )
    .execute(&mut conn)
    .await
    .expect("the older accounts");
    conn.close().await.expect("closed");
    let older = PostgresStore::open(&url, metrics()).await.expect("opened");
    let got = reached(&older).await;
    assert_eq!(
        got,
        [
            ("ÉLISE", Some(1)),
            ("Élise", Some(1)),
            ("élise", Some(1)),
            ("mia", Some(5)),
            ("ＭＩＡ", Some(3)),
            ("BOB", Some(4)),
            ("nobody", None),
        ]
    );
    assert!(taken(older.create_user("MIA", None, false).await));
    older.close().await;
    let _ = std::fs::remove_dir_all(&dir);
}

/// A database its operator shuts to new connections for a moment
/// (`ALTER DATABASE … ALLOW_CONNECTIONS false`, SQLSTATE 55000), with every connection
/// it had ended, is waited for as a broken network is: an account made meanwhile is
/// made once the database opens again, not refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_database_shut_to_connections_for_a_moment_is_waited_for() {
    let url = crate::common::database_on(&crate::common::postgres(), &data_dir("shut-a-moment"));
    let database = url.rsplit('/').next().expect("a database name").to_string();
    let store = PostgresStore::open(&url, Arc::new(Metrics::new()))
        .await
        .expect("opened");
    let mut admin = PgConnection::connect(&format!("{}/postgres", crate::common::postgres()))
        .await
        .expect("the server's own database");
    // The name is the test's own: letters, digits and '_'.
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "ALTER DATABASE {database} ALLOW_CONNECTIONS false"
    )))
    .execute(&mut admin)
    .await
    .expect("shut");
    sqlx::query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1")
        .bind(&database)
        .execute(&mut admin)
        .await
        .expect("its connections ended");
    let opened = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let open = {
        let opened = opened.clone();
        let database = database.clone();
        tokio::spawn(async move {
            tokio::time::sleep(std::time::Duration::from_millis(1000)).await;
            opened.store(true, std::sync::atomic::Ordering::SeqCst);
            sqlx::query(sqlx::AssertSqlSafe(format!(
                "ALTER DATABASE {database} ALLOW_CONNECTIONS true"
            )))
            .execute(&mut admin)
            .await
            .expect("opened again");
        })
    };
    let made = store.create_user("rosa", Some("h"), false).await;
    assert!(
        opened.load(std::sync::atomic::Ordering::SeqCst),
        "answered before the database opened again: {made:?}"
    );
    let made = made.expect("made once the database opened again");
    open.await.expect("the operator's task");
    let found = store.user_by_name("Rosa").await.expect("a lookup");
    assert_eq!(found.map(|u| u.info.id), Some(made.id));
    store.close().await;
}

/// A node's look for tables to take over leaves alone a table it holds a live lease on but
/// does not serve yet: one it is opening that moment (its lease claimed and the table
/// stored, its task not yet listed). The look once claimed such a table again, as its
/// own "free" table, and the table being opened was fenced at its first write (seen in a
/// three-node load test's setup: a table taken over from its own node 234 ms into its life).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_does_not_take_over_a_table_it_is_opening() {
    let server = TestServer::start(on_postgres("opening-table")).await;
    let (mut c, _, _) = Connection::open(&server.addr, None)
        .await
        .expect("connects");
    c.session(register("nadia")).await.expect("registered");
    let (served, _) = crate::common::open_table(
        &mut c,
        ClientMessage::QuickPlay {
            game: "gomoku".into(),
            level: None,
        },
    )
    .await;
    let store = server.hall.store.clone();
    let mut opening = store
        .open_tables()
        .await
        .expect("the open tables")
        .into_iter()
        .find(|t| t.id == served)
        .expect("the table served");
    // Halfway through opening a table, as `Hall::create_table` does it.
    opening.id = "topening".into();
    let lease = store
        .claim_table(
            &opening.id,
            &server.hall.node,
            std::time::Duration::from_secs(60),
            server::store::unix_millis(),
            server::store::Claim::IfFree,
        )
        .await
        .expect("claimed");
    store
        .save_table(&lease.fence(), &opening)
        .await
        .expect("stored");
    server::takeover::scan(&server.hall).await;
    assert!(
        server.hall.table(&opening.id).is_none(),
        "the look took over a table its own node is opening"
    );
    store
        .save_table(&lease.fence(), &opening)
        .await
        .expect("the opening node's lease is still current");
    server.stop().await;
}
