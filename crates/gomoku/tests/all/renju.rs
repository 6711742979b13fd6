//! Renju's forbidden points, pattern by pattern.
//!
//! The patterns are those defined in the Renju International Federation's rules ("The
//! International Rules of Renju", RIF, section 3 "Terms and definitions": five, overline,
//! four, straight four, three — "a row with three stones to which you, without at the same
//! time a five in a row is made, can add one more stone to attain a straight four" —
//! double-three, double-four; and the rule that a five is never forbidden). The RIF text
//! is reproduced at blog.sina.com.cn/s/blog_490524c80100077a.html. The positions are
//! constructed for these tests from those definitions, in renju coordinates (columns a–o,
//! rows 1–15 from the bottom); the "three that is no three because one end is blocked and
//! the other completion is an overline" case is the one discussed in the question
//! "Checking Forbidden Moves in Renju" (Stack Exchange; reproduced in the
//! nvidia/Nemotron-CC-Math-v1 corpus).

use crate::common;
use common::{board, pt};
use gomoku::renju::{forbidden, forbidden_points, Forbidden};

#[test]
fn renju_double_three_is_forbidden() {
    // g8 _ i8 across and h7 _ h9 down: h8 makes two open threes.
    let b = board("g8 i8 h7 h9", "a1 a3 a5 o1");
    assert_eq!(forbidden(&b, pt("h8")), Some(Forbidden::DoubleThree));
}

#[test]
fn renju_split_three_counts_as_a_three() {
    // f8 _ h8 i8 (h8 played) is a split three: g8 makes the straight four f8–i8.
    let b = board("f8 i8 h7 h9", "a1 a3 a5 o1");
    assert_eq!(forbidden(&b, pt("h8")), Some(Forbidden::DoubleThree));
}

#[test]
fn renju_blocked_three_is_no_three() {
    // White on f8 and j8 shuts the row: g8 h8 i8 can never be a straight four.
    let b = board("g8 i8 h7 h9", "f8 j8 a1 o1");
    assert_eq!(forbidden(&b, pt("h8")), None);
}

#[test]
fn renju_three_blocked_at_one_end_and_overlining_at_the_other_is_no_three() {
    // Row 8: white d8, then _ f8 g8 [h8] _ _ k8. e8 gives e8–h8 with d8 shut; i8 gives
    // f8–i8 whose far completion j8 would make f8–k8, six. No straight four: no three.
    let b = board("f8 g8 k8 h9 h10", "d8 a1 a3 a5 o1");
    assert_eq!(forbidden(&b, pt("h8")), None);
    // Without k8 the row is a true three and h8 a double-three.
    let open = board("f8 g8 h9 h10 o15", "d8 a1 a3 a5 o1");
    assert_eq!(forbidden(&open, pt("h8")), Some(Forbidden::DoubleThree));
}

#[test]
fn renju_four_three_is_allowed() {
    let b = board("e8 f8 g8 h7 h9", "a1 a3 a5 o1");
    assert_eq!(forbidden(&b, pt("h8")), None);
}

#[test]
fn renju_double_four_on_two_lines_is_forbidden() {
    // e8 f8 g8 across and h5 h6 h7 down, each closed on one side by white.
    let b = board("e8 f8 g8 h5 h6 h7", "d8 h4 a1 o1 o3");
    assert_eq!(forbidden(&b, pt("h8")), Some(Forbidden::DoubleFour));
}

#[test]
fn renju_double_four_in_one_line_x_xxx_x_is_forbidden() {
    // d8 _ f8 [g8] h8 _ j8: e8 and i8 each make a different five.
    let b = board("d8 f8 h8 j8", "a1 a3 o1");
    assert_eq!(forbidden(&b, pt("g8")), Some(Forbidden::DoubleFour));
}

#[test]
fn renju_double_four_in_one_line_xx_xx_xx_is_forbidden() {
    // c8 d8 _ [f8] g8 _ i8 j8: e8 makes c8–g8, h8 makes f8–j8.
    let b = board("c8 d8 g8 i8 j8", "a1 a3 a5 o1");
    assert_eq!(forbidden(&b, pt("f8")), Some(Forbidden::DoubleFour));
}

#[test]
fn renju_straight_four_is_one_four() {
    // e8 f8 g8 [h8]: a straight four has two completing points but is one four.
    let b = board("e8 f8 g8", "a1 a3");
    assert_eq!(forbidden(&b, pt("h8")), None);
}

