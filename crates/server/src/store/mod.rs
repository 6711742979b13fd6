//! Storage behind one interface: accounts, sessions, tables, games and their actions,
//! ratings.
//!
//! [`Store`] is what the hall needs of a database. [`sqlite::SqliteStore`] is the embedded
//! one a single machine runs with no other service; [`postgres::PostgresStore`] keeps the
//! same data in a PostgreSQL server, with its own migrations. [`open`] picks one from the
//! configuration. Every write that a client will hear of is durable when its future
//! resolves: tables *commit, then broadcast*.

pub mod copy;
mod error;
mod group;
mod portable;
pub mod postgres;
mod rows;
pub mod sqlite;

use crate::protocol::{BanInfo, TableOptions, UserInfo};
use crate::rating::Rating;
use async_trait::async_trait;
use game::{Nonce, Record, Seat, Seed};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub use error::{Cause, StoreError};

/// What store operations return.
pub type StoreResult<T> = Result<T, StoreError>;

/// An account as stored, with its password hash.
#[derive(Debug, Clone)]
pub struct StoredUser {
    /// The account as others see it.
    pub info: UserInfo,
    /// The argon2id hash (PHC string); `None` for a guest.
    pub password_hash: Option<String>,
    /// Why a moderator banned the account, if it is banned.
    pub banned: Option<String>,
}

/// Who sits in a seat, as stored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredSeat {
    /// The person.
    pub user: Option<UserInfo>,
    /// The computer, by bot name.
    pub bot: Option<String>,
}

/// A table as stored: enough to open it again after a restart.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoredTable {
    /// The table.
    pub id: String,
    /// The game.
    pub game: String,
    /// Its options.
    pub options: TableOptions,
    /// The invite code of a private table.
    pub invite: Option<String>,
    /// Who opened it.
    pub host: UserInfo,
    /// Who sits where.
    pub seats: Vec<StoredSeat>,
    /// Games finished.
    pub games: u64,
    /// Each seat's running total.
    pub totals: Vec<i64>,
    /// The configuration of the next game (the match rotation).
    pub next_config: Value,
    /// Opened by quick play: computers fill it after a short wait, and other quick players
    /// may join it.
    #[serde(default)]
    pub quick: bool,
    /// How many times the table has been opened (by its creation and by each restart):
    /// its sequence numbers start at `epoch << 32`, so they keep growing across restarts
    /// and a client's old number is never mistaken for a new one.
    #[serde(default)]
    pub epoch: u64,
    /// The game that ended last and the sequence number of its `game_over`, so a player
    /// who missed that message in a crash gets it when they resume.
    #[serde(default)]
    pub last_game: Option<LastGame>,
}

/// The last finished game of a table (see [`StoredTable::last_game`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LastGame {
    /// The game's id.
    pub id: String,
    /// The sequence number of its `game_over`.
    pub seq: u64,
}

/// A game as stored when it is dealt.
#[derive(Debug, Clone)]
pub struct StoredGame {
    /// The game's id.
    pub id: String,
    /// Its table.
    pub table: String,
    /// The game (`doudizhu`).
    pub game: String,
    /// Its configuration.
    pub config: Value,
    /// Seats.
    pub seats: usize,
    /// The published commitment.
    pub commitment: String,
    /// The secret server seed.
    pub seed: Seed,
    /// The seats' nonces.
    pub nonces: Vec<Option<Nonce>>,
    /// Who plays each seat: a person's account or a bot's name.
    pub players: Vec<(Option<i64>, Option<String>)>,
    /// Whether it counts for ratings.
    pub rated: bool,
    /// Whether it is played at a private table: only its players see it in a history.
    pub private: bool,
}

/// An unfinished game read back after a restart: its journal (sealed actions included,
/// no seed) and the secret seed.
#[derive(Debug, Clone)]
pub struct Unfinished {
    /// The record so far, with sealed private forms.
    pub journal: Record,
    /// The server seed.
    pub seed: Seed,
}

/// Opens the store the configuration names: PostgreSQL at `database` if given, else
/// SQLite in `data_dir`.
pub async fn open(
    config: &crate::ServerConfig,
    metrics: std::sync::Arc<crate::metrics::Metrics>,
) -> StoreResult<std::sync::Arc<dyn Store>> {
    Ok(match &config.database {
        Some(url) => std::sync::Arc::new(postgres::PostgresStore::open(url, metrics).await?),
        None => std::sync::Arc::new(sqlite::SqliteStore::open(&config.data_dir, metrics).await?),
    })
}

