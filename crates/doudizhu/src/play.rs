//! What a set of cards is as a play, and what beats what (the original rules' appendix, a
//! network Dou Dizhu's, as docs/rules/doudizhu.md gives them).
//!
//! A play is a rank multiset of the standard 27,472-move Dou Dizhu action space (RLCard,
//! PettingZoo `dou_dizhu`; 27,471 plays plus the pass), as docs/rules/doudizhu.md decides.
//! [`Play::classify`] reads the shape from the rank counts alone, so suits never matter and a
//! play is as cheap to keep as an integer.

use cards::{ParseError, Rank, RankCounts};
use std::fmt;
use std::str::FromStr;

/// The kinds of play (牌型), as docs/rules/doudizhu.md lists them.
///
/// The derived order is the table's order; it carries no meaning for who beats whom, which
/// is [`Play::beats`]'s question.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// One card (单牌); a joker may be played alone.
    Solo,
    /// Two cards of a rank (对牌); jokers are not a pair.
    Pair,
    /// Three cards of a rank (三张).
    Trio,
    /// A trio and one card of another rank (三带一).
    TrioSolo,
    /// A trio and a pair of another rank (三带一对).
    TrioPair,
    /// 5–12 consecutive ranks from 3 to A (单顺).
    SoloChain,
    /// 3–10 consecutive pairs from 3 to A (双顺).
    PairChain,
    /// 2–6 consecutive trios from 3 to A (三顺).
    TrioChain,
    /// A trio chain with one kicker card per trio (飞机带单翅膀).
    PlaneSolo,
    /// A trio chain with one kicker pair per trio (飞机带对翅膀).
    PlanePair,
    /// Four of a rank with two kicker cards (四带二).
    FourTwoSolo,
    /// Four of a rank with two kicker pairs (四带两对).
    FourTwoPair,
    /// Four of a rank (炸弹): beats every non-bomb.
    Bomb,
    /// Both jokers (火箭): beats everything.
    Rocket,
}

impl Kind {
    /// Every kind, in the table's order.
    pub const ALL: [Kind; 14] = [
        Kind::Solo,
        Kind::Pair,
        Kind::Trio,
        Kind::TrioSolo,
        Kind::TrioPair,
        Kind::SoloChain,
        Kind::PairChain,
        Kind::TrioChain,
        Kind::PlaneSolo,
        Kind::PlanePair,
        Kind::FourTwoSolo,
        Kind::FourTwoPair,
        Kind::Bomb,
        Kind::Rocket,
    ];

    /// The kind's name in the rules and in judge answers, e.g. `"trio_solo"`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Solo => "solo",
            Kind::Pair => "pair",
            Kind::Trio => "trio",
            Kind::TrioSolo => "trio_solo",
            Kind::TrioPair => "trio_pair",
            Kind::SoloChain => "solo_chain",
            Kind::PairChain => "pair_chain",
            Kind::TrioChain => "trio_chain",
            Kind::PlaneSolo => "plane_solo",
            Kind::PlanePair => "plane_pair",
            Kind::FourTwoSolo => "four_two_solo",
            Kind::FourTwoPair => "four_two_pair",
            Kind::Bomb => "bomb",
            Kind::Rocket => "rocket",
        }
    }

    /// The kind as players say it, for the table and its log: `a trio with a single`,
    /// `a plane with pairs`. The words of docs/rules/doudizhu.md, never the judge's names.
    pub fn words(self) -> &'static str {
        match self {
            Kind::Solo => "a single",
            Kind::Pair => "a pair",
            Kind::Trio => "a trio",
            Kind::TrioSolo => "a trio with a single",
            Kind::TrioPair => "a trio with a pair",
            Kind::SoloChain => "a straight",
            Kind::PairChain => "a pair chain",
            Kind::TrioChain => "a trio chain",
            Kind::PlaneSolo => "a plane with singles",
            Kind::PlanePair => "a plane with pairs",
            Kind::FourTwoSolo => "four with two singles",
            Kind::FourTwoPair => "four with two pairs",
            Kind::Bomb => "a bomb",
            Kind::Rocket => "the rocket",
        }
    }

    /// The kind called `name` (as [`Kind::name`] writes it), if any.
    pub fn from_name(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| k.name() == name)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A legal play: its cards plus its kind, main rank and length, worked out once.
