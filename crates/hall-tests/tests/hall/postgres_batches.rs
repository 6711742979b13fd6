//! PostgreSQL's group commit when the database ends a batch's connection mid-way: the
//! batch is tried again whole, and what is stored is exactly what was written. (That
//! writes arriving together share commits, and that one refused among them fails alone,
//! is the store's contract on both databases: `store_contracts::commits`.)

use crate::common::{data_dir, database_on, postgres};
use crate::store_contracts::fixture::{computer, deal, person};
use futures_util::future::join_all;
use serde_json::json;
use server::metrics::Metrics;
use server::store::postgres::PostgresStore;
use server::store::{unix_millis, Claim, Store};
use sqlx::migrate::MigrateDatabase;
use sqlx::postgres::PgConnection;
use sqlx::Connection as _;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Tables writing at once.
const TABLES: usize = 16;

/// How many batches the test cuts off mid-way before it stops writing.
const CUTS: usize = 3;

/// At most this many rounds of writes: a guard against a loop that never meets a batch
/// to cut, not a timing claim.
const MOST_ROUNDS: usize = 3000;

/// Every round, each of [`TABLES`] tables appends a move and opens a session at once,
/// while another connection ends (`pg_terminate_backend`) the database's connections that
/// are inside a transaction between two statements: a batch mid-way. Each write is
/// answered as done, none refused; afterwards the database holds each move and each
/// session once, exactly as written; and the writes shared commits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_cut_off_mid_way_is_tried_again_whole() {
    let dir = data_dir("cut-batches");
    let url = database_on(&postgres(), &dir);
    let database = url.rsplit('/').next().expect("a database name").to_string();
    let metrics = Arc::new(Metrics::new());
    let store = PostgresStore::open(&url, metrics.clone())
        .await
        .expect("opened");
    let ivy = store
        .create_user("ivy", Some("hash"), false)
        .await
        .expect("an account");
    let mut fences = Vec::new();
    for t in 0..TABLES {
        let table = format!("cut-{t}");
        let fence = store
            .claim_table(
                &table,
                "node",
                Duration::from_secs(600),
                unix_millis(),
                Claim::IfFree,
            )
            .await
            .expect("claimed")
            .fence();
        let dealt = deal(
            "gomoku",
            &format!("{table}-1"),
            &table,
            vec![person(&ivy), computer()],
            t as u64,
        );
        store
            .start_game(&fence, &dealt.stored)
            .await
            .expect("dealt");
        fences.push(fence);
    }

    let cut = Arc::new(AtomicUsize::new(0));
    let done = Arc::new(AtomicBool::new(false));
    let cutter = tokio::spawn({
        let (cut, done) = (cut.clone(), done.clone());
        async move {
            let mut admin = PgConnection::connect(&format!("{}/postgres", postgres()))
                .await
                .expect("the server's own database");
            while !done.load(Ordering::SeqCst) && cut.load(Ordering::SeqCst) < CUTS {
                let mid_way: Vec<i32> = sqlx::query_scalar(
                    "SELECT pid FROM pg_stat_activity \
                     WHERE datname = $1 AND state = 'idle in transaction'",
                )
                .bind(&database)
                .fetch_all(&mut admin)
                .await
                .expect("the connections");
                for pid in mid_way {
                    let ended: bool = sqlx::query_scalar("SELECT pg_terminate_backend($1)")
                        .bind(pid)
                        .fetch_one(&mut admin)
                        .await
                        .expect("terminated");
                    if ended {
                        cut.fetch_add(1, Ordering::SeqCst);
                    }
                }
            }
        }
    });

    let (commits, writes) = (
        metrics.commit_batch.get_sample_count(),
        metrics.commit_batch.get_sample_sum(),
    );
    let user = ivy.id;
    let mut rounds = 0;
    while cut.load(Ordering::SeqCst) < CUTS {
        assert!(rounds < MOST_ROUNDS, "no batch was met mid-way to cut");
        let moves = fences.iter().map(|fence| {
            let public = json!({ "round": rounds });
            let store = &store;
            async move {
                let game = format!("{}-1", fence.table);
                store
                    .append_action(fence, &game, rounds, 0, &public, None)
                    .await
            }
        });
        let sessions = (0..TABLES).map(|t| {
            let store = &store;
            async move {
                let token = format!("token-{rounds}-{t}");
                store.create_session(user, &token, i64::MAX).await
            }
        });
        let (moves, sessions) = tokio::join!(join_all(moves), join_all(sessions));
        for answer in moves.into_iter().chain(sessions) {
            answer.expect("every write done, the cut batches tried again");
        }
        rounds += 1;
    }
    done.store(true, Ordering::SeqCst);
    cutter.await.expect("the cutter");
    let (commits, writes) = (
        metrics.commit_batch.get_sample_count() - commits,
        metrics.commit_batch.get_sample_sum() - writes,
    );
    assert_eq!(
        writes as usize,
        2 * TABLES * rounds,
        "each write counted once"
    );
    assert!(
        (commits as f64) < writes / 2.0,
        "{writes} writes took {commits} commits"
    );

    let mut conn = PgConnection::connect(&url).await.expect("connects");
    let stored: Vec<(String, i64, String)> =
        sqlx::query_as("SELECT game_id, idx, public FROM actions ORDER BY game_id, idx")
            .fetch_all(&mut conn)
            .await
            .expect("the moves");
    let mut written = Vec::new();
    for fence in &fences {
        for round in 0..rounds {
            let public = json!({ "round": round }).to_string();
            written.push((format!("{}-1", fence.table), round as i64, public));
        }
    }
    written.sort();
    assert_eq!(stored, written, "each move stored once, as written");
    let sessions: Vec<String> = sqlx::query_scalar("SELECT token_hash FROM sessions")
        .fetch_all(&mut conn)
        .await
        .expect("the sessions");
    assert_eq!(sessions.len(), TABLES * rounds, "each session stored once");
    conn.close().await.expect("closed");
    store.close().await;
    let _ = sqlx::Postgres::force_drop_database(&url).await;
    let _ = std::fs::remove_dir_all(&dir);
}
