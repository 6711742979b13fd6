//! Ranks, suits and cards.

use serde::{Deserialize, Serialize};

/// A card's rank, in the "climbing games" order shared by Dou Dizhu, Big Two and the
/// five-player Dou Dizhu: 3 < 4 < … < K < A < 2 < black joker < red joker.
///
/// The discriminant is the rank's index (0 for `Three` … 14 for `RedJoker`), which is also its
/// nibble in [`RankCounts`](crate::RankCounts). Games with another order (Ten and a half,
/// where A is 1) map ranks to their own values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Rank {
    /// 3.
    Three = 0,
    /// 4.
    Four,
    /// 5.
    Five,
    /// 6.
    Six,
    /// 7.
    Seven,
    /// 8.
    Eight,
    /// 9.
    Nine,
    /// 10, written `T`.
    Ten,
    /// Jack, `J`.
    Jack,
    /// Queen, `Q`.
    Queen,
    /// King, `K`.
    King,
    /// Ace, `A`.
    Ace,
    /// 2, the highest plain rank in the Dou Dizhu family and Big Two.
    Two,
    /// The black (small) joker, 小王.
    BlackJoker,
    /// The red (big) joker, 大王.
    RedJoker,
}

impl Rank {
    /// All fifteen ranks in ascending order.
    pub const ALL: [Rank; 15] = [
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
        Rank::Two,
        Rank::BlackJoker,
        Rank::RedJoker,
    ];

    /// The thirteen ranks that come in suits, ascending (3 … A 2).
    pub const SUITED: [Rank; 13] = [
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
        Rank::Two,
    ];

    /// The rank with index `i` (0 = Three … 14 = RedJoker), if there is one.
    #[inline]
    pub const fn from_index(i: usize) -> Option<Rank> {
        if i < 15 {
            Some(Rank::ALL[i])
        } else {
            None
        }
    }

    /// This rank's index: 0 for Three … 14 for RedJoker.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Whether this rank is one of the two jokers.
    #[inline]
    pub const fn is_joker(self) -> bool {
        matches!(self, Rank::BlackJoker | Rank::RedJoker)
    }

    /// The face value with A = 1 … K = 13 (jokers: 0), for games that count pips.
    pub const fn pips(self) -> u8 {
        match self {
            Rank::Ace => 1,
            Rank::Two => 2,
            Rank::BlackJoker | Rank::RedJoker => 0,
            r => r as u8 + 3,
        }
    }

    /// The rank's symbol in the notation: `3` … `9`, `T`, `J`, `Q`, `K`, `A`, `2`, `BJ`, `RJ`.
    pub const fn symbol(self) -> &'static str {
        match self {
            Rank::Three => "3",
            Rank::Four => "4",
            Rank::Five => "5",
            Rank::Six => "6",
            Rank::Seven => "7",
            Rank::Eight => "8",
            Rank::Nine => "9",
            Rank::Ten => "T",
            Rank::Jack => "J",
            Rank::Queen => "Q",
            Rank::King => "K",
            Rank::Ace => "A",
            Rank::Two => "2",
            Rank::BlackJoker => "BJ",
            Rank::RedJoker => "RJ",
        }
    }
}

impl std::fmt::Display for Rank {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.symbol())
    }
}

/// A suit, in Big Two order: ♦ < ♣ < ♥ < ♠.
///
/// Games that order suits differently (Ten and a half's tie-break, the five-player grab) say
/// so in their own crates; this order is only the discriminant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Suit {
    /// ♦ `d`, the lowest.
    Diamonds = 0,
    /// ♣ `c`.
    Clubs,
    /// ♥ `h`.
    Hearts,
    /// ♠ `s`, the highest.
    Spades,
}

impl Suit {
    /// The four suits, ascending ♦ ♣ ♥ ♠.
    pub const ALL: [Suit; 4] = [Suit::Diamonds, Suit::Clubs, Suit::Hearts, Suit::Spades];

    /// The letter in the notation: `d`, `c`, `h`, `s`.
    pub const fn letter(self) -> char {
        match self {
            Suit::Diamonds => 'd',
            Suit::Clubs => 'c',
            Suit::Hearts => 'h',
            Suit::Spades => 's',
        }
    }

    /// The symbol people read: `♦ ♣ ♥ ♠`.
    pub const fn symbol(self) -> char {
        match self {
            Suit::Diamonds => '♦',
            Suit::Clubs => '♣',
            Suit::Hearts => '♥',
            Suit::Spades => '♠',
        }
    }