///
/// Sixteen bytes and `Copy`, so move lists are flat arrays that bots can copy freely. Two
/// plays are equal exactly when their cards are, since a multiset has at most one kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Play {
    cards: RankCounts,
    kind: Kind,
    /// The main rank's index (0 = 3 … 14 = RJ), kept as a byte so that the generator
    /// stores a bit position without a conversion.
    rank: u8,
    len: u8,
}

/// Why text is not a play.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    /// The text is not cards in the rank-only notation.
    #[error(transparent)]
    Cards(#[from] ParseError),
    /// The text names no cards at all.
    #[error("no cards named: write the ranks to play, e.g. 3 3")]
    Empty,
    /// Cards that form none of the kinds of play, e.g. `3 4`.
    #[error("{0} is not a play")]
    NotAPlay(RankCounts),
}

/// The ranks a chain may use: 3 to A (bits 0..12), never 2 or the jokers.
pub(crate) const CHAIN_RANKS: u16 = 0x0FFF;
/// The thirteen suited ranks (bits 0..13): the ranks that can make pairs and more.
pub(crate) const SUITED_RANKS: u16 = 0x1FFF;
/// The two jokers (bits 13 and 14): solos, or together the rocket.
pub(crate) const JOKER_RANKS: u16 = 0x6000;
/// Nibble `r` set to 1 for every rank: multiplied, gives "n of each rank".
const ONE_EACH: u64 = 0x1111_1111_1111_1111;

/// One bit per rank from a word holding one flag bit at the bottom of each nibble.
#[inline]
fn gather_nibbles(x: u64) -> u16 {
    let x = x & ONE_EACH;
    let x = (x | (x >> 3)) & 0x0303_0303_0303_0303;
    let x = (x | (x >> 6)) & 0x000F_000F_000F_000F;
    let x = (x | (x >> 12)) & 0x0000_00FF_0000_00FF;
    ((x | (x >> 24)) & 0xFFFF) as u16
}

/// The rank masks of a multiset, the starting point of classification and generation.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Masks {
    /// Bit `4r + n - 1` is set when rank `r` has at least `n` cards (n = 1..=4): one bit
    /// per solo, pair, trio and bomb the cards hold, in the nibble layout of the counts.
    pub(crate) groups: u64,
    /// Bit `r` of `at_least[n]` is set when rank `r` has at least `n` cards (n = 1..=4;
    /// `at_least[0]` has every bit set).
    pub(crate) at_least: [u16; 5],
    /// Ranks holding more than four cards: never part of a one-deck hand or play.
    pub(crate) over_four: u16,
}

impl Masks {
    /// The masks of `cards`, branch-free (a few shifts per mask).
    #[inline]
    pub(crate) fn of(cards: RankCounts) -> Masks {
        let raw = cards.raw();
        let b0 = raw & ONE_EACH;
        let b1 = (raw >> 1) & ONE_EACH;
        let b2 = (raw >> 2) & ONE_EACH;
        let b3 = (raw >> 3) & ONE_EACH;
        let at_least = [
            ONE_EACH,
            b0 | b1 | b2 | b3,
            b1 | b2 | b3,
            (b0 & b1) | b2 | b3,
            b2 | b3,
        ];
        Masks {
            groups: at_least[1] | at_least[2] << 1 | at_least[3] << 2 | at_least[4] << 3,
            at_least: at_least.map(gather_nibbles),
            over_four: gather_nibbles((b2 & (b0 | b1)) | b3),
        }
    }

    /// Ranks with exactly `n` cards (n = 1..=3).
    #[inline]
    fn exactly(&self, n: usize) -> u16 {
        self.at_least[n] & !self.at_least[n + 1]
    }
}

/// `n` copies of each of `len` consecutive ranks starting at rank index `low`.
#[inline]
pub(crate) const fn run_cards(low: u32, len: u32, n: u64) -> RankCounts {
    let nibbles = ONE_EACH & ((1u64 << (4 * len)) - 1);
    RankCounts::from_raw((nibbles * n) << (4 * low))
}

