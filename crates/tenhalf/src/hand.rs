//! Card values, hands and the showdown order (rules 3, 4 and 12–15 of the original rules).
//!
//! Every total in the game is a multiple of ½, so totals are counted in half points
//! ([`Halves`]): 10½ is 21, the must-hit limit of 7 is 14. Integer arithmetic keeps every
//! comparison exact, and a hand's total fits a byte.

use cards::{Card, Rank};
use serde::{Serialize, Serializer};

/// A total in half points: 7½ is 15, 10½ is 21.
pub type Halves = u8;

/// 10½, the winning total (rule 4).
pub const TEN_AND_A_HALF: Halves = 21;

/// 7: at this total or less a player must hit (rule 5).
pub const MUST_HIT_UP_TO: Halves = 14;

/// The most cards a hand can hold: the fifth card either wins (五龙, rule 4) or busts.
pub const MAX_CARDS: usize = 5;

/// A card's value in half points (rule 3): A = 1, 2–10 their face value, J, Q, K and both
/// jokers ½.
#[inline]
pub const fn halves(card: Card) -> Halves {
    match card.rank() {
        Rank::Jack | Rank::Queen | Rank::King | Rank::BlackJoker | Rank::RedJoker => 1,
        r => 2 * r.pips(),
    }
}

/// A card's place in the best-card comparison of a showdown (rules 14–15), higher is better:
/// big joker > small joker > any ♠ > any ♥ > any ♣ > any ♦, and inside a suit
/// 10 > 9 > … > 2 > A > K > Q > J.
///
/// The original rules rank J, Q and K equal; K > Q > J is the tie-break of docs/rules/tenhalf.md, so that two
/// different cards never compare equal and a showdown always has one loser.
#[inline]
pub const fn strength(card: Card) -> u8 {
    match card.suit() {
        None => {
            if card.id() == Card::RED_JOKER.id() {
                53
            } else {
                52
            }
        }
        Some(suit) => {
            let within = match card.rank() {
                Rank::Jack => 0,
                Rank::Queen => 1,
                Rank::King => 2,
                // A = 3, 2 = 4, … 10 = 12.
                r => r.pips() + 2,
            };
            // Suit::index is ♦ 0, ♣ 1, ♥ 2, ♠ 3: the original rules' suit order, lowest first.
            suit.index() as u8 * 13 + within
        }
    }
}

/// A total as people read it: `7½`, `10`, and as a JSON number `7.5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Points(pub Halves);

impl Points {
    /// The total as a number of points (`7.5`).
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl std::fmt::Display for Points {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let whole = self.0 / 2;
        match (whole, self.0 % 2) {
            (0, 1) => f.write_str("½"),
            (w, 1) => write!(f, "{w}½"),
            (w, _) => write!(f, "{w}"),
        }
    }
}

impl Serialize for Points {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.as_f64())
    }
}

impl<'de> serde::Deserialize<'de> for Points {
    /// Reads a number of points in halves (`7.5`); anything else is refused.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let points = f64::deserialize(d)?;
        let halves = points * 2.0;
        if halves.fract() != 0.0 || !(0.0..=f64::from(Halves::MAX)).contains(&halves) {
            return Err(serde::de::Error::custom(format!(
                "{points} is not a number of half points"
            )));
        }
        Ok(Points(halves as Halves))
    }
}

/// How a hand wins outright (rule 4); the winner leaves the round (rule 9).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum WinKind {
    /// Exactly 10½.
    TenAndAHalf,
    /// Five cards totalling 10½ or less: 五龙 "five dragons".
    FiveDragon,
}

/// What a hand's total means for the player holding it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Standing {
    /// Over 10½: busted (rule 9).
    Bust,
    /// Won outright (rule 4).
    Won(WinKind),
    /// Still in play: 7 or less must hit, 7½ to 10 may choose.
    Open,
}

/// One player's cards in a round: the base card first (face down until shown), then the hit
/// cards in the order they came. A fixed array, so hands are copied, never allocated.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Hand {
    cards: [Card; MAX_CARDS],
    len: u8,
    total: Halves,
}

