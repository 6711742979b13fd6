//! Renju's forbidden points (禁手) for black, decided exactly.
//!
//! Definitions follow the Renju International Federation rules (RIF, "The International
//! Rules of Renju", articles on fours, threes and forbidden moves):
//!
//! * a **five** is exactly five black stones in a row; a move that makes a five is never
//!   forbidden, whatever else it makes;
//! * an **overline** is six or more in a row;
//! * a **four** is a line that one more stone turns into a five; a **straight four** has two
//!   such points for the same four stones (`_XXXX_`). Two fours may lie on one line
//!   (`X_XXX_X`, `XX_XX_XX`): they are told apart by their stones, not by their line;
//! * a **three** is a line that one more stone turns into a straight four. RIF's wording is
//!   "a row with three stones to which you, *without at the same time a five in a row is
//!   made*, can add one more stone to attain a straight four". So the completing stone
//!   counts only if black may play it and it is not a five:
//!   - it must not make five for black on any line: a point that makes five wins there
//!     and then, so it makes a five, not a straight four;
//!   - it must not be forbidden itself (overline, double-four or double-three, decided by
//!     the same rules with both stones placed). This is the recursive case.
//!
//!   A "three" whose every completing point is a five point or forbidden is no three;
//! * black may not play an overline, a double-four (two or more fours made at once) or a
//!   double-three (two or more threes made at once).
//!
//! The five-point clause is how the referee programs used in renju play read RIF, and how
//! the strongest engines do: the widely reused forbidden-point finder (the
//! `CForbiddenPointFinder` routine found in many Gomocup/renju programs) answers "no
//! straight four" for a point that makes five on any line, and Rapfi counts a three only
//! through a point whose combined shape is a straight four, which a five outranks. Before
//! qipai followed it, a black stone beside an unblocked four of its own (black could have
//! won at once) was called a double-three, and game records in which black played such a
//! point were refused.

use crate::board::{Board, Color, Point, DIRECTIONS, MAX_SIZE};
use serde::{Deserialize, Serialize};

/// Why black may not play a point.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Forbidden {
    /// Six or more in a row (长连).
    Overline,
    /// Two or more fours at once (四四).
    DoubleFour,
    /// Two or more threes at once (三三).
    DoubleThree,
}

impl Forbidden {
    /// The name used by the judge and in messages.
    pub const fn name(self) -> &'static str {
        match self {
            Forbidden::Overline => "overline",
            Forbidden::DoubleFour => "double_four",
            Forbidden::DoubleThree => "double_three",
        }
    }

    /// What a player is told when the move is refused.
    pub const fn message(self) -> &'static str {
        match self {
            Forbidden::Overline => "forbidden for black: overline (six or more in a row)",
            Forbidden::DoubleFour => "forbidden for black: double-four",
            Forbidden::DoubleThree => "forbidden for black: double-three",
        }
    }
}

/// Half the length of the line looked at around a point: five on each side reaches every
/// stone that can take part in a five, and the cells beyond it that make an overline.
const HALF: usize = 5;
const LEN: usize = 2 * HALF + 1;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Cell {
    Empty,
    Black,
    Blocked,
}

/// The points a verdict looked at: every point whose stone (or emptiness) it read. The
/// verdict reads nothing else, so it stays right for as long as none of these points
/// changes — which lets a board that keeps verdicts (the engine's) renew only the verdicts
/// a new or lifted stone can touch. They are the four lines, five points each way,
/// through the point judged and through every point the recursion tried on its behalf.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Footprint([u64; FOOTPRINT_WORDS]);

/// Words of a [`Footprint`]: one bit per point of the largest board, `y * MAX_SIZE + x`.
const FOOTPRINT_WORDS: usize = (MAX_SIZE * MAX_SIZE).div_ceil(64);

impl Footprint {
    fn bit(p: Point) -> usize {
        usize::from(p.y) * MAX_SIZE + usize::from(p.x)
    }

    fn mark(&mut self, p: Point) {
        let i = Footprint::bit(p);
        self.0[i / 64] |= 1 << (i % 64);
    }