/// Now, in the Unix seconds every stored time uses (sessions' expiry, games' and accounts'
/// times), so the store, the accounts and the housekeeping read one clock alike.
pub fn unix_now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64)
}

/// Now in Unix milliseconds, the clock of table leases ([`Lease::expires_at`]).
pub fn unix_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// A node's hold on a table: while it holds it, that node alone serves the table and
/// writes for it.
///
/// Each claim of a table gives it a new *epoch*, one more than the last; every write for
/// the table carries the epoch of its writer's lease ([`Fence`]) and the store refuses it
/// with [`StoreError::Fenced`], in the same transaction, when a later claim has been made.
/// So a node that stalled past its lease (paused, cut off) and wakes up after another node
/// claimed the table cannot write for it again. Epochs never go back: a released lease
/// keeps its epoch, and the next claim counts on from it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lease {
    /// The table.
    pub table: String,
    /// The node that holds it.
    pub node: String,
    /// The claim's epoch: 1 for a table's first claim, one more for each claim after.
    pub epoch: u64,
    /// When the lease runs out unless renewed, in Unix milliseconds ([`unix_millis`]).
    pub expires_at: i64,
}

impl Lease {
    /// What each write for the table carries.
    pub fn fence(&self) -> Fence {
        Fence {
            table: self.table.clone(),
            epoch: self.epoch,
        }
    }
}

/// What every write for a table carries: the table and the epoch of its writer's lease.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    /// The table.
    pub table: String,
    /// The epoch of the writer's lease.
    pub epoch: u64,
}

/// An open table that a node may claim ([`Store::free_tables`]).
#[derive(Debug, Clone, PartialEq)]
pub struct FreeTable {
    /// The table as stored.
    pub table: StoredTable,
    /// The node whose lease it last was and when that lease ran out (Unix milliseconds),
    /// if it ever had one: who a takeover takes it from, and since when it stood still.
    pub holder: Option<(String, i64)>,
}

/// The node serving an open table under a live lease, and the table's game
/// ([`Store::serving`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Serving {
    /// The node that holds the lease.
    pub node: String,
    /// The table's game.
    pub game: String,
}

/// When a claim may take a table ([`Store::claim_table`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// Only if nobody holds it: no lease yet, an expired one, or one of this node's own.
    IfFree,
    /// Even from another node whose lease is live: for a hall that knows it is the only
    /// one serving its data ([`Store::exclusive`]: the SQLite directory's lock says so),
    /// whose tables' leases can only be left by its own earlier process, which crashed.
    Takeover,
}

/// Who played one seat of a game, as a replay names it: a person's account, or a bot's
/// name (the player the seat started the game with).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SeatPlayer {
    /// The seat.
    pub seat: Seat,
    /// The person, if a person sat there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<UserInfo>,
    /// The bot, if a computer sat there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bot: Option<String>,
}

/// One game in a player's history.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameSummary {
    /// The game's id.
    pub id: String,
    /// The game (`doudizhu`).
    pub game: String,
    /// The seat played.
    pub seat: Seat,
    /// The score change, once finished.
    pub score: Option<i64>,
    /// When it started (Unix seconds).
    #[serde(default)]
    pub started_at: i64,
    /// When it finished (Unix seconds), if it did.
    pub finished_at: Option<i64>,
    /// Who played each seat, in seat order, the player's own included: whom they played
    /// with and against.
    pub players: Vec<SeatPlayer>,
    /// Played at a private table: listed only in the player's own history.
    #[serde(default)]
    pub private: bool,
    /// Counted for the players' ratings.
    #[serde(default)]
    pub rated: bool,
}

/// A player's record against one computer at one game: the finished games where a
/// computer playing `bot` sat at the table, counted by how the player's seat came out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ComputerRecord {
    /// The game (`gomoku`).
    pub game: String,
    /// The computer's bot (`engine:L3`).
    pub bot: String,
    /// Finished games.
    pub played: u64,
    /// Of those, games the player's seat was on the winning side.
    pub won: u64,
    /// Games another side won.
    pub lost: u64,
    /// Games nobody won.
    pub drawn: u64,
}

/// A player's record at one game: how many finished games, how many on the winning side,
/// and the points won and lost in all.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameStats {
    /// The game (`doudizhu`).
    pub game: String,
    /// Finished games.
    pub played: u64,
    /// Of those, games on the winning side; `None` when none of them had a winning side
    /// at all (every one a draw), where a count of wins would say nothing.
    pub won: Option<u64>,
    /// The score changes summed.
    pub net: i64,
}

