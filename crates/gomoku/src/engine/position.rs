//! The engine's board: stones plus, for every point, incrementally updated line patterns,
//! threat combinations and evaluation terms.
//!
//! Placing a stone touches only the 40 points within five cells of it along its four lines
//! (their keys gain the stone; their patterns are looked up again) and the 25 points around
//! it (the candidate neighbourhood). Nothing is allocated per move.
//!
//! The board is exact: after any sequence of plays and undos, every point's patterns,
//! classes and worth are what a board built afresh from the same stones would hold. Under
//! renju one part of that needs more than the lines: where black's lines show two threes,
//! the class depends on the exact forbidden-point check, whose recursion also reads the
//! lines of the points that would complete those threes — stones that can lie well off
//! the point's own lines. Each such point keeps the [`Footprint`] of its verdict (every
//! point the check read), and a stone placed or lifted on a footprint renews the verdict.
//! Such points are few, so this costs little.

use super::pattern::{
    self, combo, renju_suspect, slot, Combo, Pattern, B1, B2, B3, B4, BLOCKED, C_B4, C_B4F3, C_F3,
    C_F3F3, C_F4, C_FIVE, C_NONE, DEAD, F1, F2, F3, F4, FIVE, HALF, OVERLINE, OWN, POW3,
};
use crate::board::{Board, Color, Point, Rule, DIRECTIONS};
use crate::renju::{self, Footprint};
use std::sync::OnceLock;

mod verdicts;

/// A point of the engine's board, `y * size + x`.
pub type Sq = usize;

/// What one line pattern is worth to the side that could play it.
pub(super) const VALUE: [i32; 11] = {
    let mut v = [0; 11];
    v[DEAD as usize] = 0;
    v[B1 as usize] = 1;
    v[F1 as usize] = 3;
    v[B2 as usize] = 6;
    v[F2 as usize] = 16;
    v[B3 as usize] = 20;
    v[F3 as usize] = 70;
    v[B4 as usize] = 80;
    v[F4 as usize] = 400;
    v[FIVE as usize] = 3000;
    v[OVERLINE as usize] = 0;
    v
};

/// Bonus for a point that combines threats on several lines.
pub(super) const COMBO_BONUS: [i32; 7] = {
    let mut v = [0; 7];
    v[C_NONE as usize] = 0;
    v[C_F3 as usize] = 0;
    v[C_B4 as usize] = 0;
    v[C_F3F3 as usize] = 250;
    v[C_B4F3 as usize] = 500;
    v[C_F4 as usize] = 800;
    v[C_FIVE as usize] = 5000;
    v
};

/// A point's four line patterns summed up: its threat class, its raw worth, and what
/// renju says of it for black.
#[derive(Clone, Copy)]
struct Combined {
    combo: Combo,
    renju: u8,
    raw: i16,
}

/// Black may play it as far as renju is concerned.
const RENJU_FREE: u8 = 0;
/// Certainly forbidden to black: an overline or fours on two lines, and no five.
const RENJU_BARRED: u8 = 1;
/// Two threes: forbidden unless the exact check finds one of them false.
const RENJU_CHECK: u8 = 2;

fn combined_index(p: [Pattern; 4]) -> usize {
    ((usize::from(p[0]) * 11 + usize::from(p[1])) * 11 + usize::from(p[2])) * 11 + usize::from(p[3])
}

