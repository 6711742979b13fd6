//! Moving a hall from SQLite to PostgreSQL: every row of a stopped hall's `qipai.db`
//! copied into an empty PostgreSQL database, in one transaction, so a host who started
//! with the one-command SQLite hall keeps every account, game, replay and rating when the
//! community outgrows it (`qipai copy-data`).
//!
//! The copy is driven by a list of each table's columns and their kinds rather than by
//! one function a table: the two schemas hold the same columns, and differ only in how
//! a flag (an integer in SQLite, a boolean here) and a JSON document (text there, `jsonb`
//! here) are kept.

use super::postgres::PostgresStore;
use super::rows::db;
use super::{Cause, Store, StoreError, StoreResult};
use crate::metrics::Metrics;
use futures_util::TryStreamExt;
use sqlx::postgres::PgConnection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteConnection, SqliteRow};
use sqlx::{ConnectOptions, Postgres, QueryBuilder, Row};
use std::path::Path;
use std::sync::Arc;

/// How a column is kept, so that it is read from SQLite and written to PostgreSQL as
/// the same value.
#[derive(Clone, Copy)]
enum Kind {
    /// An integer, or NULL.
    Int,
    /// A flag: 0 or 1 in SQLite, a boolean in PostgreSQL.
    Flag,
    /// A floating-point number.
    Real,
    /// Text, or NULL.
    Text,
    /// A JSON document, or NULL: text in SQLite, `jsonb` in PostgreSQL.
    Json,
}

/// Every table of the hall, parents before children, with its columns.
const TABLES: &[(&str, &[(&str, Kind)])] = &[
    (
        "users",
        &[
            ("id", Kind::Int),
            ("name", Kind::Text),
            ("name_key", Kind::Text),
            ("password_hash", Kind::Text),
            ("guest", Kind::Flag),
            ("created_at", Kind::Int),
            ("banned", Kind::Text),
            ("banned_at", Kind::Int),
        ],
    ),
    (
        "sessions",
        &[
            ("token_hash", Kind::Text),
            ("user_id", Kind::Int),
            ("expires_at", Kind::Int),
            ("revoked", Kind::Flag),
        ],
    ),
    (
        "tables",
        &[
            ("id", Kind::Text),
            ("game", Kind::Text),
            ("state", Kind::Json),
            ("open", Kind::Flag),
            ("updated_at", Kind::Int),
        ],
    ),
    (
        "games",
        &[
            ("id", Kind::Text),
            ("table_id", Kind::Text),
            ("game", Kind::Text),
            ("config", Kind::Text),
            ("seats", Kind::Int),
            ("commitment", Kind::Text),
            ("seed", Kind::Text),
            ("nonces", Kind::Text),
            ("rated", Kind::Flag),
            ("private", Kind::Flag),
            ("started_at", Kind::Int),
            ("finished_at", Kind::Int),
            ("outcome", Kind::Json),
        ],
    ),
    (
        "game_seats",
        &[
            ("game_id", Kind::Text),
            ("seat", Kind::Int),
            ("user_id", Kind::Int),
            ("bot", Kind::Text),
        ],
    ),
    (
        "actions",
        &[
            ("game_id", Kind::Text),
            ("idx", Kind::Int),
            ("seat", Kind::Int),
            ("public", Kind::Text),
            ("sealed", Kind::Text),
        ],
    ),
    (
        "ratings",
        &[
            ("user_id", Kind::Int),
            ("game", Kind::Text),
            ("rating", Kind::Real),
            ("deviation", Kind::Real),
            ("volatility", Kind::Real),
            ("games", Kind::Int),
        ],
    ),
];

/// Rows inserted by one statement: PostgreSQL takes at most 65,535 parameters, and the
/// widest table has 13 columns.
const ROWS_A_STATEMENT: usize = 1000;

/// One value on its way.
enum Cell {
    Int(Option<i64>),
    Flag(bool),
    Real(f64),
    Text(Option<String>),
    Json(Option<String>),
}

fn read(row: &SqliteRow, column: &str, kind: Kind) -> Result<Cell, sqlx::Error> {
    Ok(match kind {
        Kind::Int => Cell::Int(row.try_get(column)?),
        Kind::Flag => Cell::Flag(row.try_get::<i64, _>(column)? != 0),
        Kind::Real => Cell::Real(row.try_get(column)?),
        Kind::Text => Cell::Text(row.try_get(column)?),
        Kind::Json => Cell::Json(row.try_get(column)?),
    })
}