/// The lowest rank and length of `mask` if its bits are one run of consecutive chain ranks.
#[inline]
fn chain_run(mask: u16) -> Option<(u32, u32)> {
    if mask == 0 || mask & !CHAIN_RANKS != 0 {
        return None;
    }
    let low = mask.trailing_zeros();
    let run = mask >> low;
    (run & (run + 1) == 0).then_some((low, run.count_ones()))
}

impl Play {
    /// A play the caller has already classified (the move generator, which builds plays
    /// by their shape). Debug builds check it against [`Play::classify`].
    #[inline]
    pub(crate) fn new(cards: RankCounts, kind: Kind, rank: u32, len: u32) -> Play {
        let play = Play::from_parts(cards, kind, rank, len);
        debug_assert_eq!(Play::classify(cards), Some(play), "{cards} misbuilt");
        play
    }

    /// [`Play::new`] without the check, for tables built at compile time (which the
    /// tests compare with [`Play::classify`] entry by entry).
    #[inline]
    pub(crate) const fn from_parts(cards: RankCounts, kind: Kind, rank: u32, len: u32) -> Play {
        Play {
            cards,
            kind,
            rank: rank as u8,
            len: len as u8,
        }
    }

    /// The play these cards make, or `None` if the multiset is not one of the 27,471 plays.
    ///
    /// Reads the shape from the rank masks: which ranks hold exactly one, two, three or four
    /// cards. The kinds never overlap, so at most one shape matches.
    pub fn classify(cards: RankCounts) -> Option<Play> {
        let m = Masks::of(cards);
        if cards.is_empty() || m.over_four != 0 || m.at_least[2] & JOKER_RANKS != 0 {
            return None;
        }
        let n = cards.len();
        let (ones, pairs, trios, fours) = (m.exactly(1), m.exactly(2), m.exactly(3), m.at_least[4]);
        let make =
            |kind, rank: u16, len| Some(Play::from_parts(cards, kind, rank.trailing_zeros(), len));
        if fours != 0 {
            if !fours.is_power_of_two() {
                return None;
            }
            return match n {
                4 => make(Kind::Bomb, fours, 1),
                6 if ones != JOKER_RANKS => make(Kind::FourTwoSolo, fours, 1),
                8 if ones == 0 && trios == 0 && pairs.count_ones() == 2 => {
                    make(Kind::FourTwoPair, fours, 1)
                }
                _ => None,
            };
        }
        match (n, ones.count_ones(), pairs.count_ones(), trios.count_ones()) {
            (1, ..) => return make(Kind::Solo, ones, 1),
            (2, 0, 1, 0) => return make(Kind::Pair, pairs, 1),
            (2, 2, 0, 0) if ones == JOKER_RANKS => return make(Kind::Rocket, ones << 1, 1),
            (3, 0, 0, 1) => return make(Kind::Trio, trios, 1),
            (4, 1, 0, 1) => return make(Kind::TrioSolo, trios, 1),
            (5, 0, 1, 1) => return make(Kind::TrioPair, trios, 1),
            _ => {}
        }
        let chain = |mask: u16, min: u32, max: u32, kind| match chain_run(mask) {
            Some((low, len)) if (min..=max).contains(&len) => make(kind, 1 << low, len),
            _ => None,
        };
        match (ones != 0, pairs != 0, trios != 0) {
            (true, false, false) => return chain(ones, 5, 12, Kind::SoloChain),
            (false, true, false) => return chain(pairs, 3, 10, Kind::PairChain),
            (false, false, true) => {
                if let Some(play) = chain(trios, 2, 6, Kind::TrioChain) {
                    return Some(play);
                }
            }
            _ => {}
        }
        if n.is_multiple_of(5) && ones == 0 && pairs.count_ones() == n / 5 {
            return chain(trios, 2, 4, Kind::PlanePair);
        }
        if n.is_multiple_of(4) {
            return Play::plane_solo(cards, trios, ones, n / 4);
        }
        None
    }

