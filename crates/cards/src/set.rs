//! Sets of distinct cards as a 54-bit mask.

use crate::{format_cards, parse_cards, Card, ParseError, RankCounts};

/// A set of distinct cards from one deck, one bit per card (bit = [`Card::id`]).
///
/// The representation for single-deck games where suits matter (Big Two, Ten and a half):
/// membership, union and removal are single instructions and iteration is ascending by rank,
/// then suit — the order those games display.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct CardSet(u64);

impl CardSet {
    /// No cards.
    pub const EMPTY: CardSet = CardSet(0);

    /// The set with mask `bits`; bits above the 54 cards are dropped.
    #[inline]
    pub const fn from_bits(bits: u64) -> CardSet {
        CardSet(bits & ((1 << 54) - 1))
    }

    /// The mask: bit `c.id()` for each card `c`.
    #[inline]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Whether `card` is in the set.
    #[inline]
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.id()) != 0
    }

    /// Whether every card of `other` is in the set.
    #[inline]
    pub const fn contains_all(self, other: CardSet) -> bool {
        self.0 & other.0 == other.0
    }

    /// Adds a card; returns whether it was new.
    #[inline]
    pub fn insert(&mut self, card: Card) -> bool {
        let new = !self.contains(card);
        self.0 |= 1 << card.id();
        new
    }

    /// Removes a card; returns whether it was there.
    #[inline]
    pub fn remove(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 &= !(1 << card.id());
        had
    }

    /// The cards in either set.
    #[inline]
    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    /// The cards of `self` not in `other`.
    #[inline]
    pub const fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// Number of cards.
    #[inline]
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest card, if any.
    #[inline]
    pub fn lowest(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Card::from_id(self.0.trailing_zeros() as u8)
        }
    }

    /// The highest card, if any.
    #[inline]
    pub fn highest(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Card::from_id(63 - self.0.leading_zeros() as u8)
        }
    }

    /// The cards, ascending.
    pub fn iter(self) -> impl Iterator<Item = Card> + Clone {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let id = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Card::from_id(id)
        })
    }

    /// The rank counts of the set (suits forgotten).
    pub fn rank_counts(self) -> RankCounts {
        RankCounts::from_cards(self.iter().collect::<Vec<_>>().iter())
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl std::fmt::Display for CardSet {
    /// The notation, ascending: `3d 3s Th BJ`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let cards: Vec<Card> = self.iter().collect();
        f.write_str(&format_cards(&cards))
    }
}

impl std::fmt::Debug for CardSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CardSet[{self}]")
    }
}

impl std::str::FromStr for CardSet {
    type Err = ParseError;

    /// Reads the suited notation; a card named twice is an error, since a set holds each
    /// card once.
    fn from_str(s: &str) -> Result<CardSet, ParseError> {
        let cards = parse_cards(s)?;
        crate::Deck::WITH_JOKERS.check_cards(&cards)?;
        Ok(cards.into_iter().collect())
    }
}

crate::serde_as_text!(CardSet);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_iterate_ascending_and_round_trip() {
        let s: CardSet = "Ts 3d BJ 3s".parse().unwrap();
        assert_eq!(s.to_string(), "3d 3s Ts BJ");
        assert_eq!(s.len(), 4);
        assert_eq!(s.lowest().unwrap().to_string(), "3d");
        assert_eq!(s.highest(), Some(Card::BLACK_JOKER));
        assert_eq!(s.rank_counts().to_string(), "3 3 T BJ");
        assert!("3d 3d".parse::<CardSet>().is_err());
    }
}
