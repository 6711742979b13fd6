//! The writer task: the one connection that writes, group-committing whatever waits in
//! its queue (see the parent module), and the SQL of each write.

use super::{db, json};
use crate::metrics::Metrics;
use crate::protocol::UserInfo;
use crate::store::unix_now;
use crate::store::{RatingUpdate, StoreError, StoreResult, StoredGame};
use sqlx::sqlite::SqliteConnection;
use sqlx::{Connection, Row};
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::{mpsc, oneshot};

/// The most writes one commit takes: bounds a transaction's size under a flood.
const MAX_BATCH: usize = 1024;

/// One write for the writer task.
pub(super) enum Write {
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
    CreateSession {
        user: i64,
        token_hash: String,
        expires_at: i64,
    },
    RevokeSession {
        token_hash: String,
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
    SaveTable(String, String, String),
    CloseTable(String),
    StartGame(Box<StoredGame>),
    Action {
        game: String,
        index: i64,
        seat: i64,
        public: String,
        sealed: Option<String>,
    },
    Finish {
        game: String,
        outcome: String,
        table: (String, String, String),
        ratings: Vec<RatingUpdate>,
    },
    /// [`crate::store::Store::forget_idle_guests`] at this time.
    ForgetGuests {
        now: i64,
    },
}

impl Write {
    /// Whether the write is a single SQL statement whose only expected refusal is a
    /// constraint (a name taken). A game's start and end write several rows; registering
    /// a guest can be refused after its statement.
    fn one_statement(&self) -> bool {
        !matches!(
            self,
            Write::StartGame(_)
                | Write::Finish { .. }
                | Write::RegisterGuest { .. }
                | Write::SetPassword { .. }
                | Write::SetBanned { .. }
                | Write::DeleteAccount { .. }
                | Write::ForgetGuests { .. }
        )
    }
}

/// What a write gives back.
pub(super) enum Written {
    Done,
    User(UserInfo),
    Count(u64),
}

/// A write queued for the writer, with the way back to whoever waits for it.
pub(super) struct Job {
    pub(super) write: Write,
    pub(super) done: oneshot::Sender<StoreResult<Written>>,
}

/// The writer task: group commits until every sender is gone (a clean shutdown drains
/// the queue first).
pub(super) async fn writer(
    mut conn: SqliteConnection,
    mut queue: mpsc::Receiver<Job>,
    metrics: Arc<Metrics>,
) {
    while let Some(first) = queue.recv().await {
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match queue.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
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
                    let _ = job.done.send(Err(StoreError::Database(e.to_string())));
                }
            }
        }
    }
}

/// Runs every write of several statements in a savepoint of one transaction, the others
/// as they are, and commits once.
async fn commit(
    conn: &mut SqliteConnection,
    batch: &[Job],
) -> Result<Vec<StoreResult<Written>>, sqlx::Error> {
    let mut tx = conn.begin().await?;
    let mut results = Vec::with_capacity(batch.len());
    for job in batch {
        if job.write.one_statement() {
            // A statement refused by a constraint undoes only itself (SQLite's statement
            // journal): no savepoint needed, and two fewer round trips to the database
            // thread. Any other failure may have ended the transaction: the whole batch
            // fails, as a failed commit would.
            match apply(&mut tx, &job.write).await {
                Err(StoreError::Database(e)) => return Err(sqlx::Error::Protocol(e)),
                result => results.push(result),
            }
            continue;
        }
        let mut sp = tx.begin().await?;
        match apply(&mut sp, &job.write).await {
            Ok(w) => {
                sp.commit().await?;
                results.push(Ok(w));
            }
            Err(e) => {
                sp.rollback().await?;
                results.push(Err(e));
            }
        }
    }
    tx.commit().await?;
    Ok(results)
}

fn unique_violation(e: &sqlx::Error) -> bool {
    matches!(e, sqlx::Error::Database(d) if d.is_unique_violation())
}

