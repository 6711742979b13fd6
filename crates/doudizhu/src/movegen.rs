//! Every legal play of a hand, fast: the hot path of bots and self-play.
//!
//! The generator builds plays by their shape straight from the hand's rank masks (which
//! ranks hold at least one, two, three, four cards), so it never looks at a play the hand
//! cannot make: a chain is a run of set bits, a kicker choice is a small multiset
//! enumeration over the ranks left. Following a play only builds plays of its kind and
//! length above its rank, plus bombs and the rocket. Nothing is allocated but `out`'s
//! growth, and every play comes out once.

use crate::play::{run_cards, Kind, Masks, Play, CHAIN_RANKS, SUITED_RANKS};
use cards::{Rank, RankCounts};

/// The black and red jokers' bits in a rank mask.
const BJ: u16 = 1 << 13;
const RJ: u16 = 1 << 14;

/// Appends every play `hand` can make: all plays it holds when leading (`last == None`), or
/// every play that beats `last` when following (bombs and the rocket included).
///
/// Never appends a pass (the caller offers it when following) and never the same play twice.
/// `hand` is a hand from one 54-card deck; a rank with more than four cards is read as four
/// and a joker held twice as once, so odd input still gives only plays of the space.
pub fn legal_plays(hand: RankCounts, last: Option<Play>, out: &mut Vec<Play>) {
    let gen = Gen::new(hand);
    match last {
        None => gen.lead(out),
        Some(last) => gen.follow(last, out),
    }
}

/// The whole play space: the 27,471 plays of the standard action space, each once, in the
/// order of [`Kind::ALL`], then length, then main rank.
///
/// They are exactly the plays a full deck holds, so this is the generator run on the deck.
pub fn all_plays() -> Vec<Play> {
    let mut deck = RankCounts::EMPTY;
    for r in Rank::ALL {
        deck.add(r, if r.is_joker() { 1 } else { 4 });
    }
    let mut out = Vec::with_capacity(27_471);
    legal_plays(deck, None, &mut out);
    out.sort_by_key(|p| (p.kind(), p.len(), p.rank(), p.cards()));
    out
}

/// Lengths of chains and planes: a range per kind.
type Lens = std::ops::RangeInclusive<u32>;

/// A hand ready for generation: its counts and rank masks.
struct Gen {
    hand: RankCounts,
    /// `at_least[n]`: ranks with at least `n` cards.
    at_least: [u16; 5],
}

/// Up to 15 kicker choices: a rank's one-card (or one-pair) unit and how many units fit.
struct Pool {
    units: [(u64, u8); 15],
    len: usize,
}

impl Pool {
    fn new() -> Pool {
        Pool {
            units: [(0, 0); 15],
            len: 0,
        }
    }

    #[inline]
    fn push(&mut self, unit: u64, cap: u8) {
        self.units[self.len] = (unit, cap);
        self.len += 1;
    }

    /// Calls `emit` with `base` plus each multiset of `need` units (at most `cap` of each).
    #[inline]
    fn choose(&self, need: u32, base: u64, emit: &mut impl FnMut(u64)) {
        choose(&self.units[..self.len], need, base, emit);
    }
}

/// Each multiset of `need` units from `units` once: pick the first unit used and how many
/// of it, then the rest from the units after it.
fn choose(units: &[(u64, u8)], need: u32, base: u64, emit: &mut impl FnMut(u64)) {
    if need == 0 {
        emit(base);
        return;
    }
    for (i, &(unit, cap)) in units.iter().enumerate() {
        let mut acc = base;
        for used in 1..=need.min(u32::from(cap)) {
            acc += unit;
            choose(&units[i + 1..], need - used, acc, emit);
        }
    }
}

/// The bits of `mask` at or above rank index `from`.
#[inline]
fn from_rank(mask: u16, from: u32) -> u16 {
    mask & (0xFFFFu16 << from.min(15))
}

/// Iterates the rank indexes set in `mask`, ascending.
#[inline]
fn bits(mut mask: u16) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let i = mask.trailing_zeros();
        mask &= mask - 1;
        Some(i)
    })
}

/// `n` cards of the rank with index `r`, packed.
#[inline]
fn of(r: u32, n: u64) -> u64 {
    n << (4 * r)
}

