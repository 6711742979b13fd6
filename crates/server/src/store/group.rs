//! What both stores' writers share: the writes of tables, leases and sessions that both
//! group-commit ([`GroupWrite`]), what a write gives back ([`Written`]), and how a writer
//! is handed writes and takes those waiting ([`Job`], [`take_batch`]), and how each write
//! runs ([`group_writes!`], beside the statements of `portable`). How each commits a batch
//! is its own (`sqlite::writer`, `postgres::writer`).

use super::rows::json;
use super::{
    Cause, Claim, Fence, Lease, RatingUpdate, StoreError, StoreResult, StoredGame, StoredTable,
};
use crate::protocol::UserInfo;
use game::{Record, Seat};
use serde_json::Value;
use tokio::sync::{mpsc, oneshot};

/// A write of a table, a lease or a session, which both stores group-commit.
pub(super) enum GroupWrite {
    /// [`super::Store::create_session`].
    CreateSession {
        user: i64,
        token_hash: String,
        expires_at: i64,
    },
    /// [`super::Store::revoke_session`].
    RevokeSession { token_hash: String },
    /// [`super::Store::claim_table`].
    Claim {
        table: String,
        node: String,
        ttl: std::time::Duration,
        now: i64,
        claim: Claim,
    },
    /// [`super::Store::renew_lease`].
    Renew {
        lease: Lease,
        ttl: std::time::Duration,
        now: i64,
    },
    /// [`super::Store::release_table`].
    Release(Lease),
    /// [`super::Store::save_table`]: the fence and the table as id, game and state.
    SaveTable(Fence, TableRow),
    /// [`super::Store::close_table`].
    CloseTable(Fence),
    /// [`super::Store::start_game`].
    StartGame(Fence, Box<StoredGame>),
    /// [`super::Store::append_action`].
    Action {
        fence: Fence,
        game: String,
        index: i64,
        seat: i64,
        public: String,
        sealed: Option<String>,
    },
    /// [`super::Store::finish_game`].
    Finish {
        fence: Fence,
        game: String,
        outcome: String,
        table: TableRow,
        ratings: Vec<RatingUpdate>,
    },
}

/// A table's row as written: its id, its game and its state as JSON.
pub(super) type TableRow = (String, String, String);

/// `table`'s row.
fn table_row(table: &StoredTable) -> StoreResult<TableRow> {
    Ok((table.id.clone(), table.game.clone(), json(table)?))
}

impl GroupWrite {
    /// [`super::Store::save_table`]'s write.
    pub(super) fn save_table(fence: &Fence, table: &StoredTable) -> StoreResult<GroupWrite> {
        Ok(GroupWrite::SaveTable(fence.clone(), table_row(table)?))
    }

    /// [`super::Store::append_action`]'s write.
    pub(super) fn action(
        fence: &Fence,
        game: &str,
        index: usize,
        seat: Seat,
        public: &Value,
        sealed: Option<&Value>,
    ) -> StoreResult<GroupWrite> {
        Ok(GroupWrite::Action {
            fence: fence.clone(),
            game: game.into(),
            index: index as i64,
            seat: seat as i64,
            public: json(public)?,
            sealed: sealed.map(json).transpose()?,
        })
    }

    /// [`super::Store::finish_game`]'s write.
    pub(super) fn finish(
        fence: &Fence,
        record: &Record,
        table: &StoredTable,
        ratings: &[RatingUpdate],
    ) -> StoreResult<GroupWrite> {
        let outcome = record
            .outcome
            .as_ref()
            .ok_or_else(|| StoreError::Corrupt(Cause::message("a finished game has no outcome")))?;
        Ok(GroupWrite::Finish {
            fence: fence.clone(),
            game: record.id.clone(),
            outcome: json(outcome)?,
            table: table_row(table)?,
            ratings: ratings.to_vec(),
        })
    }