    /// The plane with kicker cards among multisets of `4 * k` cards and no four alike.
    ///
    /// The plane is `k` consecutive trios from 3 to A; the `k` kickers are any other cards
    /// but both jokers. A kicker trio next to the plane would make a longer trio chain, so
    /// the plane must be a maximal run of trios; a kicker trio of 2s may follow a plane
    /// ending in A, since 2 never chains. These constraints give the standard 21,822.
    fn plane_solo(cards: RankCounts, trios: u16, ones: u16, k: u32) -> Option<Play> {
        if !(2..=5).contains(&k) || ones & JOKER_RANKS == JOKER_RANKS {
            return None;
        }
        let mut rest = trios & CHAIN_RANKS;
        while rest != 0 {
            let low = rest.trailing_zeros();
            let len = (!(rest >> low)).trailing_zeros();
            if len == k {
                return Some(Play::from_parts(cards, Kind::PlaneSolo, low, k));
            }
            rest &= !(((1u16 << len) - 1) << low);
        }
        None
    }

    /// The cards of the play, as rank counts.
    #[inline]
    pub fn cards(self) -> RankCounts {
        self.cards
    }

    /// The play's kind.
    #[inline]
    pub fn kind(self) -> Kind {
        self.kind
    }

    /// The rank plays of one kind and length compare by: a chain's or plane's lowest rank,
    /// the trio's or four's rank when there are kickers, `RJ` for the rocket, and otherwise
    /// the rank itself.
    #[inline]
    pub fn rank(self) -> Rank {
        // Always below 15: every constructor takes it from a bit of a 15-rank mask.
        Rank::ALL[usize::from(self.rank)]
    }

    /// The number of consecutive ranks in a chain or plane; 1 for every other kind.
    #[inline]
    #[allow(
        clippy::len_without_is_empty,
        reason = "the chain length, not a count of cards: a play is never empty"
    )]
    pub fn len(self) -> u8 {
        self.len
    }

    /// The number of cards played.
    #[inline]
    pub fn size(self) -> u32 {
        self.cards.len()
    }

    /// Whether this is a bomb or the rocket: the plays that double the score when they
    /// beat another play.
    #[inline]
    pub fn is_bomb(self) -> bool {
        matches!(self.kind, Kind::Bomb | Kind::Rocket)
    }

    /// Whether this play may follow `last` (appendix B): the rocket beats everything (there
    /// is one rocket, so nothing beats it); a bomb beats every non-bomb and any lower bomb;
    /// any other play beats only a play of its own kind and length (hence the same number
    /// of cards) with a lower main rank.
    #[inline]
    pub fn beats(self, last: Play) -> bool {
        match (self.kind, last.kind) {
            (_, Kind::Rocket) => false,
            (Kind::Rocket, _) => true,
            (Kind::Bomb, Kind::Bomb) => self.rank > last.rank,
            (Kind::Bomb, _) => true,
            (_, Kind::Bomb) => false,
            (a, b) => a == b && self.len == last.len && self.rank > last.rank,
        }
    }
}

impl fmt::Debug for Play {
    /// The cards and what they are: `Play(3 3 3 4: trio_solo of 3)`, chains with their
    /// length: `Play(3 4 5 6 7: solo_chain of 5 from 3)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Play({}: {}", self.cards, self.kind)?;
        match self.len {
            1 => write!(f, " of {})", self.rank()),
            len => write!(f, " of {len} from {})", self.rank()),
        }
    }
}

impl fmt::Display for Play {
    /// The rank-only notation, ascending: `3 3 3 4`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.cards, f)
    }
}

impl FromStr for Play {
    type Err = PlayError;

    /// Reads ranks in any order (`4 3 3 3`, `3334`) and classifies them.
    fn from_str(text: &str) -> Result<Play, PlayError> {
        let cards: RankCounts = text.parse()?;
        if cards.is_empty() {
            return Err(PlayError::Empty);
        }
        Play::classify(cards).ok_or(PlayError::NotAPlay(cards))
    }
}

cards::serde_as_text!(Play);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_count_every_nibble_value() {
        for n in 0..16u64 {
            let m = Masks::of(RankCounts::from_raw(n << 20));
            for (k, mask) in m.at_least.iter().enumerate().skip(1) {
                assert_eq!(*mask == 1 << 5, n >= k as u64, "count {n}, at least {k}");
            }
            assert_eq!(m.over_four == 1 << 5, n > 4);
        }
    }

    #[test]
    fn play_fits_in_sixteen_bytes() {
        assert!(std::mem::size_of::<Play>() <= 16);
    }
}