#[test]
fn renju_overline_is_forbidden() {
    let b = board("d8 e8 f8 h8 i8", "a1 a3 a5 o1");
    assert_eq!(forbidden(&b, pt("g8")), Some(Forbidden::Overline));
}

#[test]
fn renju_five_is_never_forbidden_even_with_a_double_four() {
    // g8 completes d8–h8 (exactly five) and also fours down the g column.
    let b = board("d8 e8 f8 h8 g5 g6 g7 j6 k5", "a1 a3 a5 a7 o1 o3 o5 o7");
    assert_eq!(forbidden(&b, pt("g8")), None);
}

#[test]
fn renju_three_whose_completion_is_forbidden_is_no_three() {
    // h8 makes h8 h9 h10 (a real three) and e8 _ g8 h8, whose only straight-four point f8
    // is an overline for black (f5 f6 f7 [f8] f9 f10). So h8 makes one three: allowed.
    let b = board("h9 h10 e8 g8 f5 f6 f7 f9 f10", "a1 a3 a5 a7 o1 o3 o5 o7 o9");
    assert_eq!(forbidden(&b, pt("f8")), Some(Forbidden::Overline));
    assert_eq!(forbidden(&b, pt("h8")), None);
    // Without the f column, f8 is playable and h8 is a double-three.
    let plain = board("h9 h10 e8 g8", "a1 a3 a5 a7");
    assert_eq!(forbidden(&plain, pt("h8")), Some(Forbidden::DoubleThree));
}

#[test]
fn renju_three_whose_completion_is_a_double_three_is_no_three() {
    // As above, but f8 is forbidden as a double-three rather than an overline: with h8 on
    // the board, f8 would make the four e8–h8 and two threes (f8 f9 f10 down the column,
    // d10 e9 f8 on the diagonal) — a four-three-three, which is a double-three. Deciding h8
    // therefore needs f8's threes decided too: two levels of recursion.
    let b = board("h9 h10 e8 g8 f9 f10 d10 e9", "a1 a3 a5 a7 o1 o3 o5");
    let mut after = b;
    after.set(pt("h8"), Some(gomoku::Color::Black));
    assert_eq!(forbidden(&after, pt("f8")), Some(Forbidden::DoubleThree));
    assert_eq!(forbidden(&b, pt("h8")), None);
}

#[test]
fn renju_white_has_no_forbidden_points_and_wins_with_overline() {
    use gomoku::rules::State;
    use gomoku::{Config, Rule};
    let config = Config {
        rule: Rule::Renju,
        ..Config::default()
    };
    let mut s = State::new(&config).unwrap();
    // White builds d2 e2 f2 h2 i2 and then g2 makes six for white: a win.
    let moves = common::interleave("h8 h9 h10 h11 i11 a15", "d2 e2 f2 h2 i2 g2");
    for p in moves {
        s.play(p).unwrap();
        if s.end().is_some() {
            break;
        }
    }
    assert_eq!(s.end().and_then(|e| e.winner), Some(gomoku::Color::White));
}

#[test]
fn renju_forbidden_points_lists_every_point_with_its_first_reason() {
    let b = board("g8 i8 h7 h9 d8 e8 f8", "a1 a3 a5 o1 o3 o5");
    let list = forbidden_points(&b);
    assert!(list.iter().all(|&(p, _)| b.is_empty_at(p)));
    // h8 makes d8–i8, six in a row, as well as the three h7 h8 h9: overline comes first.
    assert!(list.contains(&(pt("h8"), Forbidden::Overline)));
    // Sorted row by row, each reason one of the three.
    let mut sorted = list.clone();
    sorted.sort_by_key(|&(p, _)| (p.y, p.x));
    assert_eq!(list, sorted);
    let b2 = board("g8 i8 h7 h9", "a1 a3 a5 o1");
    assert!(forbidden_points(&b2).contains(&(pt("h8"), Forbidden::DoubleThree)));
}

// ---------------------------------------------------------------------------------------
// Published positions. Each test names its source; stones are in renju coordinates as
// above. The puzzle positions are the ones in `puzzles/vcf_published.txt` (see
// `puzzles/README.md`), where they are also solved.

/// The stones of a published puzzle given as one string of alternating black and white
/// points, black first, as the lfz084 puzzle collections store them ("H9I9G8…").
fn alternating(stones: &str) -> gomoku::Board {
    let pts: Vec<String> = {
        let mut out = Vec::new();
        let mut cur = String::new();
        for ch in stones.chars() {
            if ch.is_ascii_alphabetic() && !cur.is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            cur.push(ch.to_ascii_lowercase());
        }
        out.push(cur);
        out
    };
    let black: Vec<&str> = pts.iter().step_by(2).map(String::as_str).collect();
    let white: Vec<&str> = pts.iter().skip(1).step_by(2).map(String::as_str).collect();
    board(&black.join(" "), &white.join(" "))
}