    /// The table the write is for, or its session's token: what a store with several
    /// writers picks one by, so that a table's writes keep their order.
    pub(super) fn key(&self) -> &str {
        match self {
            GroupWrite::CreateSession { token_hash, .. }
            | GroupWrite::RevokeSession { token_hash } => token_hash,
            GroupWrite::Claim { table, .. } => table,
            GroupWrite::Renew { lease, .. } | GroupWrite::Release(lease) => &lease.table,
            GroupWrite::SaveTable(fence, _)
            | GroupWrite::CloseTable(fence)
            | GroupWrite::StartGame(fence, _)
            | GroupWrite::Action { fence, .. }
            | GroupWrite::Finish { fence, .. } => &fence.table,
        }
    }
}

/// What a write gives back.
pub(super) enum Written {
    Done,
    User(UserInfo),
    Count(u64),
    Lease(Lease),
}

/// The answer of a writer that answered another write than it was given.
fn mismatch() -> StoreError {
    StoreError::Database(Cause::message("the writer answered another write"))
}

impl Written {
    /// The lease a claim or a renewal gave back.
    pub(super) fn lease(self) -> StoreResult<Lease> {
        match self {
            Written::Lease(lease) => Ok(lease),
            _ => Err(mismatch()),
        }
    }

    /// The account a write made or changed.
    pub(super) fn user(self) -> StoreResult<UserInfo> {
        match self {
            Written::User(user) => Ok(user),
            _ => Err(mismatch()),
        }
    }

    /// How many rows a write changed.
    pub(super) fn count(self) -> StoreResult<u64> {
        match self {
            Written::Count(n) => Ok(n),
            _ => Err(mismatch()),
        }
    }
}

/// A write `W` queued for a writer, with the way back to whoever waits for it.
pub(super) struct Job<W> {
    pub(super) write: W,
    pub(super) done: oneshot::Sender<StoreResult<Written>>,
}

/// Queues `write` for the writer of `queue` and waits for its answer.
pub(super) async fn queue<W>(queue: &mpsc::Sender<Job<W>>, write: W) -> StoreResult<Written> {
    let stopped = || StoreError::Database(Cause::message("the writer has stopped"));
    let (done, answer) = oneshot::channel();
    queue
        .send(Job { write, done })
        .await
        .map_err(|_| stopped())?;
    answer.await.map_err(|_| stopped())?
}

/// Waits for a write, then takes every write waiting behind it, `most` in all: a batch
/// to commit together. `None` once every sender is gone and the queue is empty.
pub(super) async fn take_batch<W>(
    queue: &mut mpsc::Receiver<Job<W>>,
    most: usize,
) -> Option<Vec<Job<W>>> {
    let first = queue.recv().await?;
    let mut batch = vec![first];
    while batch.len() < most {
        match queue.try_recv() {
            Ok(job) => batch.push(job),
            Err(_) => break,
        }
    }
    Some(batch)
}

