//! What the contracts stand on: a fresh store of either backend on data of its own, and
//! games dealt and played by the registry's real rules, stored as a table stores them.

use crate::common;
use futures_util::FutureExt;
use game::{Nonce, Outcome, Record, Seed, Table, TableSetup, ToAct};
use serde_json::Value;
use server::metrics::Metrics;
use server::protocol::{TableOptions, UserInfo};
use server::store::postgres::PostgresStore;
use server::store::sqlite::SqliteStore;
use server::store::{
    unix_millis, Claim, Fence, RatingUpdate, Store, StoredGame, StoredSeat, StoredTable,
};
use sqlx::migrate::MigrateDatabase;
use std::future::Future;
use std::panic::AssertUnwindSafe;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// A day in seconds, as the guests' housekeeping counts it.
pub const DAY: i64 = 24 * 3600;

/// The two stores the contract holds for.
#[derive(Debug, Clone, Copy)]
pub enum Backend {
    /// [`SqliteStore`], in a temporary directory.
    Sqlite,
    /// [`PostgresStore`], in a database of its own on the tests' server.
    Postgres,
}

/// Where a store keeps its data.
#[derive(Debug, Clone)]
enum Place {
    /// SQLite's data directory.
    Dir(PathBuf),
    /// A PostgreSQL database of the test's own, by its URL.
    Database(String),
}

impl Place {
    async fn open(&self, metrics: Arc<Metrics>) -> Arc<dyn Store> {
        match self {
            Place::Dir(dir) => {
                Arc::new(SqliteStore::open(dir, metrics).await.expect("SQLite opens"))
            }
            Place::Database(url) => Arc::new(
                PostgresStore::open(url, metrics)
                    .await
                    .expect("PostgreSQL opens"),
            ),
        }
    }
}

/// A store fresh for one test, which a contract uses as a `&dyn Store` (it dereferences to
/// one), the place of its data, for what a contract cannot do through the store, and the
/// store's metrics, for how it committed.
pub struct Db {
    store: Arc<dyn Store>,
    place: Place,
    metrics: Arc<Metrics>,
}

impl std::ops::Deref for Db {
    type Target = dyn Store;

    fn deref(&self) -> &(dyn Store + 'static) {
        &*self.store
    }
}

impl Db {
    /// Runs `contract` on a fresh store of `backend`, then closes the store and removes its
    /// data, whether the contract held or not (a failure is passed on after).
    pub async fn check<F>(backend: Backend, contract: &str, run: F)
    where
        F: for<'a> FnOnce(&'a Db) -> std::pin::Pin<Box<dyn Future<Output = ()> + 'a>>,
    {
        let dir = common::data_dir(&format!("store-{contract}"));
        let place = match backend {
            Backend::Sqlite => Place::Dir(dir),
            // `database_on` keeps the process id and a counter in the name, so no two
            // tests or runs share a database.
            Backend::Postgres => Place::Database(common::database_on(&common::postgres(), &dir)),
        };
        let metrics = Arc::new(Metrics::new());
        let db = Db {
            store: place.open(metrics.clone()).await,
            place,
            metrics,
        };
        let held = AssertUnwindSafe(run(&db)).catch_unwind().await;
        db.store.close().await;
        let Db { store, place, .. } = db;
        drop(store);
        let dropped = match place {
            Place::Dir(dir) => {
                let _ = std::fs::remove_dir_all(dir);
                Ok(())
            }
            Place::Database(url) => sqlx::Postgres::force_drop_database(&url).await,
        };
        // The contract's failure first: it is what the test is about.
        if let Err(failure) = held {
            std::panic::resume_unwind(failure);
        }
        dropped.expect("the test's database is dropped");
    }

    /// A second store on the same data, as a hall restarted opens it.
    pub async fn open_again(&self) -> Arc<dyn Store> {
        self.place.open(Arc::new(Metrics::new())).await
    }

    /// The store's commits so far and the writes they took: the count and the sum of its
    /// `commit_batch` histogram.
    pub fn commits(&self) -> (u64, u64) {
        let batches = &self.metrics.commit_batch;
        (batches.get_sample_count(), batches.get_sample_sum() as u64)
    }

    /// Runs `statement` on the store's database beside it, for a fact the store sets itself
    /// and a contract must choose (when a game started, when a ban was made). It reads the
    /// same in both databases.
    pub async fn sql(&self, statement: &str) {
        match &self.place {
            Place::Dir(dir) => common::execute_sql_at(dir, None, &[statement]).await,
            Place::Database(url) => {
                common::execute_sql_at(&PathBuf::new(), Some(url), &[statement]).await
            }
        }
    }
}

