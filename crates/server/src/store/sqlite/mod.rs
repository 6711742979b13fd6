//! The embedded store: one SQLite file under the data directory, in WAL mode with
//! `synchronous=FULL`, so a write is on disk before anyone hears of it.
//!
//! Writes go through one writer task, which *group-commits*: it takes every write waiting
//! in its queue, runs each in a savepoint of one transaction (so one failing write, a name
//! already taken, fails alone) and commits them with a single fsync. Under load, tables that
//! act at once share a commit; alone, a write waits only for its own. Reads go through a
//! small pool of connections, which WAL lets run beside the writer. The writer and the SQL
//! of each write are in [`writer`]; this module holds the store and its reads.

mod writer;

use super::{
    GameStats, GameSummary, HistoryCursor, RatingUpdate, SeatPlayer, Store, StoreError,
    StoreResult, StoredGame, StoredTable, StoredUser, Unfinished,
};
use crate::metrics::Metrics;
use crate::protocol::UserInfo;
use crate::rating::{Rating, PROVISIONAL_DEVIATION};
use async_trait::async_trait;
use game::{Nonce, Outcome, Record, RecordedAction, Seat, Seed};
use serde_json::Value;
use sqlx::sqlite::{
    SqliteConnectOptions, SqliteConnection, SqliteJournalMode, SqlitePool, SqlitePoolOptions,
    SqliteSynchronous,
};
use sqlx::{Connection, Row};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};
use writer::{writer, Job, Write, Written};

/// The SQLite store.
pub struct SqliteStore {
    reads: SqlitePool,
    writes: mpsc::Sender<Job>,
}

