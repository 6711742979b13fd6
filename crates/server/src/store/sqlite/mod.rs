//! The embedded store: one SQLite file under the data directory, in WAL mode with
//! `synchronous=FULL`, so a write is on disk before anyone hears of it.
//!
//! Writes go through one writer task, which *group-commits*: it takes every write waiting
//! in its queue, runs each in a savepoint of one transaction (so one failing write, a name
//! already taken, fails alone) and commits them with a single fsync. Under load, tables that
//! act at once share a commit; alone, a write waits only for its own. Reads go through a
//! small pool of connections, which WAL lets run beside the writer. The writer and the SQL
//! of each write are in [`writer`](mod@writer); this module holds the store and its reads.

mod writer;

pub(in crate::store) use writer::fill_name_keys;

/// The reads both stores share.
mod reads {
    crate::store::portable::portable_reads!(sqlx::Sqlite);
}

use super::group::{self, GroupWrite, Written};
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
use game::{Record, Seat};
use serde_json::Value;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::Connection;
use std::fs::{File, TryLockError};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;
use writer::{writer, Write};

/// The SQLite store.
pub struct SqliteStore {
    reads: SqlitePool,
    writes: mpsc::Sender<writer::Job>,
    /// The data directory's lock file, held while the hall runs ([`hold_directory`]).
    hold: std::sync::Mutex<Option<File>>,
}

/// Takes the lock that makes a hall the only one on `dir`: two halls on one directory
/// would both restore its open tables and deal their games twice, and a copy made while
/// a hall writes would miss what it writes. The operating system lets go of it when the
/// process ends however it ends, so a hall restarted after a crash never waits for it.
pub fn hold_directory(dir: &Path) -> StoreResult<File> {
    let path = dir.join("qipai.lock");
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(|e| {
            StoreError::Database(Cause::context(format!("cannot open {}", path.display()), e))
        })?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(StoreError::Database(Cause::message(format!(
            "another qipai hall is serving {}; stop it first",
            dir.display()
        )))),
        Err(TryLockError::Error(e)) => Err(StoreError::Database(Cause::context(
            format!("cannot lock {}", path.display()),
            e,
        ))),
    }
}

impl SqliteStore {
    /// Opens (creating if needed) `qipai.db` in `dir`, runs the migrations and starts the
    /// writer task.
    pub async fn open(dir: &Path, metrics: Arc<Metrics>) -> StoreResult<SqliteStore> {
        std::fs::create_dir_all(dir).map_err(|e| {
            StoreError::Database(Cause::context(
                format!("cannot create {}", dir.display()),
                e,
            ))
        })?;
        let hold = hold_directory(dir)?;
        let options = SqliteConnectOptions::new()
            .filename(dir.join("qipai.db"))
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(10));
        let reads = SqlitePoolOptions::new()
            .max_connections(4)
            .connect_with(options.clone())
            .await
            .map_err(db)?;
        sqlx::migrate!("./migrations/sqlite")
            .run(&reads)
            .await
            .map_err(|e| StoreError::Database(Cause::context("migration failed", e)))?;
        let mut conn = SqliteConnection::connect_with(&options).await.map_err(db)?;
        fill_name_keys(&mut conn).await?;
        let (writes, queue) = mpsc::channel(16 * 1024);
        tokio::spawn(writer(conn, queue, metrics));
        Ok(SqliteStore {
            reads,
            writes,
            hold: std::sync::Mutex::new(Some(hold)),
        })
    }

    /// Queues `write` for the writer and waits for its commit.
    async fn write(&self, write: impl Into<Write>) -> StoreResult<Written> {
        group::queue(&self.writes, write.into()).await
    }
}

#[async_trait]
impl Store for SqliteStore {
    async fn create_user(
        &self,
        name: &str,
        password_hash: Option<&str>,
        guest: bool,
    ) -> StoreResult<UserInfo> {
        self.write(Write::CreateUser {
            name: name.into(),
            hash: password_hash.map(str::to_string),
            guest,
        })
        .await?
        .user()
    }

    async fn register_guest(
        &self,
        id: i64,
        name: &str,
        password_hash: &str,
    ) -> StoreResult<UserInfo> {
        self.write(Write::RegisterGuest {
            id,
            name: name.into(),
            hash: password_hash.into(),
        })
        .await?
        .user()
    }

    async fn user_by_name(&self, name: &str) -> StoreResult<Option<StoredUser>> {
        reads::user_by_name(&self.reads, name).await
    }

    async fn create_session(
        &self,
        user: i64,
        token_hash: &str,
        expires_at: i64,
    ) -> StoreResult<()> {
        self.write(GroupWrite::CreateSession {
            user,
            token_hash: token_hash.into(),
            expires_at,
        })
        .await
        .map(|_| ())
    }

    async fn session_user(&self, token_hash: &str, now: i64) -> StoreResult<Option<UserInfo>> {
        reads::session_user(&self.reads, token_hash, now).await
    }

    async fn revoke_session(&self, token_hash: &str) -> StoreResult<()> {
        self.write(GroupWrite::RevokeSession {
            token_hash: token_hash.into(),
        })
        .await
        .map(|_| ())
    }

    async fn set_banned(&self, user: i64, reason: Option<&str>) -> StoreResult<u64> {
        let write = Write::SetBanned {
            user,
            reason: reason.map(str::to_string),
        };
        self.write(write).await?.count()
    }

