//! Rank-count hands packed into one `u64`.

use crate::{format_ranks, parse_ranks, Card, ParseError, Rank};

const LOW_NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
const GUARDS: u64 = 0x1010_1010_1010_1010;
const USED: u64 = (1 << 60) - 1;

/// How many cards of each rank a hand (or play, or pile) holds: 4 bits per rank, 15 ranks.
///
/// Where suits do not matter — every play of Dou Dizhu, the plays of the five-player game —
/// a hand *is* its rank counts, and packing them in a `u64` makes the operations a move
/// generator lives on cost a handful of instructions: adding and removing plays is integer
/// addition and subtraction, "does the hand hold this play" is [`RankCounts::contains`], and
/// equal hands are equal integers (good hash keys). Four bits hold up to 15 copies, enough
/// for three decks (12 of a suited rank).
///
/// Rank `r` lives in bits `4r..4r+4`; bits 60..64 are always zero.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct RankCounts(u64);

impl RankCounts {
    /// No cards.
    pub const EMPTY: RankCounts = RankCounts(0);

    /// The counts whose packed form is `raw`; bits above the 15 nibbles are dropped.
    #[inline]
    pub const fn from_raw(raw: u64) -> RankCounts {
        RankCounts(raw & USED)
    }

    /// The packed form: nibble `r` holds the count of rank index `r`.
    #[inline]
    pub const fn raw(self) -> u64 {
        self.0
    }

    /// Counts of a list of ranks.
    pub fn from_ranks(ranks: impl IntoIterator<Item = Rank>) -> RankCounts {
        let mut rc = RankCounts::EMPTY;
        for r in ranks {
            rc.add(r, 1);
        }
        rc
    }

    /// Counts of the ranks of a list of cards (suits are forgotten).
    pub fn from_cards<'a>(cards: impl IntoIterator<Item = &'a Card>) -> RankCounts {
        RankCounts::from_ranks(cards.into_iter().map(|c| c.rank()))
    }

    /// `n` cards of one rank.
    #[inline]
    pub const fn of(rank: Rank, n: u32) -> RankCounts {
        RankCounts((n as u64) << (4 * rank as u32))
    }

    /// How many cards of `rank`.
    #[inline]
    pub const fn count(self, rank: Rank) -> u32 {
        ((self.0 >> (4 * rank as u32)) & 0xF) as u32
    }

    /// How many cards of the rank with index `i` (0 = Three).
    #[inline]
    pub const fn count_at(self, i: usize) -> u32 {
        ((self.0 >> (4 * i)) & 0xF) as u32
    }

    /// Adds `n` cards of `rank`. The caller keeps each count at 15 or below.
    #[inline]
    pub fn add(&mut self, rank: Rank, n: u32) {
        debug_assert!(self.count(rank) + n <= 15, "rank count overflow");
        self.0 += (n as u64) << (4 * rank as u32);
    }

    /// Removes `n` cards of `rank`. The caller makes sure they are there.
    #[inline]
    pub fn remove(&mut self, rank: Rank, n: u32) {
        debug_assert!(self.count(rank) >= n, "rank count underflow");
        self.0 -= (n as u64) << (4 * rank as u32);
    }

    /// Total number of cards.
    #[inline]
    pub const fn len(self) -> u32 {
        // Pairs of nibbles into bytes, then a multiply sums the bytes into the top byte.
        let bytes = (self.0 & LOW_NIBBLES) + ((self.0 >> 4) & LOW_NIBBLES);
        (bytes.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32
    }

    /// Whether there are no cards.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether every rank of `other` is here at least as often: "the hand holds this play".
    ///
    /// Branch-free: even and odd nibbles are spread into bytes with a guard bit each, so a
    /// byte-wise subtraction shows a borrow exactly where `other` has more.
    #[inline]
    pub const fn contains(self, other: RankCounts) -> bool {
        let (a, b) = (self.0, other.0);
        let even = ((a & LOW_NIBBLES) | GUARDS) - (b & LOW_NIBBLES);
        let odd = (((a >> 4) & LOW_NIBBLES) | GUARDS) - ((b >> 4) & LOW_NIBBLES);
        (even & odd & GUARDS) == GUARDS
    }

    /// These counts with `other` taken away; `None` if `other` is not contained.
    #[inline]
    pub const fn checked_minus(self, other: RankCounts) -> Option<RankCounts> {
        if self.contains(other) {
            Some(RankCounts(self.0 - other.0))
        } else {
            None
        }
    }

    /// These counts with `other` taken away. The caller knows `self.contains(other)`.
    #[inline]
    pub const fn minus(self, other: RankCounts) -> RankCounts {
        debug_assert!(self.contains(other));
        RankCounts(self.0 - other.0)
    }

    /// These counts and `other` together. The caller keeps each count at 15 or below.
    #[inline]
    pub const fn plus(self, other: RankCounts) -> RankCounts {
        RankCounts(self.0 + other.0)
    }

    /// A bit per rank (bit `r` for rank index `r`) set where the count is at least `n` (1..=4):
    /// the starting point of chain searches ("which ranks hold a pair?").
    #[inline]
    pub fn at_least(self, n: u32) -> u16 {
        let mut bits = 0u16;
        let mut x = self.0;
        let mut i = 0;
        while x != 0 {
            if (x & 0xF) as u32 >= n {
                bits |= 1 << i;
            }
            x >>= 4;
            i += 1;
        }
        bits
    }

    /// The ranks present with their counts, ascending.
    pub fn iter(self) -> impl Iterator<Item = (Rank, u32)> {
        Rank::ALL
            .into_iter()
            .map(move |r| (r, self.count(r)))
            .filter(|&(_, n)| n > 0)
    }

    /// Every card's rank, ascending, each repeated by its count.
    pub fn ranks(self) -> impl Iterator<Item = Rank> {
        self.iter()
            .flat_map(|(r, n)| std::iter::repeat_n(r, n as usize))
    }

    /// The highest rank present, if any.
    #[inline]
    pub fn highest(self) -> Option<Rank> {
        if self.0 == 0 {
            None
        } else {
            Rank::from_index((63 - self.0.leading_zeros() as usize) / 4)
        }
    }

    /// The lowest rank present, if any.
    #[inline]
    pub fn lowest(self) -> Option<Rank> {
        if self.0 == 0 {
            None
        } else {
            Rank::from_index(self.0.trailing_zeros() as usize / 4)
        }
    }
}