#[test]
fn published_double_three_in_a_tsume_renju_problem() {
    // Source: 連珠あれこれ (主に詰め連珠), http://haisaresu.blog.fc2.com/, introductory
    // four-chasing (四追い) problem 11, as collected in lfz084/lfz084.github.io
    // puzzle/json/入门-四追い_puzzle.json (id shioi011 in puzzles/vcf_published.txt).
    // J9 makes J7 J8 J9 down the J column (J10 makes the straight four J7–J10; J5 is white)
    // and H7 I8 J9 on the diagonal (open at G6 and K10): two threes.
    let b = alternating("H9I9G8E8H8F8I8K8J8F7H7I7J7H6I6K6I5J5");
    assert_eq!(forbidden(&b, pt("j9")), Some(Forbidden::DoubleThree));
}

#[test]
fn published_double_three_in_an_engine_test_set() {
    // Source: junghyun397/mintaka documents/renju-test-set.md, "basic-forbid" board, whose
    // answer marks M5 as a double-three: M3 M4 M5 up the M column and K3 L4 M5 on the
    // diagonal, both open.
    let b = basic_forbid();
    assert_eq!(forbidden(&b, pt("m5")), Some(Forbidden::DoubleThree));
}

/// The "basic-forbid" board of junghyun397/mintaka documents/renju-test-set.md.
fn basic_forbid() -> gomoku::Board {
    board(
        "e13 c12 e12 b11 e11 a10 d8 e8 g8 h8 i8 b4 l4 m4 b3 d3 k3 m3 d2",
        "e10",
    )
}

#[test]
fn published_double_four_is_the_forbidden_catch_of_renjuportal_puzzle_2990() {
    // Source: renjuportal.com puzzle 2990 (https://renjuportal.com/puzzle/2990/), white to
    // play and win by continuous fours, with its solution L13 L11 K12 J11 I12 H12 I13 I14
    // H14, as given in renju-note/quintet benches/cases/vcf_white.txt (id rp2990 in
    // puzzles/vcf_published.txt). White's last four H14 I13 J12 _ L10 can only be stopped
    // at K11, and K11 is a double-four for black: J11 K11 L11 M11 across (I11 is white,
    // N11 open) and H8 I9 J10 K11 on the diagonal (G7 open, L12 white). So white wins.
    let black = "k13 m12 m11 j10 g9 i9 j9 m9 g8 h8 l11 j11 h12 i14";
    let white = "l14 j12 l12 i11 h10 i10 l10 h9 f8 l13 k12 i12 i13 h14";
    let b = board(black, white);
    assert_eq!(forbidden(&b, pt("k11")), Some(Forbidden::DoubleFour));
    // The four is real: K11 is white's only five point.
    let mut w = b;
    w.set(pt("k11"), Some(gomoku::Color::White));
    assert!(w
        .five_through(pt("k11"), gomoku::Color::White, gomoku::Rule::Renju)
        .is_some());
}

#[test]
fn published_double_four_in_a_tsume_renju_problem() {
    // Source: 連珠あれこれ (主に詰め連珠), http://haisaresu.blog.fc2.com/, introductory
    // four-chasing problem 25, as collected in lfz084/lfz084.github.io
    // puzzle/json/入门-四追い_puzzle.json (id shioi025). H6 makes G5 H6 I7 J8 (F4 white, K9
    // open) and H6 I5 J4 K3 (L2 white, G7 open): two fours.
    let b = alternating("H8H9I8I9J8K8I7H7J7K7I6J6K6J5G5L5H5F4I5G4K5I4H4K4J4I3K3L2");
    assert_eq!(forbidden(&b, pt("h6")), Some(Forbidden::DoubleFour));
}

#[test]
fn published_double_four_in_an_engine_test_set() {
    // Source: junghyun397/mintaka documents/renju-test-set.md, "basic-forbid": E14 makes
    // E11–E14 (E10 white, E15 open) and A10 B11 C12 _ E14 (D13 makes five).
    assert_eq!(
        forbidden(&basic_forbid(), pt("e14")),
        Some(Forbidden::DoubleFour)
    );
}

