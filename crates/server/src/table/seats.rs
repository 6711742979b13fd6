//! Who sits where: people, computers, readiness, connections, and 托管 — when and why a
//! computer plays a person's seat.

use crate::protocol::{SeatInfo, UserInfo};
use crate::store::StoredSeat;
use std::time::Instant;

/// Why a computer plays a person's seat for now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Auto {
    /// The person asked for it (托管 on).
    Asked,
    /// The person let the clock run out too often in a row.
    Timeouts,
    /// The person has been away longer than the grace period.
    Away,
}

/// One seat.
#[derive(Debug, Clone, Default)]
pub struct SeatState {
    /// The person sitting here.
    pub person: Option<UserInfo>,
    /// The computer filling the seat (a bot's name), when no person sits.
    pub bot: Option<String>,
    /// Ready for the next game (computers always are).
    pub ready: bool,
    /// The person's connections watching the table.
    pub connections: usize,
    /// Since when the person has had no connection.
    pub away_since: Option<Instant>,
    /// Why a computer plays the person's seat, if it does.
    pub auto: Option<Auto>,
    /// The person's timeouts in a row.
    pub timeouts: u32,
}

impl SeatState {
    /// A seat as stored (after a restart: nobody connected yet).
    pub fn restored(stored: &StoredSeat, now: Instant) -> SeatState {
        SeatState {
            person: stored.user.clone(),
            bot: stored.bot.clone(),
            ready: stored.bot.is_some(),
            connections: 0,
            away_since: stored.user.as_ref().map(|_| now),
            auto: None,
            timeouts: 0,
        }
    }

    /// Nobody sits here.
    pub fn is_empty(&self) -> bool {
        self.person.is_none() && self.bot.is_none()
    }

    /// Whether `user` sits here.
    pub fn holds(&self, user: &UserInfo) -> bool {
        self.person.as_ref().is_some_and(|p| p.id == user.id)
    }

    /// Whether a computer makes this seat's moves now.
    pub fn computer_plays(&self) -> bool {
        self.bot.is_some() || self.auto.is_some()
    }

    /// The seat as stored.
    pub fn stored(&self) -> StoredSeat {
        StoredSeat {
            user: self.person.clone(),
            bot: self.bot.clone(),
        }
    }

    /// The seat as clients see it.
    pub fn info(&self, seat: usize) -> SeatInfo {
        SeatInfo {
            seat,
            user: self.person.clone(),
            bot: self.bot.clone(),
            ready: self.ready,
            connected: self.connections > 0,
            auto: self.auto.is_some(),
        }
    }

    /// Empties the seat.
    pub fn clear(&mut self) {
        *self = SeatState::default();
    }
}