/// What was copied: each table's rows, in [`TABLES`]' order.
#[derive(Debug, Clone, PartialEq)]
pub struct Copied(pub Vec<(&'static str, u64)>);

impl std::fmt::Display for Copied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts: Vec<String> = self.0.iter().map(|(t, n)| format!("{n} {t}")).collect();
        write!(f, "{}", parts.join(", "))
    }
}

/// Copies the hall in `dir` (its `qipai.db`, brought to the current schema first) into
/// the PostgreSQL database at `url`, which must hold no hall yet (it is created if
/// missing). A hall still serving `dir` is refused (what it wrote during the copy would
/// not be copied), and none can start on it until the copy is over. All or nothing: on
/// any failure the PostgreSQL database is left as it was.
pub async fn sqlite_to_postgres(dir: &Path, url: &str) -> StoreResult<Copied> {
    let file = dir.join("qipai.db");
    if !file.is_file() {
        return Err(StoreError::Database(Cause::message(format!(
            "no hall's data in {}: {} is missing",
            dir.display(),
            file.display()
        ))));
    }
    let _hold = super::sqlite::hold_directory(dir)?;
    let mut sqlite = SqliteConnectOptions::new()
        .filename(&file)
        .connect()
        .await
        .map_err(db)?;
    sqlx::migrate!("./migrations/sqlite")
        .run(&mut sqlite)
        .await
        .map_err(|e| StoreError::Database(Cause::context("migration failed", e)))?;
    super::sqlite::fill_name_keys(&mut sqlite).await?;
    let target = PostgresStore::open(url, Arc::new(Metrics::new())).await?;
    let copied = copy(&mut sqlite, &target).await;
    target.close().await;
    copied
}

async fn copy(sqlite: &mut SqliteConnection, target: &PostgresStore) -> StoreResult<Copied> {
    let mut tx = target.transaction().await?;
    let held: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM users) OR EXISTS (SELECT 1 FROM tables) \
         OR EXISTS (SELECT 1 FROM games)",
    )
    .fetch_one(&mut *tx)
    .await
    .map_err(db)?;
    if held {
        return Err(StoreError::Database(Cause::message(
            "the PostgreSQL database already holds a hall; copy into an empty one",
        )));
    }
    let mut copied = Vec::new();
    for (table, columns) in TABLES {
        let n = copy_table(sqlite, &mut tx, table, columns).await?;
        copied.push((*table, n));
    }
    // Accounts made from now on continue the numbering.
    sqlx::query(
        "SELECT setval(pg_get_serial_sequence('users', 'id'), COALESCE(MAX(id), 0) + 1, false) \
         FROM users",
    )
    .execute(&mut *tx)
    .await
    .map_err(db)?;
    tx.commit().await.map_err(db)?;
    Ok(Copied(copied))
}

async fn copy_table(
    sqlite: &mut SqliteConnection,
    pg: &mut PgConnection,
    table: &str,
    columns: &[(&str, Kind)],
) -> StoreResult<u64> {
    let names: Vec<&str> = columns.iter().map(|(name, _)| *name).collect();
    let select = format!("SELECT {} FROM {table}", names.join(", "));
    let mut rows = sqlx::query(sqlx::AssertSqlSafe(select)).fetch(&mut *sqlite);
    let mut batch: Vec<Vec<Cell>> = Vec::with_capacity(ROWS_A_STATEMENT);
    let mut n = 0;
    while let Some(row) = rows.try_next().await.map_err(db)? {
        let cells = columns
            .iter()
            .map(|(name, kind)| read(&row, name, *kind))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| StoreError::Corrupt(Cause::context(table, e)))?;
        batch.push(cells);
        if batch.len() == ROWS_A_STATEMENT {
            n += insert(pg, table, &names, std::mem::take(&mut batch)).await?;
        }
    }
    if !batch.is_empty() {
        n += insert(pg, table, &names, batch).await?;
    }
    Ok(n)
}

async fn insert(
    pg: &mut PgConnection,
    table: &str,
    names: &[&str],
    rows: Vec<Vec<Cell>>,
) -> StoreResult<u64> {
    let mut insert: QueryBuilder<Postgres> =
        QueryBuilder::new(format!("INSERT INTO {table} ({}) ", names.join(", ")));
    insert.push_values(rows, |mut values, row| {
        for cell in row {
            match cell {
                Cell::Int(v) => values.push_bind(v),
                Cell::Flag(v) => values.push_bind(v),
                Cell::Real(v) => values.push_bind(v),
                Cell::Text(v) => values.push_bind(v),
                Cell::Json(v) => values.push_bind(v).push_unseparated("::jsonb"),
            };
        }
    });
    let done = insert
        .build()
        .execute(&mut *pg)
        .await
        .map_err(|e| StoreError::Database(Cause::context(table, e)))?;
    Ok(done.rows_affected())
}
