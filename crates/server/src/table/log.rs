//! What a table published, kept for clients that reconnect.
//!
//! Each entry is stored once, in a form from which every audience's message is made: an
//! action keeps its private and public forms, and each connection is sent the one it may
//! see. A client that comes back with its last sequence number gets the entries it missed
//! — without the per-step views, which the table no longer has — and then a fresh snapshot;
//! when the entries it missed are no longer kept, just the snapshot.

use crate::protocol::{ServerMessage, TableInfo};
use game::Seat;
use serde_json::Value;
use std::collections::VecDeque;
use std::time::Instant;

/// Who a message is for: a seat's player, or a spectator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Audience {
    /// The player of a seat.
    Seat(Seat),
    /// Anyone watching.
    Spectator,
}

/// One published entry (its fields as in the [`ServerMessage`] it becomes).
#[derive(Debug, Clone)]
pub(crate) enum Entry {
    /// Who sits where changed.
    Seats(TableInfo),
    /// The server committed to the next deal.
    Commitment {
        game_id: String,
        commitment: String,
        /// When the deal goes ahead with the nonces it has: each message made from the
        /// entry says how long is left until then, so a client knows how long it has to
        /// send its nonce, live or replayed after a reconnect.
        until: Instant,
    },
    /// The cards were dealt (replayed as nothing: the snapshot after a replay shows it).
    Dealt,
    /// An action was accepted.
    Action {
        seat: Seat,
        private: Value,
        public: Value,
        events: Vec<Value>,
        /// The rules' default move, made because the seat's turn ran out.
        timed_out: bool,
    },
    /// A game ended.
    GameOver {
        game_id: String,
        scores: Vec<i64>,
        record: Value,
        totals: Vec<i64>,
        ratings: super::end::Rated,
    },
    /// Someone spoke.
    Chat { from: String, text: String },
}

/// The entries still kept, newest last.
pub(crate) struct Log {
    entries: VecDeque<(u64, Entry)>,
    keep: usize,
}

impl Log {
    /// A log keeping the last `keep` entries.
    pub fn new(keep: usize) -> Log {
        Log {
            entries: VecDeque::new(),
            keep: keep.max(1),
        }
    }

    /// Keeps `entry` as number `seq`.
    pub fn push(&mut self, seq: u64, entry: Entry) {
        if self.entries.len() == self.keep {
            self.entries.pop_front();
        }
        self.entries.push_back((seq, entry));
    }

    /// The entries after `last_seq`, or `None` when some of them are no longer kept. A
    /// `last_seq` of 0 asks for everything kept: a client that holds nothing misses no
    /// gap, it only starts where the log does.
    pub fn since(&self, last_seq: u64) -> Option<impl Iterator<Item = &(u64, Entry)>> {
        let oldest = self.entries.front().map_or(u64::MAX, |(s, _)| *s);
        if last_seq != 0 && last_seq + 1 < oldest && !self.entries.is_empty() {
            return None;
        }
        Some(self.entries.iter().filter(move |(s, _)| *s > last_seq))
    }
}

/// The message an entry makes for `audience`; `None` for entries a replay skips. Chat from
/// a muted name is filtered by the caller.
pub(crate) fn message(
    table: &str,
    seq: u64,
    entry: &Entry,
    audience: Audience,
) -> Option<ServerMessage> {
    let table = table.to_string();
    Some(match entry {
        Entry::Seats(info) => ServerMessage::Seats {
            table,
            seq,
            info: info.clone(),
        },
        Entry::Commitment {
            game_id,
            commitment,
            until,
        } => ServerMessage::Commitment {
            table,
            seq,
            game_id: game_id.clone(),
            commitment: commitment.clone(),
            nonce_ms: millis_left(*until),
        },
        Entry::Dealt => return None,
        Entry::Action {
            seat,
            private,
            public,
            events,
            timed_out,
        } => ServerMessage::Action {
            table,
            seq,
            seat: *seat,
            action: if audience == Audience::Seat(*seat) {
                private.clone()
            } else {
                public.clone()
            },
            events: events.clone(),
            timed_out: *timed_out,
            game: None,
        },
        Entry::GameOver {
            game_id,
            scores,
            record,
            totals,
            ratings,
        } => ServerMessage::GameOver {
            table,
            seq,
            game_id: game_id.clone(),
            scores: scores.clone(),
            record: record.clone(),
            totals: totals.clone(),
            ratings: ratings.clone(),
        },
        Entry::Chat { from, text } => ServerMessage::Chat {
            table: Some(table),
            seq: Some(seq),
            from: from.clone(),
            text: text.clone(),
        },
    })
}

/// Whole milliseconds from now until `until`, rounded up (0 once it has passed), so a
/// window that is still open never reads as closed.
fn millis_left(until: Instant) -> u64 {
    let left = until.saturating_duration_since(Instant::now());
    u64::try_from(left.as_nanos().div_ceil(1_000_000)).unwrap_or(u64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_replay_shows_each_audience_only_its_form_of_an_action() {
        let entry = Entry::Action {
            seat: 1,
            private: json!({"declare":"hidden_solo"}),
            public: json!({"declare":"marked"}),
            events: vec![],
            timed_out: false,
        };
        let for_seat = |a| match message("t", 3, &entry, a) {
            Some(ServerMessage::Action { action, .. }) => action,
            other => panic!("{other:?}"),
        };
        assert_eq!(
            for_seat(Audience::Seat(1)),
            json!({"declare":"hidden_solo"})
        );
        assert_eq!(for_seat(Audience::Seat(0)), json!({"declare":"marked"}));
        assert_eq!(for_seat(Audience::Spectator), json!({"declare":"marked"}));
    }

    #[test]
    fn the_log_keeps_the_newest_and_knows_when_a_gap_is_lost() {
        let mut log = Log::new(3);
        for seq in 1..=5 {
            log.push(seq, Entry::Dealt);
        }
        let kept: Vec<u64> = log.since(2).map(|i| i.map(|(s, _)| *s).collect()).unwrap();
        assert_eq!(kept, vec![3, 4, 5]);
        assert!(log.since(1).is_none(), "entry 2 is gone");
        assert_eq!(log.since(5).map(|i| i.count()), Some(0));
        let all: Vec<u64> = log.since(0).map(|i| i.map(|(s, _)| *s).collect()).unwrap();
        assert_eq!(
            all,
            vec![3, 4, 5],
            "a client that holds nothing gets all that is kept"
        );
    }
}