impl std::fmt::Display for RankCounts {
    /// The rank-only notation, ascending: `3 3 4 BJ`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ranks: Vec<Rank> = self.ranks().collect();
        f.write_str(&format_ranks(&ranks))
    }
}

impl std::fmt::Debug for RankCounts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "RankCounts[{self}]")
    }
}

impl std::str::FromStr for RankCounts {
    type Err = ParseError;

    /// Reads the rank-only notation. Counts above 15 of one rank are refused as too many for
    /// any deck; whether the game's deck holds them is [`Deck::check_ranks`](crate::Deck).
    fn from_str(s: &str) -> Result<RankCounts, ParseError> {
        let ranks = parse_ranks(s)?;
        let mut rc = RankCounts::EMPTY;
        for r in ranks {
            if rc.count(r) == 15 {
                return Err(ParseError::TooMany {
                    count: "sixteen".into(),
                    card: r.to_string(),
                    decks: "three-deck".into(),
                });
            }
            rc.add(r, 1);
        }
        Ok(rc)
    }
}

crate::serde_as_text!(RankCounts);

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn naive_contains(a: RankCounts, b: RankCounts) -> bool {
        Rank::ALL.iter().all(|&r| a.count(r) >= b.count(r))
    }

    fn counts() -> impl Strategy<Value = RankCounts> {
        proptest::collection::vec(0u64..=12, 15).prop_map(|v| {
            RankCounts::from_raw(v.iter().enumerate().map(|(i, &n)| n << (4 * i)).sum())
        })
    }

    proptest! {
        #[test]
        fn contains_agrees_with_a_rank_by_rank_check(a in counts(), b in counts()) {
            prop_assert_eq!(a.contains(b), naive_contains(a, b));
            if a.contains(b) {
                prop_assert_eq!(a.minus(b).plus(b), a);
                prop_assert_eq!(a.minus(b).len() + b.len(), a.len());
            }
        }

        #[test]
        fn len_is_the_sum_of_counts(a in counts()) {
            prop_assert_eq!(a.len(), Rank::ALL.iter().map(|&r| a.count(r)).sum::<u32>());
        }

        #[test]
        fn notation_round_trips(a in counts()) {
            prop_assert_eq!(a.to_string().parse::<RankCounts>().unwrap(), a);
        }
    }

    #[test]
    fn highest_lowest_and_at_least() {
        let rc: RankCounts = "3 3 5 5 5 A RJ".parse().unwrap();
        assert_eq!(rc.lowest(), Some(Rank::Three));
        assert_eq!(rc.highest(), Some(Rank::RedJoker));
        assert_eq!(rc.at_least(2), 0b101);
        assert_eq!(rc.at_least(3), 0b100);
        assert_eq!(rc.to_string(), "3 3 5 5 5 A RJ");
        assert_eq!(rc.len(), 7);
    }
}