fn db(e: sqlx::Error) -> StoreError {
    StoreError::Database(e.to_string())
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

/// A seat's player from a row of `game_seats` joined with `users`.
fn seat_player(row: &sqlx::sqlite::SqliteRow) -> SeatPlayer {
    SeatPlayer {
        seat: row.get::<i64, _>("seat") as Seat,
        user: row
            .get::<Option<i64>, _>("id")
            .is_some()
            .then(|| user_info(row)),
        bot: row.get("bot"),
    }
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
            Written::Done | Written::Count(_) => {
                Err(StoreError::Database("no user created".into()))
            }
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
            Written::Done | Written::Count(_) => {
                Err(StoreError::Database("no user registered".into()))
            }
        }
    }

    async fn user_by_name(&self, name: &str) -> StoreResult<Option<StoredUser>> {
        let row =
            sqlx::query("SELECT id, name, guest, password_hash, banned FROM users WHERE name = ?")
                .bind(name)
                .fetch_optional(&self.reads)
                .await
                .map_err(db)?;
        Ok(row.map(|r| StoredUser {
            info: user_info(&r),
            password_hash: r.get("password_hash"),
            banned: r.get("banned"),
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

    async fn set_banned(&self, user: i64, reason: Option<&str>) -> StoreResult<u64> {
        let write = Write::SetBanned {
            user,
            reason: reason.map(str::to_string),
        };
        match self.write(write).await? {
            Written::Count(n) => Ok(n),
            _ => Err(StoreError::Database(
                "the writer answered another write".into(),
            )),
        }
    }

    async fn delete_account(&self, user: i64) -> StoreResult<UserInfo> {
        match self.write(Write::DeleteAccount { user }).await? {
            Written::User(u) => Ok(u),
            _ => Err(StoreError::Database(
                "the writer answered another write".into(),
            )),
        }
    }

    async fn set_password(&self, user: i64, hash: &str, keep: &str) -> StoreResult<u64> {
        let write = Write::SetPassword {
            user,
            hash: hash.into(),
            keep: keep.into(),
        };
        match self.write(write).await? {
            Written::Count(n) => Ok(n),
            _ => Err(StoreError::Database(
                "the writer answered another write".into(),
            )),
        }
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

    async fn forget_idle_guests(&self, now: i64) -> StoreResult<u64> {
        match self.write(Write::ForgetGuests { now }).await? {
            Written::Count(n) => Ok(n),
            _ => Err(StoreError::Database(
                "the writer answered another write".into(),
            )),
        }
    }

    async fn game_players(&self, id: &str) -> StoreResult<Vec<SeatPlayer>> {
        let rows = sqlx::query(
            "SELECT s.game_id, s.seat, s.bot, u.id, u.name, u.guest FROM game_seats s \
             LEFT JOIN users u ON u.id = s.user_id WHERE s.game_id = ? ORDER BY s.seat",
        )
        .bind(id)
        .fetch_all(&self.reads)
        .await
        .map_err(db)?;
        Ok(rows.iter().map(seat_player).collect())
    }

    async fn history(
        &self,
        user: i64,
        limit: usize,
        with_private: bool,
        before: Option<&HistoryCursor>,
    ) -> StoreResult<Vec<GameSummary>> {
        // `?3`: 1 lists games at private tables too, 0 leaves them out. `?4`, `?5`: only
        // games after the cursor in the order listed (started earlier, or at the same
        // second with a smaller id); none when `?4` is NULL.
        macro_rules! page {
            () => {
                "s.user_id = ?1 AND g.private <= ?3 AND (?4 IS NULL OR \
                 g.started_at < ?4 OR (g.started_at = ?4 AND g.id < ?5)) \
                 ORDER BY g.started_at DESC, g.id DESC LIMIT ?2"
            };
        }
        let (since, id) = before.map_or((None, ""), |c| (Some(c.started_at), c.id.as_str()));
        let rows = sqlx::query(concat!(
            "SELECT g.id, g.game, s.seat, g.outcome, g.started_at, g.finished_at, g.private \
             FROM game_seats s JOIN games g ON g.id = s.game_id WHERE ",
            page!()
        ))
        .bind(user)
        .bind(limit as i64)
        .bind(with_private)
        .bind(since)
        .bind(id)
        .fetch_all(&self.reads)
        .await
        .map_err(db)?;
        // Everyone at those games, in one query rather than one a game.
        let seated = sqlx::query(concat!(
            "SELECT p.game_id, p.seat, p.bot, u.id, u.name, u.guest FROM game_seats p \
             LEFT JOIN users u ON u.id = p.user_id WHERE p.game_id IN \
             (SELECT g.id FROM game_seats s JOIN games g ON g.id = s.game_id WHERE ",
            page!(),
            ") ORDER BY p.game_id, p.seat"
        ))
        .bind(user)
        .bind(limit as i64)
        .bind(with_private)
        .bind(since)
        .bind(id)
        .fetch_all(&self.reads)
        .await
        .map_err(db)?;
        let mut players: HashMap<String, Vec<SeatPlayer>> = HashMap::new();
        for r in &seated {
            players
                .entry(r.get("game_id"))
                .or_default()
                .push(seat_player(r));
        }
        rows.iter()
            .map(|r| {
                let id: String = r.get("id");
                let seat = r.get::<i64, _>("seat") as Seat;
                let outcome: Option<Outcome> = r
                    .get::<Option<String>, _>("outcome")
                    .map(|o| parse(&o))
                    .transpose()?;
                Ok(GameSummary {
                    players: players.remove(&id).unwrap_or_default(),
                    id,
                    game: r.get("game"),
                    seat,
                    score: outcome.and_then(|o| o.scores.get(seat).copied()),
                    started_at: r.get("started_at"),
                    finished_at: r.get("finished_at"),
                    private: r.get("private"),
                })
            })
            .collect()
    }

    async fn stats(&self, user: i64, with_private: bool) -> StoreResult<Vec<GameStats>> {
        // The seat's entries of the stored outcome: `won` is JSON true or false, which
        // json_extract reads as 1 or 0. `sides` is 1 if any seat of any of these games
        // won: games without a winning side have no count of wins.
        let rows = sqlx::query(
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
        Ok(rows
            .iter()
            .map(|r| GameStats {
                game: r.get("game"),
                played: r.get::<i64, _>("played") as u64,
                won: (r.get::<Option<i64>, _>("sides") == Some(1))
                    .then(|| r.get::<Option<i64>, _>("won").unwrap_or(0) as u64),
                net: r.get::<Option<i64>, _>("net").unwrap_or(0),
            })
            .collect())
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
             JOIN users u ON u.id = r.user_id WHERE r.game = ? \
             ORDER BY r.deviation > ? ASC, r.rating DESC LIMIT ?",
        )
        .bind(game)
        .bind(PROVISIONAL_DEVIATION)
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
