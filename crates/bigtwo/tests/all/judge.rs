//! The judge, op by op, called as `qipai judge bigtwo` calls it: through `GameSpec::judge`
//! and through the registry.

use bigtwo::BigTwo;
use game::GameSpec;
use serde_json::{json, Value};

fn ask(request: Value) -> Value {
    BigTwo::judge(&request)
}

fn ok(request: Value) -> Value {
    let answer = ask(request.clone());
    assert_eq!(answer["ok"], json!(true), "{request} -> {answer}");
    answer
}

fn refused(request: Value) -> String {
    let answer = ask(request.clone());
    assert_eq!(answer["ok"], json!(false), "{request} -> {answer}");
    answer["error"].as_str().unwrap_or_default().to_string()
}

#[test]
fn classify_names_the_kind_and_the_deciding_card() {
    let cases = [
        ("3d 4d 5d 6d 7d", json!("straight_flush"), json!("7d")),
        ("Ah 2s 3d 4d 5c", json!("straight"), json!("5c")),
        ("2s 3d 4d 5c 6h", json!("straight"), json!("6h")),
        ("Ks", json!("single"), json!("Ks")),
        ("9c 9h", json!("pair"), json!("9h")),
        ("9c 9h 9d", json!("triple"), json!("9h")),
        ("2h 7h 8h Jh Kh", json!("flush"), json!("2h")),
        ("9d 9c 9s 5h 5s", json!("full_house"), json!("9s")),
        ("9d 9c 9h 9s 5s", json!("four_of_a_kind"), json!("9s")),
        ("10h Jh Qh Kh Ah", json!("straight_flush"), json!("Ah")),
    ];
    for (cards, kind, top) in cases {
        let a = ok(json!({"op":"classify","cards":cards}));
        assert_eq!(a, json!({"ok":true,"kind":kind,"top":top}), "{cards}");
    }
    for cards in ["Jc Qd Kh As 2d", "3d 4d", "3d 3c 3h 3s", ""] {
        assert_eq!(
            ok(json!({"op":"classify","cards":cards})),
            json!({"ok":true,"kind":null})
        );
    }
}

#[test]
fn beats_compares_plays_of_one_size() {
    let b =
        |play: &str, last: &str| ok(json!({"op":"beats","play":play,"last":last}))["beats"].clone();
    assert_eq!(b("9s", "9h"), json!(true));
    assert_eq!(b("9h", "9s"), json!(false));
    assert_eq!(b("3d 3c", "2s"), json!(false));
    assert_eq!(b("3d 4d 5d 6d 8d", "Tc Jd Qh Ks As"), json!(true));
    assert_eq!(b("3d 4d 5d 6d 8d", "3d 4d 5d 6d 8d"), json!(false));
    assert_eq!(b("3d 4c", "2s"), json!(false), "no play beats nothing");
    assert_eq!(b("3d", ""), json!(true), "any play may lead");
    assert!(
        refused(json!({"op":"beats","play":"3d","last":"4d 5c"})).contains("not a Big Two play")
    );
    assert!(refused(json!({"op":"beats","last":"4d"})).contains("missing \"play\""));
}

#[test]
fn legal_lists_every_play_once_and_pass_when_following() {
    let a = ok(json!({"op":"legal","hand":"3d 3s 4d","last":"3c"}));
    assert_eq!(a["plays"], json!(["3s", "4d", "pass"]));
    let a = ok(json!({"op":"legal","hand":"3d 3s 4d","last":""}));
    assert_eq!(a["plays"], json!(["3d", "3s", "4d", "3d 3s"]));
    let a = ok(json!({"op":"legal","hand":"3d 3s 4d","must_include":"3d"}));
    assert_eq!(a["plays"], json!(["3d", "3d 3s"]));
    let a = ok(json!({"op":"legal","hand":"3d 4c 5h 6s 7d 7s","last":"Ac 2d 3h 4s 5d"}));
    assert_eq!(
        a["plays"],
        json!(["3d 4c 5h 6s 7d", "3d 4c 5h 6s 7s", "pass"])
    );
    let a = ok(json!({"op":"legal","hand":"3d 4c","last":"2s 2h"}));
    assert_eq!(a["plays"], json!(["pass"]));
    // A full 13-card hand: no duplicates, every play classifies.
    let a = ok(json!({"op":"legal","hand":"3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad 2d"}));
    let plays = a["plays"].as_array().unwrap();
    assert_eq!(plays.len(), 13 + 1287);
    let mut unique: Vec<&str> = plays.iter().filter_map(Value::as_str).collect();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), plays.len());
    assert!(refused(json!({"op":"legal","hand":"4d","must_include":"3d"})).contains("3d"));
    assert!(refused(json!({"op":"legal","hand":"3d","must_include":"3d 4d"})).contains("one card"));
}

