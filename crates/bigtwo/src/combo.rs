//! What a set of cards is as a play (单张, 一对, 三个 and the five-card hands), and what beats
//! what.
//!
//! Every comparison in Big Two comes down to one card: the original rules say each play "takes its
//! biggest card and compares it as a single" — the highest card of a single, pair, triple or
//! flush, the triple's highest card in a full house, the four's in four-plus-one, and a
//! straight's top card with A and 2 counted low in A2345 and 23456. A [`Combo`] therefore
//! carries its [`Kind`] and that deciding card, its `top`, and comparing plays is comparing
//! `(kind, top)`.

use cards::{Card, CardSet, Rank, Suit};
use serde::{Deserialize, Serialize};

/// The kinds of play, in the order the five-card kinds rank against each other.
///
/// Singles, pairs and triples only meet plays of their own size, so their place in this order
/// never decides anything; among the five-card kinds the order is the original rules': straight (杂顺)
/// < flush (同花五) < full house (三个带一对) < four-plus-one (四个带单张) < straight flush
/// (同花顺), and a higher kind beats any lower kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// 单张: any one card.
    Single,
    /// 一对: two cards of one rank.
    Pair,
    /// 三个: three cards of one rank.
    Triple,
    /// 杂顺: five consecutive ranks, not all of one suit.
    Straight,
    /// 同花五: five cards of one suit that are not a straight.
    Flush,
    /// 三个带一对: a triple and a pair.
    FullHouse,
    /// 四个带单张: four of a rank and any fifth card.
    FourOfAKind,
    /// 同花顺: a straight all of one suit.
    StraightFlush,
}

impl Kind {
    /// Every kind, in order.
    pub const ALL: [Kind; 8] = [
        Kind::Single,
        Kind::Pair,
        Kind::Triple,
        Kind::Straight,
        Kind::Flush,
        Kind::FullHouse,
        Kind::FourOfAKind,
        Kind::StraightFlush,
    ];

    /// How many cards a play of this kind has.
    pub const fn size(self) -> u32 {
        match self {
            Kind::Single => 1,
            Kind::Pair => 2,
            Kind::Triple => 3,
            _ => 5,
        }
    }

    /// The kind's name in the judge and in messages: `single` … `straight_flush`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Single => "single",
            Kind::Pair => "pair",
            Kind::Triple => "triple",
            Kind::Straight => "straight",
            Kind::Flush => "flush",
            Kind::FullHouse => "full_house",
            Kind::FourOfAKind => "four_of_a_kind",
            Kind::StraightFlush => "straight_flush",
        }
    }

    /// The kind as players say it, for messages: "a full house".
    pub const fn described(self) -> &'static str {
        match self {
            Kind::Single => "a single",
            Kind::Pair => "a pair",
            Kind::Triple => "a triple",
            Kind::Straight => "a straight",
            Kind::Flush => "a flush",
            Kind::FullHouse => "a full house",
            Kind::FourOfAKind => "four of a kind",
            Kind::StraightFlush => "a straight flush",
        }
    }
}

/// The ten straights as 13-bit rank masks (bit = rank index, 3 = 0 … A = 11, 2 = 12) with the
/// rank of each one's top card. A and 2 may start a straight (A2345, 23456) or A end one
/// (TJQKA), never sit inside one: JQKA2, QKA23 and KA234 are not straights.
pub const STRAIGHTS: [(u16, Rank); 10] = [
    (rank_bits(&[11, 12, 0, 1, 2]), Rank::Five),
    (rank_bits(&[12, 0, 1, 2, 3]), Rank::Six),
    (rank_bits(&[0, 1, 2, 3, 4]), Rank::Seven),
    (rank_bits(&[1, 2, 3, 4, 5]), Rank::Eight),
    (rank_bits(&[2, 3, 4, 5, 6]), Rank::Nine),
    (rank_bits(&[3, 4, 5, 6, 7]), Rank::Ten),
    (rank_bits(&[4, 5, 6, 7, 8]), Rank::Jack),
    (rank_bits(&[5, 6, 7, 8, 9]), Rank::Queen),
    (rank_bits(&[6, 7, 8, 9, 10]), Rank::King),
    (rank_bits(&[7, 8, 9, 10, 11]), Rank::Ace),
];

const fn rank_bits(ranks: &[usize]) -> u16 {
    let mut bits = 0u16;
    let mut i = 0;
    while i < ranks.len() {
        bits |= 1 << ranks[i];
        i += 1;
    }
    bits
}

/// The 52 cards of the Big Two deck (no jokers) as a mask.
pub const DECK: CardSet = CardSet::from_bits((1 << 52) - 1);

/// The cards of `rank` held in `cards`, as a 4-bit suit mask (bit = suit index ♦ ♣ ♥ ♠).
#[inline]
pub(crate) const fn suits_of(cards: CardSet, rank: usize) -> u64 {
    (cards.bits() >> (4 * rank)) & 0xF
}

/// A 13-bit mask of the ranks present in `cards`.
#[inline]
pub(crate) fn ranks_of(cards: CardSet) -> u16 {
    let b = cards.bits();
    let any = b | (b >> 1) | (b >> 2) | (b >> 3);
    let mut out = 0u16;
    for r in 0..13 {
        out |= (((any >> (4 * r)) & 1) as u16) << r;
    }
    out
}

/// The highest held card of a rank (the one with the highest suit).
#[inline]
fn top_of_rank(cards: CardSet, rank: usize) -> Option<Card> {
    let suits = suits_of(cards, rank);
    if suits == 0 {
        None
    } else {
        let suit = 63 - suits.leading_zeros() as usize;
        Card::from_id((4 * rank + suit) as u8)
    }
}