/// The node the contracts write as, unless a contract of leases chooses.
pub const NODE: &str = "contract-node";

/// A lease's time to live in the contracts.
pub const TTL: Duration = Duration::from_secs(10);

/// A fence of `table` that is current: the table claimed by [`NODE`] now (taken over from
/// whoever held it, a new epoch), as a hall claims a table before writing for it.
pub async fn held(db: &Db, table: &str) -> Fence {
    held_in(&**db, table).await
}

/// [`held`] in any store.
pub async fn held_in(db: &dyn Store, table: &str) -> Fence {
    db.claim_table(table, NODE, TTL, unix_millis(), Claim::Takeover)
        .await
        .expect("the table is claimed")
        .fence()
}

/// Makes a registered account.
pub async fn member(db: &Db, name: &str) -> UserInfo {
    db.create_user(name, Some("hash"), false)
        .await
        .expect("an account is made")
}

/// Makes a guest account.
pub async fn guest(db: &Db, name: &str) -> UserInfo {
    db.create_user(name, None, true)
        .await
        .expect("a guest is made")
}

/// A person's seat in a game, as [`StoredGame::players`] holds it.
pub fn person(user: &UserInfo) -> (Option<i64>, Option<String>) {
    (Some(user.id), None)
}

/// A computer's seat in a game.
pub fn computer() -> (Option<i64>, Option<String>) {
    (None, Some("random".into()))
}

/// A game dealt by its rules, and the row a hall stores when it deals it.
pub struct Dealt {
    /// The game being played.
    pub table: Box<dyn Table>,
    /// What `start_game` stores.
    pub stored: StoredGame,
}

/// Deals game `id` of `game` at table `table` to `players` as a hall does: a committed
/// seed (derived from `seed`), a nonce from each person, every seat played by the game's
/// random bot unless a contract chooses.
pub fn deal(
    game: &str,
    id: &str,
    table: &str,
    players: Vec<(Option<i64>, Option<String>)>,
    seed: u64,
) -> Dealt {
    let games = games::registry();
    let rules = games.get(game).expect("a game of the registry");
    let seed = Seed::from_u64(seed);
    let nonces: Vec<Option<Nonce>> = players
        .iter()
        .enumerate()
        .map(|(seat, (user, _))| {
            user.map(|_| Nonce::from_hex(&format!("{:04x}", seat + 1)).expect("a nonce"))
        })
        .collect();
    let setup = TableSetup {
        id: id.into(),
        config: Value::Null,
        seats: players.len(),
        seed,
        nonces: nonces.clone(),
    };
    let mut dealt = rules.new_table(&setup).expect("the game is dealt");
    for seat in 0..players.len() {
        dealt
            .set_bot(seat, "random", &Seed::from_u64(seat as u64))
            .expect("a random bot");
    }
    let stored = StoredGame {
        id: id.into(),
        table: table.into(),
        game: game.into(),
        config: dealt.config().clone(),
        seats: players.len(),
        commitment: dealt.commitment().into(),
        seed,
        nonces,
        players,
        rated: true,
        private: false,
    };
    Dealt {
        table: dealt,
        stored,
    }
}