#[test]
fn score_follows_the_seed() {
    let a = ok(json!({"op":"score","hands":[
        "3d 4d 5d 6d 7d",
        "3c 4c 5c 6c 7c 8c 9c Tc",
        "",
        "3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah"]}));
    assert_eq!(
        a,
        json!({"ok":true,"card_scores":[5,16,0,36],"results":[37,-7,57,-87]})
    );
    let a = ok(json!({"op":"score","hands":["", "3d 4d 5d 6d 7d 8d 9d 2s", "", ""]}));
    assert_eq!(a["card_scores"], json!([0, 32, 0, 0]));
    assert!(refused(json!({"op":"score","hands":["", "", ""]})).contains("four hands"));
    assert!(refused(json!({"op":"score","hands":["3d", "3d", "", ""]})).contains("another hand"));
    assert!(refused(json!({"op":"score","hands":["3d", 4, "", ""]})).contains("string"));
    assert!(refused(json!({"op":"score","hands":"3d"})).contains("array"));
}

#[test]
fn malformed_requests_unknown_and_duplicate_cards_are_refused() {
    assert!(refused(json!({"op":"classify","cards":"3d Xz"})).contains("unknown card 'Xz'"));
    assert!(refused(json!({"op":"classify","cards":"3d 3d"})).contains("two 3d"));
    assert!(refused(json!({"op":"classify","cards":"BJ"})).contains("without jokers"));
    assert!(refused(json!({"op":"classify","cards":"3"})).contains("needs a suit"));
    assert!(refused(json!({"op":"classify","cards":5})).contains("must be a string"));
    assert!(refused(json!({"op":"classify"})).contains("missing \"cards\""));
    assert!(refused(json!({"op":"deal"})).contains("unknown op"));
    assert!(refused(json!({"cards":"3d"})).contains("missing \"op\""));
    assert!(refused(json!(["op", "classify"])).contains("JSON object"));
    assert!(refused(json!({"op":"legal","hand":"3d 3d"})).contains("two 3d"));
    assert!(refused(json!({"op":"legal","hand":"3d","last":"Zz"})).contains("unknown card"));
}

#[test]
fn the_registry_reaches_the_same_judge() {
    let entry = game::registry::entry::<BigTwo>();
    assert_eq!(entry.id(), "bigtwo");
    let a = entry.judge(&json!({"op":"classify","cards":"3d 4d 5d 6d 7d"}));
    assert_eq!(a, json!({"ok":true,"kind":"straight_flush","top":"7d"}));
}

#[test]
fn act_asks_any_bot_for_a_legal_move_from_a_seats_view() {
    use game::{Rules, ToAct, Viewer};
    let mut asked = 0;
    for i in 0..12u64 {
        let seed = game::Seed::from_u64(60).derive(i);
        let mut state = BigTwo::start(&Default::default(), 4, &seed).expect("a deal");
        let mut heuristic = BigTwo::bot("heuristic", &seed).expect("heuristic");
        for step in 0..(i as usize * 3) {
            let ToAct::Seat(seat) = BigTwo::to_act(&state) else {
                break;
            };
            let legal = BigTwo::legal(&state, seat);
            if step % 4 == 0 {
                let view =
                    serde_json::to_value(BigTwo::view(&state, Viewer::Seat(seat))).expect("a view");
                for bot in ["random", "heuristic", "search:2"] {
                    let a = ok(json!({"op":"act","bot":bot,"seat":seat,"view":view,"seed":i}));
                    let action: bigtwo::Action =
                        serde_json::from_value(a["action"].clone()).expect("an action");
                    assert!(legal.contains(&action), "{bot} chose {action:?}");
                    asked += 1;
                }
            }
            let action = heuristic.act(&game::Decision::from_state(&state, seat, &legal));
            BigTwo::apply(&mut state, seat, action, &mut Vec::new()).expect("legal");
        }
    }
    assert!(asked > 30);
    assert!(refused(json!({"op":"act","bot":"search","seat":0})).contains("view"));
    let start = BigTwo::start(&Default::default(), 4, &game::Seed::from_u64(1)).expect("a deal");
    let view = serde_json::to_value(BigTwo::view(&start, game::Viewer::Seat(0))).expect("view");
    let error = refused(json!({"op":"act","bot":"nobody","seat":0,"view":view}));
    assert!(error.contains("no bot"), "{error}");
}