/// A legal Big Two play: its cards, its kind and the card that decides comparisons.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Combo {
    /// What kind of play it is.
    pub kind: Kind,
    /// The cards played.
    pub cards: CardSet,
    /// The card that decides a comparison with a play of the same kind.
    pub top: Card,
}

impl Combo {
    /// Reads `cards` as a play, or `None` if they are no play of Big Two (a joker, two cards
    /// of different ranks, four cards, JQKA2, …).
    pub fn classify(cards: CardSet) -> Option<Combo> {
        if cards.bits() & !DECK.bits() != 0 {
            return None;
        }
        let highest = cards.highest()?;
        let same_rank = cards.lowest().map(Card::rank) == Some(highest.rank());
        let kind = match cards.len() {
            1 => Kind::Single,
            2 if same_rank => Kind::Pair,
            3 if same_rank => Kind::Triple,
            5 => return Combo::classify_five(cards),
            _ => return None,
        };
        Some(Combo {
            kind,
            cards,
            top: highest,
        })
    }

    /// The five-card kinds, decided by the rank pattern and whether one suit holds them all.
    fn classify_five(cards: CardSet) -> Option<Combo> {
        let ranks = ranks_of(cards);
        let lowest = cards.lowest()?;
        let suit_line = 0x1_1111_1111_1111u64 << lowest.suit().map_or(0, Suit::index);
        let one_suit = cards.bits() & !suit_line == 0;
        let combo = |kind, top| Some(Combo { kind, cards, top });
        match ranks.count_ones() {
            5 => {
                if let Some(&(_, top_rank)) = STRAIGHTS.iter().find(|(m, _)| *m == ranks) {
                    let top = top_of_rank(cards, top_rank.index())?;
                    let kind = if one_suit {
                        Kind::StraightFlush
                    } else {
                        Kind::Straight
                    };
                    combo(kind, top)
                } else if one_suit {
                    combo(Kind::Flush, cards.highest()?)
                } else {
                    None
                }
            }
            2 => {
                // Four-plus-one or full house: the rank held three or four times decides.
                let hi = 15 - ranks.leading_zeros() as usize;
                let lo = ranks.trailing_zeros() as usize;
                let (main, count) = [hi, lo]
                    .into_iter()
                    .map(|r| (r, suits_of(cards, r).count_ones()))
                    .max_by_key(|&(_, n)| n)?;
                let kind = if count == 4 {
                    Kind::FourOfAKind
                } else {
                    Kind::FullHouse
                };
                combo(kind, top_of_rank(cards, main)?)
            }
            _ => None,
        }
    }

    /// Number of cards (1, 2, 3 or 5; a play is never empty).
    pub fn size(&self) -> u32 {
        self.cards.len()
    }

    /// Whether this play beats `last` on the table: same number of cards, and a higher kind
    /// (five-card plays) or the same kind with a higher deciding card (rank, then suit).
    pub fn beats(&self, last: &Combo) -> bool {
        self.size() == last.size() && (self.kind, self.top) > (last.kind, last.top)
    }

    /// The key that sorts plays "smallest first": by size, kind, then deciding card.
    pub fn order_key(&self) -> (u32, Kind, Card) {
        (self.size(), self.kind, self.top)
    }
}

impl std::fmt::Display for Combo {
    /// The cards in the notation, ascending: `3d 3s`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.cards)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(text: &str) -> Option<Combo> {
        Combo::classify(text.parse().ok()?)
    }

    #[test]
    fn kinds_and_tops() {
        let k = |t: &str| play(t).map(|c| (c.kind.name(), c.top.to_string()));
        let some = |k: &'static str, t: &str| Some((k, t.to_string()));
        assert_eq!(k("9h"), some("single", "9h"));
        assert_eq!(k("9h 9c"), some("pair", "9h"));
        assert_eq!(k("9h 9c 9s"), some("triple", "9s"));
        assert_eq!(k("3d 4d 5d 6d 7d"), some("straight_flush", "7d"));
        assert_eq!(k("3d 4c 5d 6d 7d"), some("straight", "7d"));
        assert_eq!(k("Ah 2s 3d 4d 5c"), some("straight", "5c"));
        assert_eq!(k("2s 3d 4d 5c 6h"), some("straight", "6h"));
        assert_eq!(k("Th Jh Qc Kd As"), some("straight", "As"));
        assert_eq!(k("2h 7h 8h Jh Kh"), some("flush", "2h"));
        assert_eq!(k("9d 9c 9s 5h 5s"), some("full_house", "9s"));
        assert_eq!(k("5h 5s 5c 9d 9c"), some("full_house", "5s"));
        assert_eq!(k("9d 9c 9s 9h 5s"), some("four_of_a_kind", "9s"));
        assert_eq!(k("3d 9d 9c 9s 9h"), some("four_of_a_kind", "9s"));
        assert_eq!(k("3d 4d"), None);
        assert_eq!(k("3d 3c 3h 3s"), None);
        assert_eq!(k("3d 3c 4h"), None);
        assert_eq!(k("3d 3c 4h 4s 5d"), None);
        assert_eq!(k("BJ"), None);
    }

    #[test]
    fn straights_are_ten_windows() {
        let mut masks: Vec<u16> = STRAIGHTS.iter().map(|s| s.0).collect();
        masks.sort_unstable();
        masks.dedup();
        assert_eq!(masks.len(), 10);
        assert!(masks.iter().all(|m| m.count_ones() == 5));
    }

    #[test]
    fn suit_lines_cover_each_suit() {
        for s in Suit::ALL {
            let line = 0x1_1111_1111_1111u64 << s.index();
            let all: CardSet = Rank::SUITED.iter().map(|&r| Card::suited(r, s)).collect();
            assert_eq!(all.bits(), line);
        }
    }
}
