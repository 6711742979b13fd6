//! Line patterns: what a stone on a point makes along one line, looked up in a table.
//!
//! For each point, direction and colour the engine keeps a key describing the five cells on
//! either side as that colour sees them: a base-3 number with one digit per cell (empty,
//! own stone, blocked by the opponent or the edge), 3^10 = 59,049 keys. A table per five
//! rule (five-or-more, or exactly five) maps a key to the [`Pattern`] the colour would make
//! by playing the point: a five, a straight four, a four, a three, …  At 59 KB a table stays
//! in cache. The tables are built once, by a memoised recursion over "one more stone" that
//! follows the definitions (a four is one move from a five, a three one move from a
//! straight four, and so on).

use std::sync::OnceLock;

/// Half the window: five cells each side of the point reach every five through it and the
/// cell beyond that decides whether it is an overline.
pub const HALF: i32 = 5;
/// Neighbour slots in a key (five each side).
pub const SLOTS: usize = 10;
/// Number of distinct keys (3^10).
pub const KEYS: usize = 59_049;

/// Key digit: an own stone.
pub const OWN: u32 = 1;
/// Key digit: an opponent's stone or the edge of the board.
pub const BLOCKED: u32 = 2;

/// The weight of each slot's digit in a key: 3^slot.
pub const POW3: [u32; SLOTS] = [1, 3, 9, 27, 81, 243, 729, 2187, 6561, 19683];

/// What playing a point makes on one line, weakest first.
pub type Pattern = u8;
/// Nothing: no five can ever pass through the point on this line.
pub const DEAD: Pattern = 0;
/// One stone with room, one side shut.
pub const B1: Pattern = 1;
/// One stone with room on both sides.
pub const F1: Pattern = 2;
/// A two that can only become a closed three.
pub const B2: Pattern = 3;
/// An open two: one move from an open three.
pub const F2: Pattern = 4;
/// A closed three: one move from a four.
pub const B3: Pattern = 5;
/// An open three: one move from a straight four.
pub const F3: Pattern = 6;
/// A four: one point makes five.
pub const B4: Pattern = 7;
/// A straight four (or two fours on the line): two points make five.
pub const F4: Pattern = 8;
/// A five.
pub const FIVE: Pattern = 9;
/// Six or more where only exactly five counts: no win, and forbidden for renju black.
pub const OVERLINE: Pattern = 10;

/// The key slot (0..10) of the neighbour `k` cells away (`k` in -5..=-1, 1..=5).
pub const fn slot(k: i32) -> u32 {
    if k < 0 {
        (k + HALF) as u32
    } else {
        (k + HALF - 1) as u32
    }
}

/// Relative cell values used while building: own stone, empty, blocked.
const R_EMPTY: u8 = 0;
const R_OWN: u8 = 1;
const R_BLOCK: u8 = 2;

fn cells_of(rel: u32) -> [u8; 11] {
    let mut c = [R_EMPTY; 11];
    for k in -HALF..=HALF {
        let i = (k + HALF) as usize;
        c[i] = if k == 0 {
            R_OWN
        } else {
            match rel / POW3[slot(k) as usize] % 3 {
                0 => R_EMPTY,
                1 => R_OWN,
                _ => R_BLOCK,
            }
        };
    }
    c
}

fn run_len(c: &[u8; 11], i: usize) -> usize {
    let mut a = i;
    while a > 0 && c[a - 1] == R_OWN {
        a -= 1;
    }
    let mut b = i;
    while b < 10 && c[b + 1] == R_OWN {
        b += 1;
    }
    b - a + 1
}

struct Builder {
    exact: bool,
    memo: Vec<u8>,
}

impl Builder {
    fn classify(&mut self, rel: u32) -> Pattern {
        let cached = self.memo[rel as usize];
        if cached != u8::MAX {
            return cached;
        }
        let c = cells_of(rel);
        let centre = HALF as usize;
        let run = run_len(&c, centre);
        let result = if run == 5 || (run > 5 && !self.exact) {
            FIVE
        } else if run > 5 {
            OVERLINE
        } else {
            let mut fives = 0;
            let mut best = DEAD;
            for k in -HALF..=HALF {
                let i = (k + HALF) as usize;
                if k == 0 || c[i] != R_EMPTY {
                    continue;
                }
                let next = self.classify(rel + OWN * POW3[slot(k) as usize]);
                if next == FIVE {
                    fives += 1;
                } else if next != OVERLINE {
                    best = best.max(next);
                }
            }
            if fives >= 2 {
                F4
            } else if fives == 1 {
                B4
            } else {
                match best {
                    F4 => F3,
                    B4 => B3,
                    F3 => F2,
                    B3 => B2,
                    F2 => F1,
                    B2 => B1,
                    _ => DEAD,
                }
            }
        };
        self.memo[rel as usize] = result;
        result
    }
}

