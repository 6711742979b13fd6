//! What both stores share once a row is read: JSON in and out of text columns, rows into
//! the hall's types, and a game's rows into its record. Each store keeps only its own
//! SQL; the row readers here are generic over the database, so a column reads the same
//! way from SQLite and from PostgreSQL. A reader panics only if the store's own query
//! lacks a column or gives it another type: a bug that every test of the store meets.

use super::{
    Cause, ComputerRecord, GameStats, GameSummary, SeatPlayer, StoreError, StoreResult, StoredUser,
};
use crate::protocol::UserInfo;
use crate::rating::Rating;
use game::{Nonce, Outcome, Record, RecordedAction, Seat, Seed};
use serde_json::Value;
use sqlx::{ColumnIndex, Decode, Row, Type};
use std::collections::HashMap;

/// A database failure, sorted by what the caller may do about it: a key stored already
/// ([`StoreError::Exists`]), the database out of reach and the operation worth trying
/// again ([`StoreError::Unavailable`]), or any other failure.
///
/// Out of reach, from PostgreSQL's SQLSTATE: the connection broke (class 08); the server
/// is shutting down or starting (57P); it has no room for the work, the usual case being
/// every connection slot taken, or a full disk (class 53); or the database refuses new
/// connections, shut by its operator (`ALLOW_CONNECTIONS false`, 55000). Each passes when
/// somebody acts or load falls, as a restart does. (55000 is also what a few statements
/// the hall never runs fail with; were one to, it would be tried again for a few seconds
/// before failing as it would have.)
pub(super) fn db(e: sqlx::Error) -> StoreError {
    let unavailable = match &e {
        sqlx::Error::Io(_)
        | sqlx::Error::Protocol(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::WorkerCrashed => true,
        sqlx::Error::Database(d) if d.is_unique_violation() => {
            return StoreError::Exists(Cause::new(e))
        }
        sqlx::Error::Database(d) => d
            .try_downcast_ref::<sqlx::postgres::PgDatabaseError>()
            .is_some_and(|pg| out_of_reach(pg.code())),
        _ => false,
    };
    if unavailable {
        StoreError::Unavailable(Cause::new(e))
    } else {
        StoreError::Database(Cause::new(e))
    }
}

/// Whether a PostgreSQL error's SQLSTATE says the database is out of reach for now
/// ([`db`]).
fn out_of_reach(sqlstate: &str) -> bool {
    ["08", "57P", "53"]
        .iter()
        .any(|class| sqlstate.starts_with(class))
        || sqlstate == "55000"
}

/// A failed write that set an account's name: a taken name is said so, anything else is
/// a database error.
pub(super) fn name_error(e: sqlx::Error, name: &str) -> StoreError {
    match &e {
        sqlx::Error::Database(d) if d.is_unique_violation() => {
            StoreError::NameTaken(name.to_string())
        }
        _ => db(e),
    }
}

/// The key of an account older than the keys whose folded name was another's: `=` and
/// its exact name. No folded name starts with `=`, which no name may hold, so such a key
/// is reached only by typing the name exactly ([`crate::names`]).
pub(super) fn exact_name_key(name: &str) -> String {
    format!("={name}")
}

/// `value` as the JSON text a column stores.
pub(super) fn json<T: serde::Serialize>(value: &T) -> StoreResult<String> {
    serde_json::to_string(value).map_err(|e| StoreError::Corrupt(Cause::new(e)))
}

/// A JSON column read back.
pub(super) fn parse<T: serde::de::DeserializeOwned>(text: &str) -> StoreResult<T> {
    serde_json::from_str(text).map_err(|e| StoreError::Corrupt(Cause::new(e)))
}

/// The account of a row with `id`, `name` and `guest`.
pub(super) fn user_info<R: Row>(row: &R) -> UserInfo
where
    for<'a> &'a str: ColumnIndex<R>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> bool: Decode<'r, R::Database> + Type<R::Database>,
{
    UserInfo {
        id: row.get("id"),
        name: row.get("name"),
        guest: row.get("guest"),
    }
}

/// An account with its password hash and ban from a row of `users` (`id`, `name`,
/// `guest`, `password_hash`, `banned`).
pub(super) fn stored_user<R: Row>(row: &R) -> StoredUser
where
    for<'a> &'a str: ColumnIndex<R>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> Option<String>: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> bool: Decode<'r, R::Database> + Type<R::Database>,
{
    StoredUser {
        info: user_info(row),
        password_hash: row.get("password_hash"),
        banned: row.get("banned"),
    }
}

/// A seat's player from a row of `game_seats` (`seat`, `bot`) left-joined with `users`.
pub(super) fn seat_player<R: Row>(row: &R) -> SeatPlayer
where
    for<'a> &'a str: ColumnIndex<R>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> Option<i64>: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> Option<String>: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> bool: Decode<'r, R::Database> + Type<R::Database>,
{
    SeatPlayer {
        seat: row.get::<i64, _>("seat") as Seat,
        user: row
            .get::<Option<i64>, _>("id")
            .is_some()
            .then(|| user_info(row)),
        bot: row.get("bot"),
    }
}

/// A rating from a row with `rating`, `deviation`, `volatility` and `games`.
pub(super) fn rating<R: Row>(row: &R) -> Rating
where
    for<'a> &'a str: ColumnIndex<R>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> f64: Decode<'r, R::Database> + Type<R::Database>,
{
    Rating {
        rating: row.get("rating"),
        deviation: row.get("deviation"),
        volatility: row.get("volatility"),
        games: row.get::<i64, _>("games") as u64,
    }
}

/// One row of `actions` (`seat`, `public`, `sealed`) as recorded.
pub(super) fn recorded_action<R: Row>(row: &R) -> StoreResult<RecordedAction>
where
    for<'a> &'a str: ColumnIndex<R>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> Option<String>: Decode<'r, R::Database> + Type<R::Database>,
{
    Ok(RecordedAction {
        seat: row.get::<i64, _>("seat") as Seat,
        action: parse(&row.get::<String, _>("public"))?,
        sealed: row
            .get::<Option<String>, _>("sealed")
            .map(|s| parse::<Value>(&s))
            .transpose()?,
    })
}

/// A game's record from its row of `games` (`id`, `game`, `config`, `seats`,
/// `commitment`, `seed`, `nonces`, and `outcome` as text) and its actions: the journal
/// with sealed forms and no seed, the seed, and whether it is finished.
pub(super) fn game_record<R: Row>(
    row: &R,
    actions: Vec<RecordedAction>,
) -> StoreResult<(Record, Seed, bool)>
where
    for<'a> &'a str: ColumnIndex<R>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> Option<String>: Decode<'r, R::Database> + Type<R::Database>,
{
    let seed = Seed::from_hex(&row.get::<String, _>("seed"))
        .map_err(|e| StoreError::Corrupt(Cause::new(e)))?;
    let nonces: Vec<Option<Nonce>> = parse(&row.get::<String, _>("nonces"))?;
    let outcome: Option<Outcome> = row
        .get::<Option<String>, _>("outcome")
        .map(|o| parse(&o))
        .transpose()?;
    let finished = outcome.is_some();
    let record = Record {
        game: row.get("game"),
        id: row.get("id"),
        config: parse(&row.get::<String, _>("config"))?,
        seats: row.get::<i64, _>("seats") as usize,
        commitment: row.get("commitment"),
        nonces,
        seed: None,
        actions,
        outcome,
    };
    Ok((record, seed, finished))
}

/// A page of a player's history from its rows (`id`, `game`, `seat`, `outcome` as text,
/// `started_at`, `finished_at`, `private`) and the rows of everyone seated at those games
/// (`game_id` and a seat's player), in seat order.
pub(super) fn summaries<R: Row>(rows: &[R], seated: &[R]) -> StoreResult<Vec<GameSummary>>
where
    for<'a> &'a str: ColumnIndex<R>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> Option<i64>: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> Option<String>: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> bool: Decode<'r, R::Database> + Type<R::Database>,
{
    let mut players: HashMap<String, Vec<SeatPlayer>> = HashMap::new();
    for r in seated {
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
                rated: r.get("rated"),
            })
        })
        .collect()
}

