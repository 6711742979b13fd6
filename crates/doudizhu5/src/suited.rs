//! Suited plays: the very cards a player puts on the table, copy by copy.
//!
//! The rules compare plays by rank, but with three decks a player holding 6♦ 6♣ 6♦ chooses
//! which two to play, as at a real table, and everyone sees that choice. A play that names
//! its suits is [`SuitedCards`]; a play by rank alone leaves the choice to the game, which
//! then shows no suits (the game's choice would tell the others what else the hand holds).

use cards::{parse_cards, Card, ParseError, RankCounts};

/// Copies one card may have: three decks.
const MAX_COPIES: u8 = 3;

/// Cards with their suits, up to three copies of each card (three decks).
///
/// Two bits a card, 54 cards, in two words: an [`Action`](crate::Action) that holds one
/// stays `Copy` and cheap to hash, which self-play needs. Written as suited cards in the
/// notation, ascending: `3d 3d 6c BJ`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct SuitedCards([u64; 2]);

impl SuitedCards {
    /// No cards.
    pub const EMPTY: SuitedCards = SuitedCards([0; 2]);

    /// The given cards, or `None` when one card is named more often than three decks hold.
    pub fn from_cards(cards: &[Card]) -> Option<SuitedCards> {
        let mut out = SuitedCards::EMPTY;
        for &c in cards {
            if !out.add(c) {
                return None;
            }
        }
        Some(out)
    }

    /// The word and bit offset of a card's two bits.
    #[inline]
    fn slot(card: Card) -> (usize, u32) {
        let id = usize::from(card.id());
        (id / 32, (id % 32) as u32 * 2)
    }

    /// How many copies of `card` the play holds.
    #[inline]
    pub fn count(self, card: Card) -> u8 {
        let (w, s) = Self::slot(card);
        ((self.0[w] >> s) & 3) as u8
    }

    /// Adds one copy of `card`; false (and nothing added) if it already has three.
    pub fn add(&mut self, card: Card) -> bool {
        if self.count(card) >= MAX_COPIES {
            return false;
        }
        let (w, s) = Self::slot(card);
        self.0[w] += 1u64 << s;
        true
    }

    /// Whether the play has no cards.
    pub fn is_empty(self) -> bool {
        self.0 == [0; 2]
    }

    /// Whether some card of it has a suit: a play of jokers alone says nothing a rank-only
    /// play does not, and is one.
    pub fn has_suits(self) -> bool {
        // Jokers are cards 52 and 53: the top four bits of the second word's 44.
        let jokers = 0b1111u64 << ((52 - 32) * 2);
        self.0[0] != 0 || self.0[1] & !jokers != 0
    }

    /// Each card the play holds with its number of copies, ascending by rank then suit;
    /// only the cards held are visited (a play is applied in self-play's hot path).
    pub fn iter(self) -> impl Iterator<Item = (Card, u8)> {
        self.0.into_iter().enumerate().flat_map(|(w, mut bits)| {
            std::iter::from_fn(move || {
                if bits == 0 {
                    return None;
                }
                let shift = bits.trailing_zeros() & !1;
                let n = ((bits >> shift) & 3) as u8;
                bits &= !(3 << shift);
                let id = u8::try_from(w * 32 + shift as usize / 2).ok()?;
                Some((Card::from_id(id)?, n))
            })
        })
    }

    /// The cards with their copies, ascending by rank then suit.
    pub fn cards(self) -> Vec<Card> {
        let mut out = Vec::new();
        for (c, n) in self.iter() {
            out.extend(std::iter::repeat_n(c, usize::from(n)));
        }
        out
    }

    /// The same cards by rank: what the rules compare.
    pub fn ranks(self) -> RankCounts {
        let mut rc = RankCounts::EMPTY;
        for (c, n) in self.iter() {
            rc.add(c.rank(), u32::from(n));
        }
        rc
    }
}

impl std::fmt::Display for SuitedCards {
    /// The suited notation, ascending: `3d 3d 6c BJ`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&cards::format_cards(&self.cards()))
    }
}

impl std::fmt::Debug for SuitedCards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SuitedCards[{self}]")
    }
}

impl std::str::FromStr for SuitedCards {
    type Err = ParseError;

    /// Reads suited cards and jokers (`6d 6♣ BJ`); every card but a joker needs its suit.
    fn from_str(text: &str) -> Result<SuitedCards, ParseError> {
        let cards = parse_cards(text)?;
        let mut out = SuitedCards::EMPTY;
        for c in cards {
            if !out.add(c) {
                return Err(ParseError::TooMany {
                    count: "four".into(),
                    card: c.to_string(),
                    decks: "three-deck".into(),
                });
            }
        }
        Ok(out)
    }
}

cards::serde_as_text!(SuitedCards);

/// Whether `text` names cards with suits (`6d 6c`) rather than by rank alone (`6 6`): some
/// token of it is a suited card. Jokers have no suit and count for neither.
pub fn names_suits(text: &str) -> bool {
    text.split(|c: char| c.is_whitespace() || c == ',')
        .any(|t| t.parse::<Card>().is_ok_and(|c| !c.is_joker()))
}

/// Why a suited play cannot leave a hand: it names a copy the hand does not hold. Reads
/// "you hold no second 6♦".
pub(crate) fn not_held(card: Card, held: u8) -> String {
    let nth = match held {
        0 => "",
        1 => "second ",
        _ => "third ",
    };
    format!("you hold no {nth}{}", card.pretty())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_ranks_and_text_agree() {
        let p: SuitedCards = "6d 6c 6d BJ 2s RJ".parse().unwrap();
        assert_eq!(p.to_string(), "6d 6d 6c 2s BJ RJ");
        assert_eq!(p.ranks(), "6 6 6 2 BJ RJ".parse().unwrap());
        assert_eq!(p.count("6d".parse().unwrap()), 2);
        let held: Vec<(String, u8)> = p.iter().map(|(c, n)| (c.to_string(), n)).collect();
        let want = [("6d", 2), ("6c", 1), ("2s", 1), ("BJ", 1), ("RJ", 1)];
        assert_eq!(held, want.map(|(c, n)| (c.to_string(), n)));
        assert!(p.has_suits());
        assert!(!"BJ RJ RJ".parse::<SuitedCards>().unwrap().has_suits());
        assert!("6d 6d 6d 6d".parse::<SuitedCards>().is_err());
        assert!("6d 6".parse::<SuitedCards>().is_err());
        assert!(names_suits("6d 6") && !names_suits("6 6 BJ") && names_suits("T♥"));
    }
}
