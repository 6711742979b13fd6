//! The judge ops, including malformed requests.

use crate::common;
use common::{interleave, pt};
use game::GameSpec;
use gomoku::Gomoku;
use serde_json::{json, Value};

fn ask(v: Value) -> Value {
    Gomoku::judge(&v)
}

#[test]
fn judge_winner_reports_black_white_or_null() {
    let black =
        ask(json!({"op":"winner","moves":[[3,7],[0,0],[4,7],[0,1],[5,7],[0,2],[6,7],[0,3],[7,7]]}));
    assert_eq!(black, json!({"ok":true,"winner":"black"}));
    let white = ask(
        json!({"op":"winner","moves":[[3,7],[0,0],[4,7],[0,1],[5,7],[0,2],[6,9],[0,3],[7,9],[0,4]]}),
    );
    assert_eq!(white["winner"], json!("white"));
    let none = ask(json!({"op":"winner","rule":"renju","size":15,"moves":[[7,7],[8,8]]}));
    assert_eq!(none, json!({"ok":true,"winner":null}));
}

#[test]
fn judge_winner_under_standard_ignores_overlines() {
    // Black d8 e8 f8 h8 i8 then g8: six in a row.
    let moves = json!([
        [3, 7],
        [0, 0],
        [4, 7],
        [0, 2],
        [5, 7],
        [0, 4],
        [7, 7],
        [0, 6],
        [8, 7],
        [0, 8],
        [6, 7]
    ]);
    assert_eq!(
        ask(json!({"op":"winner","rule":"standard","moves":moves}))["winner"],
        Value::Null
    );
    assert_eq!(
        ask(json!({"op":"winner","rule":"freestyle","moves":moves}))["winner"],
        json!("black")
    );
}

#[test]
fn judge_forbidden_lists_black_points_with_reasons() {
    // Black g8 i8 h7 h9 ([6,7] [8,7] [7,8] [7,6]); white far away.
    let r = ask(
        json!({"op":"forbidden","size":15,"moves":[[6,7],[0,0],[8,7],[0,2],[7,8],[0,4],[7,6],[14,0]]}),
    );
    assert_eq!(r["ok"], json!(true));
    let list = r["forbidden"].as_array().unwrap();
    assert!(
        list.contains(&json!({"point":[7,7],"reason":"double_three"})),
        "{r}"
    );
}

#[test]
fn judge_legal_answers_with_a_reason() {
    let moves = json!([
        [6, 7],
        [0, 0],
        [8, 7],
        [0, 2],
        [7, 8],
        [0, 4],
        [7, 6],
        [14, 0]
    ]);
    let r = ask(json!({"op":"legal","rule":"renju","size":15,"moves":moves,"point":[7,7]}));
    assert_eq!(r, json!({"ok":true,"legal":false,"reason":"double_three"}));
    let r = ask(json!({"op":"legal","rule":"freestyle","size":15,"moves":moves,"point":[7,7]}));
    assert_eq!(r, json!({"ok":true,"legal":true,"reason":null}));
    let r = ask(json!({"op":"legal","moves":moves,"point":[6,7]}));
    assert_eq!(r["reason"], json!("occupied"));
    let r = ask(json!({"op":"legal","moves":moves,"point":[15,7]}));
    assert_eq!(r["reason"], json!("off_board"));
}

#[test]
fn judge_best_finds_the_five_and_the_block() {
    // Black has d8 e8 f8 g8: h8 or c8 wins at once.
    let r = ask(
        json!({"op":"best","moves":[[3,7],[0,0],[4,7],[0,2],[5,7],[0,4],[6,7],[0,6]],"ms":200}),
    );
    assert_eq!(r["ok"], json!(true));
    assert!(
        r["point"] == json!([7, 7]) || r["point"] == json!([2, 7]),
        "{r}"
    );
    assert_eq!(r["win_in"], json!(1));
    // White to move must block black's four at h8 (c8 is white already).
    let r = ask(json!({"op":"best","moves":[[3,7],[2,7],[4,7],[0,2],[5,7],[0,4],[6,7]],"ms":200}));
    assert_eq!(r["point"], json!([7, 7]), "{r}");
}