/// Runs `sql`, an UPDATE of one registered account binding `value` and then its id; fails
/// unless it changed exactly that account (a guest, or an id that is no account, is not).
async fn update_registered(
    conn: &mut SqliteConnection,
    sql: &'static str,
    value: &str,
    user: i64,
) -> StoreResult<()> {
    let done = sqlx::query(sql)
        .bind(value)
        .bind(user)
        .execute(&mut *conn)
        .await
        .map_err(db)?;
    if done.rows_affected() != 1 {
        return Err(StoreError::Corrupt(format!("no registered account {user}")));
    }
    Ok(())
}

/// Ends every live session of `user` but the one whose token hash is `keep` (`""` keeps
/// none: no token hashes to it); returns how many it ended.
async fn end_sessions(conn: &mut SqliteConnection, user: i64, keep: &str) -> StoreResult<u64> {
    let ended = sqlx::query(
        "UPDATE sessions SET revoked = 1 WHERE user_id = ? AND token_hash != ? AND revoked = 0",
    )
    .bind(user)
    .bind(keep)
    .execute(&mut *conn)
    .await
    .map_err(db)?;
    Ok(ended.rows_affected())
}

async fn apply(conn: &mut SqliteConnection, write: &Write) -> StoreResult<Written> {
    match write {
        Write::CreateUser { name, hash, guest } => {
            let row = sqlx::query(
                "INSERT INTO users (name, password_hash, guest, created_at) VALUES (?, ?, ?, ?) \
                 RETURNING id",
            )
            .bind(name)
            .bind(hash)
            .bind(guest)
            .bind(unix_now())
            .fetch_one(&mut *conn)
            .await
            .map_err(|e| name_error(e, name))?;
            Ok(Written::User(UserInfo {
                id: row.get(0),
                name: name.clone(),
                guest: *guest,
            }))
        }
        Write::RegisterGuest { id, name, hash } => {
            let done = sqlx::query(
                "UPDATE users SET name = ?, password_hash = ?, guest = 0 WHERE id = ? AND guest = 1",
            )
            .bind(name)
            .bind(hash)
            .bind(id)
            .execute(&mut *conn)
            .await
            .map_err(|e| name_error(e, name))?;
            if done.rows_affected() != 1 {
                return Err(StoreError::Database("no such guest".into()));
            }
            Ok(Written::User(UserInfo {
                id: *id,
                name: name.clone(),
                guest: false,
            }))
        }
        Write::CreateSession {
            user,
            token_hash,
            expires_at,
        } => {
            sqlx::query("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES (?, ?, ?)")
                .bind(token_hash)
                .bind(user)
                .bind(expires_at)
                .execute(&mut *conn)
                .await
                .map_err(db)?;
            Ok(Written::Done)
        }
        Write::RevokeSession { token_hash } => {
            sqlx::query("UPDATE sessions SET revoked = 1 WHERE token_hash = ?")
                .bind(token_hash)
                .execute(&mut *conn)
                .await
                .map_err(db)?;
            Ok(Written::Done)
        }
        Write::SetPassword { user, hash, keep } => {
            let sql = "UPDATE users SET password_hash = ? WHERE id = ? AND guest = 0";
            update_registered(conn, sql, hash, *user).await?;
            Ok(Written::Count(end_sessions(conn, *user, keep).await?))
        }
        Write::DeleteAccount { user } => {
            let name = format!("deleted-{user}");
            let sql = "UPDATE users SET name = ?, password_hash = NULL WHERE id = ? AND guest = 0";
            update_registered(conn, sql, &name, *user).await?;
            sqlx::query("DELETE FROM ratings WHERE user_id = ?")
                .bind(user)
                .execute(&mut *conn)
                .await
                .map_err(db)?;
            end_sessions(conn, *user, "").await?;
            Ok(Written::User(UserInfo {
                id: *user,
                name,
                guest: false,
            }))
        }
        Write::SetBanned { user, reason } => {
            let done = sqlx::query("UPDATE users SET banned = ?, banned_at = ? WHERE id = ?")
                .bind(reason)
                .bind(reason.as_ref().map(|_| unix_now()))
                .bind(user)
                .execute(&mut *conn)
                .await
                .map_err(db)?;
            if done.rows_affected() != 1 {
                return Err(StoreError::Corrupt(format!("no account {user}")));
            }
            if reason.is_none() {
                return Ok(Written::Count(0));
            }
            Ok(Written::Count(end_sessions(conn, *user, "").await?))
        }
        Write::SaveTable(id, game, state) => {
            save_table(conn, id, game, state).await?;
            Ok(Written::Done)
        }
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
        Write::CloseTable(id) => {
            sqlx::query("UPDATE tables SET open = 0, updated_at = ? WHERE id = ?")
                .bind(unix_now())
                .bind(id)
                .execute(&mut *conn)
                .await
                .map_err(db)?;
            Ok(Written::Done)
        }
        Write::StartGame(g) => {
            start_game(conn, g).await?;
            Ok(Written::Done)
        }
        Write::Action {
            game,
            index,
            seat,
            public,
            sealed,
        } => {
            sqlx::query(
                "INSERT INTO actions (game_id, idx, seat, public, sealed) VALUES (?, ?, ?, ?, ?)",
            )
            .bind(game)
            .bind(index)
            .bind(seat)
            .bind(public)
            .bind(sealed)
            .execute(&mut *conn)
            .await
            .map_err(db)?;
            Ok(Written::Done)
        }
        Write::Finish {
            game,
            outcome,
            table,
            ratings,
        } => {
            sqlx::query("UPDATE games SET outcome = ?, finished_at = ? WHERE id = ?")
                .bind(outcome)
                .bind(unix_now())
                .bind(game)
                .execute(&mut *conn)
                .await
                .map_err(db)?;
            save_table(conn, &table.0, &table.1, &table.2).await?;
            for r in ratings {
                sqlx::query(
                    "INSERT INTO ratings (user_id, game, rating, deviation, volatility, games) \
                     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, game) DO UPDATE SET \
                     rating = excluded.rating, deviation = excluded.deviation, \
                     volatility = excluded.volatility, games = excluded.games",
                )
                .bind(r.user)
                .bind(&r.game)
                .bind(r.rating.rating)
                .bind(r.rating.deviation)
                .bind(r.rating.volatility)
                .bind(r.rating.games as i64)
                .execute(&mut *conn)
                .await
                .map_err(db)?;
            }
            Ok(Written::Done)
        }
    }
}

