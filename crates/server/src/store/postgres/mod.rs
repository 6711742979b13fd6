//! The PostgreSQL store: the hall's data in a database server, for a host who wants it
//! there (backups, replicas and monitoring they already run) rather than in a file
//! beside the binary. `qipai serve --database postgres://…` picks it.
//!
//! Several halls (nodes) may serve one database: each table is served by the node that
//! holds its lease, and every write for it carries the lease's epoch, checked in the
//! write's own transaction ([`super::Lease`]), so a node that lost a table can never write
//! for it again. Nothing else is held on the database.
//!
//! Every write is in a transaction that PostgreSQL has made durable when its future
//! resolves (`synchronous_commit` is forced on for the store's connections, whatever the
//! server's default), so tables keep *commit, then broadcast*. The writes of tables,
//! leases and sessions are group-committed: those that arrive together share one
//! transaction and one flush ([`writer`]); account writes commit on their own
//! ([`writes`]). Reads and writes share a pool. This module opens the store and holds its
//! reads.

mod writer;
mod writes;

/// The reads both stores share.
mod reads {
    crate::store::portable::portable_reads!(sqlx::Postgres);
}

/// The writes both stores share.
mod statements {
    crate::store::portable::portable_writes!(sqlx::postgres::PgConnection, " FOR SHARE");
    crate::store::group::group_writes!(" FOR SHARE", "::jsonb");
}

use super::group::{GroupWrite, Written};
use super::rows::{self, db};
use super::{
    Cause, Claim, ComputerRecord, Fence, FreeTable, GameStats, GameSummary, HistoryCursor, Lease,
    RatingUpdate, SeatPlayer, Serving, Store, StoreError, StoreResult, StoredGame, StoredTable,
    StoredUser, Unfinished,
};
use crate::metrics::Metrics;
use crate::protocol::{BanInfo, UserInfo};
use crate::rating::Rating;
use async_trait::async_trait;
use futures_util::TryFutureExt;
use game::{Record, Seat};
use serde_json::Value;
use sqlx::migrate::MigrateDatabase;
use sqlx::postgres::{PgConnectOptions, PgConnection, PgPool, PgPoolOptions};
use sqlx::{Connection, Postgres};
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;
use writer::Writers;

/// Connections in the pool: the hall's reads and writes are short, and a database server
/// is shared with whatever else the host runs on it.
const POOL_SIZE: u32 = 16;

/// How long an operation waits for a connection: for one of the pool's to come free (a
/// few milliseconds under the heaviest load measured, docs/load.md), or for a new one
/// to be made. A database out of reach is found out within it, and tried again
/// (`writes::RETRY_FOR`).
const ACQUIRE_WAIT: Duration = Duration::from_secs(3);

/// The PostgreSQL store.
pub struct PostgresStore {
    pool: PgPool,
    metrics: Arc<Metrics>,
    /// The group-committing writers of tables, leases and sessions.
    writers: Writers,
}

/// The SQLSTATE of a connection to a database that does not exist.
const NO_DATABASE: &str = "3D000";

impl PostgresStore {
    /// Connects to the database at `url` (`postgres://user:password@host:port/name`),
    /// creating it if it does not exist and the role may, and runs the migrations.
    pub async fn open(url: &str, metrics: Arc<Metrics>) -> StoreResult<PostgresStore> {
        if !url.starts_with("postgres://") && !url.starts_with("postgresql://") {
            return Err(StoreError::Database(Cause::message(
                "bad database address: not postgres://user:password@host:port/name",
            )));
        }
        let options = PgConnectOptions::from_str(url)
            .map_err(|e| StoreError::Database(Cause::context("bad database address", e)))?
            .options([
                ("synchronous_commit", "on"),
                ("client_min_messages", "warning"),
            ]);
        let first = match PgConnection::connect_with(&options).await {
            Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some(NO_DATABASE) => {
                Postgres::create_database(url).await.map_err(|e| {
                    StoreError::Database(Cause::context("the database does not exist", e))
                })?;
                tracing::info!("created the database");
                PgConnection::connect_with(&options).await.map_err(db)?
            }
            connected => connected.map_err(db)?,
        };
        // The connection was made to create the database if need be; the pool makes its own.
        first.close().await.map_err(db)?;
        let pool = PgPoolOptions::new()
            .max_connections(POOL_SIZE)
            .acquire_timeout(ACQUIRE_WAIT)
            .connect_with(options.clone())
            .await
            .map_err(db)?;
        sqlx::migrate!("./migrations/postgres")
            .run(&pool)
            .await
            .map_err(|e| StoreError::Database(Cause::context("migration failed", e)))?;
        writes::fill_name_keys(&pool).await?;
        let writers = Writers::start(&pool, &metrics);
        Ok(PostgresStore {
            pool,
            metrics,
            writers,
        })
    }

