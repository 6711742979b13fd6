//! When the store is out of reach: a table that cannot go on without it waits for it,
//! however long that takes, instead of going on from what is not stored.
//!
//! A table only ever goes on from what is stored ("commit, then broadcast"). Three things
//! it cannot do without the store:
//!
//! * **store a deal**: its seed and nonces, before anyone sees a card. The same deal is
//!   stored when the store answers (its commitment is out already; a new one would
//!   leave the first unfinished, and an attempt stored unheard would block its id).
//! * **read its game back** after a move the store refused: the move is taken back by
//!   rebuilding the game from what is stored, and until that read succeeds there is no
//!   game to go on with. (Giving up here used to leave the table waiting for a new deal,
//!   the game stored up to its last move but out of everyone's reach until a restart.)
//! * **store a game's end**: the record with its seed revealed, the ratings and the
//!   match's totals, in one write. Published unstored, the game's result would be lost
//!   with the next restart, and the table's next game would leave the record unfinished.
//!
//! So the table stalls ([`Phase::Stalled`]): it refuses moves with a `storage` error and
//! deals nothing, while seats, chat and watching go on, and it tries again at 0.5 s, 1 s,
//! 2 s… up to [`Timing::store_retry`](crate::config::Timing::store_retry) between
//! attempts. When the store answers, the deal is played, the game is rebuilt (everyone
//! gets it afresh) or the end is published, and the table carries on as if nothing had happened. A hall stopped
//! meanwhile loses nothing either: every move was stored, and the next start rebuilds the
//! game, or ends it if it was over.

use super::deal::Dealt;
use super::end::Ending;
use super::play::Phase;
use super::TableTask;
use crate::protocol::ErrorCode;
use crate::protocol::ServerMessage;
use crate::store::StoreError;
use std::time::{Duration, Instant};

/// A table waiting for the store.
pub struct Stall {
    /// What it waits to do.
    pub(super) owed: Owed,
    /// When it tries again.
    pub(super) retry_at: Instant,
    /// Attempts that failed so far.
    attempts: u32,
}

/// What a stalled table cannot go on without.
pub enum Owed {
    /// Storing a deal: the same deal, seed and nonces, whose commitment everyone has.
    /// (Giving it up used to leave every seat ready and no deal coming, the table stuck
    /// until someone stood up.)
    Deal(Box<Dealt>),
    /// Reading the running game back from the store.
    Game,
    /// Storing a finished game's end.
    End(Box<Ending>),
}

/// The first wait after a failed attempt; each next one is twice as long, up to the
/// configured longest.
const FIRST_WAIT: Duration = Duration::from_millis(500);

impl TableTask {
    /// Rebuilds the table's unfinished game from the store (after a restart, or after a
    /// move the store refused), stalling until the store can be read.
    pub(super) async fn rebuild_game(&mut self) {
        if let Err(e) = self.resume_game().await {
            self.stall(Owed::Game, 0, &e);
        }
    }

    /// Stores a game's end, then publishes it; stalls if the store cannot take it.
    pub(super) async fn end(&mut self, ending: Ending) {
        match self.store_end(&ending).await {
            Ok(after) => self.publish_end(ending, after).await,
            Err(e) => self.stall(Owed::End(Box::new(ending)), 0, &e),
        }
    }

    /// Waits for the store after `attempts` failed attempts at `owed`, the last with
    /// `error`. Everyone at the table hears of it at the first.
    pub(super) fn stall(&mut self, owed: Owed, attempts: u32, error: &StoreError) {
        if self.fenced(error) {
            // Not the store out of reach: another node owns the table now.
            return;
        }
        let wait = FIRST_WAIT
            .saturating_mul(1 << attempts.min(16))
            .min(self.hall.config.timing.store_retry);
        tracing::warn!(table = %self.id, error = %error, attempts = attempts + 1, retry_in = ?wait,
            "the store is out of reach; the table waits for it");
        if attempts == 0 {
            let why = match owed {
                Owed::Deal(_) => {
                    "the server could not store the deal; the table deals it when its storage answers"
                }
                Owed::Game => {
                    "the server cannot read this game back from its storage; the table waits for it"
                }
                Owed::End(_) => {
                    "the game is over; the server waits for its storage to record the result"
                }
            };
            self.tell_storage(why);
        }
        self.set_phase(Phase::Stalled(Stall {
            owed,
            retry_at: Instant::now() + wait,
            attempts: attempts + 1,
        }));
        self.publish_seats();
    }

    /// Tells everyone at the table what the store's trouble means for them, as a
    /// `storage` error (not a refusal of anyone's request: nobody asked).
    pub(super) fn tell_storage(&self, why: &str) {
        for sub in self.subs.values() {
            sub.out.send(&ServerMessage::error(
                ErrorCode::Storage,
                why,
                Some(&self.id),
            ));
        }
    }

    /// Tries a stalled table's owed work again, if it is time.
    pub(super) async fn retry_stalled(&mut self) {
        if !matches!(&self.phase, Phase::Stalled(s) if s.retry_at <= Instant::now()) {
            return;
        }
        let Phase::Stalled(stall) = self.take_phase() else {
            return;
        };
        match stall.owed {
            Owed::Deal(dealt) => match self.store_deal(&dealt.stored, true).await {
                Ok(()) => {
                    tracing::info!(table = %self.id, "the store is back; the deal is stored");
                    let Dealt {
                        stored,
                        table,
                        bank,
                    } = *dealt;
                    self.start_running(stored.id, table, bank).await;
                }
                Err(e) => self.stall(Owed::Deal(dealt), stall.attempts, &e),
            },
            Owed::Game => match self.resume_game().await {
                Ok(()) => tracing::info!(table = %self.id, "the store is back; the game goes on"),
                Err(e) => self.stall(Owed::Game, stall.attempts, &e),
            },
            Owed::End(ending) => match self.store_end(&ending).await {
                Ok(after) => {
                    tracing::info!(table = %self.id, "the store is back; the game's end is stored");
                    self.publish_end(*ending, after).await;
                    self.maybe_start().await;
                }
                Err(e) => self.stall(Owed::End(ending), stall.attempts, &e),
            },
        }
    }
}
