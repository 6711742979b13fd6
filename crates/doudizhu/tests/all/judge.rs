//! The judge's `score` op answers only for games a table can reach.

use doudizhu::DouDizhu;
use game::GameSpec;
use serde_json::{json, Value};

fn ask(request: Value) -> Value {
    DouDizhu::judge(&request)
}

fn score(bombs: u64, spring: bool, landlord_won: bool) -> Value {
    ask(
        json!({"op":"score","bid":3,"landlord_won":landlord_won,"bombs":bombs,
               "spring":spring,"anti_spring":false}),
    )
}

#[test]
fn judge_score_refuses_bomb_counts_no_game_reaches() {
    for bombs in [15, 63, 64, u64::from(u32::MAX), u64::MAX] {
        let a = score(bombs, false, true);
        assert_eq!(a["ok"], false, "bombs {bombs}: {a}");
        let error = a["error"].as_str().unwrap_or_default();
        assert!(error.contains("at most 14"), "bombs {bombs}: {error}");
    }
}

#[test]
fn judge_score_answers_the_largest_real_game_exactly() {
    // Bid 3, all thirteen four-of-a-kinds and the rocket, and a spring: ×2^15.
    let a = score(14, true, true);
    assert_eq!(a, json!({"ok":true,"landlord":196_608,"peasant":-98_304}));
}

#[test]
fn judge_score_refuses_a_spring_the_landlord_lost() {
    let a = score(0, true, false);
    assert_eq!(a["ok"], false, "{a}");
}
