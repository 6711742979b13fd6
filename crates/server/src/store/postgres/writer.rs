//! Group commit on PostgreSQL: the writes of tables, leases and sessions that arrive
//! together commit together, in one transaction on one connection, with one flush of the
//! write-ahead log for all of them.
//!
//! [`WRITERS`] writer tasks share the work; each takes every write waiting in its queue
//! (up to [`MAX_BATCH`]), runs them in order in one transaction and commits once, and each
//! caller hears its own write's result. A write goes to the writer its table (or session
//! token) hashes to, so the writes of one table stay in the order they were made, and two
//! writers never wait on each other for a table's rows.
//!
//! **A write that fails on its own fails alone.** A refusal the store finds by reading —
//! a fence no longer current, a lease another node holds — comes before the write has
//! changed anything, and leaves the transaction whole: the batch goes on. A refusal of the
//! database itself (a key stored already, a row referred to that is not there) aborts a
//! PostgreSQL transaction; then the batch is rolled back and run again with each write in
//! a `SAVEPOINT` of its own, so the refused write is rolled back alone and the others
//! commit. Batches of the hot path (moves, a table's state, leases) never pay for the
//! savepoints' round trips; a batch that meets a refusal pays once. A write of one
//! statement that is alone in its batch (a quiet hall) commits on its own, without
//! `BEGIN` and `COMMIT`.
//!
//! **A batch whose commit was not heard is tried again whole** (the connection broke, the
//! server restarted), with the waits of [`super::writes::RETRY_WAITS`] for at most
//! [`super::writes::RETRY_FOR`]; as is a batch the database rolled back to break a
//! deadlock with another node's. Every write here is safe to repeat: updates set what they
//! set, a claim by the same node claims again (a newer epoch, which the caller gets), and
//! an insert (a move, a deal, a session) that meets its own row after an attempt that may
//! have committed unheard counts as done.

use super::statements;
use crate::metrics::Metrics;
use crate::store::group::{self, GroupWrite, Written};
use crate::store::rows::db;
use crate::store::{Cause, StoreError, StoreResult};
use sqlx::postgres::PgPool;
use sqlx::Connection;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::mpsc;

/// How many writers, each with a connection of the pool while it commits: enough for
/// batches to form behind a commit in flight and for another to go on meanwhile, few
/// enough to leave the pool's other connections to reads and account writes.
const WRITERS: usize = 4;

/// The most writes one commit takes: bounds a transaction's size under a flood.
const MAX_BATCH: usize = 256;

/// How many writes may wait for each writer before a caller waits to queue its own.
const QUEUE: usize = 4096;

type Job = group::Job<GroupWrite>;

/// Whether `write` is one statement whose refusals leave nothing to undo: alone in its
/// batch, it needs no transaction of its own (PostgreSQL commits it alone, without the
/// round trips of `BEGIN` and `COMMIT`).
fn one_statement(write: &GroupWrite) -> bool {
    !matches!(
        write,
        GroupWrite::SaveTable(..)
            | GroupWrite::CloseTable(_)
            | GroupWrite::StartGame(..)
            | GroupWrite::Finish { .. }
    )
}

/// Whether `write` inserts a row with a key of its own, so that meeting that key after an
/// attempt that may have committed unheard means it did.
fn inserts(write: &GroupWrite) -> bool {
    matches!(
        write,
        GroupWrite::CreateSession { .. } | GroupWrite::StartGame(..) | GroupWrite::Action { .. }
    )
}

/// The queues of the writers, which end when it is dropped.
pub(super) struct Writers {
    queues: Vec<mpsc::Sender<Job>>,
}

impl Writers {
    /// Starts [`WRITERS`] writer tasks on connections of `pool`.
    pub(super) fn start(pool: &PgPool, metrics: &Arc<Metrics>) -> Writers {
        let queues = (0..WRITERS)
            .map(|_| {
                let (queue, jobs) = mpsc::channel(QUEUE);
                tokio::spawn(writer(pool.clone(), jobs, metrics.clone()));
                queue
            })
            .collect();
        Writers { queues }
    }

    /// Queues `write` for the writer of its table and waits for its commit.
    pub(super) async fn write(&self, write: GroupWrite) -> StoreResult<Written> {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        write.key().hash(&mut hasher);
        let queue = &self.queues[(hasher.finish() % self.queues.len() as u64) as usize];
        group::queue(queue, write).await
    }
}

/// A writer task: group commits until every sender is gone (a clean shutdown drains its
/// queue first).
async fn writer(pool: PgPool, mut queue: mpsc::Receiver<Job>, metrics: Arc<Metrics>) {
    while let Some(batch) = group::take_batch(&mut queue, MAX_BATCH).await {
        let started = Instant::now();
        let results = commit(&pool, &batch).await;
        metrics
            .commit_seconds
            .observe(started.elapsed().as_secs_f64());
        metrics.commit_batch.observe(batch.len() as f64);
        for (job, result) in batch.into_iter().zip(results) {
            let _ = job.done.send(result);
        }
    }
}

/// Why an attempt at a batch did not commit.
enum Failed {
    /// The database was out of reach: the attempt may have committed unheard.
    Unheard(Cause),
    /// The database rolled the transaction back to break a deadlock or a conflict:
    /// nothing of it committed, and it may be tried again.
    RolledBack(Cause),
    /// A write run without a savepoint was refused by the database, which aborted the
    /// transaction: run the batch again with savepoints.
    Aborted,
    /// Anything else: every write of the batch fails with it.
    Broke(Cause),
}