/// Expands `apply_group`, which runs a [`GroupWrite`] on a connection of one database, in
/// a module that has expanded `portable_writes!` for it (whose connection type and
/// statements it uses). `$share` locks the lease a move reads, as there; `$jsonb` casts a
/// parameter to the column type that holds JSON (PostgreSQL's `::jsonb`; SQLite keeps
/// text).
macro_rules! group_writes {
    ($share:literal, $jsonb:literal) => {
        /// Runs one of the writes both stores group-commit on the writer's connection, in
        /// its transaction. A write refused for its fence or for a lease another node
        /// holds is refused by reading, before it has written anything.
        pub(in crate::store) async fn apply_group(
            conn: &mut Conn,
            write: &crate::store::group::GroupWrite,
        ) -> StoreResult<crate::store::group::Written> {
            use crate::store::group::{GroupWrite, Written};
            match write {
                GroupWrite::CreateSession {
                    user,
                    token_hash,
                    expires_at,
                } => {
                    create_session(conn, *user, token_hash, *expires_at).await?;
                    Ok(Written::Done)
                }
                GroupWrite::RevokeSession { token_hash } => {
                    revoke_session(conn, token_hash).await?;
                    Ok(Written::Done)
                }
                GroupWrite::Claim {
                    table,
                    node,
                    ttl,
                    now,
                    claim,
                } => Ok(Written::Lease(
                    claim_table(conn, table, node, *ttl, *now, *claim).await?,
                )),
                GroupWrite::Renew { lease, ttl, now } => {
                    Ok(Written::Lease(renew_lease(conn, lease, *ttl, *now).await?))
                }
                GroupWrite::Release(lease) => {
                    release_table(conn, lease).await?;
                    Ok(Written::Done)
                }
                GroupWrite::SaveTable(fence, row) => {
                    check_fence(conn, fence, &row.0).await?;
                    save_table_row(conn, row).await?;
                    Ok(Written::Done)
                }
                GroupWrite::CloseTable(fence) => {
                    check_fence(conn, fence, &fence.table).await?;
                    close_table(conn, &fence.table).await?;
                    Ok(Written::Done)
                }
                GroupWrite::StartGame(fence, g) => {
                    check_fence(conn, fence, &g.table).await?;
                    start_game(conn, g).await?;
                    Ok(Written::Done)
                }
                GroupWrite::Action {
                    fence,
                    game,
                    index,
                    seat,
                    public,
                    sealed,
                } => {
                    append_action(conn, fence, game, *index, *seat, public, sealed.as_deref())
                        .await?;
                    Ok(Written::Done)
                }
                GroupWrite::Finish {
                    fence,
                    game,
                    outcome,
                    table,
                    ratings,
                } => {
                    check_fence(conn, fence, &table.0).await?;
                    sqlx::query(concat!(
                        "UPDATE games SET outcome = $1",
                        $jsonb,
                        ", finished_at = $2 WHERE id = $3"
                    ))
                    .bind(outcome)
                    .bind(unix_now())
                    .bind(game)
                    .execute(&mut *conn)
                    .await
                    .map_err(db)?;
                    save_table_row(conn, table).await?;
                    for r in ratings {
                        save_rating(conn, r).await?;
                    }
                    Ok(Written::Done)
                }
            }
        }

        /// Inserts or updates a table's row (open): its id, its game and its state.
        async fn save_table_row(
            conn: &mut Conn,
            (id, game, state): &crate::store::group::TableRow,
        ) -> StoreResult<()> {
            sqlx::query(concat!(
                "INSERT INTO tables (id, game, state, open, updated_at) VALUES ($1, $2, $3",
                $jsonb,
                ", TRUE, $4) ON CONFLICT (id) DO UPDATE \
                 SET state = excluded.state, updated_at = excluded.updated_at"
            ))
            .bind(id)
            .bind(game)
            .bind(state)
            .bind(unix_now())
            .execute(&mut *conn)
            .await
            .map_err(db)?;
            Ok(())
        }

        /// Appends an action in one statement that inserts it only if the fence's epoch
        /// is its table's current one, reading the lease `$share`: a claim of the table
        /// waits for the write to commit, and an insert that comes after a claim sees its
        /// epoch. No row inserted means the fence is stale.
        async fn append_action(
            conn: &mut Conn,
            fence: &Fence,
            game: &str,
            index: i64,
            seat: i64,
            public: &str,
            sealed: Option<&str>,
        ) -> StoreResult<()> {
            let done = sqlx::query(concat!(
                "WITH fence AS (SELECT epoch FROM table_leases WHERE table_id = $6",
                $share,
                ") INSERT INTO actions (game_id, idx, seat, public, sealed) \
                 SELECT $1, $2, $3, $4, $5 FROM fence WHERE fence.epoch = $7"
            ))
            .bind(game)
            .bind(index)
            .bind(seat)
            .bind(public)
            .bind(sealed)
            .bind(&fence.table)
            .bind(stored_epoch(fence.epoch))
            .execute(&mut *conn)
            .await
            .map_err(db)?;
            if done.rows_affected() == 1 {
                return Ok(());
            }
            let current = current_epoch(conn, &fence.table).await?;
            Err(fenced(fence, current))
        }
    };
}

pub(super) use group_writes;
