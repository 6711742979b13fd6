//! Suited hands: which cards a player holds, copy by copy.
//!
//! Plays are rank multisets, but the grab and the partner card are about suited cards, so a
//! hand keeps a count per card (0–3, three decks) next to its rank counts.

use crate::suited::{not_held, SuitedCards};
use cards::{Card, Rank, RankCounts, Suit};

/// A player's cards: per-card copy counts and the matching rank counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    copies: [u8; 54],
    ranks: RankCounts,
}

impl Hand {
    /// A hand of the given cards.
    pub fn of(cards: &[Card]) -> Hand {
        let mut h = Hand {
            copies: [0; 54],
            ranks: RankCounts::EMPTY,
        };
        for &c in cards {
            h.add(c);
        }
        h
    }

    /// Adds one copy of `card`.
    pub fn add(&mut self, card: Card) {
        self.copies[card.id() as usize] += 1;
        self.ranks.add(card.rank(), 1);
    }

    /// How many copies of `card` the hand holds.
    #[inline]
    pub fn copies(&self, card: Card) -> u8 {
        self.copies[card.id() as usize]
    }

    /// The hand by rank: what plays are made of.
    #[inline]
    pub fn ranks(&self) -> RankCounts {
        self.ranks
    }

    /// Number of cards.
    #[inline]
    pub fn len(&self) -> usize {
        self.ranks.len() as usize
    }

    /// Whether the hand is empty.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.ranks.is_empty()
    }

    /// Every card, ascending by rank then suit, copies next to each other.
    pub fn cards(&self) -> Vec<Card> {
        let mut out = Vec::with_capacity(self.len());
        for c in Card::all() {
            for _ in 0..self.copies(c) {
                out.push(c);
            }
        }
        out
    }

    /// Removes the cards of a rank-only play and returns the suited cards that left.
    ///
    /// Of each rank the lowest suits go first, and `keep` (the marked card) goes last: a
    /// player gives the marked card away only with the last card of its rank, so a partner
    /// (or a hidden-solo landlord) stays secret as long as the hand allows. The caller
    /// checks that the hand holds `play`.
    pub(crate) fn remove_play(&mut self, play: RankCounts, keep: Option<Card>) -> Vec<Card> {
        debug_assert!(self.ranks.contains(play));
        let mut gone = Vec::with_capacity(play.len() as usize);
        for (rank, n) in play.iter() {
            let mut left = n;
            let order = take_order(rank);
            // First pass spares one copy of the marked card; the second takes it if needed.
            for spare in [true, false] {
                for &c in order.iter().flatten() {
                    let reserve = u8::from(spare && keep == Some(c));
                    while left > 0 && self.copies[c.id() as usize] > reserve {
                        self.copies[c.id() as usize] -= 1;
                        gone.push(c);
                        left -= 1;
                    }
                }
            }
            self.ranks.remove(rank, n);
        }
        gone
    }

    /// Why the hand cannot give a suited play: the first copy it lacks ("you hold no
    /// second 6♦"); `None` when it holds them all.
    pub(crate) fn lacks(&self, play: SuitedCards) -> Option<String> {
        play.iter()
            .find(|&(c, n)| n > self.copies(c))
            .map(|(c, _)| not_held(c, self.copies(c)))
    }

    /// Removes exactly the cards a suited play names. The caller checks that the hand
    /// holds them ([`Hand::lacks`]).
    pub(crate) fn remove_suited(&mut self, play: SuitedCards) {
        debug_assert!(self.lacks(play).is_none());
        for (c, n) in play.iter() {
            self.copies[c.id() as usize] -= n;
            self.ranks.remove(c.rank(), u32::from(n));
        }
    }
}

/// The cards of a rank in the order they leave a hand: ♦ ♣ ♥ ♠, or the joker itself.
fn take_order(rank: Rank) -> [Option<Card>; 4] {
    if rank.is_joker() {
        [Some(Card::of_rank(rank)), None, None, None]
    } else {
        Suit::ALL.map(|s| Some(Card::suited(rank, s)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cards::parse_cards;

    #[test]
    fn the_marked_card_leaves_last() {
        let mut h = Hand::of(&parse_cards("3d 3c 3c 5s").unwrap());
        let marked: Card = "3d".parse().unwrap();
        let gone = h.remove_play("3 3".parse().unwrap(), Some(marked));
        assert_eq!(cards::format_cards(&gone), "3c 3c");
        let gone = h.remove_play("3".parse().unwrap(), Some(marked));
        assert_eq!(cards::format_cards(&gone), "3d");
        assert_eq!(h.len(), 1);
    }

    #[test]
    fn a_suited_play_takes_its_own_copies_or_none() {
        let mut h = Hand::of(&parse_cards("6d 6c 6d 5s").unwrap());
        assert_eq!(
            h.lacks("6c 6c".parse().unwrap()).as_deref(),
            Some("you hold no second 6♣")
        );
        assert_eq!(h.lacks("6d 6d 6c".parse().unwrap()), None);
        h.remove_suited("6d 6c".parse().unwrap());
        assert_eq!(cards::format_cards(&h.cards()), "5s 6d");
        assert_eq!(h.ranks(), "5 6".parse().unwrap());
    }
}
