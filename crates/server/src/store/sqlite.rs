//! The embedded store: one SQLite file under the data directory, in WAL mode with
//! `synchronous=FULL`, so a write is on disk before anyone hears of it.
//!
//! Writes go through one writer task, which *group-commits*: it takes every write waiting
//! in its queue, runs each in a savepoint of one transaction (so one failing write, a name
//! already taken, fails alone) and commits them with a single fsync. Under load, tables that
//! act at once share a commit; alone, a write waits only for its own. Reads go through a
//! small pool of connections, which WAL lets run beside the writer.

use super::{
    GameSummary, RatingUpdate, Store, StoreError, StoreResult, StoredGame, StoredTable, StoredUser,
    Unfinished,
};
use crate::metrics::Metrics;
use crate::protocol::UserInfo;
use crate::rating::Rating;
use async_trait::async_trait;
use game::{Nonce, Outcome, Record, RecordedAction, Seat, Seed};
use serde_json::Value;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::{Connection, Row};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{mpsc, oneshot};

/// The most writes one commit takes: bounds a transaction's size under a flood.
const MAX_BATCH: usize = 1024;

/// One write for the writer task.
enum Write {
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
}

impl Write {
    /// Whether the write is a single SQL statement whose only expected refusal is a
    /// constraint (a name taken). A game's start and end write several rows; registering
    /// a guest can be refused after its statement.
    fn one_statement(&self) -> bool {
        !matches!(
            self,
            Write::StartGame(_) | Write::Finish { .. } | Write::RegisterGuest { .. }
        )
    }
}

/// What a write gives back.
enum Written {
    Done,
    User(UserInfo),
}

struct Job {
    write: Write,
    done: oneshot::Sender<StoreResult<Written>>,
}

/// The SQLite store.
pub struct SqliteStore {
    reads: SqlitePool,
    writes: mpsc::Sender<Job>,
}

fn db(e: sqlx::Error) -> StoreError {
    StoreError::Database(e.to_string())
}

fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

fn json<T: serde::Serialize>(value: &T) -> StoreResult<String> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt(e.to_string()))
}

fn parse<T: serde::de::DeserializeOwned>(text: &str) -> StoreResult<T> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(e.to_string()))
}

impl SqliteStore {
    /// Opens (creating if needed) `qipai.db` in `dir`, runs the migrations and starts the
    /// writer task.
    pub async fn open(dir: &Path, metrics: Arc<Metrics>) -> StoreResult<SqliteStore> {
        std::fs::create_dir_all(dir)
            .map_err(|e| StoreError::Database(format!("cannot create {}: {e}", dir.display())))?;
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
            .map_err(|e| StoreError::Database(format!("migration failed: {e}")))?;
        let conn = SqliteConnection::connect_with(&options).await.map_err(db)?;
        let (writes, queue) = mpsc::channel(16 * 1024);
        tokio::spawn(writer(conn, queue, metrics));
        Ok(SqliteStore { reads, writes })
    }

    async fn write(&self, write: Write) -> StoreResult<Written> {
        let (done, answer) = oneshot::channel();
        self.writes
            .send(Job { write, done })
            .await
            .map_err(|_| StoreError::Database("the writer has stopped".into()))?;
        answer
            .await
            .map_err(|_| StoreError::Database("the writer has stopped".into()))?
    }

    fn table_row(table: &StoredTable) -> StoreResult<(String, String, String)> {
        Ok((table.id.clone(), table.game.clone(), json(table)?))
    }
}