#[test]
fn judge_refuses_malformed_requests_without_panicking() {
    for bad in [
        json!([1, 2]),
        json!({"moves": []}),
        json!({"op": "fly"}),
        json!({"op": "winner"}),
        json!({"op": "winner", "moves": [[1]]}),
        json!({"op": "winner", "moves": [[-1, 2]]}),
        json!({"op": "winner", "moves": [[1, 2], [1, 2]]}),
        json!({"op": "winner", "moves": [[20, 2]]}),
        json!({"op": "winner", "size": 99, "moves": []}),
        json!({"op": "winner", "rule": "go", "moves": []}),
        json!({"op": "legal", "moves": []}),
        json!({"op": "legal", "moves": [], "point": "h8"}),
        json!({"op": "best", "moves": [], "ms": "fast"}),
        json!({"op": "winner", "moves": [[0,0],[1,0],[0,1],[1,1],[0,2],[1,2],[0,3],[1,3],[0,4],[1,4]]}),
    ] {
        let r = ask(bad.clone());
        assert_eq!(r["ok"], json!(false), "{bad} -> {r}");
        assert!(r["error"].as_str().is_some_and(|e| !e.is_empty()));
    }
}

#[test]
fn judge_renju_winner_rejects_a_forbidden_move() {
    // Black's fifth stone h8 would be a double-three: the record is refused.
    let r = ask(
        json!({"op":"winner","rule":"renju","moves":[[6,7],[0,0],[8,7],[0,2],[7,8],[0,4],[7,6],[14,0],[7,7]]}),
    );
    assert_eq!(r["ok"], json!(false));
    assert!(r["error"].as_str().unwrap().contains("double-three"));
}

#[test]
fn judge_best_never_offers_renju_black_a_forbidden_point() {
    // Black to move with g8 i8 h7 h9: h8 (the obvious point) is a double-three.
    let moves = json!([
        [6, 7],
        [0, 0],
        [8, 7],
        [0, 2],
        [7, 8],
        [0, 4],
        [7, 6],
        [14, 0]
    ]);
    let r = ask(json!({"op":"best","rule":"renju","moves":moves,"ms":300}));
    assert_eq!(r["ok"], json!(true), "{r}");
    let legal = ask(json!({"op":"legal","rule":"renju","moves":moves,"point":r["point"]}));
    assert_eq!(legal["legal"], json!(true), "{r} {legal}");
}

#[test]
fn judge_works_on_19_and_20_boards() {
    for size in [19, 20] {
        let edge = size - 1;
        let moves = json!([
            [edge, 0],
            [0, 0],
            [edge, 1],
            [0, 1],
            [edge, 2],
            [0, 2],
            [edge, 3],
            [0, 3],
            [edge, 4]
        ]);
        let r = ask(json!({"op":"winner","size":size,"moves":moves}));
        assert_eq!(r["winner"], json!("black"), "{size}: {r}");
        let r = ask(
            json!({"op":"best","size":size,"moves":[[edge,0],[0,0],[edge,1],[0,1],[edge,2],[0,2],[edge,3]],"ms":200}),
        );
        assert_eq!(r["point"], json!([edge, 4]), "{size}: {r}");
    }
}

#[test]
fn judge_forbidden_and_legal_follow_the_five_point_convention() {
    // Black f8 g8 (d8 white) and h7 h9 with black's four i4–i7 (i3 white): row 8 at h8
    // would be a three only through i8, where black makes five, so h8 is no double-three
    // (see docs/rules/gomoku.md). Black is to move.
    let moves: Vec<Value> = interleave("f8 g8 h7 h9 i4 i5 i6 i7", "d8 i3 a1 a3 a5 a7 o1 o3")
        .into_iter()
        .map(|p| json!([p.x, p.y]))
        .collect();
    let h8 = pt("h8");
    let r = ask(json!({"op":"forbidden","size":15,"moves":moves}));
    assert_eq!(r["ok"], json!(true), "{r}");
    let listed = r["forbidden"].as_array().unwrap();
    assert!(
        !listed.iter().any(|f| f["point"] == json!([h8.x, h8.y])),
        "{r}"
    );
    let r = ask(json!({"op":"legal","rule":"renju","moves":moves,"point":[h8.x, h8.y]}));
    assert_eq!(r, json!({"ok":true,"legal":true,"reason":null}));
}

/// The view seat `seat` has after `moves` (black first), in the JSON form a table sends.
fn view_after(moves: &[(u8, u8)], seat: usize) -> Value {
    use game::{Rules, Viewer};
    let mut state =
        Gomoku::start(&gomoku::Config::default(), 2, &game::Seed::from_u64(0)).expect("a board");
    for (i, &(x, y)) in moves.iter().enumerate() {
        let action = gomoku::Action::Place(gomoku::Point::new(x, y));
        Gomoku::apply(&mut state, i % 2, action, &mut Vec::new()).expect("a legal move");
    }
    serde_json::to_value(Gomoku::view(&state, Viewer::Seat(seat))).expect("a view")
}

