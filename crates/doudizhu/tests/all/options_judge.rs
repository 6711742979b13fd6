//! The judge with 加倍 and 明牌: `score` settles doubled stakes and a shown hand, `game`
//! takes the options and the new actions, and answers without them are as they were.

use crate::doubling::{HANDS, KITTY};
use doudizhu::DouDizhu;
use game::GameSpec;
use serde_json::{json, Value};

fn ask(request: Value) -> Value {
    DouDizhu::judge(&request)
}

#[test]
fn judge_score_settles_each_peasants_stake_with_the_doublings_and_the_shown_hand() {
    // The worked example of the rules page.
    let a = ask(
        json!({"op":"score","bid":2,"landlord_won":true,"bombs":1,"spring":false,
        "anti_spring":false,"shown":true,"landlord_double":2,"peasant_doubles":[2,1]}),
    );
    assert_eq!(a, json!({"ok":true,"landlord":48,"peasants":[-32,-16]}));
    let a = ask(
        json!({"op":"score","bid":1,"landlord_won":false,"bombs":0,"spring":false,
        "anti_spring":false,"landlord_double":4}),
    );
    assert_eq!(a, json!({"ok":true,"landlord":-8,"peasants":[4,4]}));
}

#[test]
fn judge_score_without_the_options_answers_as_before() {
    let a = ask(
        json!({"op":"score","bid":2,"landlord_won":true,"bombs":1,"spring":false,
        "anti_spring":false}),
    );
    assert_eq!(a, json!({"ok":true,"landlord":8,"peasant":-4}));
    let shown = ask(
        json!({"op":"score","bid":2,"landlord_won":true,"bombs":1,"spring":false,
        "anti_spring":false,"shown":true}),
    );
    assert_eq!(shown, json!({"ok":true,"landlord":16,"peasant":-8}));
}

#[test]
fn judge_score_refuses_doublings_no_table_offers() {
    for (field, value) in [
        ("landlord_double", json!(3)),
        ("landlord_double", json!(0)),
        ("peasant_doubles", json!([2, 8])),
        ("peasant_doubles", json!([2])),
        ("peasant_doubles", json!("2 2")),
        ("shown", json!("yes")),
    ] {
        let mut r = json!({"op":"score","bid":2,"landlord_won":true,"bombs":0,"spring":false,
            "anti_spring":false});
        r[field] = value.clone();
        let a = ask(r);
        assert_eq!(a["ok"], false, "{field}: {value}: {a}");
        assert!(
            a["error"].as_str().unwrap_or_default().contains(field),
            "{a}"
        );
    }
}

fn game(options: Value, actions: Value) -> Value {
    let mut r = json!({"op":"game","hands":HANDS,"kitty":KITTY,"first_bidder":0,"actions":actions});
    if let (Some(r), Some(o)) = (r.as_object_mut(), options.as_object()) {
        r.extend(o.clone());
    }
    ask(r)
}

#[test]
fn judge_game_plays_the_doubling_and_showing_phases() {
    let a = game(
        json!({"doubling":"super","show_cards":true}),
        json!([{"seat":0,"bid":0},{"seat":1,"bid":1},{"seat":2,"bid":3},
               {"seat":0,"double":2},{"seat":1,"double":1},{"seat":2,"double":4},
               {"seat":2,"show":true},{"seat":2,"play":"J J"}]),
    );
    assert_eq!(
        a,
        json!({"ok":true,"finished":false,"scores":null,"landlord":2,"multiplier":2,
               "doubles":[2,1,4],"shown":true})
    );
}

#[test]
fn judge_game_refuses_a_doubling_the_table_does_not_have_at_its_index() {
    let bids =
        json!([{"seat":0,"bid":0},{"seat":1,"bid":1},{"seat":2,"bid":3},{"seat":0,"double":2}]);
    let a = game(json!({}), bids.clone());
    assert_eq!(a["ok"], false, "{a}");
    assert_eq!(a["at"], 3, "{a}");
    let a = game(json!({"doubling":"double"}), bids);
    assert_eq!(a["ok"], true, "{a}");
    let a = game(
        json!({"doubling":"double"}),
        json!([{"seat":0,"bid":3},{"seat":1,"double":4}]),
    );
    assert_eq!(a["ok"], false, "{a}");
    assert_eq!(a["at"], 1, "{a}");
}

#[test]
fn judge_game_refuses_bad_options_and_actions_with_two_kinds() {
    let a = game(json!({"doubling":"triple"}), json!([]));
    assert_eq!(a["ok"], false, "{a}");
    assert!(
        a["error"].as_str().unwrap_or_default().contains("doubling"),
        "{a}"
    );
    let a = game(json!({"show_cards":1}), json!([]));
    assert_eq!(a["ok"], false, "{a}");
    let a = game(
        json!({"doubling":"double"}),
        json!([{"seat":0,"bid":3},{"seat":1,"double":2,"show":true}]),
    );
    assert_eq!(a["ok"], false, "{a}");
}

#[test]
fn judge_game_without_options_answers_as_before() {
    let a = game(
        json!({}),
        json!([{"seat":0,"bid":3},{"seat":0,"play":"3 3"}]),
    );
    assert_eq!(
        a,
        json!({"ok":true,"finished":false,"scores":null,"landlord":0,"multiplier":1})
    );
}
