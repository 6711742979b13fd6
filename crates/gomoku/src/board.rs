//! The board: points, stones, the rule variants and five-in-a-row detection.
//!
//! This is the rules' own board, kept simple and obviously right; the engine keeps a faster
//! incremental copy of its own (see [`crate::engine`]) and is tested against this one.

use serde::{Deserialize, Serialize};
use std::fmt;

/// The largest board side supported (Gomocup's 20×20).
pub const MAX_SIZE: usize = 20;

/// The four line directions through a point: across, down, and the two diagonals.
pub const DIRECTIONS: [(i32, i32); 4] = [(1, 0), (0, 1), (1, 1), (1, -1)];

/// A point of the board: `x` is the column and `y` the row, both 0-based from the top left,
/// as in the Gomocup protocol. Its JSON form is `[x, y]`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "[u8; 2]", into = "[u8; 2]")]
pub struct Point {
    /// Column, 0-based from the left.
    pub x: u8,
    /// Row, 0-based from the top.
    pub y: u8,
}

impl Point {
    /// The point at column `x`, row `y`.
    pub const fn new(x: u8, y: u8) -> Point {
        Point { x, y }
    }

    /// The point `steps` away along `dir`, if it is on a board of side `size`.
    pub fn step(self, dir: (i32, i32), steps: i32, size: u8) -> Option<Point> {
        let x = i32::from(self.x) + dir.0 * steps;
        let y = i32::from(self.y) + dir.1 * steps;
        let s = i32::from(size);
        if (0..s).contains(&x) && (0..s).contains(&y) {
            Some(Point::new(x as u8, y as u8))
        } else {
            None
        }
    }
}

impl From<[u8; 2]> for Point {
    fn from(a: [u8; 2]) -> Point {
        Point::new(a[0], a[1])
    }
}

impl From<Point> for [u8; 2] {
    fn from(p: Point) -> [u8; 2] {
        [p.x, p.y]
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{},{}", self.x, self.y)
    }
}

/// A stone's colour. Black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Color {
    /// The first player (先手).
    Black,
    /// The second player.
    White,
}

impl Color {
    /// The opponent's colour.
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for black, 1 for white: where the colour's entry sits in per-colour pairs (undo
    /// counts). Which seat plays it is the table's [`Config::black`](crate::Config::black).
    pub const fn index(self) -> usize {
        match self {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    /// The colour of the stone played as move number `ply` (0-based).
    pub const fn of_ply(ply: usize) -> Color {
        if ply.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The name players read: `black` / `white`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

/// The rule variant, chosen per table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// Five or more in a row wins (the original program's game).
    #[default]
    Freestyle,
    /// Exactly five wins; six or more is no win (but is allowed).
    Standard,
    /// Black may not make a double-three, double-four or overline; exactly five wins for
    /// black, five or more for white.
    Renju,
}

impl Rule {
    /// Whether only exactly five wins for `color` (six or more then does not count).
    pub const fn exact_five(self, color: Color) -> bool {
        match self {
            Rule::Freestyle => false,
            Rule::Standard => true,
            Rule::Renju => matches!(color, Color::Black),
        }
    }

    /// Whether `color` has forbidden points under this rule.
    pub const fn has_forbidden(self, color: Color) -> bool {
        matches!((self, color), (Rule::Renju, Color::Black))
    }

    /// The rule's name as typed in configurations and judge requests.
    pub const fn name(self) -> &'static str {
        match self {
            Rule::Freestyle => "freestyle",
            Rule::Standard => "standard",
            Rule::Renju => "renju",
        }
    }

    /// Reads a rule name.
    pub fn parse(s: &str) -> Option<Rule> {
        match s {
            "freestyle" => Some(Rule::Freestyle),
            "standard" => Some(Rule::Standard),
            "renju" => Some(Rule::Renju),
            _ => None,
        }
    }
}

/// A board of side `size` (5 to [`MAX_SIZE`]) holding stones. Cheap to copy.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    size: u8,
    cells: [Option<Color>; MAX_SIZE * MAX_SIZE],
}

impl Board {
    /// An empty board. Callers check the size first; it is clamped to 5..=[`MAX_SIZE`].
    pub fn new(size: u8) -> Board {
        Board {
            size: size.clamp(5, MAX_SIZE as u8),
            cells: [None; MAX_SIZE * MAX_SIZE],
        }
    }

    /// The side of the board.
    pub const fn size(&self) -> u8 {
        self.size
    }

    /// Whether the point lies on this board.
    pub const fn contains(&self, p: Point) -> bool {
        p.x < self.size && p.y < self.size
    }

    fn idx(p: Point) -> usize {
        usize::from(p.y) * MAX_SIZE + usize::from(p.x)
    }

    /// The stone on `p` (none off the board).
    pub fn get(&self, p: Point) -> Option<Color> {
        if self.contains(p) {
            self.cells[Self::idx(p)]
        } else {
            None
        }
    }

    /// Whether `p` is on the board and empty.
    pub fn is_empty_at(&self, p: Point) -> bool {
        self.contains(p) && self.cells[Self::idx(p)].is_none()
    }

    /// Puts (or with `None` removes) a stone; off-board points are ignored.
    pub fn set(&mut self, p: Point, stone: Option<Color>) {
        if self.contains(p) {
            self.cells[Self::idx(p)] = stone;
        }
    }

    /// Every point of the board, row by row.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        let s = self.size;
        (0..s).flat_map(move |y| (0..s).map(move |x| Point::new(x, y)))
    }

    /// Number of stones on the board.
    pub fn stones(&self) -> usize {
        self.points().filter(|&p| self.get(p).is_some()).count()
    }

    /// How many stones of `color` run from `p` (exclusive) along `dir`.
    pub fn run_from(&self, p: Point, dir: (i32, i32), color: Color) -> usize {
        let mut n = 0;
        let mut k = 1;
        while let Some(q) = p.step(dir, k, self.size) {
            if self.get(q) != Some(color) {
                break;
            }
            n += 1;
            k += 1;
        }
        n
    }

    /// The length of the unbroken line of `color` through `p` along `dir`, counting `p`
    /// itself as `color`.
    pub fn run_through(&self, p: Point, dir: (i32, i32), color: Color) -> usize {
        1 + self.run_from(p, dir, color) + self.run_from(p, (-dir.0, -dir.1), color)
    }

    /// The winning line if a stone of `color` on `p` (placed or imagined) completes a five
    /// under `rule`: five exactly where the rule says so, five or more otherwise.
    pub fn five_through(&self, p: Point, color: Color, rule: Rule) -> Option<Vec<Point>> {
        for dir in DIRECTIONS {
            let run = self.run_through(p, dir, color);
            let wins = if rule.exact_five(color) {
                run == 5
            } else {
                run >= 5
            };
            if wins {
                let back = self.run_from(p, (-dir.0, -dir.1), color) as i32;
                return Some(
                    (0..run as i32)
                        .filter_map(|k| p.step(dir, k - back, self.size))
                        .collect(),
                );
            }
        }
        None
    }

    /// Whether a stone of `color` on `p` would make six or more in some line.
    pub fn overline_through(&self, p: Point, color: Color) -> bool {
        DIRECTIONS
            .iter()
            .any(|&d| self.run_through(p, d, color) >= 6)
    }
}
