//! Sequence windows: where A and 2 may stand in straights, pair chains and trio chains.
//!
//! The Rudong rules let A and 2 go low (A2345 is the lowest straight) but never let 2 stand
//! above A, and never let one sequence hold A twice. All sequences are therefore windows of
//! the fourteen *positions* `A(low) 2 3 4 … K A(high)`; a window is its first position and
//! its length, and windows of one length order by their first position.

use cards::Rank;

/// Number of sequence positions: A(low), 2, 3 … K, A(high).
pub const POSITIONS: usize = 14;

/// The rank standing at each sequence position.
pub const POSITION_RANK: [Rank; POSITIONS] = [
    Rank::Ace,
    Rank::Two,
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
];

/// The longest sequence: thirteen ranks, every suited rank once.
pub const MAX_LEN: usize = 13;

/// A run of consecutive positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Window {
    /// The first position (0 = low A, 1 = 2, 2 = 3, …, 12 = K).
    pub start: u8,
    /// How many positions.
    pub len: u8,
}

impl Window {
    /// The window's ranks as a mask (bit = rank index).
    #[inline]
    pub fn rank_mask(self) -> u16 {
        let mut m = 0u16;
        for p in self.start..self.start + self.len {
            m |= 1 << POSITION_RANK[p as usize].index();
        }
        m
    }

    /// The rank of the first position: the rank a chain is named by (low A is `A`).
    #[inline]
    pub fn lowest_rank(self) -> Rank {
        POSITION_RANK[self.start as usize]
    }

    /// Whether this window is a sequence a player may play. Both thirteen-rank windows hold
    /// the same cards, so only the higher one (2 … K A) names that sequence.
    #[inline]
    pub fn is_canonical(self) -> bool {
        let end = self.start as usize + self.len as usize;
        end <= POSITIONS && !(self.len as usize == MAX_LEN && self.start == 0)
    }
}

/// Position mask (bit = position) of the positions whose rank bit is set in `ranks`.
#[inline]
pub fn positions_of(ranks: u16) -> u16 {
    // Positions 2..=12 are rank indices 0..=10 shifted by two; A sits at both ends, 2 at 1.
    let mid = (ranks & 0x07FF) << 2;
    let ace = (ranks >> Rank::Ace.index()) & 1;
    let two = (ranks >> Rank::Two.index()) & 1;
    mid | ace | (two << 1) | (ace << 13)
}

/// The window a set of suited ranks forms, if it forms one of at least `min_len` positions.
///
/// A set holding A may read A low or A high; at most one reading is a run except for the
/// full thirteen ranks, which take the canonical (A high) reading.
pub fn window_of(ranks: u16, min_len: usize) -> Option<Window> {
    let n = ranks.count_ones() as usize;
    if n < min_len || n > MAX_LEN || ranks >> 13 != 0 || n == 0 {
        return None;
    }
    let pos = positions_of(ranks);
    let has_ace = ranks & (1 << Rank::Ace.index()) != 0;
    // Readings: with A high (drop bit 0) and with A low (drop bit 13).
    let readings: [u16; 2] = if has_ace {
        [pos & !1, pos & !(1 << 13)]
    } else {
        [pos, pos]
    };
    readings.into_iter().find_map(|p| {
        let start = p.trailing_zeros();
        let run = p >> start;
        (run & (run + 1) == 0 && run.count_ones() as usize == n).then_some(Window {
            start: start as u8,
            len: n as u8,
        })
    })
}

/// Calls `f` with every canonical window of length `min_len..` whose positions are all in
/// `available` (a position mask), shortest first, then lowest first.
#[inline]
pub fn for_each_window(available: u16, min_len: usize, mut f: impl FnMut(Window)) {
    for len in min_len.max(1)..=MAX_LEN {
        for start in 0..=(POSITIONS - len) {
            let need = ((1u16 << len) - 1) << start;
            let w = Window {
                start: start as u8,
                len: len as u8,
            };
            if available & need == need && w.is_canonical() {
                f(w);
            }
        }
    }
}

/// Calls `f` with every canonical window of exactly `len` positions, starting after
/// `after` (or from the lowest when `None`), all of whose positions are in `available`.
#[inline]
pub fn for_each_window_of_len(
    available: u16,
    len: usize,
    after: Option<u8>,
    mut f: impl FnMut(Window),
) {
    if len == 0 || len > MAX_LEN {
        return;
    }
    let first = after.map_or(0, |a| a as usize + 1);
    for start in first..=(POSITIONS - len) {
        let need = ((1u16 << len) - 1) << start;
        let w = Window {
            start: start as u8,
            len: len as u8,
        };
        if available & need == need && w.is_canonical() {
            f(w);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mask(ranks: &[Rank]) -> u16 {
        ranks.iter().fold(0, |m, r| m | 1 << r.index())
    }

    #[test]
    fn ace_and_two_go_low_but_two_never_above_ace() {
        use Rank::*;
        let low = window_of(mask(&[Ace, Two, Three, Four, Five]), 5).unwrap();
        assert_eq!((low.start, low.len), (0, 5));
        let high = window_of(mask(&[Ten, Jack, Queen, King, Ace]), 5).unwrap();
        assert_eq!((high.start, high.len), (9, 5));
        assert_eq!(window_of(mask(&[Jack, Queen, King, Ace, Two]), 5), None);
        let all = window_of(0x1FFF, 5).unwrap();
        assert_eq!((all.start, all.len), (1, 13));
        assert_eq!(window_of(mask(&[Three, Four, Six, Seven, Eight]), 5), None);
    }

    #[test]
    fn windows_are_listed_once() {
        let mut n = 0;
        for_each_window((1 << POSITIONS) - 1, 13, |w| {
            n += 1;
            assert_eq!(w.start, 1);
        });
        assert_eq!(n, 1);
    }
}