/// The table of [`Combined`] for every four patterns (11^4 entries).
fn combined() -> &'static [Combined] {
    static TABLE: OnceLock<Vec<Combined>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Vec::with_capacity(11 * 11 * 11 * 11);
        for i in 0..11 * 11 * 11 * 11usize {
            let p = [
                (i / 1331) as Pattern,
                (i / 121 % 11) as Pattern,
                (i / 11 % 11) as Pattern,
                (i % 11) as Pattern,
            ];
            let raw: i32 = p.iter().map(|&x| VALUE[usize::from(x)]).sum();
            let fours = p.iter().filter(|&&x| x == B4 || x == F4).count();
            let threes = p.iter().filter(|&&x| x == F3).count();
            let renju = if p.contains(&FIVE) {
                RENJU_FREE
            } else if p.contains(&OVERLINE) || fours >= 2 {
                RENJU_BARRED
            } else if threes >= 2 {
                RENJU_CHECK
            } else {
                RENJU_FREE
            };
            t.push(Combined {
                combo: combo(p),
                renju,
                raw: raw.min(i32::from(i16::MAX)) as i16,
            });
        }
        t
    })
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The engine's incremental board.
#[derive(Clone)]
pub struct Position {
    size: usize,
    rule: Rule,
    renju: bool,
    cells: Vec<u8>,
    keys: Vec<[[u32; 4]; 2]>,
    pats: Vec<[[Pattern; 4]; 2]>,
    combos: Vec<[Combo; 2]>,
    scores: Vec<[i32; 2]>,
    totals: [i32; 2],
    counts: [[u16; 7]; 2],
    near: Vec<u8>,
    nbr: Vec<[[u16; 10]; 4]>,
    zobrist: Vec<[u64; 2]>,
    hash: u64,
    history: Vec<Sq>,
    board: Board,
    tables: [&'static [Pattern]; 2],
    /// Renju: the empty squares whose black class hangs on the exact forbidden-point check
    /// (two threes on their lines), with each one's place in the list in `check_slot`.
    checks: Vec<u16>,
    check_slot: Vec<u16>,
    /// Renju: for a square in `checks`, the points its verdict read; a stone placed or
    /// lifted there renews the verdict.
    footprints: Vec<Footprint>,
    /// Renju: the update (play or undo) at which a square's verdict was last decided, so
    /// that one update decides each verdict once.
    decided: Vec<u32>,
    update: u32,
}

/// Marks a missing neighbour in the neighbour table.
const NONE: u16 = u16::MAX;

impl Position {
    /// An empty board of side `size` under `rule`.
    pub fn new(size: u8, rule: Rule) -> Position {
        let n = usize::from(size);
        let cells = n * n;
        let mut keys = vec![[[0u32; 4]; 2]; cells];
        let mut nbr = vec![[[NONE; 10]; 4]; cells];
        for sq in 0..cells {
            let p = Point::new((sq % n) as u8, (sq / n) as u8);
            for (d, &dir) in DIRECTIONS.iter().enumerate() {
                for k in (-HALF..=HALF).filter(|&k| k != 0) {
                    let s = slot(k);
                    match p.step(dir, k, size) {
                        Some(q) => {
                            nbr[sq][d][s as usize] =
                                (usize::from(q.y) * n + usize::from(q.x)) as u16
                        }
                        None => {
                            keys[sq][0][d] += BLOCKED * POW3[s as usize];
                            keys[sq][1][d] += BLOCKED * POW3[s as usize];
                        }
                    }
                }
            }
        }
        let tables = [
            pattern::table(rule.exact_five(Color::Black)),
            pattern::table(rule.exact_five(Color::White)),
        ];
        let zobrist = (0..cells)
            .map(|i| {
                [
                    splitmix(i as u64 * 2 + 1),
                    splitmix(i as u64 * 2 + 0x5555_0000),
                ]
            })
            .collect();
        let mut pos = Position {
            size: n,
            rule,
            renju: rule.has_forbidden(Color::Black),
            cells: vec![0; cells],
            keys,
            pats: vec![[[DEAD; 4]; 2]; cells],
            combos: vec![[C_NONE; 2]; cells],
            scores: vec![[0; 2]; cells],
            totals: [0; 2],
            counts: [[0; 7]; 2],
            near: vec![0; cells],
            nbr,
            zobrist,
            hash: 0,
            history: Vec::with_capacity(cells),
            board: Board::new(size),
            tables,
            checks: Vec::new(),
            check_slot: vec![NONE; cells],
            footprints: vec![Footprint::default(); cells],
            decided: vec![0; cells],
            update: 1,
        };
        for sq in 0..cells {
            for d in 0..4 {
                for c in 0..2 {
                    pos.pats[sq][c][d] = pos.tables[c][pos.keys[sq][c][d] as usize];
                }
            }
            for c in 0..2 {
                pos.refresh(sq, c);
                pos.add(sq, c);
            }
        }
        pos
    }

    /// A position after `moves` (black first). Fails on an off-board or repeated point.
    pub fn from_moves(size: u8, rule: Rule, moves: &[Point]) -> Result<Position, String> {
        let mut pos = Position::new(size, rule);
        for (i, &p) in moves.iter().enumerate() {
            let sq = pos
                .sq_checked(p)
                .ok_or_else(|| format!("move {} ({p}) is off the board", i + 1))?;
            if pos.cells[sq] != 0 {
                return Err(format!("move {} ({p}) is on an occupied point", i + 1));
            }
            pos.play(sq);
        }
        Ok(pos)
    }

    /// Board side.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The rule variant.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// The square of a point, if on the board.
    pub fn sq_checked(&self, p: Point) -> Option<Sq> {
        let (x, y) = (usize::from(p.x), usize::from(p.y));
        (x < self.size && y < self.size).then_some(y * self.size + x)
    }

    /// The point of a square.
    pub fn point(&self, sq: Sq) -> Point {
        Point::new((sq % self.size) as u8, (sq / self.size) as u8)
    }

    /// Number of points.
    pub fn cells(&self) -> usize {
        self.cells.len()
    }

