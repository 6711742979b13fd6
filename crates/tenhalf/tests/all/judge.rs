//! The judge's ops, through the registry as `qipai judge tenhalf` calls them.

use crate::common;

use cards::Deck;
use common::stacked;
use game::registry;
use serde_json::{json, Value};
use tenhalf::TenHalf;

fn ask(request: Value) -> Value {
    registry::entry::<TenHalf>().judge(&request)
}

fn full_deck(top: &str) -> String {
    cards::format_cards(&stacked(top))
}

#[test]
fn value_counts_ace_one_faces_and_jokers_half() {
    assert_eq!(
        ask(json!({"op":"value","cards":"Ah Ks BJ"})),
        json!({"ok":true,"points":2.0})
    );
    assert_eq!(
        ask(json!({"op":"value","cards":"Ts RJ"})),
        json!({"ok":true,"points":10.5})
    );
    assert_eq!(
        ask(json!({"op":"value","cards":""})),
        json!({"ok":true,"points":0.0})
    );
}

#[test]
fn value_refuses_cards_of_no_deck() {
    let a = ask(json!({"op":"value","cards":"Ah Ah"}));
    assert_eq!(
        a,
        json!({"ok":false,"error":"\"cards\": two Ah in a one-deck game"})
    );
    let a = ask(json!({"op":"value","cards":"Xz"}));
    assert_eq!(
        a,
        json!({"ok":false,"error":"\"cards\": unknown card 'Xz'"})
    );
    assert_eq!(ask(json!({"op":"value","cards":3}))["ok"], false);
}

#[test]
fn showdown_orders_worst_first() {
    assert_eq!(
        ask(json!({"op":"showdown","hands":["Ts","9h Ah","5c 4d","9s"]})),
        json!({"ok":true,"loser":3,"order":[3,2,0,1]})
    );
    assert_eq!(
        ask(json!({"op":"showdown","hands":["8d"]})),
        json!({"ok":true,"loser":0,"order":[0]})
    );
}

#[test]
fn showdown_refuses_hands_that_never_reach_it() {
    for (hands, error) in [
        (json!([]), "a showdown needs at least one hand"),
        (
            json!(["Ts Ah"]),
            "\"hands\"[0]: 11 is bust: it is not in a showdown",
        ),
        (
            json!(["9s", "Ts Kd"]),
            "\"hands\"[1]: won outright (10½ or five cards): it is not in a showdown",
        ),
        (
            json!(["Ad 2d 3d Ac Js"]),
            "\"hands\"[0]: won outright (10½ or five cards): it is not in a showdown",
        ),
        (
            json!(["9s", ""]),
            "\"hands\"[1]: an empty hand is in no showdown",
        ),
        (
            json!(["9s", "9s"]),
            "the hands are not from one deck: two 9s in a one-deck game",
        ),
        (json!(["9s", 7]), "\"hands\"[1] must be a string of cards"),
    ] {
        assert_eq!(
            ask(json!({"op":"showdown","hands":hands})),
            json!({"ok":false,"error":error}),
            "{hands}"
        );
    }
}

#[test]
fn game_plays_actions_and_reports_penalties() {
    // Seat 1 busts (Ts 9s), gets 4h, hits 5h to 9 and stands; seat 2 stands on 9h; the
    // dealer, seat 0, has 8c and stands: the lowest hand, it takes the pot of 2.
    let deck = full_deck("Ts 9h 8c 9s 4h 5h");
    let request = json!({"op":"game","players":3,"deck":deck,"dealer":0,"actions":[
        {"seat":1,"act":"hit"},{"seat":1,"act":"hit"},{"seat":1,"act":"stand"},
        {"seat":2,"act":"stand"},{"seat":0,"act":"stand"}
    ]});
    assert_eq!(
        ask(request),
        json!({"ok":true,"finished":false,"penalties":[2,2,0]})
    );
}

#[test]
fn game_runs_to_its_end() {
    // Everyone always hits: the deck runs out within a few rounds.
    let deck = full_deck("");
    let mut actions = Vec::new();
    let mut state = tenhalf::State::from_deck(&Default::default(), 2, &stacked("")).unwrap();
    let mut events = Vec::new();
    while !state.is_finished() {
        let seat = state.turn().unwrap();
        actions.push(json!({"seat":seat,"act":"hit"}));
        state
            .apply(seat, tenhalf::Action::Hit, &mut events)
            .unwrap();
    }
    let answer = ask(json!({"op":"game","players":2,"deck":deck,"actions":actions}));
    assert_eq!(answer["finished"], true);
    assert_eq!(answer["penalties"], json!(state.penalties()));
    // One more action after the end is refused at its index.
    actions.push(json!({"seat":0,"act":"hit"}));
    let n = actions.len() - 1;
    let answer = ask(json!({"op":"game","players":2,"deck":full_deck(""),"actions":actions}));
    assert_eq!(
        answer,
        json!({"ok":false,"error":"seat 0: the game is over","at":n})
    );
}

