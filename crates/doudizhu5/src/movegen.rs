//! Every legal play of a hand: exact, allocation-free, and prunable by kind.
//!
//! A 38-card hand from three decks has hundreds to a few thousand plays. Plays are rank
//! multisets, so each kind is enumerated directly from the hand's rank counts (windows of
//! ranks holding enough cards, trio and pair ranks, bomb sizes) and nothing is generated
//! twice. [`for_each_play`] hands each play to a closure without allocating; [`count`]
//! counts without listing; [`plays`] lists. Bots pass a [`KindSet`] to generate only the
//! kinds they consider.

use crate::play::{plane_key, Kind, KindSet, Play};
use crate::window::{for_each_window, for_each_window_of_len, positions_of, Window, POSITION_RANK};
use cards::{Rank, RankCounts};

const JOKERS: u16 = 1 << 13 | 1 << 14;

/// The cards of `k` copies of each rank of window `w`.
#[inline]
fn window_cards(w: Window, k: u32) -> RankCounts {
    let mut rc = RankCounts::EMPTY;
    for p in w.start..w.start + w.len {
        rc.add(POSITION_RANK[p as usize], k);
    }
    rc
}

/// What the generated plays must beat: nothing (a lead), or the play on the table.
struct Target {
    /// Generate only this kind (non-bombs) — `None` for a lead (every kind).
    kind: Option<Kind>,
    /// Generate only this length of chain or plane.
    len: Option<u8>,
    /// Non-bomb plays must have a key above this.
    key: Option<u32>,
    /// Bombs must have a key above this.
    bomb_key: Option<u32>,
}

impl Target {
    fn of(last: Option<&Play>) -> Target {
        match last {
            None => Target {
                kind: None,
                len: None,
                key: None,
                bomb_key: None,
            },
            Some(l) if l.kind.is_bomb() => Target {
                kind: Some(l.kind),
                len: None,
                key: None,
                bomb_key: Some(l.key),
            },
            Some(l) => Target {
                kind: Some(l.kind),
                len: Some(l.len),
                key: Some(l.key),
                bomb_key: None,
            },
        }
    }

    /// Whether non-bomb plays of `kind` can be generated.
    #[inline]
    fn wants(&self, kind: Kind, kinds: KindSet) -> bool {
        kinds.contains(kind)
            && match self.kind {
                None => true,
                Some(k) => !k.is_bomb() && k == kind,
            }
    }

    #[inline]
    fn above(&self, key: u32) -> bool {
        self.key.is_none_or(|k| key > k)
    }

    #[inline]
    fn bomb_above(&self, key: u32) -> bool {
        self.bomb_key.is_none_or(|k| key > k)
    }
}

