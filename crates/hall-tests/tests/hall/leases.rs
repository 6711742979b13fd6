//! A table whose lease another node claimed: the hall stops serving it at its next write.

use crate::common::{guest, open_table, play_game, registry, until, TestServer, WAIT};
use server::client::ClientError;
use server::protocol::{ClientMessage, ServerMessage};

/// Another node claims a table while its game runs (here the test bumps the table's
/// epoch in the database beside the hall, as a claim by a node that found the lease run
/// out would): the hall's next write for the table is refused as fenced, and the table
/// stops — its player hears that another server took it over, no move of it is stored
/// after the claim, and the table leaves the hall's list of tables.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_table_claimed_by_another_node_stops_at_its_next_write() {
    let server = TestServer::fresh("fenced-table").await;
    let games = registry();
    let gomoku = games.get("gomoku").expect("gomoku");
    let (mut conn, _) = guest(&server.addr).await;
    let (table, mut seen) = open_table(
        &mut conn,
        ClientMessage::QuickPlay {
            game: "gomoku".into(),
            level: None,
        },
    )
    .await;
    until(
        &mut conn,
        &table,
        &mut seen,
        |m| matches!(m, ServerMessage::Seats { info, .. } if info.status == "playing"),
    )
    .await;
    let claim = format!(
        "UPDATE table_leases SET epoch = epoch + 1, node = 'another-node' \
         WHERE table_id = '{table}'"
    );
    crate::common::execute_sql(&server, &[&claim]).await;
    let stored_at_claim = moves_stored(&server, &table).await;
    let stopped = play_game(&mut conn, &table, gomoku, "random", &mut seen, WAIT).await;
    match stopped {
        Err(ClientError::Refused { code, message }) => {
            assert_eq!(code.as_str(), "storage");
            assert!(message.contains("taken this table over"), "{message}");
        }
        other => panic!("the table went on after another node claimed it: {other:?}"),
    }
    // The refusal is sent before the table's task ends and leaves the hall's list: wait
    // for that (a deadlock guard, not a timing claim).
    let deadline = tokio::time::Instant::now() + WAIT;
    while server.hall.table(&table).is_some() {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the hall no longer serves the table"
        );
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(
        moves_stored(&server, &table).await,
        stored_at_claim,
        "no move stored after the claim"
    );
    server.stop().await;
}

/// How many moves of `table`'s games the hall's SQLite database holds.
async fn moves_stored(server: &TestServer, table: &str) -> i64 {
    use sqlx::{ConnectOptions, Connection as _};
    let mut db = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(server.dir.join("qipai.db"))
        .connect()
        .await
        .expect("the hall's database");
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM actions a JOIN games g ON g.id = a.game_id WHERE g.table_id = ?",
    )
    .bind(table)
    .fetch_one(&mut db)
    .await
    .expect("a count");
    db.close().await.expect("closed");
    n
}