    /// Has a writer commit `write` with whatever else arrives with it.
    async fn write(&self, write: GroupWrite) -> StoreResult<Written> {
        self.writers.write(write).await
    }

    /// A write that gives nothing back.
    async fn stored(&self, write: GroupWrite) -> StoreResult<()> {
        self.write(write).await.map(|_| ())
    }

    /// A transaction of the store's own pool, for a copy into it (`store::copy`).
    pub(in crate::store) async fn transaction(
        &self,
    ) -> StoreResult<sqlx::Transaction<'static, sqlx::Postgres>> {
        self.pool.begin().await.map_err(db)
    }
}

#[async_trait]
impl Store for PostgresStore {
    async fn create_user(
        &self,
        name: &str,
        password_hash: Option<&str>,
        guest: bool,
    ) -> StoreResult<UserInfo> {
        self.insert_user(name, password_hash, guest).await
    }

    async fn register_guest(
        &self,
        id: i64,
        name: &str,
        password_hash: &str,
    ) -> StoreResult<UserInfo> {
        self.name_guest(id, name, password_hash).await
    }

    async fn user_by_name(&self, name: &str) -> StoreResult<Option<StoredUser>> {
        self.again(|| reads::user_by_name(&self.pool, name)).await
    }

    async fn create_session(
        &self,
        user: i64,
        token_hash: &str,
        expires_at: i64,
    ) -> StoreResult<()> {
        self.stored(GroupWrite::CreateSession {
            user,
            token_hash: token_hash.into(),
            expires_at,
        })
        .await
    }

    async fn session_user(&self, token_hash: &str, now: i64) -> StoreResult<Option<UserInfo>> {
        self.again(|| reads::session_user(&self.pool, token_hash, now))
            .await
    }

    async fn revoke_session(&self, token_hash: &str) -> StoreResult<()> {
        self.stored(GroupWrite::RevokeSession {
            token_hash: token_hash.into(),
        })
        .await
    }

    async fn set_banned(&self, user: i64, reason: Option<&str>) -> StoreResult<u64> {
        self.ban(user, reason).await
    }

    async fn delete_account(&self, user: i64) -> StoreResult<UserInfo> {
        self.release_account(user).await
    }

    async fn set_password(&self, user: i64, hash: &str, keep: &str) -> StoreResult<u64> {
        self.change_password(user, hash, keep).await
    }

    async fn claim_table(
        &self,
        table: &str,
        node: &str,
        ttl: Duration,
        now: i64,
        claim: Claim,
    ) -> StoreResult<Lease> {
        self.write(GroupWrite::Claim {
            table: table.into(),
            node: node.into(),
            ttl,
            now,
            claim,
        })
        .await?
        .lease()
    }

    async fn renew_lease(&self, lease: &Lease, ttl: Duration, now: i64) -> StoreResult<Lease> {
        self.write(GroupWrite::Renew {
            lease: lease.clone(),
            ttl,
            now,
        })
        .await?
        .lease()
    }

    async fn release_table(&self, lease: &Lease) -> StoreResult<()> {
        self.stored(GroupWrite::Release(lease.clone())).await
    }

    async fn save_table(&self, fence: &Fence, table: &StoredTable) -> StoreResult<()> {
        self.stored(GroupWrite::save_table(fence, table)?).await
    }

    async fn close_table(&self, fence: &Fence) -> StoreResult<()> {
        self.stored(GroupWrite::CloseTable(fence.clone())).await
    }

    async fn open_tables(&self) -> StoreResult<Vec<StoredTable>> {
        self.again(|| reads::open_tables(&self.pool)).await
    }