/// The writer task: group commits until every sender is gone (a clean shutdown drains
/// the queue first).
async fn writer(mut conn: SqliteConnection, mut queue: mpsc::Receiver<Job>, metrics: Arc<Metrics>) {
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
            .bind(now())
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
        Write::SaveTable(id, game, state) => {
            save_table(conn, id, game, state).await?;
            Ok(Written::Done)
        }
        Write::CloseTable(id) => {
            sqlx::query("UPDATE tables SET open = 0, updated_at = ? WHERE id = ?")
                .bind(now())
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
                .bind(now())
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
    .bind(now())
    .execute(&mut *conn)
    .await
    .map_err(db)?;
    Ok(())
}

async fn start_game(conn: &mut SqliteConnection, g: &StoredGame) -> StoreResult<()> {
    sqlx::query(
        "INSERT INTO games (id, table_id, game, config, seats, commitment, seed, nonces, rated, \
         started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
    .bind(now())
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

fn user_info(row: &sqlx::sqlite::SqliteRow) -> UserInfo {
    UserInfo {
        id: row.get("id"),
        name: row.get("name"),
        guest: row.get::<bool, _>("guest"),
    }
}

impl SqliteStore {
    /// A game's record from its rows: the journal (sealed forms, no seed) and the seed.
    async fn load_game(&self, id: &str) -> StoreResult<Option<(Record, Seed, bool)>> {
        let Some(row) = sqlx::query(
            "SELECT id, game, config, seats, commitment, seed, nonces, outcome FROM games WHERE id = ?",
        )
        .bind(id)
        .fetch_optional(&self.reads)
        .await
        .map_err(db)?
        else {
            return Ok(None);
        };
        let seed = Seed::from_hex(row.get::<&str, _>("seed")).map_err(StoreError::Corrupt)?;
        let nonces: Vec<Option<Nonce>> = parse(row.get("nonces"))?;
        let outcome: Option<Outcome> = row
            .get::<Option<String>, _>("outcome")
            .map(|o| parse(&o))
            .transpose()?;
        let actions =
            sqlx::query("SELECT seat, public, sealed FROM actions WHERE game_id = ? ORDER BY idx")
                .bind(id)
                .fetch_all(&self.reads)
                .await
                .map_err(db)?
                .iter()
                .map(|a| {
                    Ok(RecordedAction {
                        seat: a.get::<i64, _>("seat") as Seat,
                        action: parse(a.get("public"))?,
                        sealed: a
                            .get::<Option<String>, _>("sealed")
                            .map(|s| parse::<Value>(&s))
                            .transpose()?,
                    })
                })
                .collect::<StoreResult<Vec<_>>>()?;
        let finished = outcome.is_some();
        let record = Record {
            game: row.get("game"),
            id: row.get("id"),
            config: parse(row.get("config"))?,
            seats: row.get::<i64, _>("seats") as usize,
            commitment: row.get("commitment"),
            nonces,
            seed: None,
            actions,
            outcome,
        };
        Ok(Some((record, seed, finished)))
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
        match self
            .write(Write::CreateUser {
                name: name.into(),
                hash: password_hash.map(str::to_string),
                guest,
            })
            .await?
        {
            Written::User(u) => Ok(u),
            Written::Done => Err(StoreError::Database("no user created".into())),
        }
    }

    async fn register_guest(
        &self,
        id: i64,
        name: &str,
        password_hash: &str,
    ) -> StoreResult<UserInfo> {
        match self
            .write(Write::RegisterGuest {
                id,
                name: name.into(),
                hash: password_hash.into(),
            })
            .await?
        {
            Written::User(u) => Ok(u),
            Written::Done => Err(StoreError::Database("no user registered".into())),
        }
    }

    async fn user_by_name(&self, name: &str) -> StoreResult<Option<StoredUser>> {
        let row = sqlx::query("SELECT id, name, guest, password_hash FROM users WHERE name = ?")
            .bind(name)
            .fetch_optional(&self.reads)
            .await
            .map_err(db)?;
        Ok(row.map(|r| StoredUser {
            info: user_info(&r),
            password_hash: r.get("password_hash"),
        }))
    }

    async fn create_session(
        &self,
        user: i64,
        token_hash: &str,
        expires_at: i64,
    ) -> StoreResult<()> {
        self.write(Write::CreateSession {
            user,
            token_hash: token_hash.into(),
            expires_at,
        })
        .await
        .map(|_| ())
    }

    async fn session_user(&self, token_hash: &str, now: i64) -> StoreResult<Option<UserInfo>> {
        let row = sqlx::query(
            "SELECT u.id, u.name, u.guest FROM sessions s JOIN users u ON u.id = s.user_id \
             WHERE s.token_hash = ? AND s.revoked = 0 AND s.expires_at > ?",
        )
        .bind(token_hash)
        .bind(now)
        .fetch_optional(&self.reads)
        .await
        .map_err(db)?;
        Ok(row.as_ref().map(user_info))
    }

    async fn revoke_session(&self, token_hash: &str) -> StoreResult<()> {
        self.write(Write::RevokeSession {
            token_hash: token_hash.into(),
        })
        .await
        .map(|_| ())
    }

    async fn save_table(&self, table: &StoredTable) -> StoreResult<()> {
        let (id, game, state) = Self::table_row(table)?;
        self.write(Write::SaveTable(id, game, state))
            .await
            .map(|_| ())
    }

    async fn close_table(&self, id: &str) -> StoreResult<()> {
        self.write(Write::CloseTable(id.into())).await.map(|_| ())
    }

    async fn open_tables(&self) -> StoreResult<Vec<StoredTable>> {
        sqlx::query("SELECT state FROM tables WHERE open = 1 ORDER BY updated_at")
            .fetch_all(&self.reads)
            .await
            .map_err(db)?
            .iter()
            .map(|r| parse(r.get("state")))
            .collect()
    }

    async fn start_game(&self, game: &StoredGame) -> StoreResult<()> {
        self.write(Write::StartGame(Box::new(game.clone())))
            .await
            .map(|_| ())
    }

    async fn append_action(
        &self,
        game: &str,
        index: usize,
        seat: Seat,
        public: &Value,
        sealed: Option<&Value>,
    ) -> StoreResult<()> {
        self.write(Write::Action {
            game: game.into(),
            index: index as i64,
            seat: seat as i64,
            public: json(public)?,
            sealed: sealed.map(json).transpose()?,
        })
        .await
        .map(|_| ())
    }

    async fn finish_game(
        &self,
        record: &Record,
        table: &StoredTable,
        ratings: &[RatingUpdate],
    ) -> StoreResult<()> {
        let outcome = record
            .outcome
            .as_ref()
            .ok_or_else(|| StoreError::Corrupt("a finished game has an outcome".into()))?;
        self.write(Write::Finish {
            game: record.id.clone(),
            outcome: json(outcome)?,
            table: Self::table_row(table)?,
            ratings: ratings.to_vec(),
        })
        .await
        .map(|_| ())
    }

    async fn unfinished_game(&self, table: &str) -> StoreResult<Option<Unfinished>> {
        let row = sqlx::query(
            "SELECT id FROM games WHERE table_id = ? AND finished_at IS NULL ORDER BY started_at DESC LIMIT 1",
        )
        .bind(table)
        .fetch_optional(&self.reads)
        .await
        .map_err(db)?;
        let Some(row) = row else { return Ok(None) };
        let id: String = row.get("id");
        Ok(self
            .load_game(&id)
            .await?
            .map(|(journal, seed, _)| Unfinished { journal, seed }))
    }

    async fn finished_record(&self, id: &str) -> StoreResult<Option<Record>> {
        Ok(self
            .load_game(id)
            .await?
            .and_then(|(mut record, seed, finished)| {
                finished.then(|| {
                    record.seed = Some(seed);
                    record
                })
            }))
    }

    async fn history(&self, user: i64, limit: usize) -> StoreResult<Vec<GameSummary>> {
        let rows = sqlx::query(
            "SELECT g.id, g.game, s.seat, g.outcome, g.finished_at FROM game_seats s \
             JOIN games g ON g.id = s.game_id WHERE s.user_id = ? \
             ORDER BY g.started_at DESC LIMIT ?",
        )
        .bind(user)
        .bind(limit as i64)
        .fetch_all(&self.reads)
        .await
        .map_err(db)?;
        rows.iter()
            .map(|r| {
                let seat = r.get::<i64, _>("seat") as Seat;
                let outcome: Option<Outcome> = r
                    .get::<Option<String>, _>("outcome")
                    .map(|o| parse(&o))
                    .transpose()?;
                Ok(GameSummary {
                    id: r.get("id"),
                    game: r.get("game"),
                    seat,
                    score: outcome.and_then(|o| o.scores.get(seat).copied()),
                    finished_at: r.get("finished_at"),
                })
            })
            .collect()
    }

    async fn rating(&self, user: i64, game: &str) -> StoreResult<Rating> {
        let row = sqlx::query(
            "SELECT rating, deviation, volatility, games FROM ratings WHERE user_id = ? AND game = ?",
        )
        .bind(user)
        .bind(game)
        .fetch_optional(&self.reads)
        .await
        .map_err(db)?;
        Ok(row.map_or_else(Rating::default, |r| Rating {
            rating: r.get("rating"),
            deviation: r.get("deviation"),
            volatility: r.get("volatility"),
            games: r.get::<i64, _>("games") as u64,
        }))
    }

    async fn leaderboard(&self, game: &str, limit: usize) -> StoreResult<Vec<(String, Rating)>> {
        let rows = sqlx::query(
            "SELECT u.name, r.rating, r.deviation, r.volatility, r.games FROM ratings r \
             JOIN users u ON u.id = r.user_id WHERE r.game = ? ORDER BY r.rating DESC LIMIT ?",
        )
        .bind(game)
        .bind(limit as i64)
        .fetch_all(&self.reads)
        .await
        .map_err(db)?;
        Ok(rows
            .iter()
            .map(|r| {
                (
                    r.get("name"),
                    Rating {
                        rating: r.get("rating"),
                        deviation: r.get("deviation"),
                        volatility: r.get("volatility"),
                        games: r.get::<i64, _>("games") as u64,
                    },
                )
            })
            .collect())
    }
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
