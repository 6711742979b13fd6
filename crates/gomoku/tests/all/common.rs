//! Helpers shared by the integration tests: boards from renju-style coordinates.

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

/// Plays a registry table of `config` to its end with `bots` (black, white), and checks
/// that its record verifies to the same outcome.
pub fn play_out_and_verify(config: serde_json::Value, table_seed: u64, bots: [&str; 2]) {
    use game::{registry, Seed, ToAct};
    let g = registry::entry::<gomoku::Gomoku>();
    let mut t = g
        .new_table(&game::TableSetup::new(
            "t",
            config,
            2,
            Seed::from_u64(table_seed),
        ))
        .expect("a table");
    for (seat, bot) in bots.iter().enumerate() {
        t.set_bot(seat, bot, &Seed::from_u64(seat as u64 + 1))
            .expect("a bot");
    }
    while let ToAct::Seat(s) = t.to_act() {
        t.bot_move(s).expect("a move");
    }
    let verdict = g
        .verify(&t.record(), &game::VerifyOptions::default())
        .expect("it verifies");
    assert_eq!(verdict.outcome, t.outcome().expect("over"));
}
