//! Decks: which cards a game is played with, and how many copies of each.

use crate::notation::count_word;
use crate::{Card, ParseError, Rank, RankCounts};
use serde::{Deserialize, Serialize};

/// The cards a game uses: `decks` copies of the 52 suited cards, plus `decks` copies of each
/// joker when `jokers` is set.
///
/// Dou Dizhu and Ten and a half use one deck with jokers, Big Two one deck without, the
/// five-player Dou Dizhu three decks with jokers. A deck is also the authority on whether a
/// list of cards can exist at all ("three RJ in a one-deck game").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Deck {
    /// How many full decks are shuffled together (1 to 3).
    pub decks: u8,
    /// Whether each deck brings its two jokers.
    pub jokers: bool,
}

impl Deck {
    /// One 54-card deck with jokers (Dou Dizhu, Ten and a half).
    pub const WITH_JOKERS: Deck = Deck {
        decks: 1,
        jokers: true,
    };
    /// One 52-card deck without jokers (Big Two).
    pub const NO_JOKERS: Deck = Deck {
        decks: 1,
        jokers: false,
    };

    /// How many cards the deck holds.
    pub fn len(self) -> usize {
        self.decks as usize * if self.jokers { 54 } else { 52 }
    }

    /// Whether the deck holds no card at all (zero decks).
    pub fn is_empty(self) -> bool {
        self.decks == 0
    }

    /// Every card of the deck in ascending order, copies next to each other: the unshuffled
    /// deck that seeded dealing shuffles.
    pub fn cards(self) -> Vec<Card> {
        let mut out = Vec::with_capacity(self.len());
        for c in Card::all() {
            if c.is_joker() && !self.jokers {
                continue;
            }
            for _ in 0..self.decks {
                out.push(c);
            }
        }
        out
    }

    /// How many copies of each rank the deck holds, as rank counts.
    pub fn rank_counts(self) -> RankCounts {
        let mut rc = RankCounts::EMPTY;
        for r in Rank::ALL {
            rc.add(r, self.copies_of_rank(r) as u32);
        }
        rc
    }

    /// Copies of one rank in the deck: 4 per deck for suited ranks, 1 per deck for each joker
    /// (0 without jokers).
    pub fn copies_of_rank(self, rank: Rank) -> usize {
        match (rank.is_joker(), self.jokers) {
            (true, true) => self.decks as usize,
            (true, false) => 0,
            (false, _) => 4 * self.decks as usize,
        }
    }

    fn deck_words(self) -> String {
        format!("{}-deck", count_word(self.decks as usize))
    }

    /// Checks that every card of `cards` exists in this deck as often as it is named.
    pub fn check_cards(self, cards: &[Card]) -> Result<(), ParseError> {
        let mut seen = [0usize; 54];
        for &c in cards {
            if c.is_joker() && !self.jokers {
                return Err(ParseError::NoJokers(c.to_string()));
            }
            seen[c.id() as usize] += 1;
        }
        for c in Card::all() {
            let n = seen[c.id() as usize];
            if n > self.decks as usize {
                return Err(ParseError::TooMany {
                    count: count_word(n),
                    card: c.to_string(),
                    decks: self.deck_words(),
                });
            }
        }
        Ok(())
    }

    /// Checks that the ranks of `counts` exist in this deck as often as they are named.
    pub fn check_ranks(self, counts: RankCounts) -> Result<(), ParseError> {
        for (r, n) in counts.iter() {
            let n = n as usize;
            if r.is_joker() && !self.jokers {
                return Err(ParseError::NoJokers(r.to_string()));
            }
            if n > self.copies_of_rank(r) {
                return Err(ParseError::TooMany {
                    count: count_word(n),
                    card: r.to_string(),
                    decks: self.deck_words(),
                });
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_cards;

    #[test]
    fn deck_sizes() {
        assert_eq!(Deck::WITH_JOKERS.cards().len(), 54);
        assert_eq!(Deck::NO_JOKERS.cards().len(), 52);
        assert_eq!(
            Deck {
                decks: 3,
                jokers: true
            }
            .cards()
            .len(),
            162
        );
        assert_eq!(
            Deck {
                decks: 3,
                jokers: true
            }
            .rank_counts()
            .len(),
            162
        );
    }

    #[test]
    fn too_many_copies_is_explained() {
        let rj = RankCounts::from_ranks([Rank::RedJoker; 3]);
        assert_eq!(
            Deck::WITH_JOKERS.check_ranks(rj).unwrap_err().to_string(),
            "three RJ in a one-deck game"
        );
        let twice = parse_cards("3d 3d").unwrap();
        assert_eq!(
            Deck::WITH_JOKERS
                .check_cards(&twice)
                .unwrap_err()
                .to_string(),
            "two 3d in a one-deck game"
        );
        assert!(Deck {
            decks: 3,
            jokers: true
        }
        .check_cards(&twice)
        .is_ok());
        assert_eq!(
            Deck::NO_JOKERS
                .check_cards(&parse_cards("BJ").unwrap())
                .unwrap_err()
                .to_string(),
            "BJ in a game without jokers"
        );
    }
}