impl Dealt {
    /// Plays up to `moves` more actions, fewer if the game ends, storing each one as a
    /// table does: its index, its seat, its public form, and its private form sealed where
    /// the two differ. A seat that may keep its choice secret (a 五人斗地主 landlord
    /// calling a partner or going solo unseen) does, so the journal holds sealed actions;
    /// otherwise the random bot chooses.
    pub async fn play(&mut self, db: &dyn Store, moves: usize) {
        for _ in 0..moves {
            let seat = match self.table.to_act() {
                ToAct::Finished => return,
                ToAct::Seat(seat) => seat,
                ToAct::Seats(set) => set.iter().next().expect("a seat to act"),
            };
            let legal = self.table.legal(seat).expect("legal actions");
            let secret = legal.iter().find(|a| {
                let text = a.to_string();
                text.contains("hidden_solo") || text.contains("partner")
            });
            let applied = match secret {
                Some(action) => self.table.apply(seat, action),
                None => self.table.bot_move(seat),
            }
            .expect("a legal action");
            let sealed = (applied.public != applied.action).then_some(&applied.action);
            let fence = held_in(db, &self.stored.table).await;
            db.append_action(
                &fence,
                &self.stored.id,
                self.table.actions() - 1,
                applied.seat,
                &applied.public,
                sealed,
            )
            .await
            .expect("the action is stored");
        }
    }

    /// Plays the game to its end, storing every action.
    pub async fn play_out(&mut self, db: &dyn Store) {
        self.play(db, usize::MAX).await;
        assert!(self.table.outcome().is_some(), "the game ended");
    }

    /// The record a table announces at the end, here with the outcome given (the store
    /// keeps what the table announced; it does not replay it).
    pub fn ended_as(&self, outcome: Outcome) -> Record {
        let mut record = self.table.journal();
        record.seed = Some(self.stored.seed);
        record.outcome = Some(outcome);
        record
    }
}

/// An outcome of a two-seat or wider game: each seat's score and whether it won.
pub fn outcome(scores: &[i64], won: &[bool]) -> Outcome {
    Outcome {
        scores: scores.to_vec(),
        won: won.to_vec(),
        roles: vec!["player".into(); scores.len()],
    }
}

/// A table as a hall saves it: `host` opened it, `seats` sit there (a person, a
/// computer, or nobody).
pub fn table(id: &str, game: &str, host: &UserInfo, seats: Vec<StoredSeat>) -> StoredTable {
    StoredTable {
        id: id.into(),
        game: game.into(),
        options: TableOptions::default(),
        invite: None,
        host: host.clone(),
        totals: vec![0; seats.len()],
        seats,
        games: 0,
        next_config: Value::Null,
        quick: false,
        epoch: 1,
        last_game: None,
    }
}

/// A person's seat at a table.
pub fn sitting(user: &UserInfo) -> StoredSeat {
    StoredSeat {
        user: Some(user.clone()),
        bot: None,
    }
}

/// A computer's seat at a table.
pub fn bot_seat() -> StoredSeat {
    StoredSeat {
        user: None,
        bot: Some("random".into()),
    }
}

/// A rating change for `user` at `game`.
pub fn rated(user: &UserInfo, game: &str, rating: f64, deviation: f64) -> RatingUpdate {
    RatingUpdate {
        user: user.id,
        game: game.into(),
        rating: server::rating::Rating {
            rating,
            deviation,
            volatility: 0.06,
            games: 20,
        },
    }
}

/// Stores the end of `dealt` with `outcome` at its table, with no rating changes.
pub async fn finish(db: &Db, dealt: &Dealt, host: &UserInfo, outcome: Outcome) {
    let at = table(&dealt.stored.table, &dealt.stored.game, host, Vec::new());
    db.finish_game(&held(db, &at.id).await, &dealt.ended_as(outcome), &at, &[])
        .await
        .expect("the end is stored");
}
