//! Seats, whose turn it is, and who is looking.

use serde::{Deserialize, Serialize};

/// A seat at the table, 0-based. Turn order is the game's business (most pass to seat + 1).
pub type Seat = usize;

/// A set of seats as a bit mask: the seats that may act at once in a simultaneous phase
/// (the five-player grab, an undo answer). Up to 16 seats; no allocation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct SeatSet(pub u16);

impl SeatSet {
    /// No seats.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// The set holding just `seat`.
    pub const fn single(seat: Seat) -> SeatSet {
        SeatSet(1 << seat)
    }

    /// Adds a seat.
    pub fn insert(&mut self, seat: Seat) {
        self.0 |= 1 << seat;
    }

    /// Removes a seat.
    pub fn remove(&mut self, seat: Seat) {
        self.0 &= !(1 << seat);
    }

    /// Whether `seat` is in the set.
    pub const fn contains(self, seat: Seat) -> bool {
        seat < 16 && self.0 & (1 << seat) != 0
    }

    /// Number of seats.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether no seat is in the set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The seats, ascending.
    pub fn iter(self) -> impl Iterator<Item = Seat> {
        (0..16).filter(move |&s| self.contains(s))
    }
}

/// Who must act next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToAct {
    /// One seat's turn.
    Seat(Seat),
    /// A simultaneous phase: any of these seats may act, in any order; the server applies
    /// actions in arrival order and each seat's `default_action` at the deadline.
    Seats(SeatSet),
    /// The game is over; [`Rules::outcome`](crate::Rules::outcome) has the result.
    Finished,
}

impl ToAct {
    /// Whether `seat` may act now.
    pub fn includes(self, seat: Seat) -> bool {
        match self {
            ToAct::Seat(s) => s == seat,
            ToAct::Seats(set) => set.contains(seat),
            ToAct::Finished => false,
        }
    }

    /// The seats that may act now, ascending (empty when finished).
    pub fn seats(self) -> SeatSet {
        match self {
            ToAct::Seat(s) => SeatSet::single(s),
            ToAct::Seats(set) => set,
            ToAct::Finished => SeatSet::EMPTY,
        }
    }
}

/// Who a [`view`](crate::Rules::view) is for: one seat sees its own hidden cards; a spectator
/// sees only what is public.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// A player, who sees their own hand.
    Seat(Seat),
    /// Someone watching, who sees only public information.
    Spectator,
}

impl Viewer {
    /// The seat, if the viewer is a player.
    pub fn seat(self) -> Option<Seat> {
        match self {
            Viewer::Seat(s) => Some(s),
            Viewer::Spectator => None,
        }
    }
}
