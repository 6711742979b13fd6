//! A hall's data directory: a database written by an earlier version is opened by this
//! one, its migrations run, and what was stored keeps its meaning; and one hall at a time
//! serves it.

use crate::common::data_dir;
use server::metrics::Metrics;
use server::store::sqlite::SqliteStore;
use server::store::Store;
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{ConnectOptions, Connection};
use std::sync::Arc;

/// Games stored before games knew whether their table was private take it from their
/// table, so an upgrade does not put them in a public history.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_stored_before_the_private_column_take_it_from_their_table() {
    let dir = data_dir("migrate-private");
    std::fs::create_dir_all(&dir).expect("a data directory");
    let options = SqliteConnectOptions::new()
        .filename(dir.join("qipai.db"))
        .create_if_missing(true);
    let mut conn = options.connect().await.expect("a database");
    // The database as the first version left it.
    sqlx::migrate!("../server/migrations/sqlite")
        .run_to(1, &mut conn)
        .await
        .expect("the first migration");
    let rows = [
        "INSERT INTO users (id, name, guest, created_at) VALUES (1, 'erin', 0, 0)",
        "INSERT INTO tables (id, game, state, open, updated_at) VALUES \
         ('tpriv', 'gomoku', '{\"options\":{\"private\":true}}', 0, 0), \
         ('tpub', 'gomoku', '{\"options\":{\"private\":false}}', 0, 0)",
        "INSERT INTO games (id, table_id, game, config, seats, commitment, seed, nonces, \
         rated, started_at) VALUES \
         ('tpriv-1', 'tpriv', 'gomoku', 'null', 2, 'c', 's', '[]', 0, 1), \
         ('tpub-1', 'tpub', 'gomoku', 'null', 2, 'c', 's', '[]', 0, 2)",
        "INSERT INTO game_seats (game_id, seat, user_id, bot) VALUES \
         ('tpriv-1', 0, 1, NULL), ('tpriv-1', 1, NULL, 'engine'), \
         ('tpub-1', 0, 1, NULL), ('tpub-1', 1, NULL, 'engine')",
    ];
    for sql in rows {
        sqlx::query(sql).execute(&mut conn).await.expect(sql);
    }
    conn.close().await.expect("closed");
    let store = SqliteStore::open(&dir, Arc::new(Metrics::new()))
        .await
        .expect("this version opens it");
    let ids = |games: Vec<server::store::GameSummary>| {
        games
            .into_iter()
            .map(|g| (g.id, g.private))
            .collect::<Vec<_>>()
    };
    let public = store.history(1, 10, false, None).await.expect("a history");
    assert_eq!(ids(public), [("tpub-1".to_string(), false)]);
    let own = store.history(1, 10, true, None).await.expect("a history");
    assert_eq!(
        ids(own),
        [("tpub-1".to_string(), false), ("tpriv-1".to_string(), true)]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Two halls on one data directory would both restore its open tables and deal their
/// games twice: the second is refused at once, saying why, and starts once the first
/// has stopped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_hall_serves_a_data_directory_at_a_time() {
    let dir = data_dir("one-directory");
    let first = SqliteStore::open(&dir, Arc::new(Metrics::new()))
        .await
        .expect("the first hall's store");
    let error = SqliteStore::open(&dir, Arc::new(Metrics::new()))
        .await
        .err()
        .expect("the second is refused")
        .to_string();
    assert!(
        error.contains("another qipai hall is serving") && error.contains("one-directory"),
        "{error}"
    );
    first.close().await;
    SqliteStore::open(&dir, Arc::new(Metrics::new()))
        .await
        .expect("the directory is free once the first has stopped");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Accounts made before names were keyed by what they look like: opening the database
/// keys them again. Of two older accounts whose names look alike the older keeps the
/// key and the other logs in by its exact name, and no new look-alike may be registered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn older_look_alike_names_keep_their_logins_and_no_new_one_is_made() {
    let dir = data_dir("migrate-skeletons");
    std::fs::create_dir_all(&dir).expect("a data directory");
    let options = SqliteConnectOptions::new()
        .filename(dir.join("qipai.db"))
        .create_if_missing(true);
    let mut conn = options.connect().await.expect("a database");
    sqlx::migrate!("../server/migrations/sqlite")
        .run_to(4, &mut conn)
        .await
        .expect("the migrations before the skeletons");
    sqlx::query(
        "INSERT INTO users (id, name, name_key, password_hash, guest, created_at) VALUES \
         (1, 'alice', 'alice', 'h', 0, 0), (2, 'a丨ice', 'a丨ice', 'h', 0, 0), \
         (3, 'deleted-3', 'deleted-3', NULL, 0, 0)",
    )
    .execute(&mut conn)
    .await
    .expect("the older accounts");
    conn.close().await.expect("closed");
    let store = SqliteStore::open(&dir, Arc::new(Metrics::new()))
        .await
        .expect("this version opens it");
    for (typed, id) in [("ALICE", 1), ("alice", 1), ("a丨ice", 2), ("deleted-3", 3)] {
        let user = store.user_by_name(typed).await.expect("a lookup");
        assert_eq!(user.map(|u| u.info.id), Some(id), "{typed}");
    }
    let taken = store.create_user("aǀice", None, false).await;
    assert!(
        matches!(taken, Err(server::store::StoreError::NameTaken(_))),
        "{taken:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
