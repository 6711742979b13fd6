//! The Swap2 opening, as Gomocup plays it (the `SWAP2BOARD` command): the first player
//! lays three stones; the second swaps colours, plays a fourth stone and stays white, or
//! lays two more and hands the choice back; then the first player swaps or plays the sixth.
//!
//! Every choice is the engine's evaluation of the position for the side to move: an
//! opening should be as even as the engine can tell, since the opponent picks the better
//! side of it; a position clearly better for one colour is taken as that colour. The
//! evaluation is a search score (`Thought::eval`), in the engine's units, where a four-three
//! threat is some thousands and [`EVEN`] is a small edge.

use crate::board::{Point, Rule};
use crate::engine::{Engine, Limits};
use std::fmt;
use std::time::Duration;

/// An edge (for the side to move) that counts as even: within it the second player lays
/// two stones and hands the choice back.
pub const EVEN: i32 = 120;

/// The three-stone openings the first player chooses from (black, white, black), as
/// offsets from the centre. They are compact shapes common in Swap2 play; the engine picks
/// the one it finds most even.
const OPENINGS: [[(i8, i8); 3]; 8] = [
    [(0, 0), (1, 0), (2, 2)],
    [(0, 0), (1, 1), (2, 0)],
    [(0, 0), (1, 0), (1, 2)],
    [(0, 0), (0, 1), (2, 1)],
    [(0, 0), (1, 1), (0, 2)],
    [(0, 0), (1, 0), (3, 0)],
    [(0, 0), (1, 1), (3, 1)],
    [(0, 0), (2, 1), (1, 2)],
];

/// What the brain answers to `SWAP2BOARD`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// The first three stones: black, white, black.
    Opening([Point; 3]),
    /// Take the other colour.
    Swap,
    /// Keep the colour and play this stone (the fourth as white, or the sixth).
    Stay(Point),
    /// Lay the fourth (white) and fifth (black) stones and let the opponent choose.
    Two(Point, Point),
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let xy = |p: &Point| format!("{},{}", p.x, p.y);
        match self {
            Answer::Opening(ps) => write!(f, "{} {} {}", xy(&ps[0]), xy(&ps[1]), xy(&ps[2])),
            Answer::Swap => write!(f, "SWAP"),
            Answer::Stay(p) => write!(f, "{}", xy(p)),
            Answer::Two(a, b) => write!(f, "{} {}", xy(a), xy(b)),
        }
    }
}

/// The brain's Swap2 choice for the stones laid so far (0, 3 or 5, in order), thinking for
/// about `budget` in all.
pub fn decide(
    engine: &mut Engine,
    size: u8,
    rule: Rule,
    stones: &[Point],
    budget: Duration,
) -> Result<Answer, String> {
    decide_within(engine, size, rule, stones, |share| {
        Limits::timed(budget / share)
    })
}

/// [`decide`], each search within `limits(share)`, where `share` is how many searches the
/// choice makes (8 for the opening stones, 2 or 1 for a choice): the bots think by nodes
/// (so that their games replay), the brain by the clock.
pub fn decide_within(
    engine: &mut Engine,
    size: u8,
    rule: Rule,
    stones: &[Point],
    limits: impl Fn(u32) -> Limits,
) -> Result<Answer, String> {
    match stones.len() {
        0 => open(engine, size, rule, &limits(OPENINGS.len() as u32)),
        3 => {
            engine.set_moves(size, rule, stones)?;
            // White to move: its edge, and its best fourth stone.
            let white = engine.think(&limits(2));
            let fourth = white.best.ok_or("the board is full")?;
            if white.eval <= -EVEN {
                Ok(Answer::Swap)
            } else if white.eval >= EVEN {
                Ok(Answer::Stay(fourth))
            } else {
                engine.play(fourth)?;
                let black = engine.think(&limits(2));
                let fifth = black.best.ok_or("the board is full")?;
                Ok(Answer::Two(fourth, fifth))
            }
        }
        5 => {
            engine.set_moves(size, rule, stones)?;
            let white = engine.think(&limits(1));
            match white.best {
                Some(sixth) if white.eval >= 0 => Ok(Answer::Stay(sixth)),
                _ => Ok(Answer::Swap),
            }
        }
        n => Err(format!("SWAP2BOARD comes with 0, 3 or 5 stones, not {n}")),
    }
}

/// Chooses the most even of [`OPENINGS`] around the centre, each searched within `each`.
fn open(engine: &mut Engine, size: u8, rule: Rule, each: &Limits) -> Result<Answer, String> {
    let centre = i16::from(size / 2);
    let mut best: Option<(i32, [Point; 3])> = None;
    for shape in OPENINGS {
        let mut points = [Point::new(0, 0); 3];
        for (p, (dx, dy)) in points.iter_mut().zip(shape) {
            let (x, y) = (centre + i16::from(dx), centre + i16::from(dy));
            if x < 0 || y < 0 || x >= i16::from(size) || y >= i16::from(size) {
                return Err(format!("a {size}×{size} board is too small for Swap2"));
            }
            *p = Point::new(x as u8, y as u8);
        }
        engine.set_moves(size, rule, &points)?;
        let edge = engine.think(each).eval.abs();
        if best.is_none_or(|(e, _)| edge < e) {
            best = Some((edge, points));
        }
    }
    best.map(|(_, points)| Answer::Opening(points))
        .ok_or_else(|| "no opening".to_string())
}
