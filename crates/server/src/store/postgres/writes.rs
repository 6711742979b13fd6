//! The PostgreSQL store's account writes, each committed on its own: they are few (a
//! visitor's first guest, a registration, a moderator's ban) and each has its own rule for
//! an attempt that committed unheard, which reads back what it made. A write of one
//! statement runs on a connection of the pool on its own (PostgreSQL commits it alone,
//! without the two round trips of a transaction); a write of several runs in a
//! transaction, so it happens whole or not at all. Each observes the store's commit
//! metrics with a batch of one. The writes of tables, leases and sessions, which come
//! many at once, are group-committed by [`super::writer`].
//!
//! A database server is reached over a network, which can break, and restarts. A write
//! the database could not be reached for is tried again, for a few seconds
//! ([`PostgresStore::again`]), so a table does not lose a move or a game's end to a
//! blip. Every write is safe to repeat: updates set what they set, and an account made or
//! named by an attempt that committed unheard is found and counts as made.

use super::{reads, statements, PostgresStore};
use crate::protocol::UserInfo;
use crate::store::rows::db;
use crate::store::{StoreError, StoreResult};
use sqlx::pool::PoolConnection;
use sqlx::{Postgres, Transaction};
use std::future::Future;
use std::time::{Duration, Instant};

/// Gives the accounts made before names had keys their keys, in one transaction, when
/// the store opens, before any other write (`statements::fill_name_keys`).
pub(super) async fn fill_name_keys(pool: &sqlx::PgPool) -> StoreResult<u64> {
    let mut tx = pool.begin().await.map_err(db)?;
    let filled = statements::fill_name_keys(&mut tx).await?;
    tx.commit().await.map_err(db)?;
    Ok(filled)
}

/// A connection or a transaction taken for one write, and when the write began.
struct Timed<T> {
    work: T,
    started: Instant,
}

type Tx = Timed<Transaction<'static, Postgres>>;
type One = Timed<PoolConnection<Postgres>>;

/// The waits before each new attempt at an operation the database was out of reach for:
/// about four seconds in all, long enough for a connection to be made again or a
/// database server to restart.
pub(super) const RETRY_WAITS: [Duration; 4] = [
    Duration::from_millis(50),
    Duration::from_millis(200),
    Duration::from_secs(1),
    Duration::from_secs(3),
];

/// No new attempt starts this long after the first: attempts that each wait for a
/// connection that does not come (a network that drops everything) would otherwise hold
/// the caller for most of a minute. A table that still cannot reach the database then
/// says so to its players and waits for it on its own (`table::stall`).
pub(super) const RETRY_FOR: Duration = Duration::from_secs(5);

impl PostgresStore {
    /// Runs `operation` until it is done or fails for another reason than the database
    /// being out of reach, waiting [`RETRY_WAITS`] between attempts, for at most
    /// [`RETRY_FOR`].
    pub(super) async fn again<T, F, Fut>(&self, mut operation: F) -> StoreResult<T>
    where
        F: FnMut() -> Fut,
        Fut: Future<Output = StoreResult<T>>,
    {
        let began = Instant::now();
        let mut waits = RETRY_WAITS.iter();
        loop {
            match operation().await {
                Err(StoreError::Unavailable(e)) => match waits.next() {
                    Some(wait) if began.elapsed() + *wait < RETRY_FOR => {
                        tracing::warn!(error = %e, "the database is out of reach; trying again");
                        tokio::time::sleep(*wait).await;
                    }
                    _ => return Err(StoreError::Unavailable(e)),
                },
                result => return result,
            }
        }
    }

    /// Counts a write that took from `started` until now.
    fn observe(&self, started: Instant) {
        self.metrics
            .commit_seconds
            .observe(started.elapsed().as_secs_f64());
        self.metrics.commit_batch.observe(1.0);
    }

    /// A connection for a write of one statement.
    async fn one(&self) -> StoreResult<One> {
        let started = Instant::now();
        let work = self.pool.acquire().await.map_err(db)?;
        Ok(Timed { work, started })
    }

    /// A transaction for a write of several statements.
    async fn begin(&self) -> StoreResult<Tx> {
        let started = Instant::now();
        let work = self.pool.begin().await.map_err(db)?;
        Ok(Timed { work, started })
    }

    async fn commit(&self, tx: Tx) -> StoreResult<()> {
        tx.work.commit().await.map_err(db)?;
        self.observe(tx.started);
        Ok(())
    }

    /// Passes on what a write of one statement gave, counting it if it was done.
    fn done<T>(&self, one: One, result: StoreResult<T>) -> StoreResult<T> {
        if result.is_ok() {
            self.observe(one.started);
        }
        result
    }