impl From<sqlx::Error> for Failed {
    fn from(e: sqlx::Error) -> Failed {
        failure(db(e))
    }
}

/// How a write's error `e` ends the attempt it was made in, if it does: out of reach or
/// rolled back; any other error is the write's own.
fn ends_attempt(e: &StoreError) -> Option<Failed> {
    match e {
        StoreError::Unavailable(cause) => Some(Failed::Unheard(cause.clone())),
        StoreError::Database(cause) if rolled_back(cause) => {
            Some(Failed::RolledBack(cause.clone()))
        }
        _ => None,
    }
}

/// An error of the transaction itself (beginning, a savepoint, the commit) as the
/// attempt's failure.
fn failure(e: StoreError) -> Failed {
    match ends_attempt(&e) {
        Some(failed) => failed,
        None => match e {
            StoreError::Database(c) | StoreError::Exists(c) | StoreError::Corrupt(c) => {
                Failed::Broke(c)
            }
            other => Failed::Broke(Cause::message(other.to_string())),
        },
    }
}

/// Whether PostgreSQL rolled the transaction back to let another go on (SQLSTATE class
/// 40: a deadlock, a serialization failure), which a new attempt may pass.
fn rolled_back(cause: &Cause) -> bool {
    cause
        .error()
        .and_then(|e| e.downcast_ref::<sqlx::Error>())
        .and_then(|e| e.as_database_error())
        .and_then(|d| d.code())
        .is_some_and(|code| code.starts_with("40"))
}

/// Commits `batch`, trying again whole while the database is out of reach, and gives
/// each write its result.
async fn commit(pool: &PgPool, batch: &[Job]) -> Vec<StoreResult<Written>> {
    let began = Instant::now();
    let mut waits = super::writes::RETRY_WAITS.iter();
    let mut retried = false;
    let mut savepoints = false;
    loop {
        let (cause, unheard) = match attempt(pool, batch, savepoints, retried).await {
            Ok(results) => return results,
            Err(Failed::Aborted) => {
                savepoints = true;
                continue;
            }
            Err(Failed::Broke(cause)) => {
                tracing::error!(error = %cause, writes = batch.len(), "commit failed");
                return batch
                    .iter()
                    .map(|_| Err(StoreError::Database(cause.clone())))
                    .collect();
            }
            Err(Failed::Unheard(cause)) => (cause, true),
            Err(Failed::RolledBack(cause)) => (cause, false),
        };
        match waits.next() {
            Some(wait) if began.elapsed() + *wait < super::writes::RETRY_FOR => {
                tracing::warn!(error = %cause, writes = batch.len(), "a commit failed; trying again");
                retried |= unheard;
                tokio::time::sleep(*wait).await;
            }
            _ => {
                let error = |cause: &Cause| {
                    if unheard {
                        StoreError::Unavailable(cause.clone())
                    } else {
                        StoreError::Database(cause.clone())
                    }
                };
                return batch.iter().map(|_| Err(error(&cause))).collect();
            }
        }
    }
}

/// One attempt at `batch`: its writes in order in one transaction, each in a savepoint if
/// `savepoints`, and one commit; a batch of one statement alone, on its own. `retried`:
/// an earlier attempt may have committed.
async fn attempt(
    pool: &PgPool,
    batch: &[Job],
    savepoints: bool,
    retried: bool,
) -> Result<Vec<StoreResult<Written>>, Failed> {
    if let [job] = batch {
        if one_statement(&job.write) {
            let mut conn = pool.acquire().await?;
            let result = statements::apply_group(&mut conn, &job.write).await;
            if let Some(failed) = result.as_ref().err().and_then(ends_attempt) {
                return Err(failed);
            }
            return Ok(vec![settle(result, &job.write, retried)]);
        }
    }
    let mut tx = pool.begin().await?;
    let mut results = Vec::with_capacity(batch.len());
    for job in batch {
        let result = if savepoints {
            let mut savepoint = tx.begin().await?;
            let result = statements::apply_group(&mut savepoint, &job.write).await;
            if let Err(e) = &result {
                if let Some(failed) = ends_attempt(e) {
                    return Err(failed);
                }
                savepoint.rollback().await?;
            } else {
                savepoint.commit().await?;
            }
            result
        } else {
            let result = statements::apply_group(&mut tx, &job.write).await;
            match &result {
                // Refused by the store after reading: nothing written, the transaction
                // goes on.
                Ok(_) | Err(StoreError::Fenced { .. } | StoreError::LeaseHeld { .. }) => {}
                Err(e) => return Err(ends_attempt(e).unwrap_or(Failed::Aborted)),
            }
            result
        };
        results.push(settle(result, &job.write, retried));
    }
    tx.commit().await?;
    Ok(results)
}

/// A write's result as its caller hears it: an insert that meets its own key after an
/// attempt that may have committed unheard (`retried`) was done by that attempt.
fn settle(result: StoreResult<Written>, write: &GroupWrite, retried: bool) -> StoreResult<Written> {
    match result {
        Err(StoreError::Exists(_)) if retried && inserts(write) => Ok(Written::Done),
        result => result,
    }
}