    async fn free_tables(&self, node: &str, now: i64) -> StoreResult<Vec<FreeTable>> {
        self.again(|| reads::free_tables(&self.pool, node, now))
            .await
    }

    async fn serving(&self, table: &str, now: i64) -> StoreResult<Option<Serving>> {
        self.again(|| reads::serving(&self.pool, table, now)).await
    }

    async fn start_game(&self, fence: &Fence, game: &StoredGame) -> StoreResult<()> {
        self.stored(GroupWrite::StartGame(fence.clone(), Box::new(game.clone())))
            .await
    }

    async fn append_action(
        &self,
        fence: &Fence,
        game: &str,
        index: usize,
        seat: Seat,
        public: &Value,
        sealed: Option<&Value>,
    ) -> StoreResult<()> {
        let write = GroupWrite::action(fence, game, index, seat, public, sealed)?;
        self.stored(write).await
    }

    async fn finish_game(
        &self,
        fence: &Fence,
        record: &Record,
        table: &StoredTable,
        ratings: &[RatingUpdate],
    ) -> StoreResult<()> {
        self.stored(GroupWrite::finish(fence, record, table, ratings)?)
            .await
    }

    async fn unfinished_game(&self, table: &str) -> StoreResult<Option<Unfinished>> {
        self.again(|| reads::unfinished_game(&self.pool, table))
            .await
    }

    async fn finished_record(&self, id: &str) -> StoreResult<Option<Record>> {
        self.again(|| reads::finished_record(&self.pool, id)).await
    }

    async fn forget_idle_guests(&self, now: i64) -> StoreResult<u64> {
        self.forget_guests(now).await
    }

    async fn game_players(&self, id: &str) -> StoreResult<Vec<SeatPlayer>> {
        self.again(|| reads::game_players(&self.pool, id)).await
    }

    async fn history(
        &self,
        user: i64,
        limit: usize,
        with_private: bool,
        before: Option<&HistoryCursor>,
    ) -> StoreResult<Vec<GameSummary>> {
        self.again(|| reads::history(&self.pool, user, limit, with_private, before))
            .await
    }

    async fn stats(&self, user: i64, with_private: bool) -> StoreResult<Vec<GameStats>> {
        // The seat's entries of the stored outcome (`won` holds a boolean for each seat,
        // `scores` an integer). `sides` is 1 if any seat of any of these games won: games
        // without a winning side have no count of wins.
        let stats = self
            .again(|| {
                sqlx::query(
                    "SELECT g.game, COUNT(*) AS played, \
                     SUM(CASE WHEN g.outcome->'won'->(s.seat::int) = 'true'::jsonb THEN 1 ELSE 0 END)::bigint AS won, \
                     MAX(CASE WHEN g.outcome->'won' @> 'true'::jsonb THEN 1 ELSE 0 END)::bigint AS sides, \
                     SUM((g.outcome->'scores'->>(s.seat::int))::bigint)::bigint AS net \
                     FROM game_seats s JOIN games g ON g.id = s.game_id \
                     WHERE s.user_id = $1 AND (NOT g.private OR $2) AND g.outcome IS NOT NULL \
                     GROUP BY g.game ORDER BY g.game",
                )
                .bind(user)
                .bind(with_private)
                .fetch_all(&self.pool)
                .map_err(db)
            })
            .await?;
        Ok(stats.iter().map(rows::game_stats).collect())
    }

    async fn computer_record(
        &self,
        user: i64,
        with_private: bool,
    ) -> StoreResult<Vec<ComputerRecord>> {
        self.again(|| reads::computer_record(&self.pool, user, with_private))
            .await
    }

    async fn rating(&self, user: i64, game: &str) -> StoreResult<Rating> {
        self.again(|| reads::rating(&self.pool, user, game)).await
    }

    async fn leaderboard(&self, game: &str, limit: usize) -> StoreResult<Vec<(String, Rating)>> {
        self.again(|| reads::leaderboard(&self.pool, game, limit))
            .await
    }

    async fn bans(&self) -> StoreResult<Vec<BanInfo>> {
        self.again(|| reads::bans(&self.pool)).await
    }

    async fn close(&self) {
        self.pool.close().await;
    }
}
