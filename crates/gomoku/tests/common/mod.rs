//! Helpers shared by the integration tests: boards from renju-style coordinates.
#![allow(dead_code)]

use gomoku::notation::parse_point;
use gomoku::{Board, Color, Point};

/// Points from a space-separated list like "h8 i9" on a 15×15 board.
pub fn pts(list: &str) -> Vec<Point> {
    list.split_whitespace()
        .map(|t| parse_point(t, 15).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// A 15×15 board with the given black and white stones.
pub fn board(black: &str, white: &str) -> Board {
    let mut b = Board::new(15);
    for p in pts(black) {
        b.set(p, Some(Color::Black));
    }
    for p in pts(white) {
        b.set(p, Some(Color::White));
    }
    b
}

/// One point in renju notation.
pub fn pt(s: &str) -> Point {
    pts(s)[0]
}

/// A move order (black first) that puts exactly these stones on the board; white's list
/// may be one shorter or equal to black's.
pub fn interleave(black: &str, white: &str) -> Vec<Point> {
    let b = pts(black);
    let w = pts(white);
    assert!(
        b.len() == w.len() || b.len() == w.len() + 1,
        "stone counts do not alternate"
    );
    let mut out = Vec::new();
    for (i, &p) in b.iter().enumerate() {
        out.push(p);
        if let Some(&q) = w.get(i) {
            out.push(q);
        }
    }
    out
}