    /// Stones on the board.
    pub fn ply(&self) -> usize {
        self.history.len()
    }

    /// The moves played, as squares.
    pub fn history(&self) -> &[Sq] {
        &self.history
    }

    /// The colour to move: 0 black, 1 white.
    pub fn side(&self) -> usize {
        self.history.len() & 1
    }

    /// Whether the square is empty.
    pub fn is_empty(&self, sq: Sq) -> bool {
        self.cells[sq] == 0
    }

    /// The stone on a square: 0 none, 1 black, 2 white.
    pub fn stone(&self, sq: Sq) -> u8 {
        self.cells[sq]
    }

    /// Whether a stone lies within two points of the square (a candidate move).
    pub fn is_near(&self, sq: Sq) -> bool {
        self.near[sq] > 0
    }

    /// Zobrist hash of the stones.
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The combination colour `c` (0 black, 1 white) would make on the square.
    pub fn combo(&self, sq: Sq, c: usize) -> Combo {
        self.combos[sq][c]
    }

    /// The four line patterns colour `c` would make on the empty square.
    pub fn patterns(&self, sq: Sq, c: usize) -> [Pattern; 4] {
        self.pats[sq][c]
    }

    /// The square's heuristic worth to colour `c`.
    pub fn score(&self, sq: Sq, c: usize) -> i32 {
        self.scores[sq][c]
    }

    /// Empty squares where colour `c` has at least combination `at_least`: a quick count.
    pub fn count_at_least(&self, c: usize, at_least: Combo) -> u32 {
        self.counts[c][usize::from(at_least)..]
            .iter()
            .map(|&n| u32::from(n))
            .sum()
    }

    /// Whether colour `c` can make a four (or a five) with its next stone.
    pub fn can_four(&self, c: usize) -> bool {
        let n = &self.counts[c];
        n[usize::from(C_B4)]
            + n[usize::from(C_B4F3)]
            + n[usize::from(C_F4)]
            + n[usize::from(C_FIVE)]
            > 0
    }

    /// The strongest line pattern colour `c` would make on the square (overlines aside).
    pub fn max_pattern(&self, sq: Sq, c: usize) -> Pattern {
        let p = self.pats[sq][c];
        let m = p[0].max(p[1]).max(p[2]).max(p[3]);
        if m == OVERLINE {
            p.iter()
                .copied()
                .filter(|&x| x != OVERLINE)
                .max()
                .unwrap_or(DEAD)
        } else {
            m
        }
    }

    /// Whether a stone of colour `c` on the empty square is forbidden (renju black only).
    pub fn forbidden(&self, sq: Sq, c: usize) -> bool {
        c == 0
            && self.rule.has_forbidden(Color::Black)
            && renju_suspect(self.pats[sq][0])
            && renju::forbidden(&self.board, self.point(sq)).is_some()
    }

    /// The static evaluation for the side to move: its threats against the opponent's.
    pub fn evaluate(&self) -> i32 {
        let me = self.side();
        let op = 1 - me;
        (self.totals[me] * 5) / 4 - self.totals[op]
    }

    /// Looks up the square's class and worth for colour `c` from its line patterns (and,
    /// for renju black with two threes, from the exact check).
    #[inline]
    fn refresh(&mut self, sq: Sq, c: usize) {
        let p = self.pats[sq][c];
        let e = combined()[combined_index(p)];
        let mut barred = false;
        if c == 0 && self.renju {
            if e.renju == RENJU_CHECK {
                barred = self.decide(sq);
            } else {
                barred = e.renju == RENJU_BARRED;
                if self.check_slot[sq] != NONE {
                    self.delist(sq);
                }
            }
        }
        if barred {
            // Forbidden for black: no threat, and worth little (white may aim at it).
            self.combos[sq][c] = C_NONE;
            self.scores[sq][c] = i32::from(e.raw) / 4;
        } else {
            self.combos[sq][c] = e.combo;
            self.scores[sq][c] = i32::from(e.raw) + COMBO_BONUS[usize::from(e.combo)];
        }
    }

    fn add(&mut self, sq: Sq, c: usize) {
        self.totals[c] += self.scores[sq][c];
        self.counts[c][usize::from(self.combos[sq][c])] += 1;
    }

    fn remove(&mut self, sq: Sq, c: usize) {
        self.totals[c] -= self.scores[sq][c];
        self.counts[c][usize::from(self.combos[sq][c])] -= 1;
    }