/// Where a page of a player's history ends: the next page starts after this game. Games
/// are listed newest first by when they started, ties by id, so a page boundary is exact
/// even when several games start in the same second and new games are played between
/// pages.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryCursor {
    /// The last listed game's start (Unix seconds).
    pub started_at: i64,
    /// The last listed game's id.
    pub id: String,
}

impl HistoryCursor {
    /// The cursor after `game`.
    pub fn after(game: &GameSummary) -> HistoryCursor {
        HistoryCursor {
            started_at: game.started_at,
            id: game.id.clone(),
        }
    }

    /// Reads the form the cursor is written in (its `Display`): `STARTED.ID`.
    pub fn parse(text: &str) -> Option<HistoryCursor> {
        let (started, id) = text.split_once('.')?;
        Some(HistoryCursor {
            started_at: started.parse().ok()?,
            id: id.to_string(),
        })
    }
}

impl std::fmt::Display for HistoryCursor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}.{}", self.started_at, self.id)
    }
}

/// A rating change to store with a finished game.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingUpdate {
    /// The account.
    pub user: i64,
    /// The game.
    pub game: String,
    /// The new rating.
    pub rating: Rating,
}

/// What the hall needs of a database.
#[async_trait]
pub trait Store: Send + Sync {
    /// Creates an account; `name` is unique by its key ([`crate::names::key`]): without
    /// case or width.
    async fn create_user(
        &self,
        name: &str,
        password_hash: Option<&str>,
        guest: bool,
    ) -> StoreResult<UserInfo>;
    /// Gives a guest account a name and password; its history stays.
    async fn register_guest(
        &self,
        id: i64,
        name: &str,
        password_hash: &str,
    ) -> StoreResult<UserInfo>;
    /// The account a typed name is: the one with its key, or, for an older account whose
    /// key was another's, the one with exactly this name.
    async fn user_by_name(&self, name: &str) -> StoreResult<Option<StoredUser>>;
    /// Opens a session: stores only the hash of its token.
    async fn create_session(&self, user: i64, token_hash: &str, expires_at: i64)
        -> StoreResult<()>;
    /// The user of a live session.
    async fn session_user(&self, token_hash: &str, now: i64) -> StoreResult<Option<UserInfo>>;
    /// Ends a session.
    async fn revoke_session(&self, token_hash: &str) -> StoreResult<()>;
    /// Bans an account (`reason`) or lifts its ban (`None`). A ban ends every session of
    /// the account in the same transaction; returns how many it ended.
    async fn set_banned(&self, user: i64, reason: Option<&str>) -> StoreResult<u64>;
    /// Every banned account, the latest ban first.
    async fn bans(&self) -> StoreResult<Vec<BanInfo>>;
    /// Deletes a registered account: renamed `deleted-<id>` (its name free again), no
    /// password, no ratings, every session ended, in one transaction. Its games and seats
    /// stay. Returns the account as it now is.
    async fn delete_account(&self, user: i64) -> StoreResult<UserInfo>;
    /// Sets a registered account's password hash and ends every session of it but
    /// `keep` (a token hash), in one transaction; returns how many it ended.
    async fn set_password(&self, user: i64, hash: &str, keep: &str) -> StoreResult<u64>;

    /// Claims table `table` for node `node` until `now + ttl` (`now` in Unix
    /// milliseconds), as `claim` allows: a claim always makes a new epoch, one more than
    /// the table's last, also when the node claims again a lease it holds (a process
    /// restarted under the same node id: its old self, should it still run, is fenced).
    /// [`StoreError::LeaseHeld`] when another node's lease is live and `claim` is
    /// [`Claim::IfFree`].
    async fn claim_table(
        &self,
        table: &str,
        node: &str,
        ttl: std::time::Duration,
        now: i64,
        claim: Claim,
    ) -> StoreResult<Lease>;
    /// Extends `lease` to `now + ttl`, keeping its epoch. A lease that expired but that
    /// nobody claimed since is still the table's and is renewed; one claimed since fails
    /// with [`StoreError::Fenced`].
    async fn renew_lease(
        &self,
        lease: &Lease,
        ttl: std::time::Duration,
        now: i64,
    ) -> StoreResult<Lease>;
    /// Lets go of `lease` (it expires now; its epoch stays, so the next claim counts on).
    /// [`StoreError::Fenced`] if it was claimed since.
    async fn release_table(&self, lease: &Lease) -> StoreResult<()>;

