//! What one seat may know.

use crate::rules::{Phase, State};
use crate::suits::Suits;
use crate::{Doubling, Play};
use cards::RankCounts;
use game::{Seat, Viewer};
use serde::{Deserialize, Serialize};

/// Everything a seat (or a spectator) may know about a game: its own hand, never another's
/// unless the landlord showed theirs (明牌).
///
/// Public: the table's options, the bids, the landlord, the kitty once shown, each seat's
/// doubling, the landlord's hand once shown, every play and pass, hand sizes and the
/// multiplier. When the game is over all hands are shown, as at a real table.
/// Bots decide from this alone.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The seat looking, `None` for a spectator.
    pub seat: Option<Seat>,
    /// The phase.
    pub phase: Phase,
    /// The viewer's own hand (`None` for a spectator).
    pub hand: Option<RankCounts>,
    /// Cards left in each hand.
    pub hand_sizes: [u32; 3],
    /// Who bid first in this deal.
    pub first_bidder: Seat,
    /// The bids of this deal so far, in order (0 = no bid).
    pub bids: Vec<(Seat, u8)>,
    /// How many times in a row the cards were redealt after everyone declined.
    pub redeals: u8,
    /// The landlord, once known.
    pub landlord: Option<Seat>,
    /// The base score (the winning bid), once known.
    pub bid: u8,
    /// The kitty, shown once the landlord is known.
    pub kitty: Option<RankCounts>,
    /// The table's `doubling` option: which doublings (加倍) seats may choose.
    pub doubling: Doubling,
    /// The table's `show_cards` option: whether the landlord may show their hand (明牌).
    pub show_cards: bool,
    /// Each seat's doubling (1, 2 or 4); 0 until chosen, and always without the option.
    pub doubles: [u8; 3],
    /// The landlord's hand as it is now, once they showed it (明牌); `None` otherwise.
    pub shown: Option<RankCounts>,
    /// Every play (`Some`) and pass (`None`) of the play phase, in order.
    pub history: Vec<(Seat, Option<Play>)>,
    /// The play to beat and who made it; `None` when the player to act leads.
    pub last: Option<(Seat, Play)>,
    /// Whose turn it is (`None` when over).
    pub to_act: Option<Seat>,
    /// The current multiplier common to both stakes (×2 per doubling bomb, ×2 for a shown
    /// hand; spring at the end). Each seat's doubling multiplies its stakes on top.
    pub multiplier: i64,
    /// Who went out, once over.
    pub winner: Option<Seat>,
    /// Score changes, once over.
    pub scores: Option<[i64; 3]>,
    /// Whether the finish was a spring or an anti-spring.
    pub spring: bool,
    /// Anti-spring (反春).
    pub anti_spring: bool,
    /// Every hand, shown once the game is over.
    pub revealed: Option<[RankCounts; 3]>,
    /// The same cards with their suits, for people to see (the rules ignore suits).
    #[serde(default)]
    pub suits: Suits,
}

impl View {
    /// The view of `state` from `viewer`.
    pub(crate) fn of(state: &State, viewer: Viewer) -> View {
        let seat = viewer.seat().filter(|&s| s < 3);
        let finished = state.phase == Phase::Finished;
        View {
            seat,
            phase: state.phase,
            hand: seat.map(|s| state.hands[s]),
            hand_sizes: [0, 1, 2].map(|s| state.hands[s].len()),
            first_bidder: state.first_bidder,
            bids: state.bids.clone(),
            redeals: state.redeals,
            landlord: state.landlord,
            bid: state.bid,
            kitty: state.landlord.map(|_| state.kitty),
            doubling: state.config.doubling,
            show_cards: state.config.show_cards,
            doubles: state.doubles,
            shown: state
                .landlord
                .filter(|_| state.shown)
                .map(|l| state.hands[l]),
            history: state.history.clone(),
            last: state.last,
            to_act: (!finished).then_some(state.turn),
            multiplier: state.multiplier(),
            winner: state.result.map(|r| r.winner),
            scores: state.result.map(|r| r.scores),
            spring: state.result.is_some_and(|r| r.spring),
            anti_spring: state.result.is_some_and(|r| r.anti_spring),
            revealed: finished.then_some(state.hands),
            suits: Suits::of(state, seat, finished),
        }
    }

    /// Cards of every rank not yet seen by this seat: the deck minus its own hand minus all
    /// cards played. What the other two hold between them (plus the kitty before it is shown).
    pub fn unseen(&self) -> RankCounts {
        let mut unseen = cards::Deck::WITH_JOKERS.rank_counts();
        if let Some(h) = self.hand {
            unseen = unseen.checked_minus(h).unwrap_or(unseen);
        }
        for (_, p) in &self.history {
            if let Some(p) = p {
                unseen = unseen.checked_minus(p.cards()).unwrap_or(unseen);
            }
        }
        unseen
    }

    /// The cards a seat has played so far.
    pub fn played_by(&self, seat: Seat) -> RankCounts {
        self.history
            .iter()
            .filter(|(s, _)| *s == seat)
            .filter_map(|(_, p)| p.map(|p| p.cards()))
            .fold(RankCounts::EMPTY, |a, c| a.plus(c))
    }
}
