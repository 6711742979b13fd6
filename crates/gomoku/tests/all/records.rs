//! SGF and PSQ export and import.

use crate::common;
use common::interleave;
use gomoku::records::{from_psq, from_sgf, to_psq, to_sgf, GameRecord};
use gomoku::rules::{EndReason, GameEnd};
use gomoku::{Color, Rule};

fn sample() -> GameRecord {
    GameRecord {
        size: 15,
        rule: Rule::Renju,
        moves: interleave("h8 h9 h10 h11", "i9 j10 g7 k11"),
    }
}

#[test]
fn sgf_round_trips_with_gm4_size_rule_and_result() {
    let r = sample();
    let end = GameEnd {
        winner: Some(Color::White),
        reason: EndReason::Resignation,
    };
    let text = to_sgf(&r, Some(end));
    assert!(text.starts_with("(;GM[4]FF[4]"));
    assert!(text.contains("SZ[15]") && text.contains("RU[renju]") && text.contains("RE[W+R]"));
    assert!(text.contains(";B[hh];W[ig]"), "{text}");
    assert_eq!(from_sgf(&text).unwrap(), r);
}

#[test]
fn psq_round_trips_one_based() {
    let r = GameRecord {
        rule: Rule::Freestyle,
        ..sample()
    };
    let text = to_psq(&r);
    assert!(text.starts_with("Piskvorky 15x15, 11:11, 0\n8,8,0\n"));
    assert_eq!(from_psq(&text, Rule::Freestyle).unwrap(), r);
}

#[test]
fn records_refuse_bad_text_and_illegal_games() {
    assert!(from_sgf("GM[4]").is_err());
    assert!(from_sgf("(;GM[1];B[aa])").is_err());
    assert!(from_sgf("(;GM[4];W[aa])").is_err());
    assert!(from_sgf("(;GM[4];B[aa];W[aa])").is_err());
    assert!(from_sgf("(;GM[4]SZ[40])").is_err());
    assert!(from_sgf("(;GM[4];B[a").is_err());
    assert!(from_psq("", Rule::Freestyle).is_err());
    assert!(from_psq("Piskvorky 20x15, 11:11, 0\n", Rule::Freestyle).is_err());
    assert!(from_psq("Piskvorky 15x15, 11:11, 0\n16,1,0\n", Rule::Freestyle).is_err());
    // Renju: black's double-three is refused on import.
    let sgf = "(;GM[4]SZ[15]RU[renju];B[gh];W[aa];B[ih];W[ac];B[hi];W[ae];B[hg];W[oa];B[hh])";
    assert!(from_sgf(sgf).is_err());
}
