//! What one seat, or a spectator, may know: the only way a game's information leaves it.
//!
//! A face-down base card is shown to its owner alone until it is turned over — by a bust, a
//! win, or the showdown. Everything else on the table is public: hit cards are dealt face up
//! and every finished hand is shown, so the view also carries the pile of shown cards, which
//! is all a card counter needs.

use crate::hand::Points;
use crate::state::{Showdown, State, Status};
use cards::{Card, CardSet};
use game::{Seat, Viewer};
use serde::Serialize;

/// One seat as the viewer sees it.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct PlayerView {
    /// The seat.
    pub seat: Seat,
    /// Where the player is in this round.
    pub status: Status,
    /// Penalty points so far this game.
    pub penalties: u32,
    /// Whether a base card lies in front of the player.
    pub has_base: bool,
    /// The base card, if the viewer may see it: their own, or one that has been shown.
    pub base: Option<Card>,
    /// The face-up hit cards, in the order they came.
    pub hits: Vec<Card>,
    /// The hand's total, when the viewer can see every card of it.
    pub points: Option<Points>,
}

impl PlayerView {
    /// Number of cards in front of the player, the face-down one included.
    pub fn cards(&self) -> usize {
        usize::from(self.has_base) + self.hits.len()
    }

    /// The cards the viewer can see, base card first.
    pub fn visible(&self) -> impl Iterator<Item = Card> + '_ {
        self.base.iter().copied().chain(self.hits.iter().copied())
    }
}

/// The table from one side.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct View {
    /// Who is looking.
    pub viewer: Viewer,
    /// The dealer's seat; play goes from the dealer's left, the dealer last.
    pub dealer: Seat,
    /// The round, from 1.
    pub round: u32,
    /// Cards left in the deck.
    pub deck_left: usize,
    /// Whose turn; `None` once the game is over.
    pub to_act: Option<Seat>,
    /// Whether the game is over.
    pub finished: bool,
    /// Players who have won this round so far: each adds 2 to the pot.
    pub winners: u32,
    /// Every seat, in seat order.
    pub players: Vec<PlayerView>,
    /// The cards of this game's finished hands, all of which were shown.
    pub discards: CardSet,
    /// The last round's showdown, for the table to show what happened.
    pub last_showdown: Option<Showdown>,
}

impl View {
    /// What `viewer` may know of `state`.
    pub fn of(state: &State, viewer: Viewer) -> View {
        let players = state
            .players
            .iter()
            .enumerate()
            .map(|(seat, p)| {
                let base = p.hand.base();
                let sees_base = !p.base_hidden || viewer == Viewer::Seat(seat);
                let shown_base = if sees_base { base } else { None };
                PlayerView {
                    seat,
                    status: p.status,
                    penalties: p.penalties,
                    has_base: base.is_some(),
                    base: shown_base,
                    hits: p.hand.hits().to_vec(),
                    points: (sees_base && base.is_some()).then(|| Points(p.hand.total())),
                }
            })
            .collect();
        View {
            viewer,
            dealer: state.dealer(),
            round: state.round(),
            deck_left: state.deck_left(),
            to_act: state.turn(),
            finished: state.is_finished(),
            winners: state.winners,
            players,
            discards: state.discards(),
            last_showdown: state.last_showdown.clone(),
        }
    }

    /// The viewer's own seat view, if the viewer is a player.
    pub fn me(&self) -> Option<&PlayerView> {
        self.viewer.seat().and_then(|s| self.players.get(s))
    }

    /// The seats in playing order: the dealer's left first, the dealer last.
    pub fn order(&self) -> impl Iterator<Item = Seat> + '_ {
        let n = self.players.len();
        (0..n).map(move |i| (self.dealer + 1 + i) % n)
    }

    /// Every card the viewer has seen: the discards and every visible card on the table.
    pub fn seen(&self) -> CardSet {
        let mut seen = self.discards;
        for p in &self.players {
            for c in p.visible() {
                seen.insert(c);
            }
        }
        seen
    }

    /// The viewer's own cards, base card first (none for a spectator): what a bot decides on.
    pub fn my_cards(&self) -> Vec<Card> {
        self.me().map(|p| p.visible().collect()).unwrap_or_default()
    }
}