#[test]
fn published_overline_in_an_engine_test_set() {
    // Source: junghyun397/mintaka documents/renju-test-set.md, "basic-forbid": F8 joins
    // D8 E8 and G8 H8 I8 into six. (No overline point occurs in the published puzzle
    // positions of puzzles/vcf_published.txt, nor along their published solutions.)
    assert_eq!(
        forbidden(&basic_forbid(), pt("f8")),
        Some(Forbidden::Overline)
    );
}

#[test]
fn published_false_three_decided_three_levels_down() {
    // Source: a position published by the renju player tanaseY
    // (https://twitter.com/tanaseY/status/944521796585373696), as transcribed with its
    // analysis in renju-note/quintet src/board/forbidden.rs. The two positions differ only
    // in white's O6.
    let black = "c8 f8 h8 f7 i7 j7 e6 l6 m6 i5 k5 l5 k4";
    // With O6: G8 makes E6 F7 G8 (a three) and F8 G8 H8, whose straight-four point I8 is
    // itself a double-three once G8 stands — because K6 then makes only one real three
    // (K6–N6 is shut by O6). So F8 G8 H8 is a false three and G8 is allowed.
    let with_o6 = board(black, "g9 j5 o6");
    assert_eq!(forbidden(&with_o6, pt("g8")), None);
    let mut g8 = with_o6;
    g8.set(pt("g8"), Some(gomoku::Color::Black));
    assert_eq!(forbidden(&g8, pt("i8")), Some(Forbidden::DoubleThree));
    let mut g8_i8 = g8;
    g8_i8.set(pt("i8"), Some(gomoku::Color::Black));
    assert_eq!(forbidden(&g8_i8, pt("k6")), None);
    // Without O6: K6 makes a second real three (K6–O6), so it is a double-three, I8 is
    // then allowed, F8 G8 H8 is a real three, and G8 is a double-three.
    let without = board(black, "g9 j5");
    assert_eq!(forbidden(&without, pt("g8")), Some(Forbidden::DoubleThree));
    let mut g8 = without;
    g8.set(pt("g8"), Some(gomoku::Color::Black));
    assert_eq!(forbidden(&g8, pt("i8")), None);
    let mut g8_i8 = g8;
    g8_i8.set(pt("i8"), Some(gomoku::Color::Black));
    assert_eq!(forbidden(&g8_i8, pt("k6")), Some(Forbidden::DoubleThree));
}

#[test]
fn published_false_three_in_a_vcf_problem() {
    // Source: lfz084/lfz084.github.io puzzle/json/黑先VCF_puzzle.json ("黑先VCF", black to
    // play and win by continuous fours, https://lfz084.gitee.io/renju/puzzle.html),
    // problem 13 (id bvcf013 in puzzles/vcf_published.txt). K9 makes H9 _ J9 K9 across and
    // J10 K9 _ M7 on the diagonal. The diagonal is a real three (L8 makes the straight four
    // J10–M7). Across, the only straight-four point is I9, and with K9 placed I9 is a
    // four-three-three (the four H9–K9 with the threes I8 I9 I10 and H8 I9 J10): a
    // double-three, forbidden. So the row is a false three and K9 is allowed, although a
    // pattern count without the recursion sees two threes.
    let b = alternating("N13K12I10L12J10M12H9L11J9M11H8M10I8F8L7K8M7N8O7H7");
    assert_eq!(forbidden(&b, pt("k9")), None);
    let mut k9 = b;
    k9.set(pt("k9"), Some(gomoku::Color::Black));
    assert_eq!(forbidden(&k9, pt("i9")), Some(Forbidden::DoubleThree));
    assert_eq!(forbidden(&k9, pt("l8")), None);
}

#[test]
fn published_double_three_decided_by_recursion_in_an_engine_test_set() {
    // Source: junghyun397/mintaka documents/renju-test-set.md, "recursive-forbid": a 2×4
    // block of black stones (G9 H9, F8–I8, F7–I7, G6 H6) shut by white at the ends of
    // its rows and columns. The set marks the corners F9, I9, F6 and I6 as double-threes.
    // Each corner makes three threes (F9: F9 G9 H9, F7 F8 F9, F9 G8 H7), whose
    // straight-four points make fours and threes of their own, so the verdict needs the
    // recursion. E9 and F10, beside F9, stay allowed.
    let b = board(
        "g9 h9 f8 g8 h8 i8 f7 g7 h7 i7 g6 h6",
        "g10 h10 e8 j8 e7 j7 g5 h5",
    );
    for p in ["f9", "i9", "f6", "i6"] {
        assert_eq!(forbidden(&b, pt(p)), Some(Forbidden::DoubleThree), "{p}");
    }
    for p in ["e9", "f10"] {
        assert_eq!(forbidden(&b, pt(p)), None, "{p}");
    }
}