#[test]
fn judge_act_asks_a_bot_for_its_move_from_a_view() {
    // Black has four in a row, d8–g8 (open at c8 and h8); every bot but random finishes it.
    let moves = [
        (3, 7),
        (0, 0),
        (4, 7),
        (0, 1),
        (5, 7),
        (0, 2),
        (6, 7),
        (0, 14),
    ];
    let view = view_after(&moves, 0);
    for bot in ["classic", "engine:L1", "engine:L5"] {
        let answer = ask(json!({"op":"act","bot":bot,"seat":0,"view":view}));
        assert_eq!(answer["ok"], json!(true), "{bot}: {answer}");
        let fives = [json!({"place":[2,7]}), json!({"place":[7,7]})];
        assert!(fives.contains(&answer["action"]), "{bot}: {answer}");
    }
    let random = ask(json!({"op":"act","bot":"random","seat":0,"view":view,"seed":3}));
    assert_eq!(random["ok"], json!(true), "{random}");
}

#[test]
fn judge_act_takes_the_legal_moves_given_and_refuses_what_it_cannot_answer() {
    let view = view_after(&[(7, 7)], 1);
    let only = json!([{"place":[8,8]}]);
    let answer = ask(json!({"op":"act","bot":"engine:L3","seat":1,"view":view,"legal":only}));
    assert_eq!(answer["action"], json!({"place":[8,8]}), "{answer}");
    for (request, words) in [
        (
            json!({"op":"act","bot":"nobody","seat":1,"view":view}),
            "no bot",
        ),
        (
            json!({"op":"act","bot":"classic","seat":0,"view":view}),
            "nothing to do",
        ),
        (json!({"op":"act","bot":"classic","seat":1}), "view"),
        (
            json!({"op":"act","bot":"classic","seat":1,"view":{"size":"big"}}),
            "view",
        ),
    ] {
        let answer = ask(request);
        assert_eq!(answer["ok"], json!(false), "{answer}");
        let error = answer["error"].as_str().unwrap_or_default();
        assert!(error.contains(words), "{error}");
    }
}

/// A swap2 game's view for `seat` after the opener (seat 0) laid `moves`, with the choice
/// `then` made, if any.
fn swap2_view(moves: &[(u8, u8)], then: Option<gomoku::Action>, seat: usize) -> Value {
    use game::Rules;
    let config = gomoku::Config {
        opening_rule: gomoku::OpeningRule::Swap2,
        ..gomoku::Config::default()
    };
    let mut s = gomoku::Gomoku::start(&config, 2, &game::Seed::from_u64(1)).unwrap();
    for &(x, y) in moves {
        s.play(gomoku::Point::new(x, y)).unwrap();
    }
    if let Some(a) = then {
        gomoku::Gomoku::apply(&mut s, 1, a, &mut Vec::new()).unwrap();
    }
    serde_json::to_value(gomoku::Gomoku::view(&s, game::Viewer::Seat(seat))).unwrap()
}

#[test]
fn judge_act_follows_the_swap2_opening() {
    // The opener (black until the choice) lays the stones, white's included.
    let view = swap2_view(&[(7, 7)], None, 0);
    let answer = ask(json!({"op":"act","bot":"random","seat":0,"view":view,"seed":1}));
    assert!(answer["action"]["place"].is_array(), "{answer}");
    let answer = ask(json!({"op":"act","bot":"random","seat":1,"view":view}));
    assert_eq!(answer["ok"], json!(false), "{answer}");
    // Black h8, i8 in the centre and White's stone in the corner: the engine, second,
    // takes Black.
    let view = swap2_view(&[(7, 7), (0, 0), (8, 7)], None, 1);
    assert_eq!(view["swap2"], json!("choose"));
    let answer = ask(json!({"op":"act","bot":"engine:L5","seat":1,"view":view}));
    assert_eq!(
        (&answer["action"], &answer["text"]),
        (&json!("take_black"), &json!("black")),
        "{answer}"
    );
    // Every answer a random player gives at the choice is one of the three.
    for seed in 0..12 {
        let a = ask(json!({"op":"act","bot":"random","seat":1,"view":view,"seed":seed}));
        let action = &a["action"];
        assert!(
            action == "take_black" || action == "place_two" || action["place"].is_array(),
            "{a}"
        );
    }
    // After two more, the opener chooses: no "place two" any more.
    let view = swap2_view(&[(7, 7), (0, 0), (8, 7)], Some(gomoku::Action::PlaceTwo), 1);
    assert_eq!(view["swap2"], json!("lay_two"));
    let answer = ask(json!({"op":"act","bot":"classic","seat":1,"view":view}));
    assert!(answer["action"]["place"].is_array(), "{answer}");
}