#[test]
fn game_stops_at_the_first_illegal_action() {
    let deck = full_deck("7d 9h 8c");
    let answer = ask(
        json!({"op":"game","players":3,"deck":deck,"dealer":0,"actions":[
            {"seat":1,"act":"stand"},{"seat":1,"act":"hit"}
        ]}),
    );
    assert_eq!(
        answer,
        json!({"ok":false,"error":"seat 1: at 7 or less you must hit (you have 7)","at":0})
    );
    let answer = ask(
        json!({"op":"game","players":3,"deck":full_deck(""),"actions":[
            {"seat":2,"act":"hit"}
        ]}),
    );
    assert_eq!(
        answer,
        json!({"ok":false,"error":"seat 2: not your turn","at":0})
    );
    let answer = ask(
        json!({"op":"game","players":3,"deck":full_deck(""),"actions":[
            {"seat":1,"act":"double"}
        ]}),
    );
    assert_eq!(
        answer,
        json!({"ok":false,"error":"\"act\": unknown act \"double\" (acts: \"hit\", \"stand\")","at":0})
    );
    let answer = ask(json!({"op":"game","players":3,"deck":full_deck(""),"actions":[7]}));
    assert_eq!(answer["at"], 0);
    assert_eq!(answer["ok"], false);
}

#[test]
fn game_refuses_a_bad_table() {
    let all = cards::format_cards(&Deck::WITH_JOKERS.cards());
    for (request, error) in [
        (
            json!({"op":"game","players":9,"deck":all,"actions":[]}),
            "Ten and a half takes 2 to 8 players, not 9",
        ),
        (
            json!({"op":"game","players":3,"dealer":3,"deck":all,"actions":[]}),
            "the dealer must be one of seats 0 to 2, not 3",
        ),
        (
            json!({"op":"game","players":3,"deck":"3d 4d","actions":[]}),
            "the deck must hold all 54 cards, not 2",
        ),
        (
            json!({"op":"game","players":3,"deck":"Zz","actions":[]}),
            "\"deck\": unknown card 'Zz'",
        ),
        (
            json!({"op":"game","deck":all,"actions":[]}),
            "missing \"players\"",
        ),
        (
            json!({"op":"game","players":3,"deck":all}),
            "missing \"actions\"",
        ),
    ] {
        assert_eq!(
            ask(request.clone()),
            json!({"ok":false,"error":error}),
            "{request}"
        );
    }
    let twice = format!(
        "{} 4d",
        cards::format_cards(&Deck::WITH_JOKERS.cards()[1..])
    );
    let answer = ask(json!({"op":"game","players":3,"deck":twice,"actions":[]}));
    assert_eq!(
        answer,
        json!({"ok":false,"error":"not one deck: two 4d in a one-deck game"})
    );
}

#[test]
fn malformed_requests_are_answered_not_crashed_on() {
    for request in [
        json!([1, 2]),
        json!("value"),
        json!({"cards":"Ah"}),
        json!({"op":"deal"}),
        json!({"op":"value"}),
        json!({"op":"showdown","hands":"Ts"}),
        json!({"op":7}),
    ] {
        let answer = ask(request.clone());
        assert_eq!(answer["ok"], false, "{request}");
        assert!(answer["error"].is_string(), "{request}");
    }
    assert_eq!(
        ask(json!({"op":"deal"}))["error"],
        "unknown op 'deal' (ops: value, showdown, game, act)"
    );
}

#[test]
fn act_asks_any_bot_for_a_legal_move_from_a_seats_view() {
    use game::{GameSpec, Rules, ToAct, Viewer};
    let mut asked = 0;
    for i in 0..30u64 {
        let seed = game::Seed::from_u64(40).derive(i);
        let mut state = TenHalf::start(&tenhalf::Config::default(), 4, &seed).expect("a deal");
        for _ in 0..(i % 7) {
            let ToAct::Seat(seat) = TenHalf::to_act(&state) else {
                break;
            };
            let legal = TenHalf::legal(&state, seat);
            let view =
                serde_json::to_value(TenHalf::view(&state, Viewer::Seat(seat))).expect("a view");
            for bot in TenHalf::bot_names() {
                let answer = ask(json!({"op":"act","bot":bot,"seat":seat,"view":view,"seed":i}));
                assert_eq!(answer["ok"], json!(true), "{bot}: {answer}");
                let action: tenhalf::Action =
                    serde_json::from_value(answer["action"].clone()).expect("an action");
                assert!(legal.contains(&action), "{bot} chose {action:?}");
                asked += 1;
            }
            let action = legal[0];
            TenHalf::apply(&mut state, seat, action, &mut Vec::new()).expect("legal");
        }
    }
    assert!(asked > 50);
    let refused = ask(json!({"op":"act","bot":"seed","seat":0}));
    assert_eq!(refused["ok"], json!(false));
}
