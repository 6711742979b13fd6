//! The writer task: the one connection that writes, group-committing whatever waits in
//! its queue (see the parent module), and the SQL of each write.

use crate::metrics::Metrics;
use crate::store::group::{self, GroupWrite, Written};
use crate::store::rows::{db, json};
use crate::store::{Cause, StoreError, StoreResult};
use sqlx::sqlite::SqliteConnection;
use sqlx::Connection;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::mpsc;

/// The writes both stores share.
mod statements {
    crate::store::portable::portable_writes!(sqlx::sqlite::SqliteConnection, "");
    crate::store::group::group_writes!("", "");
}

/// The most writes one commit takes: bounds a transaction's size under a flood.
const MAX_BATCH: usize = 1024;

/// One write for the writer task: one that both stores group-commit, or an account's.
pub(super) enum Write {
    /// A write of a table, a lease or a session.
    Group(GroupWrite),
    CreateUser {
        name: String,
        hash: Option<String>,
        guest: bool,
    },
    RegisterGuest {
        id: i64,
        name: String,
        hash: String,
    },
    SetPassword {
        user: i64,
        hash: String,
        keep: String,
    },
    SetBanned {
        user: i64,
        reason: Option<String>,
    },
    DeleteAccount {
        user: i64,
    },
    /// [`crate::store::Store::forget_idle_guests`] at this time.
    ForgetGuests {
        now: i64,
    },
}

impl From<GroupWrite> for Write {
    fn from(write: GroupWrite) -> Write {
        Write::Group(write)
    }
}

impl Write {
    /// Whether the write is a single SQL statement whose only expected refusal is a
    /// constraint (a name taken). A game's start and end write several rows; registering
    /// a guest can be refused after its statement.
    fn one_statement(&self) -> bool {
        !matches!(
            self,
            Write::Group(GroupWrite::StartGame(..) | GroupWrite::Finish { .. })
                | Write::RegisterGuest { .. }
                | Write::SetPassword { .. }
                | Write::SetBanned { .. }
                | Write::DeleteAccount { .. }
                | Write::ForgetGuests { .. }
        )
    }
}

/// A write queued for the writer, with the way back to whoever waits for it.
pub(super) type Job = group::Job<Write>;

/// Gives the accounts made before names had keys their keys, in one transaction, before
/// the writer starts (`statements::fill_name_keys`).
pub(in crate::store) async fn fill_name_keys(conn: &mut SqliteConnection) -> StoreResult<u64> {
    let mut tx = conn.begin().await.map_err(db)?;
    let filled = statements::fill_name_keys(&mut tx).await?;
    tx.commit().await.map_err(db)?;
    Ok(filled)
}

/// The writer task: group commits until every sender is gone (a clean shutdown drains
/// the queue first).
pub(super) async fn writer(
    mut conn: SqliteConnection,
    mut queue: mpsc::Receiver<Job>,
    metrics: Arc<Metrics>,
) {
    while let Some(batch) = group::take_batch(&mut queue, MAX_BATCH).await {
        let started = Instant::now();
        let results = commit(&mut conn, &batch).await;
        metrics
            .commit_seconds
            .observe(started.elapsed().as_secs_f64());
        metrics.commit_batch.observe(batch.len() as f64);
        match results {
            Ok(results) => {
                for (job, result) in batch.into_iter().zip(results) {
                    let _ = job.done.send(result);
                }
            }
            Err(e) => {
                tracing::error!(error = %e, writes = batch.len(), "commit failed");
                for job in batch {
                    let _ = job.done.send(Err(StoreError::Database(e.clone())));
                }
            }
        }
    }
}

