//! What one seat (or a spectator) may know of a deal.

use crate::rules::{State, Trick, SEATS};
use cards::{Card, CardSet};
use game::{Seat, Viewer};
use serde::{Deserialize, Serialize};

/// How a deal ended: who went out, what everyone was left holding, and the scores. This is
/// what a match table needs to keep running totals and to let the winner lead the next deal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DealResult {
    /// The player who went out first.
    pub winner: Seat,
    /// The cards each seat was left holding (shown to all: they decide the scores).
    pub hands: Vec<CardSet>,
    /// Each seat's card score (牌分) from those cards.
    pub card_scores: Vec<i64>,
    /// Each seat's result for the deal: the sum of (other's card score − own).
    pub results: Vec<i64>,
}

/// A seat's knowledge of the deal: its own hand and everything public. Other hands are only
/// counted, never shown, until the deal ends and the cards left are laid open for scoring.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Who is looking (`None` for a spectator).
    pub seat: Option<Seat>,
    /// The looking seat's own hand (`None` for a spectator).
    pub hand: Option<CardSet>,
    /// How many cards each seat holds.
    pub cards_left: Vec<u32>,
    /// Whose turn it is (`None` once the deal is over).
    pub to_act: Option<Seat>,
    /// The play to beat and who made it (`None` when the player to act leads).
    pub last: Option<Trick>,
    /// Passes since the last play.
    pub passes: u8,
    /// The card the next play must include (3♦ before a match's first play).
    pub must_include: Option<Card>,
    /// Every card played so far: public, and what a careful player counts.
    pub played: CardSet,
    /// The seat that led the deal.
    pub opener: Seat,
    /// The result, once someone has gone out.
    pub result: Option<DealResult>,
}

impl View {
    /// The view of `state` from `viewer`'s side.
    pub fn of(state: &State, viewer: Viewer) -> View {
        let seat = viewer.seat().filter(|&s| s < SEATS);
        View {
            seat,
            hand: seat.map(|s| state.hand(s)),
            cards_left: (0..SEATS).map(|s| state.hand(s).len()).collect(),
            to_act: state.result().is_none().then_some(state.turn),
            last: state.last(),
            passes: state.passes,
            must_include: state.must_include(),
            played: state.played(),
            opener: state.opener(),
            result: state.result().cloned(),
        }
    }

    /// The cards this viewer cannot see: neither in its hand nor played.
    pub fn unseen(&self) -> CardSet {
        crate::combo::DECK
            .minus(self.hand.unwrap_or_default())
            .minus(self.played)
    }
}
