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

mod common;
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
    use gomoku::game::State;
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
