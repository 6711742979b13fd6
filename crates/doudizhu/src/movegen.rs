//! Every legal play of a hand, fast: the hot path of bots and self-play.
//!
//! The generator builds plays by their shape straight from the hand's rank masks, so it
//! never looks at a play the hand cannot make. Plays are found as bits of a candidate word —
//! "the hand holds this solo/pair/trio/bomb", "this chain", "this kicker pair" — and each
//! word is appended in one `extend` whose length is the word's population count: no branch
//! per play, the vector's length kept in a register, one capacity check per word. Following
//! a play builds only plays of its kind and length above its rank, plus bombs and the
//! rocket. Nothing is allocated but `out`'s growth, and every play comes out once.

use crate::play::{run_cards, Kind, Masks, Play, CHAIN_RANKS, JOKER_RANKS, SUITED_RANKS};
use cards::{Rank, RankCounts};

/// Bit `4r` for every rank: the "at least one" column of [`Masks::groups`].
const SOLO_COLUMN: u64 = 0x0111_1111_1111_1111;
/// The play of each bit of [`Masks::groups`]: bit `4r + n - 1` is `n` cards of rank `r`,
/// a solo, pair, trio or bomb. (The bits of two or more jokers are never set in a hand's
/// groups; their entries are not plays.)
static GROUPS: [Play; 64] = {
    const KINDS: [Kind; 4] = [Kind::Solo, Kind::Pair, Kind::Trio, Kind::Bomb];
    let mut plays = [Play::from_parts(RankCounts::EMPTY, Kind::Solo, 0, 1); 64];
    let mut bit = 0;
    while bit < 60 {
        let cards = RankCounts::from_raw((bit as u64 % 4 + 1) << (bit & !3));
        plays[bit] = Play::from_parts(cards, KINDS[bit % 4], bit as u32 / 4, 1);
        bit += 1;
    }
    plays
};

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

/// Appends one play per set bit of `word`, calling `play` with each bit's index, ascending.
///
/// The iterator is a counted range, so `Vec::extend` reserves once and writes in a tight
/// loop; this is where nearly every play of the generator is written.
#[inline(always)]
fn emit<W: Word>(out: &mut Vec<Play>, word: W, mut play: impl FnMut(u32) -> Play) {
    let mut rest = word;
    out.extend((0..word.ones()).map(|_| {
        let bit = rest.lowest();
        rest = rest.without_lowest();
        play(bit)
    }));
}

/// A candidate word for [`emit`]: 64 bits, or 128 for the kicker grids.
trait Word: Copy {
    fn ones(self) -> u32;
    fn lowest(self) -> u32;
    fn without_lowest(self) -> Self;
}

impl Word for u64 {
    #[inline(always)]
    fn ones(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }
    #[inline(always)]
    fn without_lowest(self) -> u64 {
        self & self.wrapping_sub(1)
    }
}

impl Word for u128 {
    #[inline(always)]
    fn ones(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }
    #[inline(always)]
    fn without_lowest(self) -> u128 {
        self & self.wrapping_sub(1)
    }
}

/// `n` cards of the rank with index `r`, packed.
#[inline(always)]
const fn of(r: u32, n: u64) -> u64 {
    n << (4 * r)
}

/// The ranks strictly above rank index `r`.
#[inline(always)]
fn above(r: u32) -> u16 {
    !((2u16 << r).wrapping_sub(1))
}

