//! The suits of the cards, for people to see.
//!
//! Suits never matter in Dou Dizhu, so the engine plays by rank alone ([`RankCounts`]),
//! which keeps it fast. But people hold real cards: a shuffled deal keeps which suited
//! card went where ([`State::dealt`](crate::State)), and a view derives from it each hand
//! with its suits and the suited cards of every play, every card of the deck in exactly
//! one place. The notation, the records and the moves stay rank-only.
//!
//! Which copy of a rank a play takes is chosen so that its suit tells nothing of the hand
//! beyond the rank: the landlord's copies from the kitty (public) first, then the hand's
//! copies in an order drawn for the game and known to nobody (a fixed order such as
//! "highest suit first" would: a peasant playing 7♥ would say they hold no 7♠, and so
//! where the 7♠ is). A deal given by rank (tests, puzzles) has no suits: any fixed
//! assignment would tell a seat, by its own suits, what the others hold.

use crate::rules::State;
use cards::{Card, CardSet, RankCounts, Suit};
use game::{deal, Seat};
use serde::{Deserialize, Serialize};

/// Takes the cards of `ranks` out of `held`: of each rank, the copies in `public` first,
/// then the others by their `order` (lowest first). Returns the cards taken; a rank
/// `held` lacks copies of is taken as far as it goes.
pub(crate) fn take(
    held: &mut CardSet,
    ranks: RankCounts,
    public: CardSet,
    order: &[u32; 54],
) -> CardSet {
    let mut gone = CardSet::EMPTY;
    for (rank, n) in ranks.iter() {
        let mut copies = [Card::of_rank(rank); 4];
        let mut k = 0;
        for suit in Suit::ALL {
            let c = if rank.is_joker() {
                Card::of_rank(rank)
            } else {
                Card::suited(rank, suit)
            };
            if held.contains(c) && !copies[..k].contains(&c) {
                copies[k] = c;
                k += 1;
            }
        }
        let copies = &mut copies[..k];
        copies.sort_by_key(|&c| (!public.contains(c), order[usize::from(c.id())]));
        for &c in copies.iter().take(n as usize) {
            held.remove(c);
            gone.insert(c);
        }
    }
    gone
}

/// The cards of a view with their suits (the view's rank-only fields, suited): what the
/// page draws. Present in the same cases as the rank-only fields they match.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Suits {
    /// The viewer's own hand (`None` for a spectator).
    pub hand: Option<CardSet>,
    /// The kitty, once the landlord is known.
    pub kitty: Option<CardSet>,
    /// The landlord's hand as it is now, once shown (明牌).
    pub shown: Option<CardSet>,
    /// The cards of each entry of the view's `history`, in order; `None` for a pass.
    pub plays: Vec<Option<CardSet>>,
    /// Every hand, once the game is over.
    pub revealed: Option<[CardSet; 3]>,
}

impl Suits {
    /// The suited cards of `state` as `seat` (`None`: a spectator) may see them; none for
    /// a deal given by rank (or a world a bot imagines).
    pub(crate) fn of(state: &State, seat: Option<Seat>, finished: bool) -> Suits {
        if state.dealt == [CardSet::EMPTY; 4] {
            return Suits::default();
        }
        // The game's secret order of the cards: drawn from a copy of the game's generator,
        // which nothing draws from after the last deal, so every view agrees.
        let mut rng = state.rng.clone();
        let order: [u32; 54] = std::array::from_fn(|_| deal::below(&mut rng, 1 << 30) as u32);
        let kitty = state.dealt[3];
        let mut held = [state.dealt[0], state.dealt[1], state.dealt[2]];
        if let Some(l) = state.landlord {
            held[l] = held[l].union(kitty);
        }
        let plays = state
            .history
            .iter()
            .map(|(s, p)| p.map(|p| take(&mut held[*s % 3], p.cards(), kitty, &order)))
            .collect();
        Suits {
            hand: seat.map(|s| held[s]),
            kitty: state.landlord.map(|_| kitty),
            shown: state.landlord.filter(|_| state.shown).map(|l| held[l]),
            plays,
            revealed: finished.then_some(held),
        }
    }
}