// ---------------------------------------------------------------------------------------
// A three's completing point that makes five. RIF defines a three as a row "to which you,
// without at the same time a five in a row is made, can add one more stone to attain a
// straight four", and the referee programs used in renju play read "a five" as a five on
// any line: a point where black makes five wins there and then, so it makes a five, not a
// straight four. A three whose only straight-four point is such a point is no three.
// The positions below are constructed for these tests.

/// Black f8 g8 (white d8 shuts the left end) and h7 h9, plus black's four i4 i5 i6 i7
/// (white i3 below it), so that i8 makes five down the i column. At h8, row 8 becomes
/// f8 g8 h8 whose only straight-four point is i8 (e8 would give e8–h8 against d8).
const FIVE_POINT_BLACK: &str = "f8 g8 h7 h9 i4 i5 i6 i7";
const FIVE_POINT_WHITE: &str = "d8 i3 a1 a3 a5 a7 o1 o3";

#[test]
fn renju_three_whose_only_straight_four_point_makes_five_is_no_three() {
    let b = board(FIVE_POINT_BLACK, FIVE_POINT_WHITE);
    // i8 really is a five point for black: playing it wins down the i column.
    let mut five = b;
    five.set(pt("i8"), Some(gomoku::Color::Black));
    assert!(five
        .five_through(pt("i8"), gomoku::Color::Black, gomoku::Rule::Renju)
        .is_some());
    // So h8 makes one three (h7 h8 h9), not two: black may play it.
    assert_eq!(forbidden(&b, pt("h8")), None);
    assert!(!forbidden_points(&b).iter().any(|&(p, _)| p == pt("h8")));
}

#[test]
fn renju_three_whose_five_point_is_not_its_only_completion_still_counts() {
    // Without white d8, e8 also turns f8 g8 h8 into a straight four (d8 and i8 open), and
    // e8 is no five point: row 8 is a real three and h8 a double-three.
    let b = board(FIVE_POINT_BLACK, "i3 a1 a3 a5 a7 o1 o3 o5");
    assert_eq!(forbidden(&b, pt("h8")), Some(Forbidden::DoubleThree));
}

#[test]
fn renju_double_three_without_a_five_point_stays_forbidden() {
    // The same two threes without black's four on the i column: i8 is an ordinary
    // straight-four point, and h8 is a genuine double-three.
    let b = board("f8 g8 h7 h9", "d8 a1 a3 a5");
    assert_eq!(forbidden(&b, pt("h8")), Some(Forbidden::DoubleThree));
}

#[test]
fn renju_split_three_whose_gap_makes_five_on_a_diagonal_is_no_three() {
    // Row 8: f8 _ [h8] i8, whose only straight-four point is the gap g8 (e8 or j8 would
    // make a four with a hole). Black's four c4 d5 e6 f7 (white b3) makes g8 a five point
    // on the diagonal. The diagonal g7 [h8] i9 is a real three. So h8 is allowed...
    let b = board("f8 i8 c4 d5 e6 f7 g7 i9", "b3 a11 a13 a15 o1 o3 o5 o7");
    assert_eq!(forbidden(&b, pt("h8")), None);
    // ...and without the diagonal four it is a double-three.
    let plain = board("f8 i8 g7 i9", "a11 a13 a15 o1");
    assert_eq!(forbidden(&plain, pt("h8")), Some(Forbidden::DoubleThree));
}

#[test]
fn renju_game_where_black_plays_beside_its_own_four_replays() {
    // A game in which black, holding the four i4–i7, plays h8 instead of winning at i8.
    // The referees accept the move (h8 makes one three), so the record must replay.
    use gomoku::rules::State;
    use gomoku::{Config, Rule};
    let mut s = State::new(&Config {
        rule: Rule::Renju,
        ..Config::default()
    })
    .unwrap();
    let mut black: Vec<&str> = FIVE_POINT_BLACK.split_whitespace().collect();
    black.push("h8");
    for p in common::interleave(&black.join(" "), FIVE_POINT_WHITE) {
        s.play(p).unwrap_or_else(|e| panic!("{p}: {e}"));
    }
    assert_eq!(s.moves().last(), Some(&pt("h8")));
    assert!(s.end().is_none());
    let record = gomoku::records::GameRecord {
        size: 15,
        rule: Rule::Renju,
        moves: s.moves().to_vec(),
    };
    let sgf = gomoku::records::to_sgf(&record, None);
    assert_eq!(gomoku::records::from_sgf(&sgf), Ok(record));
}
