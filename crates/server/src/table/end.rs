//! The end of a game: the record (its seed revealed), the ratings and the match's totals
//! stored together in one write, then published; the seats get ready for the next game.

use super::log::Entry;
use super::play::Phase;
use super::seats::Auto;
use super::TableTask;
use crate::rating;
use crate::store::{LastGame, RatingUpdate};
use serde_json::Value;
use std::time::Duration;

/// The waits before each new attempt to store a game's end that failed: about a quarter
/// of a minute in all, on top of what the store itself tries.
const END_RETRY_WAITS: [Duration; 4] = [
    Duration::from_millis(500),
    Duration::from_secs(2),
    Duration::from_secs(5),
    Duration::from_secs(8),
];

impl TableTask {
    /// The game is over: the record (seed revealed), ratings and the match's totals are
    /// stored together, then published; the table waits for the next game.
    pub(super) async fn finish(&mut self) {
        if !matches!(self.phase, Phase::Playing(_)) {
            return;
        }
        let Phase::Playing(run) = self.take_phase() else {
            return;
        };
        let record = run.table.record();
        let Some(outcome) = record.outcome.clone() else {
            return;
        };
        for (total, score) in self.totals.iter_mut().zip(&outcome.scores) {
            *total = total.saturating_add(*score);
        }
        self.games += 1;
        // Its game_over is the next message published.
        self.last_game = Some(LastGame {
            id: record.id.clone(),
            seq: self.seq + 1,
        });
        if let Some(Ok(next)) = run.table.next_game() {
            self.next_config = next;
        }
        let ratings = self.rate(&outcome).await;
        for s in &mut self.seats {
            s.ready = s.bot.is_some();
            s.timeouts = 0;
            if s.auto == Some(Auto::Timeouts) {
                s.auto = None;
            }
        }
        self.store_end(&record, &ratings).await;
        self.changed_at = self.seq + 1;
        self.publish(Entry::GameOver {
            game_id: record.id.clone(),
            scores: outcome.scores.clone(),
            record: serde_json::to_value(&record).unwrap_or(Value::Null),
            totals: self.totals.clone(),
        });
        self.publish_seats();
        self.close_if_abandoned().await;
    }

    /// Stores the game's end, trying again for a while if the store fails (a full disk
    /// freed, a database that comes back): every move is stored already, but the record,
    /// the ratings and the totals are only once this is. The table waits meanwhile. If it
    /// never succeeds the end is published all the same, unstored, and logged as an error.
    async fn store_end(&self, record: &game::Record, ratings: &[RatingUpdate]) {
        let mut waits = END_RETRY_WAITS.iter();
        while let Err(e) = self
            .hall
            .store
            .finish_game(record, &self.stored(), ratings)
            .await
        {
            let Some(wait) = waits.next() else {
                return tracing::error!(table = %self.id, error = %e, "cannot store the game's end");
            };
            tracing::warn!(table = %self.id, error = %e, "cannot store the game's end; trying again");
            tokio::time::sleep(*wait).await;
        }
    }

    /// New ratings for a rated game's registered players.
    async fn rate(&self, outcome: &game::Outcome) -> Vec<RatingUpdate> {
        if !self.options.rated {
            return Vec::new();
        }
        let mut before = Vec::new();
        for s in &self.seats {
            before.push(match &s.person {
                Some(p) if !p.guest => self.hall.store.rating(p.id, &self.game).await.ok(),
                _ => None,
            });
        }
        rating::rate_game(outcome, &before)
            .into_iter()
            .zip(&self.seats)
            .filter_map(|(r, s)| {
                Some(RatingUpdate {
                    user: s.person.as_ref()?.id,
                    game: self.game.clone(),
                    rating: r?,
                })
            })
            .collect()
    }
}