    /// This suit's index 0..4 (♦ ♣ ♥ ♠).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
}

/// One card: a suited card or a joker, packed in a byte.
///
/// The byte is `rank * 4 + suit` for suited cards (0..52) and 52/53 for the black and red
/// jokers, so that sorting cards by their byte sorts them by rank, then suit ♦ ♣ ♥ ♠, jokers
/// last — the natural display order of every climbing game. The byte is also the card's bit
/// in a [`CardSet`](crate::CardSet).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The black (small) joker, `BJ`.
    pub const BLACK_JOKER: Card = Card(52);
    /// The red (big) joker, `RJ`.
    pub const RED_JOKER: Card = Card(53);

    /// A suited card. Jokers have no suit: use [`Card::BLACK_JOKER`] and [`Card::RED_JOKER`].
    ///
    /// # Panics
    /// If `rank` is a joker rank; that is a programming error, not bad input.
    #[inline]
    pub const fn suited(rank: Rank, suit: Suit) -> Card {
        assert!(!rank.is_joker(), "jokers have no suit");
        Card(rank as u8 * 4 + suit as u8)
    }

    /// The card of a rank with no suit given: a joker for the joker ranks, otherwise the
    /// diamond (lowest suit) of that rank. Used where suits do not matter.
    #[inline]
    pub const fn of_rank(rank: Rank) -> Card {
        match rank {
            Rank::BlackJoker => Card::BLACK_JOKER,
            Rank::RedJoker => Card::RED_JOKER,
            r => Card(r as u8 * 4),
        }
    }

    /// The card with byte `id` (0..54), if any.
    #[inline]
    pub const fn from_id(id: u8) -> Option<Card> {
        if id < 54 {
            Some(Card(id))
        } else {
            None
        }
    }

    /// This card's byte: `rank * 4 + suit`, or 52/53 for the jokers.
    #[inline]
    pub const fn id(self) -> u8 {
        self.0
    }

    /// The card's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        match self.0 {
            52 => Rank::BlackJoker,
            53 => Rank::RedJoker,
            b => Rank::ALL[(b / 4) as usize],
        }
    }

    /// The card's suit, `None` for a joker.
    #[inline]
    pub const fn suit(self) -> Option<Suit> {
        if self.0 >= 52 {
            None
        } else {
            Some(Suit::ALL[(self.0 % 4) as usize])
        }
    }

    /// Whether the card is a joker.
    #[inline]
    pub const fn is_joker(self) -> bool {
        self.0 >= 52
    }

    /// All 54 cards in ascending order (3♦ … 2♠, BJ, RJ).
    pub fn all() -> impl Iterator<Item = Card> + Clone {
        (0..54).map(Card)
    }

    /// The card written with a suit symbol for people: `T♥`, `BJ`.
    pub fn pretty(self) -> String {
        match self.suit() {
            Some(s) => format!("{}{}", self.rank(), s.symbol()),
            None => self.rank().symbol().to_string(),
        }
    }
}

impl std::fmt::Debug for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{self}")
    }
}

impl std::fmt::Display for Card {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.suit() {
            Some(s) => write!(f, "{}{}", self.rank(), s.letter()),
            None => f.write_str(self.rank().symbol()),
        }
    }
}

crate::serde_as_text!(Card);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn card_bytes_sort_by_rank_then_suit_jokers_last() {
        let all: Vec<Card> = Card::all().collect();
        assert_eq!(all.len(), 54);
        assert_eq!(all[0], Card::suited(Rank::Three, Suit::Diamonds));
        assert_eq!(all[51], Card::suited(Rank::Two, Suit::Spades));
        assert_eq!(all[52], Card::BLACK_JOKER);
        assert_eq!(all[53], Card::RED_JOKER);
        for c in all {
            assert_eq!(Card::from_id(c.id()), Some(c));
            if let Some(s) = c.suit() {
                assert_eq!(Card::suited(c.rank(), s), c);
            }
        }
    }

    #[test]
    fn pips_count_ace_as_one() {
        assert_eq!(Rank::Ace.pips(), 1);
        assert_eq!(Rank::Three.pips(), 3);
        assert_eq!(Rank::King.pips(), 13);
        assert_eq!(Rank::Two.pips(), 2);
    }
}