    /// Saves a table's state (on opening, and whenever who sits where changes), if
    /// `fence` is current ([`StoreError::Fenced`] otherwise, and nothing is written).
    async fn save_table(&self, fence: &Fence, table: &StoredTable) -> StoreResult<()>;
    /// Marks the fence's table closed, if `fence` is current.
    async fn close_table(&self, fence: &Fence) -> StoreResult<()>;
    /// The tables open when the server stopped.
    async fn open_tables(&self) -> StoreResult<Vec<StoredTable>>;
    /// The open tables `node` may claim at `now` (Unix milliseconds) with
    /// [`Claim::IfFree`]: those with no lease, a lease run out (its node died, stalled or
    /// let it go) or a lease of `node`'s own. What a starting node restores and what
    /// every node's takeover looks for; oldest change first.
    async fn free_tables(&self, node: &str, now: i64) -> StoreResult<Vec<FreeTable>>;
    /// Which node serves open table `table` at `now` (Unix milliseconds): the holder of
    /// its live lease, if any. Where to send a request for the table when the hall's
    /// directory in Redis does not know it (Redis restarted and keeps nothing).
    async fn serving(&self, table: &str, now: i64) -> StoreResult<Option<Serving>>;
    /// Whether one hall alone serves this store: the SQLite store, whose directory lock
    /// keeps a second process out, so every lease in it is its own earlier process's and
    /// a restart takes them over ([`Claim::Takeover`]). A PostgreSQL database is shared by
    /// several nodes, which claim only free tables.
    fn exclusive(&self) -> bool {
        false
    }

    /// Stores a game when it is dealt, with its secret seed, if `fence` (of the game's
    /// table) is current.
    async fn start_game(&self, fence: &Fence, game: &StoredGame) -> StoreResult<()>;
    /// Appends one accepted action to its game, if `fence` (of the game's table) is
    /// current: durable when this returns.
    async fn append_action(
        &self,
        fence: &Fence,
        game: &str,
        index: usize,
        seat: Seat,
        public: &Value,
        sealed: Option<&Value>,
    ) -> StoreResult<()>;
    /// Stores a game's end: its outcome, the table's new state and any rating changes,
    /// in one transaction, if `fence` is current.
    async fn finish_game(
        &self,
        fence: &Fence,
        record: &Record,
        table: &StoredTable,
        ratings: &[RatingUpdate],
    ) -> StoreResult<()>;
    /// A table's unfinished game, to resume after a restart.
    async fn unfinished_game(&self, table: &str) -> StoreResult<Option<Unfinished>>;
    /// A finished game's full record (seed revealed); `None` while it runs.
    async fn finished_record(&self, id: &str) -> StoreResult<Option<Record>>;
    /// Deletes the guest accounts that can never be used again: made a day or more before
    /// `now` (Unix seconds; a guest just made has no session yet), no game played (nothing
    /// of theirs to replay or keep), no session live at `now`, so no client can come
    /// back as them, and no seat at an open table, whose next deal would store a game
    /// naming them. Every first visit to the page makes a guest; without
    /// this a public hall keeps a row for each forever. Returns how many went.
    async fn forget_idle_guests(&self, now: i64) -> StoreResult<u64>;
    /// Who played each seat of game `id`, in seat order (empty for an unknown game).
    async fn game_players(&self, id: &str) -> StoreResult<Vec<SeatPlayer>>;
    /// A player's games, newest first, `limit` at most; those played at private tables
    /// only if `with_private` (the player asking for their own); only those after
    /// `before` in that order, if given (the next page).
    async fn history(
        &self,
        user: i64,
        limit: usize,
        with_private: bool,
        before: Option<&HistoryCursor>,
    ) -> StoreResult<Vec<GameSummary>>;
    /// A player's record at each game played, over all their finished games (those at
    /// private tables only if `with_private`), in the games' order of id.
    async fn stats(&self, user: i64, with_private: bool) -> StoreResult<Vec<GameStats>>;
    /// A player's record against each computer, by game and bot, over their finished
    /// games with a computer at the table (those at private tables only if
    /// `with_private`), in order of game and bot. A game with computers of two bots counts
    /// for each.
    async fn computer_record(
        &self,
        user: i64,
        with_private: bool,
    ) -> StoreResult<Vec<ComputerRecord>>;
    /// A player's rating at a game (the starting rating if none yet).
    async fn rating(&self, user: i64, game: &str) -> StoreResult<Rating>;
    /// The best-rated players of a game: those whose rating is settled first, best first,
    /// then the provisional ones ([`Rating::provisional`]), best first.
    async fn leaderboard(&self, game: &str, limit: usize) -> StoreResult<Vec<(String, Rating)>>;

    /// Lets go of the database when the hall stops, after its last write: the SQLite
    /// store its directory, so the next hall (a restart in the same process, as tests do)
    /// starts at once; the PostgreSQL store its connections. Nothing may be written after
    /// it.
    async fn close(&self) {}
}