    /// Whether the verdict read the point `p`.
    pub fn contains(&self, p: Point) -> bool {
        let on_any_board = usize::from(p.x) < MAX_SIZE && usize::from(p.y) < MAX_SIZE;
        let i = Footprint::bit(p);
        on_any_board && self.0[i / 64] & (1 << (i % 64)) != 0
    }
}

/// What the check notes of the points it reads: a [`Footprint`], or nothing (`()`) when
/// only the verdict is wanted, at no cost.
trait Witness {
    fn read(&mut self, p: Point);
}

impl Witness for Footprint {
    fn read(&mut self, p: Point) {
        self.mark(p);
    }
}

impl Witness for () {
    fn read(&mut self, _: Point) {}
}

/// The cells of one line through `p`, `p` at index [`HALF`]; the points read go to
/// `seen`.
fn line(board: &Board, p: Point, dir: (i32, i32), seen: &mut impl Witness) -> [Cell; LEN] {
    let mut out = [Cell::Blocked; LEN];
    for (i, cell) in out.iter_mut().enumerate() {
        let k = i as i32 - HALF as i32;
        *cell = match p.step(dir, k, board.size()) {
            None => Cell::Blocked,
            Some(q) => {
                seen.read(q);
                match board.get(q) {
                    None => Cell::Empty,
                    Some(Color::Black) => Cell::Black,
                    Some(Color::White) => Cell::Blocked,
                }
            }
        };
    }
    out
}

/// The black run through index `i` as (first, last) indices.
fn run(cells: &[Cell; LEN], i: usize) -> (usize, usize) {
    let mut a = i;
    while a > 0 && cells[a - 1] == Cell::Black {
        a -= 1;
    }
    let mut b = i;
    while b + 1 < LEN && cells[b + 1] == Cell::Black {
        b += 1;
    }
    (a, b)
}

/// Whether black on the empty index `q` makes exactly five containing the centre.
fn five_with(cells: &mut [Cell; LEN], q: usize) -> Option<u16> {
    cells[q] = Cell::Black;
    let (a, b) = run(cells, q);
    cells[q] = Cell::Empty;
    if b - a + 1 == 5 && a <= HALF && HALF <= b {
        // The four's stones: the run without q.
        let mask = ((1u16 << (b + 1)) - (1u16 << a)) & !(1u16 << q);
        Some(mask)
    } else {
        None
    }
}

/// The distinct fours through the centre (already black) on this line, by their stones.
fn fours(cells: &mut [Cell; LEN]) -> Vec<u16> {
    let mut masks: Vec<u16> = Vec::new();
    for q in 0..LEN {
        if cells[q] == Cell::Empty {
            if let Some(m) = five_with(cells, q) {
                if !masks.contains(&m) {
                    masks.push(m);
                }
            }
        }
    }
    masks
}

/// Whether the centre (already black) lies in a straight four on this line: two points
/// that make five with the same four stones.
fn straight_four(cells: &mut [Cell; LEN]) -> bool {
    let mut seen: Vec<u16> = Vec::new();
    for q in 0..LEN {
        if cells[q] == Cell::Empty {
            if let Some(m) = five_with(cells, q) {
                if seen.contains(&m) {
                    return true;
                }
                seen.push(m);
            }
        }
    }
    false
}

/// Whether black's stone at `p` (already on `board`) makes a three along `dir`: some empty
/// point of the line turns it into a straight four, and black may play that point without
/// it being a five (a five on any line wins rather than making a straight four).
fn is_three(
    board: &mut Board,
    p: Point,
    dir: (i32, i32),
    depth: u32,
    seen: &mut impl Witness,
) -> bool {
    let mut cells = line(board, p, dir, seen);
    for i in 0..LEN {
        if cells[i] != Cell::Empty {
            continue;
        }
        cells[i] = Cell::Black;
        let straight = straight_four(&mut cells);
        cells[i] = Cell::Empty;
        if !straight {
            continue;
        }
        let Some(q) = p.step(dir, i as i32 - HALF as i32, board.size()) else {
            continue;
        };
        if place_and_judge(board, q, depth + 1, seen) == Verdict::Free {
            return true;
        }
    }
    false
}