impl Default for Hand {
    fn default() -> Self {
        Hand::EMPTY
    }
}

impl Hand {
    /// No cards.
    pub const EMPTY: Hand = Hand {
        cards: [Card::BLACK_JOKER; MAX_CARDS],
        len: 0,
        total: 0,
    };

    /// A hand of these cards, if there are at most five.
    pub fn of(cards: &[Card]) -> Option<Hand> {
        if cards.len() > MAX_CARDS {
            return None;
        }
        let mut hand = Hand::EMPTY;
        for &c in cards {
            hand.push(c);
        }
        Some(hand)
    }

    /// Adds a card. The rules never give a sixth card: the fifth wins or busts.
    #[inline]
    pub fn push(&mut self, card: Card) {
        debug_assert!(
            (self.len as usize) < MAX_CARDS,
            "a hand holds at most five cards"
        );
        self.cards[self.len as usize] = card;
        self.len += 1;
        self.total += halves(card);
    }

    /// The cards, base card first.
    #[inline]
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }

    /// The base card, if the hand has one.
    #[inline]
    pub fn base(&self) -> Option<Card> {
        self.cards().first().copied()
    }

    /// The cards after the base card: the face-up hits.
    #[inline]
    pub fn hits(&self) -> &[Card] {
        self.cards().get(1..).unwrap_or(&[])
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether the hand holds no card.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The total in half points.
    #[inline]
    pub fn total(&self) -> Halves {
        self.total
    }

    /// The best card for the showdown tie-break (rule 14).
    pub fn best(&self) -> Option<Card> {
        self.cards().iter().copied().max_by_key(|&c| strength(c))
    }

    /// Bust, won, or still open (rules 4 and 9). The bust test comes first: five cards over
    /// 10½ are a bust, not 五龙.
    #[inline]
    pub fn standing(&self) -> Standing {
        if self.total > TEN_AND_A_HALF {
            Standing::Bust
        } else if self.total == TEN_AND_A_HALF {
            Standing::Won(WinKind::TenAndAHalf)
        } else if self.len as usize == MAX_CARDS {
            Standing::Won(WinKind::FiveDragon)
        } else {
            Standing::Open
        }
    }

    /// Whether the player must hit (rule 5).
    #[inline]
    pub fn must_hit(&self) -> bool {
        self.total <= MUST_HIT_UP_TO
    }

    /// The hand's place in a showdown (rules 12–15); the lowest key loses.
    pub fn key(&self) -> ShowdownKey {
        ShowdownKey {
            total: self.total,
            cards: self.len,
            best: self.best().map_or(0, strength),
        }
    }
}

impl std::fmt::Debug for Hand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Hand[{}]", cards::format_cards(self.cards()))
    }
}

/// What a showdown compares, in order (rule 12): points, then the number of cards, then the
/// best card. Ordered so that the smallest key is the loser (rule 13).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ShowdownKey {
    /// Total in half points: fewer points lose.
    pub total: Halves,
    /// Number of cards: on equal points, fewer cards lose.
    pub cards: u8,
    /// [`strength`] of the best card: on equal points and cards, the lower best card loses.
    pub best: u8,
}

/// The showdown order of `hands`: their indices from worst to best. The first is the loser.
///
/// Hands from one deck never tie: two hands with equal points and card counts have different
/// best cards, and no two cards have the same [`strength`].
pub fn showdown_order(hands: &[Hand]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..hands.len()).collect();
    order.sort_by_key(|&i| hands[i].key());
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strengths_are_distinct_and_jokers_top() {
        let mut seen = std::collections::BTreeSet::new();
        for c in Card::all() {
            assert!(seen.insert(strength(c)), "{c} shares a strength");
        }
        assert_eq!(strength(Card::RED_JOKER), 53);
        assert_eq!(strength(Card::BLACK_JOKER), 52);
    }

    #[test]
    fn points_print_with_a_half_sign() {
        assert_eq!(Points(15).to_string(), "7½");
        assert_eq!(Points(1).to_string(), "½");
        assert_eq!(Points(20).to_string(), "10");
        assert_eq!(Points(0).to_string(), "0");
    }
}
