//! The seed's computer player: the "winning combinations" (获胜组合) evaluator.
//!
//! Every run of five points in a row is a winning combination. A combination that holds
//! only one colour's stones is still open to that colour, and the more stones it holds the
//! more it is worth: to attack for the computer, to defend for the opponent. Each empty
//! point sums the worth of the open combinations through it; the computer attacks at its
//! best point unless the opponent's best point is worth more, in which case it defends
//! there. One ply, no search: the baseline the engine is measured against.

use crate::board::{Board, Color, Point, DIRECTIONS};

/// Worth of an open combination holding 0..=4 of the computer's stones.
const ATTACK: [i64; 5] = [1, 22, 420, 2_100, 20_000];
/// Worth of an open combination holding 0..=4 of the opponent's stones.
const DEFEND: [i64; 5] = [1, 20, 400, 2_000, 10_000];

/// The attack and defence worth of every empty point for `me`, as (point, attack, defence).
pub fn grades(board: &Board, me: Color) -> Vec<(Point, i64, i64)> {
    let size = board.size();
    let n = usize::from(size);
    let mut attack = vec![0i64; n * n];
    let mut defend = vec![0i64; n * n];
    for start in board.points() {
        for dir in DIRECTIONS {
            if start.step(dir, 4, size).is_none() {
                continue;
            }
            let cells: Vec<Point> = (0..5).filter_map(|k| start.step(dir, k, size)).collect();
            let mine = cells.iter().filter(|&&p| board.get(p) == Some(me)).count();
            let theirs = cells
                .iter()
                .filter(|&&p| board.get(p) == Some(me.other()))
                .count();
            for &p in &cells {
                if board.get(p).is_some() {
                    continue;
                }
                let i = usize::from(p.y) * n + usize::from(p.x);
                if theirs == 0 {
                    attack[i] += ATTACK[mine];
                }
                if mine == 0 {
                    defend[i] += DEFEND[theirs];
                }
            }
        }
    }
    board
        .points()
        .filter(|&p| board.get(p).is_none())
        .map(|p| {
            let i = usize::from(p.y) * n + usize::from(p.x);
            (p, attack[i], defend[i])
        })
        .collect()
}

/// The classic choice among `allowed` points: the best attack, or the best defence when
/// that is worth more. `pick` chooses among equally good points (given their number).
pub fn choose(
    board: &Board,
    me: Color,
    allowed: &[Point],
    mut pick: impl FnMut(usize) -> usize,
) -> Option<Point> {
    if board.stones() == 0 {
        let c = board.size() / 2;
        let centre = Point::new(c, c);
        if allowed.contains(&centre) {
            return Some(centre);
        }
    }
    let g: Vec<(Point, i64, i64)> = grades(board, me)
        .into_iter()
        .filter(|(p, _, _)| allowed.contains(p))
        .collect();
    let best_attack = g.iter().map(|t| t.1).max()?;
    let best_defend = g.iter().map(|t| t.2).max()?;
    let ties: Vec<Point> = if best_attack >= best_defend {
        g.iter()
            .filter(|t| t.1 == best_attack)
            .map(|t| t.0)
            .collect()
    } else {
        g.iter()
            .filter(|t| t.2 == best_defend)
            .map(|t| t.0)
            .collect()
    };
    let i = pick(ties.len());
    ties.get(i).or(ties.first()).copied()
}