/// A player's record against each computer from rows with the game's `id`, `game`, the
/// player's `seat`, its `outcome` as text and one computer's `bot` (a row for each
/// computer seat), ordered by the game's id.
pub(super) fn computer_records<R: Row>(rows: &[R]) -> StoreResult<Vec<ComputerRecord>>
where
    for<'a> &'a str: ColumnIndex<R>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
{
    let mut tally: std::collections::BTreeMap<(String, String), ComputerRecord> =
        Default::default();
    let mut counted: Vec<(String, String)> = Vec::new();
    for r in rows {
        let id: String = r.get("id");
        let bot: String = r.get("bot");
        if counted.iter().any(|(g, b)| *g == id && *b == bot) {
            continue;
        }
        if counted.first().is_some_and(|(g, _)| *g != id) {
            counted.clear();
        }
        counted.push((id, bot.clone()));
        let game: String = r.get("game");
        let seat = r.get::<i64, _>("seat") as Seat;
        let outcome: Outcome = parse(&r.get::<String, _>("outcome"))?;
        let entry = tally
            .entry((game.clone(), bot.clone()))
            .or_insert(ComputerRecord {
                game,
                bot,
                played: 0,
                won: 0,
                lost: 0,
                drawn: 0,
            });
        entry.played += 1;
        if outcome.won.get(seat).copied().unwrap_or(false) {
            entry.won += 1;
        } else if outcome.won.contains(&true) {
            entry.lost += 1;
        } else {
            entry.drawn += 1;
        }
    }
    Ok(tally.into_values().collect())
}

/// A player's record at one game from a row with `game`, `played`, `won` (seats on the
/// winning side), `sides` (1 if any of the games had a winning side) and `net`, all
/// integers.
pub(super) fn game_stats<R: Row>(row: &R) -> GameStats
where
    for<'a> &'a str: ColumnIndex<R>,
    for<'r> i64: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> String: Decode<'r, R::Database> + Type<R::Database>,
    for<'r> Option<i64>: Decode<'r, R::Database> + Type<R::Database>,
{
    GameStats {
        game: row.get("game"),
        played: row.get::<i64, _>("played") as u64,
        won: (row.get::<Option<i64>, _>("sides") == Some(1))
            .then(|| row.get::<Option<i64>, _>("won").unwrap_or(0) as u64),
        net: row.get::<Option<i64>, _>("net").unwrap_or(0),
    }
}
