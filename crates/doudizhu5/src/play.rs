//! What a set of cards is as a play, and which play beats which.
//!
//! Plays are rank multisets ([`RankCounts`]): suits never matter to what a play is. Each
//! play carries a comparison key within its kind and length, so that "beats" is one integer
//! comparison on the hot path.

use crate::window::{window_of, Window};
use cards::{Rank, RankCounts};
use serde::{Deserialize, Serialize};

/// The kinds of play of the Rudong game (the original rules, §3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// 单张: one card.
    Solo,
    /// 对子: two of a rank, or two BJ, or two RJ.
    Pair,
    /// 三张: three of a suited rank.
    Trio,
    /// 三带二: a trio and a pair of another rank.
    TrioPair,
    /// 顺子: five or more consecutive single ranks.
    Straight,
    /// 连对: three or more consecutive pairs.
    PairChain,
    /// 三顺: two or more consecutive trios (AAA222 alone excepted).
    TrioChain,
    /// 飞机带翅膀: n consecutive trios and n consecutive pairs.
    Plane,
    /// 炸弹: four to twelve of a rank.
    Bomb,
    /// 天王炸: three BJ, three RJ, or four to six jokers.
    JokerBomb,
}

impl Kind {
    /// Every kind, in the order move generation lists them.
    pub const ALL: [Kind; 10] = [
        Kind::Solo,
        Kind::Pair,
        Kind::Trio,
        Kind::TrioPair,
        Kind::Straight,
        Kind::PairChain,
        Kind::TrioChain,
        Kind::Plane,
        Kind::Bomb,
        Kind::JokerBomb,
    ];

    /// The kind's name in the judge and in JSON: `trio_pair`, `joker_bomb`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Solo => "solo",
            Kind::Pair => "pair",
            Kind::Trio => "trio",
            Kind::TrioPair => "trio_pair",
            Kind::Straight => "straight",
            Kind::PairChain => "pair_chain",
            Kind::TrioChain => "trio_chain",
            Kind::Plane => "plane",
            Kind::Bomb => "bomb",
            Kind::JokerBomb => "joker_bomb",
        }
    }

    /// The kind as players say it, for the table and its log: `a trio with a pair`,
    /// `a plane with wings`. The words of docs/rules/doudizhu5.md, never the judge's names.
    pub fn words(self) -> &'static str {
        match self {
            Kind::Solo => "a single",
            Kind::Pair => "a pair",
            Kind::Trio => "a trio",
            Kind::TrioPair => "a trio with a pair",
            Kind::Straight => "a straight",
            Kind::PairChain => "a pair chain",
            Kind::TrioChain => "a trio chain",
            Kind::Plane => "a plane with wings",
            Kind::Bomb => "a bomb",
            Kind::JokerBomb => "a joker bomb",
        }
    }

    /// Whether plays of this kind beat every play of another kind.
    #[inline]
    pub fn is_bomb(self) -> bool {
        matches!(self, Kind::Bomb | Kind::JokerBomb)
    }

    /// The kind's bit in a [`KindSet`].
    #[inline]
    pub fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// A set of kinds, as a bit mask: what a pruned generator should produce.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindSet(pub u16);

impl KindSet {
    /// Every kind.
    pub const ALL: KindSet = KindSet(0x3FF);
    /// The two bomb kinds.
    pub const BOMBS: KindSet = KindSet(1 << Kind::Bomb as u16 | 1 << Kind::JokerBomb as u16);

    /// Whether `kind` is in the set.
    #[inline]
    pub fn contains(self, kind: Kind) -> bool {
        self.0 & kind.bit() != 0
    }

    /// The set without the bomb kinds.
    #[inline]
    pub fn without_bombs(self) -> KindSet {
        KindSet(self.0 & !KindSet::BOMBS.0)
    }
}

/// A classified play: its cards, kind, length and comparison key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Play {
    /// The cards, by rank.
    pub cards: RankCounts,
    /// What kind of play.
    pub kind: Kind,
    /// The rank that names the play: the rank of a solo/pair/trio/bomb, the trio of a
    /// trio_pair, the lowest rank of a chain or plane (a low A is `A`), the highest joker of
    /// a joker bomb.
    pub rank: Rank,
    /// Chains and planes: the number of links (trios of a plane); bombs and joker bombs:
    /// the number of cards; otherwise 1.
    pub len: u8,
    /// Orders plays of one kind and length (and all bombs among themselves).
    pub key: u32,
}

/// The joker bomb's tier between four- and five-card bombs (seed: 2222 < 天王炸 < 33333).
const JOKER_TIER: u32 = 9;

/// The comparison key of a bomb of `n` cards of `rank`: more cards first, then rank; joker
/// bombs sit between the four- and five-card bombs.
#[inline]
fn bomb_key(n: u32, rank: Rank) -> u32 {
    (2 * n) << 8 | rank.index() as u32
}

/// The comparison key of a joker bomb: more jokers first, then more RJ.
#[inline]
fn joker_bomb_key(black: u32, red: u32) -> u32 {
    JOKER_TIER << 8 | (black + red) << 4 | red
}

/// The key of a plane whose trios stand in `w`: two-trio planes order AAA222 < 333444 < …
/// < KKKAAA < 222333 (the original rules), longer ones by their window.
#[inline]
pub(crate) fn plane_key(w: Window) -> u32 {
    if w.len == 2 && w.start == 1 {
        u32::from(crate::window::POSITIONS as u8)
    } else {
        u32::from(w.start)
    }
}

impl Play {
    pub(crate) fn of_rank(cards: RankCounts, kind: Kind, rank: Rank) -> Play {
        Play {
            cards,
            kind,
            rank,
            len: 1,
            key: rank.index() as u32,
        }
    }