    /// Adds (or removes) colour `c`'s stone on `sq` to the keys of the points on its lines.
    fn touch_lines(&mut self, sq: Sq, c: usize, placing: bool) {
        let (own, other) = (c & 1, 1 - (c & 1));
        let lines = self.nbr[sq];
        for (d, line) in lines.iter().enumerate() {
            for (s, &q) in line.iter().enumerate() {
                if q == NONE {
                    continue;
                }
                let q = usize::from(q);
                // `sq` seen from `q` sits at the mirrored slot.
                let w = POW3[9 - s];
                let keys = &mut self.keys[q];
                if placing {
                    keys[own][d] += OWN * w;
                    keys[other][d] += BLOCKED * w;
                } else {
                    keys[own][d] -= OWN * w;
                    keys[other][d] -= BLOCKED * w;
                }
                let (k0, k1) = (keys[0][d] as usize, keys[1][d] as usize);
                if self.cells[q] != 0 {
                    continue;
                }
                let p0 = self.tables[0][k0];
                let p1 = self.tables[1][k1];
                let pats = &mut self.pats[q];
                if p0 == pats[0][d] && p1 == pats[1][d] {
                    // Most far points see the new stone without any change of shape, and a
                    // class is a function of the shapes; renju verdicts that read this
                    // square are renewed by `renew_verdicts`.
                    continue;
                }
                pats[0][d] = p0;
                pats[1][d] = p1;
                self.remove(q, 0);
                self.remove(q, 1);
                self.refresh(q, 0);
                self.refresh(q, 1);
                self.add(q, 0);
                self.add(q, 1);
            }
        }
    }

    fn touch_near(&mut self, sq: Sq, delta: i8) {
        let (x, y) = ((sq % self.size) as i32, (sq / self.size) as i32);
        let n = self.size as i32;
        for dy in -2..=2 {
            for dx in -2..=2 {
                let (a, b) = (x + dx, y + dy);
                if (0..n).contains(&a) && (0..n).contains(&b) {
                    let q = (b * n + a) as usize;
                    self.near[q] = self.near[q].wrapping_add_signed(delta);
                }
            }
        }
    }

    /// Plays the side to move's stone on the empty square.
    pub fn play(&mut self, sq: Sq) {
        let c = self.side();
        self.remove(sq, 0);
        self.remove(sq, 1);
        if self.renju {
            self.begin_update();
            self.delist(sq);
        }
        self.cells[sq] = c as u8 + 1;
        self.board.set(
            self.point(sq),
            Some(if c == 0 { Color::Black } else { Color::White }),
        );
        self.hash ^= self.zobrist[sq][c];
        self.history.push(sq);
        self.touch_lines(sq, c, true);
        self.renew_verdicts(sq);
        self.touch_near(sq, 1);
    }

    /// Takes back the last stone.
    pub fn undo(&mut self) {
        let Some(sq) = self.history.pop() else { return };
        let c = self.side();
        if self.renju {
            self.begin_update();
        }
        self.board.set(self.point(sq), None);
        self.cells[sq] = 0;
        self.touch_lines(sq, c, false);
        self.touch_near(sq, -1);
        // An occupied square's patterns are not kept up to date: look them up afresh.
        for d in 0..4 {
            self.pats[sq][0][d] = self.tables[0][self.keys[sq][0][d] as usize];
            self.pats[sq][1][d] = self.tables[1][self.keys[sq][1][d] as usize];
        }
        self.refresh(sq, 0);
        self.refresh(sq, 1);
        self.hash ^= self.zobrist[sq][c];
        self.add(sq, 0);
        self.add(sq, 1);
        self.renew_verdicts(sq);
    }

    /// Empty squares where colour `c` makes five, up to two (one is a four to block, two
    /// cannot both be blocked).
    pub fn five_points(&self, c: usize) -> ([Sq; 2], usize) {
        let mut out = [0; 2];
        let mut n = 0;
        if self.counts[c][usize::from(C_FIVE)] == 0 {
            return (out, 0);
        }
        for sq in 0..self.cells.len() {
            if self.cells[sq] == 0 && self.combos[sq][c] == C_FIVE {
                out[n] = sq;
                n += 1;
                if n == 2 {
                    break;
                }
            }
        }
        (out, n)
    }

    /// Empty squares where colour `c` makes five, looked for only on the lines through `sq`
    /// (after a four was just made there).
    pub fn five_points_around(&self, sq: Sq, c: usize) -> ([Sq; 2], usize) {
        let mut out = [0; 2];
        let mut n = 0;
        for d in 0..4 {
            for s in 0..10 {
                let q = self.nbr[sq][d][s];
                if q == NONE {
                    continue;
                }
                let q = usize::from(q);
                if self.cells[q] == 0 && self.combos[q][c] == C_FIVE && (n == 0 || out[0] != q) {
                    out[n] = q;
                    n += 1;
                    if n == 2 {
                        return (out, n);
                    }
                }
            }
        }
        (out, n)
    }
}