/// Runs every write of several statements in a savepoint of one transaction, the others
/// as they are, and commits once. A failure of the whole batch is its cause, which every
/// write of the batch then fails with.
async fn commit(
    conn: &mut SqliteConnection,
    batch: &[Job],
) -> Result<Vec<StoreResult<Written>>, Cause> {
    let mut tx = conn.begin().await.map_err(Cause::new)?;
    let mut results = Vec::with_capacity(batch.len());
    for job in batch {
        if job.write.one_statement() {
            // A statement refused by a constraint (a key taken, a row it refers to that
            // is not there) undoes only itself (SQLite's statement journal): no savepoint
            // needed, and two fewer round trips to the database thread. Any other failure
            // may have ended the transaction: the whole batch fails, as a failed commit
            // would.
            match apply(&mut tx, &job.write).await {
                Err(StoreError::Database(e)) if broke_a_constraint(&e) => {
                    results.push(Err(StoreError::Database(e)))
                }
                Err(StoreError::Database(e) | StoreError::Unavailable(e)) => return Err(e),
                result => results.push(result),
            }
            continue;
        }
        let mut sp = tx.begin().await.map_err(Cause::new)?;
        match apply(&mut sp, &job.write).await {
            Ok(w) => {
                sp.commit().await.map_err(Cause::new)?;
                results.push(Ok(w));
            }
            Err(e) => {
                sp.rollback().await.map_err(Cause::new)?;
                results.push(Err(e));
            }
        }
    }
    tx.commit().await.map_err(Cause::new)?;
    Ok(results)
}

/// Whether SQLite refused a statement for breaking a constraint of the schema (a foreign
/// key, `NOT NULL`, `CHECK`; a taken key is [`StoreError::Exists`]): it undid that
/// statement alone, and the transaction goes on.
fn broke_a_constraint(cause: &Cause) -> bool {
    cause
        .error()
        .and_then(|e| e.downcast_ref::<sqlx::Error>())
        .and_then(|e| e.as_database_error())
        .is_some_and(|d| {
            matches!(
                d.kind(),
                sqlx::error::ErrorKind::ForeignKeyViolation
                    | sqlx::error::ErrorKind::NotNullViolation
                    | sqlx::error::ErrorKind::CheckViolation
            )
        })
}

async fn apply(conn: &mut SqliteConnection, write: &Write) -> StoreResult<Written> {
    match write {
        Write::CreateUser { name, hash, guest } => Ok(Written::User(
            statements::create_user(conn, name, hash.as_deref(), *guest).await?,
        )),
        Write::RegisterGuest { id, name, hash } => Ok(Written::User(
            statements::register_guest(conn, *id, name, hash).await?,
        )),
        Write::SetPassword { user, hash, keep } => Ok(Written::Count(
            statements::set_password(conn, *user, hash, keep).await?,
        )),
        Write::DeleteAccount { user } => Ok(Written::User(
            statements::delete_account(conn, *user).await?,
        )),
        Write::SetBanned { user, reason } => Ok(Written::Count(
            statements::set_banned(conn, *user, reason.as_deref()).await?,
        )),
        Write::Group(write) => statements::apply_group(conn, write).await,
        Write::ForgetGuests { now } => {
            // A guest made a day or more ago (one just made has no session yet) whose every
            // session has ended, who never played and who holds no seat at an open table
            // (a deal there would store a game naming it); its sessions go first, since
            // they reference it.
            let idle: Vec<i64> = sqlx::query_scalar(
                "SELECT u.id FROM users u WHERE u.guest = 1 AND u.created_at <= ? \
                 AND NOT EXISTS (SELECT 1 FROM game_seats g WHERE g.user_id = u.id) \
                 AND NOT EXISTS (SELECT 1 FROM sessions x WHERE x.user_id = u.id \
                                 AND x.expires_at > ? AND x.revoked = 0) \
                 AND NOT EXISTS (SELECT 1 FROM tables t, json_each(t.state, '$.seats') s \
                                 WHERE t.open = 1 \
                                 AND json_extract(s.value, '$.user.id') = u.id)",
            )
            .bind(now - 24 * 3600)
            .bind(now)
            .fetch_all(&mut *conn)
            .await
            .map_err(db)?;
            let ids = json(&idle)?;
            sqlx::query("DELETE FROM sessions WHERE user_id IN (SELECT value FROM json_each(?))")
                .bind(&ids)
                .execute(&mut *conn)
                .await
                .map_err(db)?;
            let gone =
                sqlx::query("DELETE FROM users WHERE id IN (SELECT value FROM json_each(?))")
                    .bind(&ids)
                    .execute(&mut *conn)
                    .await
                    .map_err(db)?;
            Ok(Written::Count(gone.rows_affected()))
        }
    }
}