/// Builds the table for one five rule.
fn build(exact: bool) -> Vec<Pattern> {
    let mut b = Builder {
        exact,
        memo: vec![u8::MAX; KEYS],
    };
    (0..KEYS as u32).map(|key| b.classify(key)).collect()
}

static TABLES: [OnceLock<Vec<Pattern>>; 2] = [OnceLock::new(), OnceLock::new()];

/// The pattern table for a five rule (`exact`: only exactly five wins).
pub fn table(exact: bool) -> &'static [Pattern] {
    TABLES[usize::from(exact)].get_or_init(|| build(exact))
}

/// A point's combined strength for one colour over its four lines, weakest first. These
/// decide the threat logic of the search and the threat solver.
pub type Combo = u8;
/// Nothing worth a threat.
pub const C_NONE: Combo = 0;
/// Makes at least an open three.
pub const C_F3: Combo = 1;
/// Makes a four (one point to five).
pub const C_B4: Combo = 2;
/// Makes two open threes at once.
pub const C_F3F3: Combo = 3;
/// Makes a four and an open three at once.
pub const C_B4F3: Combo = 4;
/// Makes a straight four or two fours: unstoppable unless the opponent makes five first.
pub const C_F4: Combo = 5;
/// Makes five.
pub const C_FIVE: Combo = 6;

/// Combines the four line patterns of a point.
pub fn combo(p: [Pattern; 4]) -> Combo {
    let mut fours = 0;
    let mut f3 = 0;
    let mut flex4 = false;
    for &x in &p {
        match x {
            FIVE => return C_FIVE,
            F4 => flex4 = true,
            B4 => fours += 1,
            F3 => f3 += 1,
            _ => {}
        }
    }
    if flex4 || fours >= 2 {
        C_F4
    } else if fours == 1 && f3 >= 1 {
        C_B4F3
    } else if f3 >= 2 {
        C_F3F3
    } else if fours == 1 {
        C_B4
    } else if f3 == 1 {
        C_F3
    } else {
        C_NONE
    }
}

/// Whether renju black's point needs the exact forbidden-move check: it makes an overline,
/// or could make two fours or two threes (a straight four is checked too, since two fours
/// on one line look like one).
pub fn renju_suspect(p: [Pattern; 4]) -> bool {
    if p.contains(&FIVE) {
        return false;
    }
    let mut n = 0;
    for &x in &p {
        match x {
            OVERLINE | F4 => return true,
            B4 | F3 => n += 1,
            _ => {}
        }
    }
    n >= 2
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(cells: &str) -> u32 {
        // 11 cells, the centre (index 5) ignored: 'x' own, 'o' or '#' blocked, '.' empty.
        let mut k = 0;
        for (i, ch) in cells.chars().enumerate() {
            let off = i as i32 - HALF;
            if off == 0 {
                continue;
            }
            let v = match ch {
                'x' => OWN,
                'o' | '#' => BLOCKED,
                _ => 0,
            };
            k += v * POW3[slot(off) as usize];
        }
        k
    }

    #[test]
    fn shapes_are_named_by_their_definitions() {
        let t = table(false);
        assert_eq!(t[key("...xx.xx...") as usize], FIVE);
        assert_eq!(t[key("..xxx......") as usize], F4);
        assert_eq!(t[key(".oxxx......") as usize], B4);
        assert_eq!(t[key("....x.x....") as usize], F3);
        assert_eq!(t[key("...ox.x....") as usize], B3);
        assert_eq!(t[key("....x......") as usize], F2);
        assert_eq!(t[key("ooooo.ooooo") as usize], DEAD);
        let exact = table(true);
        assert_eq!(exact[key("..xxx.xx...") as usize], OVERLINE);
        assert_eq!(t[key("..xxx.xx...") as usize], FIVE);
        // x_xxx_x: two fours on one line count as a straight four for the engine.
        assert_eq!(t[key("...x.x.x...") as usize], B3);
        assert_eq!(t[key("..x.x.x.x..") as usize], F4);
    }
}