/// The ranks at or above rank index `from` (0..=15).
#[inline(always)]
fn from_rank(from: u32) -> u16 {
    0xFFFFu16.checked_shl(from).unwrap_or(0)
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

/// The chains of one width (1, 2 or 3 cards a rank), numbered by length then lowest rank,
/// so that "which chains does the hand hold" is one 64-bit word (at most 52 chains).
struct Chains {
    plays: [Play; 64],
    /// `offset[len]`: the number of the chain of length `len` starting at rank 3.
    offset: [u32; 16],
    min: u32,
    max: u32,
}

impl Chains {
    const fn new(kind: Kind, width: u64, min: u32, max: u32) -> Chains {
        let filler = Play::from_parts(RankCounts::EMPTY, kind, 0, 0);
        let mut chains = Chains {
            plays: [filler; 64],
            offset: [0; 16],
            min,
            max,
        };
        let (mut len, mut i) = (min, 0);
        while len <= max {
            chains.offset[len as usize] = i;
            let mut low = 0;
            while low + len <= 12 {
                let cards = run_cards(low, len, width);
                chains.plays[i as usize] = Play::from_parts(cards, kind, low, len);
                (low, i) = (low + 1, i + 1);
            }
            len += 1;
        }
        chains
    }

    /// The chains of length `len` the rank mask `held` holds, as bits of a candidate word.
    #[inline(always)]
    fn word(&self, starts: u16, len: u32) -> u64 {
        u64::from(starts) << self.offset[len as usize % 16]
    }

    /// Every chain `held` (ranks with enough cards) holds with its lowest rank in `from`,
    /// of length `len` or, given none, of every length.
    #[inline(always)]
    fn emit(&self, held: u16, from: u16, len: Option<u32>, out: &mut Vec<Play>) {
        let (shortest, longest) = len.map_or((self.min, self.max), |len| (len, len));
        let held = held & CHAIN_RANKS;
        // `starts`: the ranks that begin a run of at least `len` held ranks.
        let mut starts = held;
        for k in 1..shortest {
            starts &= held >> k;
        }
        let mut word = 0;
        for len in shortest..longest + 1 {
            word |= self.word(starts & from, len);
            starts &= held >> len;
        }
        emit(out, word, |i| self.plays[i as usize % 64]);
    }
}

static SOLO_CHAINS: Chains = Chains::new(Kind::SoloChain, 1, 5, 12);
static PAIR_CHAINS: Chains = Chains::new(Kind::PairChain, 2, 3, 10);
static TRIO_CHAINS: Chains = Chains::new(Kind::TrioChain, 3, 2, 6);

/// A hand ready for generation: its rank masks, jokers as solos only.
struct Gen {
    /// Bit `4r + n - 1`: the hand holds `n` cards of rank `r` (see [`Masks::groups`]).
    groups: u64,
    /// `at_least[n]`: ranks with at least `n` cards.
    at_least: [u16; 5],
}

impl Gen {
    #[inline]
    fn new(hand: RankCounts) -> Gen {
        let masks = Masks::of(hand);
        let mut at_least = masks.at_least;
        for mask in &mut at_least[2..] {
            *mask &= SUITED_RANKS;
        }
        Gen {
            groups: masks.groups & !(0xEE << 52),
            at_least,
        }
    }

    /// Every play of the hand.
    fn lead(&self, out: &mut Vec<Play>) {
        self.groups(self.groups, out);
        self.trio_kickers(u64::MAX, 0xFFFF, out);
        SOLO_CHAINS.emit(self.at_least[1], 0xFFFF, None, out);
        PAIR_CHAINS.emit(self.at_least[2], 0xFFFF, None, out);
        // Most hands hold no two consecutive trios and no four alike: a cheap test skips
        // those searches.
        let trios = self.at_least[3] & CHAIN_RANKS;
        if trios & (trios >> 1) != 0 {
            TRIO_CHAINS.emit(trios, 0xFFFF, None, out);
            self.planes(Kind::PlaneSolo, 0xFFFF, None, out);
            self.planes(Kind::PlanePair, 0xFFFF, None, out);
        }
        if self.at_least[4] != 0 {
            self.four_two(Kind::FourTwoSolo, 0xFFFF, out);
            self.four_two(Kind::FourTwoPair, 0xFFFF, out);
        }
        self.rocket(out);
    }

    /// Every play of the hand that beats `last`.
    fn follow(&self, last: Play, out: &mut Vec<Play>) {
        let rank = last.rank().index() as u32;
        let from = from_rank(rank + 1);
        let above_nibbles = u64::MAX.checked_shl(4 * (rank + 1)).unwrap_or(0);
        let len = u32::from(last.len());
        let bombs = self.groups & SOLO_COLUMN << 3;
        match last.kind() {
            Kind::Rocket => return,
            Kind::Bomb => {
                self.groups(bombs & above_nibbles, out);
                return self.rocket(out);
            }
            Kind::Solo => self.groups(self.groups & SOLO_COLUMN & above_nibbles, out),
            Kind::Pair => self.groups(self.groups & SOLO_COLUMN << 1 & above_nibbles, out),
            Kind::Trio => self.groups(self.groups & SOLO_COLUMN << 2 & above_nibbles, out),
            Kind::TrioSolo => self.trio_kickers(SOLO_COLUMN, from, out),
            Kind::TrioPair => self.trio_kickers(SOLO_COLUMN << 1, from, out),
            Kind::SoloChain => SOLO_CHAINS.emit(self.at_least[1], from, Some(len), out),
            Kind::PairChain => PAIR_CHAINS.emit(self.at_least[2], from, Some(len), out),
            Kind::TrioChain => TRIO_CHAINS.emit(self.at_least[3], from, Some(len), out),
            kind @ (Kind::PlaneSolo | Kind::PlanePair) => self.planes(kind, from, Some(len), out),
            kind @ (Kind::FourTwoSolo | Kind::FourTwoPair) => self.four_two(kind, from, out),
        }
        self.groups(bombs, out);
        self.rocket(out);
    }

    /// Solos, pairs, trios and bombs: one per bit of `word`, a subset of [`Gen::groups`].
    #[inline(always)]
    fn groups(&self, word: u64, out: &mut Vec<Play>) {
        emit(out, word, |bit| GROUPS[bit as usize % 64]);
    }

    #[inline]
    fn rocket(&self, out: &mut Vec<Play>) {
        if self.at_least[1] & JOKER_RANKS == JOKER_RANKS {
            let cards = RankCounts::of(Rank::BlackJoker, 1).plus(RankCounts::of(Rank::RedJoker, 1));
            out.push(Play::new(
                cards,
                Kind::Rocket,
                Rank::RedJoker.index() as u32,
                1,
            ));
        }
    }

    /// A trio (its rank in `from`) with one card or a pair of another rank, as the groups
    /// columns in `kickers` allow: column 0 gives `TrioSolo`, column 1 `TrioPair`.
    #[inline]
    fn trio_kickers(&self, kickers: u64, from: u16, out: &mut Vec<Play>) {
        let kickers = self.groups & kickers & (SOLO_COLUMN | SOLO_COLUMN << 1);
        for t in bits(self.at_least[3] & from) {
            let trio = of(t, 3);
            emit(out, kickers & !(0xF << (4 * t)), |bit| {
                let kicker = u64::from(bit % 4 + 1) << (bit & !3);
                let kind = if bit % 4 == 0 {
                    Kind::TrioSolo
                } else {
                    Kind::TrioPair
                };
                Play::new(RankCounts::from_raw(trio + kicker), kind, t, 1)
            });
        }
    }

    /// Planes: `len` consecutive trios (lowest rank in `from`; of length `len` or, given
    /// none, of every length that fits in 20 cards) with `len` kicker cards (`PlaneSolo`) or
    /// pairs of different ranks (`PlanePair`).
    fn planes(&self, kind: Kind, from: u16, len: Option<u32>, out: &mut Vec<Play>) {
        let longest = if kind == Kind::PlaneSolo { 5 } else { 4 };
        let (shortest, longest) = len.map_or((2, longest), |len| (len, len));
        let trios = self.at_least[3] & CHAIN_RANKS;
        let mut starts = trios;
        for k in 1..shortest {
            starts &= trios >> k;
        }
        for len in shortest..longest + 1 {
            if starts == 0 {
                break;
            }
            for low in bits(starts & from) {
                let span = ((1u16 << len) - 1) << low;
                let chain = run_cards(low, len, 3).raw();
                let make = |raw| Play::new(RankCounts::from_raw(raw), kind, low, len);
                let pairs = self.at_least[2] & !span;
                match (kind, len) {
                    (Kind::PlaneSolo, 2) => {
                        self.two_kickers(self.at_least[1] & !span, chain, make, out)
                    }
                    (Kind::PlaneSolo, _) => self.solo_wings(span, len, chain, &make, out),
                    _ => pairs_of(pairs, len, chain, &make, out),
                }
            }
            starts &= trios >> len;
        }
    }

    /// Four of a rank (from `from`) with two kicker cards (a pair allowed, not both jokers)
    /// or two pairs of different ranks.
    fn four_two(&self, kind: Kind, from: u16, out: &mut Vec<Play>) {
        for f in bits(self.at_least[4] & from) {
            let make = |raw| Play::new(RankCounts::from_raw(raw), kind, f, 1);
            let others = !(1 << f);
            match kind {
                Kind::FourTwoSolo => {
                    self.two_kickers(self.at_least[1] & others, of(f, 4), make, out)
                }
                _ => two_pairs(self.at_least[2] & others, of(f, 4), make, out),
            }
        }
    }

    /// Two kicker cards from the ranks `ranks` added to `base`: two of one rank, or one each
    /// of two ranks but not both jokers (the first kicker is suited, so never a joker).
    #[inline]
    fn two_kickers(&self, ranks: u16, base: u64, make: impl Fn(u64) -> Play, out: &mut Vec<Play>) {
        let pairs = ranks & self.at_least[2];
        let row = |a: u32| (ranks & above(a)) | (pairs & (1 << a));
        grid(ranks & SUITED_RANKS, row, 1, base, make, out);
    }

    /// The kicker cards of a plane of three or more trios over the ranks `span`: `len`
    /// cards of other ranks, at most three alike (four would be a bomb inside), no trio next
    /// to the plane (that is a longer chain) and not both jokers: the suited kickers, or one
    /// joker and one kicker fewer.
    fn solo_wings(
        &self,
        span: u16,
        len: u32,
        chain: u64,
        make: &impl Fn(u64) -> Play,
        out: &mut Vec<Play>,
    ) {
        let beside = ((span << 1) | (span >> 1)) & !span & CHAIN_RANKS;
        let ranks = self.at_least[1] & SUITED_RANKS & !span;
        let wings = Wings {
            pairs: self.at_least[2] & ranks,
            trios: self.at_least[3] & ranks & !beside,
        };
        wings.choose(ranks, len, chain, make, out);
        for j in bits(self.at_least[1] & JOKER_RANKS) {
            wings.choose(ranks, len - 1, chain + of(j, 1), make, out);
        }
    }
}

/// Where a plane's suited kicker cards may repeat: the ranks that may give two, and three.
struct Wings {
    pairs: u16,
    trios: u16,
}

impl Wings {
    /// Each multiset of `need` kicker cards from `ranks` once, added to `base`: the lowest
    /// rank used and how many of it, then the rest from the ranks above it; the last two
    /// cards come from a grid like [`Gen::two_kickers`]'s.
    fn choose(
        &self,
        ranks: u16,
        need: u32,
        base: u64,
        make: &impl Fn(u64) -> Play,
        out: &mut Vec<Play>,
    ) {
        match need {
            0 => out.push(make(base)),
            1 => emit(out, u64::from(ranks), |r| make(base + of(r, 1))),
            2 => {
                let row = |a: u32| (ranks & above(a)) | (self.pairs & (1 << a));
                grid(ranks, row, 1, base, make, out);
            }
            _ => {
                for a in bits(ranks) {
                    let most = 1 + u32::from(self.pairs >> a & 1) + u32::from(self.trios >> a & 1);
                    for used in 1..=most.min(need) {
                        self.choose(
                            ranks & above(a),
                            need - used,
                            base + of(a, used as u64),
                            make,
                            out,
                        );
                    }
                }
            }
        }
    }
}

/// Two pairs of different ranks from `pairs` added to `base`, as a grid like
/// [`Gen::two_kickers`]'s.
#[inline]
fn two_pairs(pairs: u16, base: u64, make: impl Fn(u64) -> Play, out: &mut Vec<Play>) {
    grid(pairs, |a| pairs & above(a), 2, base, make, out);
}

/// Appends `make(base + unit × (rank a) + unit × (rank b))` for each suited first rank `a`
/// in `firsts` and each second rank `b` in `row(a)`.
///
/// The choices are a grid of 16-bit rows, ranks 3..=T in one 128-bit word and J..=2 in
/// another, filled without branches and appended in two `extend`s.
#[inline(always)]
fn grid(
    firsts: u16,
    row: impl Fn(u32) -> u16,
    unit: u64,
    base: u64,
    make: impl Fn(u64) -> Play,
    out: &mut Vec<Play>,
) {
    let rows = |from: u32, to: u32| {
        let mut word = 0u128;
        for a in from..to {
            let keep = 0u16.wrapping_sub((firsts >> a) & 1);
            word |= u128::from(row(a) & keep) << (16 * (a - from));
        }
        word
    };
    for (first, word) in [(0, rows(0, 8)), (8, rows(8, 13))] {
        emit(out, word, |bit| {
            let (a, b) = (first + bit / 16, bit % 16);
            make(base + of(a, unit) + of(b, unit))
        });
    }
}

/// A pair of each of `need` (two or more) different ranks of `ranks`, added to `base`: the
/// lowest rank, then the rest from the ranks above it; the last two from a grid.
fn pairs_of(ranks: u16, need: u32, base: u64, make: &impl Fn(u64) -> Play, out: &mut Vec<Play>) {
    if need <= 2 {
        return two_pairs(ranks, base, make, out);
    }
    for a in bits(ranks) {
        pairs_of(ranks & above(a), need - 1, base + of(a, 2), make, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_table_holds_each_solo_pair_trio_and_bomb() {
        let hand = Gen::new(RankCounts::from_raw(0x0114_4444_4444_4444));
        for (bit, play) in GROUPS.iter().enumerate() {
            if hand.groups & (1 << bit) != 0 {
                assert_eq!(Play::classify(play.cards()), Some(*play));
            } else {
                assert!(bit >= 53, "bit {bit} of a full deck is missing");
            }
        }
    }

    #[test]
    fn chain_tables_hold_every_chain_once_classified() {
        for (table, count) in [(&SOLO_CHAINS, 36), (&PAIR_CHAINS, 52), (&TRIO_CHAINS, 45)] {
            let len = table.max as usize;
            let used = table.offset[len] as usize + 13 - len;
            assert_eq!(used, count);
            for p in &table.plays[..used] {
                assert_eq!(Play::classify(p.cards()), Some(*p));
            }
        }
    }
}