impl Gen {
    #[inline]
    fn new(hand: RankCounts) -> Gen {
        let mut at_least = Masks::of(hand).at_least;
        for mask in &mut at_least[2..] {
            *mask &= SUITED_RANKS;
        }
        Gen { hand, at_least }
    }

    /// Every play of the hand.
    fn lead(&self, out: &mut Vec<Play>) {
        self.singles(Kind::Solo, 1, 0, out);
        self.singles(Kind::Pair, 2, 0, out);
        self.singles(Kind::Trio, 3, 0, out);
        self.trio_kickers(Kind::TrioSolo, 0, out);
        self.trio_kickers(Kind::TrioPair, 0, out);
        self.chains(Kind::SoloChain, 0, 5..=12, out);
        self.chains(Kind::PairChain, 0, 3..=10, out);
        self.chains(Kind::TrioChain, 0, 2..=6, out);
        self.planes(Kind::PlaneSolo, 0, 2..=5, out);
        self.planes(Kind::PlanePair, 0, 2..=4, out);
        self.four_two_solo(0, out);
        self.four_two_pair(0, out);
        self.singles(Kind::Bomb, 4, 0, out);
        self.rocket(out);
    }

    /// Every play of the hand that beats `last`.
    fn follow(&self, last: Play, out: &mut Vec<Play>) {
        let from = last.rank().index() as u32 + 1;
        let len = u32::from(last.len());
        match last.kind() {
            Kind::Rocket => return,
            Kind::Bomb => {
                self.singles(Kind::Bomb, 4, from, out);
                self.rocket(out);
                return;
            }
            Kind::Solo => self.singles(Kind::Solo, 1, from, out),
            Kind::Pair => self.singles(Kind::Pair, 2, from, out),
            Kind::Trio => self.singles(Kind::Trio, 3, from, out),
            kind @ (Kind::TrioSolo | Kind::TrioPair) => self.trio_kickers(kind, from, out),
            kind @ (Kind::SoloChain | Kind::PairChain | Kind::TrioChain) => {
                self.chains(kind, from, len..=len, out)
            }
            kind @ (Kind::PlaneSolo | Kind::PlanePair) => self.planes(kind, from, len..=len, out),
            Kind::FourTwoSolo => self.four_two_solo(from, out),
            Kind::FourTwoPair => self.four_two_pair(from, out),
        }
        self.singles(Kind::Bomb, 4, 0, out);
        self.rocket(out);
    }

    /// Solos, pairs, trios or bombs: `n` of one rank, ranks from `from` up.
    #[inline]
    fn singles(&self, kind: Kind, n: usize, from: u32, out: &mut Vec<Play>) {
        for r in bits(from_rank(self.at_least[n], from)) {
            out.push(Play::new(RankCounts::from_raw(of(r, n as u64)), kind, r, 1));
        }
    }

    #[inline]
    fn rocket(&self, out: &mut Vec<Play>) {
        if self.at_least[1] & (BJ | RJ) == BJ | RJ {
            let cards = RankCounts::of(Rank::BlackJoker, 1).plus(RankCounts::of(Rank::RedJoker, 1));
            out.push(Play::new(cards, Kind::Rocket, 14, 1));
        }
    }

    /// A trio and one card (`TrioSolo`) or a pair (`TrioPair`) of another rank.
    #[inline]
    fn trio_kickers(&self, kind: Kind, from: u32, out: &mut Vec<Play>) {
        let (n, kickers) = match kind {
            Kind::TrioSolo => (1, self.at_least[1]),
            _ => (2, self.at_least[2]),
        };
        for t in bits(from_rank(self.at_least[3], from)) {
            let trio = of(t, 3);
            for k in bits(kickers & !(1 << t)) {
                out.push(Play::new(RankCounts::from_raw(trio + of(k, n)), kind, t, 1));
            }
        }
    }

    /// The runs of `mask` among the chain ranks: calls `each(low, run)` for every start
    /// rank `low >= from` with the length `run` of consecutive set bits from there.
    #[inline]
    fn runs(mask: u16, from: u32, min: u32, mut each: impl FnMut(u32, u32)) {
        let mask = mask & CHAIN_RANKS;
        for low in bits(from_rank(mask, from)) {
            let run = (!(mask >> low)).trailing_zeros();
            if run < min {
                continue;
            }
            each(low, run);
        }
    }