async fn save_table(
    conn: &mut SqliteConnection,
    id: &str,
    game: &str,
    state: &str,
) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO tables (id, game, state, open, updated_at) VALUES (?, ?, ?, 1, ?) \
         ON CONFLICT (id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at",
    )
    .bind(id)
    .bind(game)
    .bind(state)
    .bind(unix_now())
    .execute(&mut *conn)
    .await
    .map_err(db)?;
    Ok(())
}

async fn start_game(conn: &mut SqliteConnection, g: &StoredGame) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO games (id, table_id, game, config, seats, commitment, seed, nonces, rated, \
         private, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    )
    .bind(&g.id)
    .bind(&g.table)
    .bind(&g.game)
    .bind(json(&g.config)?)
    .bind(g.seats as i64)
    .bind(&g.commitment)
    .bind(g.seed.to_hex())
    .bind(json(&g.nonces)?)
    .bind(g.rated)
    .bind(g.private)
    .bind(unix_now())
    .execute(&mut *conn)
    .await
    .map_err(db)?;
    for (seat, (user, bot)) in g.players.iter().enumerate() {
        sqlx::query("INSERT INTO game_seats (game_id, seat, user_id, bot) VALUES (?, ?, ?, ?)")
            .bind(&g.id)
            .bind(seat as i64)
            .bind(user)
            .bind(bot)
            .execute(&mut *conn)
            .await
            .map_err(db)?;
    }
    Ok(())
}

/// A write that sets an account's name: a taken name is said so, anything else is a
/// database error.
fn name_error(e: sqlx::Error, name: &str) -> StoreError {
    if unique_violation(&e) {
        StoreError::NameTaken(name.to_string())
    } else {
        db(e)
    }
}