    pub(crate) fn chain(cards: RankCounts, kind: Kind, w: Window) -> Play {
        Play {
            cards,
            kind,
            rank: w.lowest_rank(),
            len: w.len,
            key: u32::from(w.start),
        }
    }

    pub(crate) fn plane(cards: RankCounts, trios: Window) -> Play {
        Play {
            cards,
            kind: Kind::Plane,
            rank: trios.lowest_rank(),
            len: trios.len,
            key: plane_key(trios),
        }
    }

    pub(crate) fn bomb(rank: Rank, n: u32) -> Play {
        Play {
            cards: RankCounts::of(rank, n),
            kind: Kind::Bomb,
            rank,
            len: n as u8,
            key: bomb_key(n, rank),
        }
    }

    pub(crate) fn joker_bomb(black: u32, red: u32) -> Play {
        Play {
            cards: RankCounts::of(Rank::BlackJoker, black)
                .plus(RankCounts::of(Rank::RedJoker, red)),
            kind: Kind::JokerBomb,
            rank: if red > 0 {
                Rank::RedJoker
            } else {
                Rank::BlackJoker
            },
            len: (black + red) as u8,
            key: joker_bomb_key(black, red),
        }
    }

    /// Whether this play may be laid on `last`: any bomb beats any non-bomb, bombs compare
    /// among themselves, and other plays need the same kind and length and a higher key.
    #[inline]
    pub fn beats(&self, last: &Play) -> bool {
        match (self.kind.is_bomb(), last.kind.is_bomb()) {
            (true, false) => true,
            (false, true) => false,
            (true, true) => self.key > last.key,
            (false, false) => self.kind == last.kind && self.len == last.len && self.key > last.key,
        }
    }

    /// What `cards` is as a play, or `None` if it is no play.
    pub fn classify(cards: RankCounts) -> Option<Play> {
        let black = cards.count(Rank::BlackJoker);
        let red = cards.count(Rank::RedJoker);
        let jokers = black + red;
        let total = cards.len();
        if total == 0 {
            return None;
        }
        if jokers == total {
            return match (black, red) {
                (1, 0) | (0, 1) | (2, 0) | (0, 2) => {
                    let rank = if red > 0 {
                        Rank::RedJoker
                    } else {
                        Rank::BlackJoker
                    };
                    let kind = if total == 1 { Kind::Solo } else { Kind::Pair };
                    Some(Play::of_rank(cards, kind, rank))
                }
                (3, 0) | (0, 3) => Some(Play::joker_bomb(black, red)),
                _ if jokers >= 4 => Some(Play::joker_bomb(black, red)),
                _ => None,
            };
        }
        // Masks of ranks by count.
        let mut by_count = [0u16; 16];
        for (r, n) in cards.iter() {
            by_count[n as usize] |= 1 << r.index();
        }
        let present = cards.at_least(1);
        if present.count_ones() == 1 {
            let rank = cards.lowest()?;
            return match total {
                1 => Some(Play::of_rank(cards, Kind::Solo, rank)),
                2 => Some(Play::of_rank(cards, Kind::Pair, rank)),
                3 => Some(Play::of_rank(cards, Kind::Trio, rank)),
                n => Some(Play::bomb(rank, n)),
            };
        }
        let joker_bits: u16 = 1 << Rank::BlackJoker.index() | 1 << Rank::RedJoker.index();
        if jokers == 0 {
            for (count, kind, min) in [
                (1, Kind::Straight, 5),
                (2, Kind::PairChain, 3),
                (3, Kind::TrioChain, 2),
            ] {
                if by_count[count] == present {
                    let w = window_of(present, min)?;
                    if kind == Kind::TrioChain && w.start == 0 && w.len == 2 {
                        return None;
                    }
                    return Some(Play::chain(cards, kind, w));
                }
            }
        }
        let trios = by_count[3];
        let pairs = by_count[2];
        if trios | pairs != present || trios & joker_bits != 0 {
            return None;
        }
        let n_trios = trios.count_ones();
        if n_trios == 1 && pairs.count_ones() == 1 {
            let rank = Rank::from_index(trios.trailing_zeros() as usize)?;
            return Some(Play::of_rank(cards, Kind::TrioPair, rank));
        }
        if n_trios >= 2 && pairs.count_ones() == n_trios {
            let tw = window_of(trios, 2)?;
            let wings_ok = if pairs == joker_bits {
                n_trios == 2
            } else {
                pairs & joker_bits == 0
                    && window_of(pairs & !joker_bits, 2).is_some_and(|pw| {
                        pw.len as u32 == n_trios && !(pw.start == 0 && pw.len == 2)
                    })
            };
            return wings_ok.then(|| Play::plane(cards, tw));
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(s: &str) -> Option<Play> {
        Play::classify(s.parse().unwrap())
    }

    #[test]
    fn kinds_of_simple_plays() {
        assert_eq!(play("3 3 3 4 4").unwrap().kind, Kind::TrioPair);
        assert_eq!(play("3 3 3 4 4").unwrap().rank, Rank::Three);
        assert_eq!(play("4 4 3 3 3").unwrap().rank, Rank::Three);
        assert_eq!(play("BJ BJ").unwrap().kind, Kind::Pair);
        assert_eq!(play("BJ RJ"), None);
        assert_eq!(play("BJ BJ RJ"), None);
        assert_eq!(play("5 5 5 BJ BJ").unwrap().kind, Kind::TrioPair);
        assert_eq!(play("5 5 5 5 5").unwrap().kind, Kind::Bomb);
    }
}