    async fn delete_account(&self, user: i64) -> StoreResult<UserInfo> {
        self.write(Write::DeleteAccount { user }).await?.user()
    }

    async fn set_password(&self, user: i64, hash: &str, keep: &str) -> StoreResult<u64> {
        let write = Write::SetPassword {
            user,
            hash: hash.into(),
            keep: keep.into(),
        };
        self.write(write).await?.count()
    }

    async fn claim_table(
        &self,
        table: &str,
        node: &str,
        ttl: Duration,
        now: i64,
        claim: Claim,
    ) -> StoreResult<Lease> {
        let write = GroupWrite::Claim {
            table: table.into(),
            node: node.into(),
            ttl,
            now,
            claim,
        };
        self.write(write).await?.lease()
    }

    async fn renew_lease(&self, lease: &Lease, ttl: Duration, now: i64) -> StoreResult<Lease> {
        let write = GroupWrite::Renew {
            lease: lease.clone(),
            ttl,
            now,
        };
        self.write(write).await?.lease()
    }

    async fn release_table(&self, lease: &Lease) -> StoreResult<()> {
        self.write(GroupWrite::Release(lease.clone()))
            .await
            .map(|_| ())
    }

    async fn save_table(&self, fence: &Fence, table: &StoredTable) -> StoreResult<()> {
        self.write(GroupWrite::save_table(fence, table)?)
            .await
            .map(|_| ())
    }

    async fn close_table(&self, fence: &Fence) -> StoreResult<()> {
        self.write(GroupWrite::CloseTable(fence.clone()))
            .await
            .map(|_| ())
    }

    async fn open_tables(&self) -> StoreResult<Vec<StoredTable>> {
        reads::open_tables(&self.reads).await
    }

    async fn free_tables(&self, node: &str, now: i64) -> StoreResult<Vec<FreeTable>> {
        reads::free_tables(&self.reads, node, now).await
    }

    async fn serving(&self, table: &str, now: i64) -> StoreResult<Option<Serving>> {
        reads::serving(&self.reads, table, now).await
    }

    fn exclusive(&self) -> bool {
        true
    }

    async fn start_game(&self, fence: &Fence, game: &StoredGame) -> StoreResult<()> {
        self.write(GroupWrite::StartGame(fence.clone(), Box::new(game.clone())))
            .await
            .map(|_| ())
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
        self.write(write).await.map(|_| ())
    }

    async fn finish_game(
        &self,
        fence: &Fence,
        record: &Record,
        table: &StoredTable,
        ratings: &[RatingUpdate],
    ) -> StoreResult<()> {
        let write = GroupWrite::finish(fence, record, table, ratings)?;
        self.write(write).await.map(|_| ())
    }

    async fn unfinished_game(&self, table: &str) -> StoreResult<Option<Unfinished>> {
        reads::unfinished_game(&self.reads, table).await
    }

    async fn finished_record(&self, id: &str) -> StoreResult<Option<Record>> {
        reads::finished_record(&self.reads, id).await
    }

    async fn forget_idle_guests(&self, now: i64) -> StoreResult<u64> {
        self.write(Write::ForgetGuests { now }).await?.count()
    }

    async fn game_players(&self, id: &str) -> StoreResult<Vec<SeatPlayer>> {
        reads::game_players(&self.reads, id).await
    }

    async fn history(
        &self,
        user: i64,
        limit: usize,
        with_private: bool,
        before: Option<&HistoryCursor>,
    ) -> StoreResult<Vec<GameSummary>> {
        reads::history(&self.reads, user, limit, with_private, before).await
    }

    async fn stats(&self, user: i64, with_private: bool) -> StoreResult<Vec<GameStats>> {
        // The seat's entries of the stored outcome: `won` is JSON true or false, which
        // json_extract reads as 1 or 0. `sides` is 1 if any seat of any of these games
        // won: games without a winning side have no count of wins.
        let stats = sqlx::query(
            "SELECT g.game, COUNT(*) AS played, \
             SUM(json_extract(g.outcome, '$.won[' || s.seat || ']')) AS won, \
             MAX((SELECT MAX(w.value) FROM json_each(g.outcome, '$.won') w)) AS sides, \
             SUM(json_extract(g.outcome, '$.scores[' || s.seat || ']')) AS net \
             FROM game_seats s JOIN games g ON g.id = s.game_id \
             WHERE s.user_id = ?1 AND g.private <= ?2 AND g.outcome IS NOT NULL \
             GROUP BY g.game ORDER BY g.game",
        )
        .bind(user)
        .bind(with_private)
        .fetch_all(&self.reads)
        .await
        .map_err(db)?;
        Ok(stats.iter().map(rows::game_stats).collect())
    }

    async fn computer_record(
        &self,
        user: i64,
        with_private: bool,
    ) -> StoreResult<Vec<ComputerRecord>> {
        reads::computer_record(&self.reads, user, with_private).await
    }

    async fn rating(&self, user: i64, game: &str) -> StoreResult<Rating> {
        reads::rating(&self.reads, user, game).await
    }

    async fn leaderboard(&self, game: &str, limit: usize) -> StoreResult<Vec<(String, Rating)>> {
        reads::leaderboard(&self.reads, game, limit).await
    }

    async fn bans(&self) -> StoreResult<Vec<BanInfo>> {
        reads::bans(&self.reads).await
    }

    async fn close(&self) {
        if let Ok(mut hold) = self.hold.lock() {
            hold.take();
        }
    }
}