/// Why black may not play the empty point `p`, or `None` if black may play it.
///
/// Off-board or occupied points answer `None`: they are not forbidden, just not empty.
pub fn forbidden(board: &Board, p: Point) -> Option<Forbidden> {
    if !board.is_empty_at(p) {
        return None;
    }
    let mut b = *board;
    forbidden_at(&mut b, p, 0, &mut ())
}

/// [`forbidden`], with the points the verdict read: it holds until one of them changes.
pub fn forbidden_with_footprint(board: &Board, p: Point) -> (Option<Forbidden>, Footprint) {
    let mut seen = Footprint::default();
    if !board.contains(p) {
        return (None, seen);
    }
    seen.mark(p);
    if !board.is_empty_at(p) {
        return (None, seen);
    }
    let mut b = *board;
    (forbidden_at(&mut b, p, 0, &mut seen), seen)
}

/// What a black stone on an empty point makes, as far as renju cares.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verdict {
    /// Exactly five on some line: a win, never forbidden — and not a straight four either.
    Five,
    /// Forbidden, with the reason.
    Forbidden(Forbidden),
    /// Allowed, and no five.
    Free,
}

/// The recursion behind [`forbidden`]; `board` is restored before returning.
fn forbidden_at(
    board: &mut Board,
    p: Point,
    depth: u32,
    seen: &mut impl Witness,
) -> Option<Forbidden> {
    match place_and_judge(board, p, depth, seen) {
        Verdict::Forbidden(f) => Some(f),
        Verdict::Five | Verdict::Free => None,
    }
}

/// Places black on `p`, judges it and lifts it again.
fn place_and_judge(board: &mut Board, p: Point, depth: u32, seen: &mut impl Witness) -> Verdict {
    // Each level adds a black stone; a line can hold only so many before a five or an
    // overline settles it, so this bound is never reached in a real position.
    if depth > 8 {
        return Verdict::Free;
    }
    board.set(p, Some(Color::Black));
    let verdict = judge_placed(board, p, depth, seen);
    board.set(p, None);
    verdict
}

fn judge_placed(board: &mut Board, p: Point, depth: u32, seen: &mut impl Witness) -> Verdict {
    let mut lines = [[Cell::Empty; LEN]; 4];
    for (d, dir) in DIRECTIONS.iter().enumerate() {
        lines[d] = line(board, p, *dir, seen);
    }
    let mut overline = false;
    for cells in &lines {
        let (a, b) = run(cells, HALF);
        match b - a + 1 {
            5 => return Verdict::Five,
            n if n >= 6 => overline = true,
            _ => {}
        }
    }
    if overline {
        return Verdict::Forbidden(Forbidden::Overline);
    }
    let mut four_count = 0;
    let mut has_four = [false; 4];
    for (d, cells) in lines.iter_mut().enumerate() {
        let n = fours(cells).len();
        four_count += n;
        has_four[d] = n > 0;
    }
    if four_count >= 2 {
        return Verdict::Forbidden(Forbidden::DoubleFour);
    }
    let mut threes = 0;
    for (d, dir) in DIRECTIONS.iter().enumerate() {
        if !has_four[d] && quick_three_shape(&lines[d]) && is_three(board, p, *dir, depth, seen) {
            threes += 1;
            if threes >= 2 {
                return Verdict::Forbidden(Forbidden::DoubleThree);
            }
        }
    }
    Verdict::Free
}

/// A cheap necessary condition for a three: at least three black stones (the centre
/// included) within a window of six cells that holds no blocked cell.
fn quick_three_shape(cells: &[Cell; LEN]) -> bool {
    (HALF.saturating_sub(5)..=HALF).any(|start| {
        let end = start + 6;
        end <= LEN
            && cells[start..end].iter().all(|&c| c != Cell::Blocked)
            && cells[start..end]
                .iter()
                .filter(|&&c| c == Cell::Black)
                .count()
                >= 3
    })
}

/// Every empty point black may not play, with its reason, row by row.
pub fn forbidden_points(board: &Board) -> Vec<(Point, Forbidden)> {
    board
        .points()
        .filter_map(|p| forbidden(board, p).map(|f| (p, f)))
        .collect()
}
