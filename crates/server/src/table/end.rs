//! The end of a game: the record (its seed revealed), the ratings and the match's totals
//! stored together in one write, then published; the seats get ready for the next game.

use super::log::Entry;
use super::play::Phase;
use super::seats::Auto;
use super::TableTask;
use crate::protocol::RatingChange;
use crate::rating;
use crate::store::{LastGame, RatingUpdate, StoreError, StoreResult, StoredTable};
use serde_json::Value;

/// Each seat's rating change at a rated game (`None` for a seat not rated); empty when the
/// game was not rated.
pub type Rated = Vec<Option<RatingChange>>;

/// A finished game whose end is to be stored and published.
pub struct Ending {
    /// The game's record, its seed revealed.
    record: game::Record,
    /// The configuration of the match's next game, when the game says (Ten and a half's
    /// next banker).
    next_config: Option<Value>,
}

impl TableTask {
    /// The game is over: the record (seed revealed), ratings and the match's totals are
    /// stored together, then published; the table waits for the next game.
    pub(super) async fn finish(&mut self) {
        if !matches!(&self.phase, Phase::Playing(run) if run.table.outcome().is_some()) {
            return;
        }
        let Phase::Playing(run) = self.take_phase() else {
            return;
        };
        let ending = Ending {
            record: run.table.record(),
            next_config: run.table.next_game().and_then(Result::ok),
        };
        for s in &mut self.seats {
            s.ready = s.bot.is_some();
            s.timeouts = 0;
            if s.auto == Some(Auto::Timeouts) {
                s.auto = None;
            }
        }
        self.end(ending).await;
    }

    /// Stores a game's end: the record, the players' new ratings and the table with the
    /// match's totals, in one write. The table itself changes only once that is done
    /// (see [`Self::publish_end`]), so a table saved meanwhile, or a hall restarted before
    /// it, counts the game once, when the end is stored.
    /// Returns the table as stored and, at a rated table, each seat's rating change.
    pub(super) async fn store_end(&self, ending: &Ending) -> StoreResult<(StoredTable, Rated)> {
        let mut after = self.stored();
        let (ratings, changes) = match &ending.record.outcome {
            Some(outcome) => {
                for (total, score) in after.totals.iter_mut().zip(&outcome.scores) {
                    *total = total.saturating_add(*score);
                }
                self.rate(outcome).await?
            }
            None => (Vec::new(), Vec::new()),
        };
        after.games += 1;
        // Its game_over is the next message published.
        after.last_game = Some(LastGame {
            id: ending.record.id.clone(),
            seq: self.seq + 1,
        });
        if let Some(next) = &ending.next_config {
            after.next_config = next.clone();
        }
        let fence = self.fence().ok_or_else(|| StoreError::Fenced {
            table: self.id.clone(),
            epoch: 0,
            current: None,
        })?;
        self.hall
            .store
            .finish_game(&fence, &ending.record, &after, &ratings)
            .await?;
        Ok((after, changes))
    }

    /// Publishes a stored end (`after` is the table as stored with it, `ratings` the
    /// seats' rating changes) and takes on the match's new totals.
    pub(super) async fn publish_end(
        &mut self,
        ending: Ending,
        (after, ratings): (StoredTable, Rated),
    ) {
        self.totals = after.totals;
        self.games = after.games;
        self.last_game = after.last_game;
        self.next_config = after.next_config;
        self.changed_at = self.seq + 1;
        let record = ending.record;
        self.publish(Entry::GameOver {
            game_id: record.id.clone(),
            scores: record
                .outcome
                .as_ref()
                .map(|o| o.scores.clone())
                .unwrap_or_default(),
            record: serde_json::to_value(&record).unwrap_or(Value::Null),
            totals: self.totals.clone(),
            ratings,
        });
        // A person gone past the grace period, whose seat a computer finished the game
        // for, is not waited for between games (as on the timer, `on_timer`): the seat
        // empties now, after the game that counted them (ratings and totals included),
        // so the others can fill it and play on instead of waiting for a Ready that
        // never comes.
        let mut emptied = false;
        for seat in &mut self.seats {
            if seat.person.is_some() && seat.auto == Some(Auto::Away) {
                seat.clear();
                emptied = true;
            }
        }
        if emptied {
            self.save().await;
        }
        self.publish_seats();
        self.close_if_abandoned().await;
    }

    /// New ratings for a rated game's registered players, to store, and each seat's
    /// change, to tell. A rating that cannot be read fails the whole: skipped, the player
    /// would be left out of the game's rating as a guest is, and the others rated as if
    /// they had not played them.
    async fn rate(&self, outcome: &game::Outcome) -> StoreResult<(Vec<RatingUpdate>, Rated)> {
        if !self.options.rated {
            return Ok((Vec::new(), Vec::new()));
        }
        let mut before = Vec::new();
        for s in &self.seats {
            before.push(match &s.person {
                Some(p) if !p.guest => Some(self.hall.store.rating(p.id, &self.game).await?),
                _ => None,
            });
        }
        let after = rating::rate_game(outcome, &before);
        let changes = before
            .iter()
            .zip(&after)
            .map(|(b, a)| {
                Some(RatingChange {
                    before: b.as_ref()?.rating,
                    after: a.as_ref()?.rating,
                    provisional: a.as_ref()?.provisional(),
                })
            })
            .collect();
        let updates = after
            .into_iter()
            .zip(&self.seats)
            .filter_map(|(r, s)| {
                Some(RatingUpdate {
                    user: s.person.as_ref()?.id,
                    game: self.game.clone(),
                    rating: r?,
                })
            })
            .collect();
        Ok((updates, changes))
    }
}