    pub(super) async fn insert_user(
        &self,
        name: &str,
        hash: Option<&str>,
        guest: bool,
    ) -> StoreResult<UserInfo> {
        let mut first = true;
        self.again(|| {
            let retried = !std::mem::replace(&mut first, false);
            async move {
                let mut one = self.one().await?;
                let user = statements::create_user(&mut one.work, name, hash, guest).await;
                match self.done(one, user) {
                    // The name taken by this very account, made by an attempt that committed
                    // unheard before the connection broke.
                    Err(StoreError::NameTaken(taken)) if retried => self
                        .made_unheard(name, hash)
                        .await?
                        .ok_or(StoreError::NameTaken(taken)),
                    result => result,
                }
            }
        })
        .await
    }

    /// The account an earlier attempt of a write made or named `name` with `hash`, if the
    /// account of that name is it: a password hash has a salt of its own, so only that
    /// attempt can have stored it; a guest (no hash) has a generated name that nobody
    /// else can have asked for.
    async fn made_unheard(&self, name: &str, hash: Option<&str>) -> StoreResult<Option<UserInfo>> {
        let found = reads::user_by_name(&self.pool, name).await?;
        Ok(found
            .filter(|u| u.password_hash.as_deref() == hash)
            .map(|u| u.info))
    }

    pub(super) async fn name_guest(
        &self,
        id: i64,
        name: &str,
        hash: &str,
    ) -> StoreResult<UserInfo> {
        let mut first = true;
        self.again(|| {
            let retried = !std::mem::replace(&mut first, false);
            async move {
                let mut one = self.one().await?;
                let user = statements::register_guest(&mut one.work, id, name, hash).await;
                match self.done(one, user) {
                    // No guest left to name: an attempt that committed unheard named it.
                    Err(e) if retried => match self.made_unheard(name, Some(hash)).await? {
                        Some(user) if user.id == id => Ok(user),
                        _ => Err(e),
                    },
                    result => result,
                }
            }
        })
        .await
    }

    pub(super) async fn change_password(
        &self,
        user: i64,
        hash: &str,
        keep: &str,
    ) -> StoreResult<u64> {
        self.again(|| async move {
            let mut tx = self.begin().await?;
            let ended = statements::set_password(&mut tx.work, user, hash, keep).await?;
            self.commit(tx).await?;
            Ok(ended)
        })
        .await
    }

    pub(super) async fn release_account(&self, user: i64) -> StoreResult<UserInfo> {
        self.again(|| async move {
            let mut tx = self.begin().await?;
            let account = statements::delete_account(&mut tx.work, user).await?;
            self.commit(tx).await?;
            Ok(account)
        })
        .await
    }

    pub(super) async fn ban(&self, user: i64, reason: Option<&str>) -> StoreResult<u64> {
        self.again(|| async move {
            let mut tx = self.begin().await?;
            let ended = statements::set_banned(&mut tx.work, user, reason).await?;
            self.commit(tx).await?;
            Ok(ended)
        })
        .await
    }

    /// [`crate::store::Store::forget_idle_guests`]: a guest made a day or more ago whose
    /// every session has ended, who never played and who holds no seat at an open table;
    /// its sessions go first, since they reference it.
    pub(super) async fn forget_guests(&self, now: i64) -> StoreResult<u64> {
        self.again(|| async move {
                let mut tx = self.begin().await?;
                let idle: Vec<i64> = sqlx::query_scalar(
                    "SELECT u.id FROM users u WHERE u.guest AND u.created_at <= $1 \
                     AND NOT EXISTS (SELECT 1 FROM game_seats g WHERE g.user_id = u.id) \
                     AND NOT EXISTS (SELECT 1 FROM sessions x WHERE x.user_id = u.id \
                                     AND x.expires_at > $2 AND NOT x.revoked) \
                     AND NOT EXISTS (SELECT 1 FROM tables t, jsonb_array_elements(t.state->'seats') s \
                                     WHERE t.open AND (s.value->'user'->>'id')::bigint = u.id)",
                )
                .bind(now - 24 * 3600)
                .bind(now)
                .fetch_all(&mut *tx.work)
                .await
                .map_err(db)?;
                sqlx::query("DELETE FROM sessions WHERE user_id = ANY($1)")
                    .bind(&idle)
                    .execute(&mut *tx.work)
                    .await
                    .map_err(db)?;
                let gone = sqlx::query("DELETE FROM users WHERE id = ANY($1)")
                    .bind(&idle)
                    .execute(&mut *tx.work)
                    .await
                    .map_err(db)?;
                self.commit(tx).await?;
                Ok(gone.rows_affected())
        })
        .await
    }
}