    /// Chains of one, two or three cards a rank, of the lengths in `lens`.
    #[inline]
    fn chains(&self, kind: Kind, from: u32, lens: Lens, out: &mut Vec<Play>) {
        let n = match kind {
            Kind::SoloChain => 1,
            Kind::PairChain => 2,
            _ => 3,
        };
        let (min, max) = (*lens.start(), *lens.end());
        Gen::runs(self.at_least[n as usize], from, min, |low, run| {
            for len in min..=run.min(max) {
                out.push(Play::new(run_cards(low, len, n), kind, low, len));
            }
        });
    }

    /// Planes: `len` consecutive trios and `len` kicker cards or pairs.
    fn planes(&self, kind: Kind, from: u32, lens: Lens, out: &mut Vec<Play>) {
        let (min, max) = (*lens.start(), *lens.end());
        Gen::runs(self.at_least[3], from, min, |low, run| {
            for len in min..=run.min(max) {
                let chain = run_cards(low, len, 3).raw();
                let mut emit = |raw| out.push(Play::new(RankCounts::from_raw(raw), kind, low, len));
                if kind == Kind::PlaneSolo {
                    self.solo_wings(low, len, chain, &mut emit);
                } else {
                    let mut pool = Pool::new();
                    let others = self.at_least[2] & !(((1 << len) - 1) << low);
                    for r in bits(others) {
                        pool.push(of(r, 2), 1);
                    }
                    pool.choose(len, chain, &mut emit);
                }
            }
        });
    }

    /// The kicker cards of a plane on ranks `low..low + len`: `len` cards of other ranks,
    /// at most three alike (four would be a bomb inside), no trio next to the plane (that is
    /// a longer chain) and not both jokers.
    fn solo_wings(&self, low: u32, len: u32, chain: u64, emit: &mut impl FnMut(u64)) {
        let span = ((1u16 << len) - 1) << low;
        let beside = ((span << 1) | (span >> 1)) & !span & CHAIN_RANKS;
        let mut pool = Pool::new();
        for r in bits(self.at_least[1] & SUITED_RANKS & !span) {
            let cap = if beside & (1 << r) != 0 { 2 } else { 3 };
            pool.push(of(r, 1), cap.min(self.hand.count_at(r as usize) as u8));
        }
        self.with_jokers(&pool, len, chain, emit);
    }

    /// The multisets of `need` kickers from `pool` (suited ranks), or `need - 1` of them and
    /// one joker: never both jokers.
    #[inline]
    fn with_jokers(&self, pool: &Pool, need: u32, base: u64, emit: &mut impl FnMut(u64)) {
        pool.choose(need, base, emit);
        for j in bits(self.at_least[1] & (BJ | RJ)) {
            pool.choose(need - 1, base + of(j, 1), emit);
        }
    }

    /// Four of a rank and two cards of other ranks (a pair allowed, not both jokers).
    fn four_two_solo(&self, from: u32, out: &mut Vec<Play>) {
        for f in bits(from_rank(self.at_least[4], from)) {
            let mut pool = Pool::new();
            for r in bits(self.at_least[1] & SUITED_RANKS & !(1 << f)) {
                pool.push(
                    of(r, 1),
                    if self.at_least[2] & (1 << r) != 0 {
                        2
                    } else {
                        1
                    },
                );
            }
            self.with_jokers(&pool, 2, of(f, 4), &mut |raw| {
                out.push(Play::new(
                    RankCounts::from_raw(raw),
                    Kind::FourTwoSolo,
                    f,
                    1,
                ))
            });
        }
    }

    /// Four of a rank and two pairs of two other ranks.
    fn four_two_pair(&self, from: u32, out: &mut Vec<Play>) {
        for f in bits(from_rank(self.at_least[4], from)) {
            let four = of(f, 4);
            let pairs = self.at_least[2] & !(1 << f);
            for a in bits(pairs) {
                for b in bits(pairs & !((2 << a) - 1)) {
                    let raw = four + of(a, 2) + of(b, 2);
                    out.push(Play::new(
                        RankCounts::from_raw(raw),
                        Kind::FourTwoPair,
                        f,
                        1,
                    ));
                }
            }
        }
    }
}