/// Calls `f` with every play of `hand` of the kinds in `kinds` that may be laid on `last`
/// (every play, for a lead), each exactly once.
pub fn for_each_play(
    hand: RankCounts,
    last: Option<&Play>,
    kinds: KindSet,
    mut f: impl FnMut(Play),
) {
    let t = Target::of(last);
    let suited = |n: u32| hand.at_least(n) & !JOKERS;
    if t.wants(Kind::Solo, kinds) {
        for (r, _) in hand.iter() {
            let p = Play::of_rank(RankCounts::of(r, 1), Kind::Solo, r);
            if t.above(p.key) {
                f(p);
            }
        }
    }
    if t.wants(Kind::Pair, kinds) {
        for (r, n) in hand.iter() {
            let p = Play::of_rank(RankCounts::of(r, 2), Kind::Pair, r);
            if n >= 2 && t.above(p.key) {
                f(p);
            }
        }
    }
    if t.wants(Kind::Trio, kinds) {
        for_each_rank(suited(3), |r| {
            let p = Play::of_rank(RankCounts::of(r, 3), Kind::Trio, r);
            if t.above(p.key) {
                f(p);
            }
        });
    }
    if t.wants(Kind::TrioPair, kinds) {
        let pairs = hand.at_least(2);
        for_each_rank(suited(3), |tr| {
            if !t.above(tr.index() as u32) {
                return;
            }
            for_each_rank(pairs & !(1 << tr.index()), |pr| {
                let cards = RankCounts::of(tr, 3).plus(RankCounts::of(pr, 2));
                f(Play::of_rank(cards, Kind::TrioPair, tr));
            });
        });
    }
    for (kind, k, min) in [
        (Kind::Straight, 1, 5),
        (Kind::PairChain, 2, 3),
        (Kind::TrioChain, 3, 2),
    ] {
        if !t.wants(kind, kinds) {
            continue;
        }
        let mut emit = |w: Window| {
            if !(kind == Kind::TrioChain && w.start == 0 && w.len == 2) {
                f(Play::chain(window_cards(w, k), kind, w));
            }
        };
        let avail = positions_of(suited(k));
        match (t.len, t.key) {
            (Some(len), Some(key)) => {
                for_each_window_of_len(avail, len as usize, Some(key as u8), &mut emit)
            }
            _ => for_each_window(avail, min, &mut emit),
        }
    }
    if t.wants(Kind::Plane, kinds) {
        planes(hand, &t, &mut f);
    }
    if kinds.contains(Kind::Bomb) {
        for_each_rank(suited(4), |r| {
            for n in 4..=hand.count(r) {
                let p = Play::bomb(r, n);
                if t.bomb_above(p.key) {
                    f(p);
                }
            }
        });
    }
    if kinds.contains(Kind::JokerBomb) {
        let (b, r) = (hand.count(Rank::BlackJoker), hand.count(Rank::RedJoker));
        for black in 0..=b {
            for red in 0..=r {
                let ok = black + red >= 4 || (black, red) == (3, 0) || (black, red) == (0, 3);
                if ok {
                    let p = Play::joker_bomb(black, red);
                    if t.bomb_above(p.key) {
                        f(p);
                    }
                }
            }
        }
    }
}

/// Planes: trio windows of two or more, each with every disjoint wing window of the same
/// length (AA22 excepted) and, for two trios, the four-joker wings.
fn planes(hand: RankCounts, t: &Target, f: &mut impl FnMut(Play)) {
    let trio_pos = positions_of(hand.at_least(3) & !JOKERS);
    let pair_pos = positions_of(hand.at_least(2) & !JOKERS);
    let joker_wings = hand.count(Rank::BlackJoker) >= 2 && hand.count(Rank::RedJoker) >= 2;
    let max_n = (hand.len() / 5) as usize;
    let lens = match t.len {
        Some(n) => n as usize..=n as usize,
        None => 2..=max_n,
    };
    for n in lens {
        for_each_window_of_len(trio_pos, n, None, |tw| {
            if !t.above(plane_key(tw)) {
                return;
            }
            let trios = window_cards(tw, 3);
            let taken = tw.rank_mask();
            for_each_window_of_len(pair_pos, n, None, |pw| {
                if pw.rank_mask() & taken == 0 && !(pw.start == 0 && pw.len == 2) {
                    f(Play::plane(trios.plus(window_cards(pw, 2)), tw));
                }
            });
            if n == 2 && joker_wings {
                let wings =
                    RankCounts::of(Rank::BlackJoker, 2).plus(RankCounts::of(Rank::RedJoker, 2));
                f(Play::plane(trios.plus(wings), tw));
            }
        });
    }
}

#[inline]
fn for_each_rank(mut mask: u16, mut f: impl FnMut(Rank)) {
    while mask != 0 {
        let i = mask.trailing_zeros() as usize;
        mask &= mask - 1;
        if let Some(r) = Rank::from_index(i) {
            f(r);
        }
    }
}

/// Every play of `hand` that may be laid on `last` (every play for a lead), each once.
pub fn plays(hand: RankCounts, last: Option<&Play>) -> Vec<Play> {
    let mut out = Vec::new();
    for_each_play(hand, last, KindSet::ALL, |p| out.push(p));
    out
}

/// How many plays [`plays`] would list, without listing them.
pub fn count(hand: RankCounts, last: Option<&Play>) -> usize {
    let mut n = 0;
    for_each_play(hand, last, KindSet::ALL, |_| n += 1);
    n
}
