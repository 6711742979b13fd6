//! The fields every judge shares mean the same in every game (docs/judge.md, "Fields every
//! judge reads alike"): the same request sent to each game's judge through the registry,
//! as `qipai judge` sends it, is answered alike.

use game::ErasedGame;
use games::registry;
use serde_json::{json, Value};

/// The error of an answer that must be a refusal.
fn refused(game: &dyn ErasedGame, request: &Value) -> String {
    let answer = game.judge(request);
    assert_eq!(
        answer["ok"],
        json!(false),
        "{}: {request} -> {answer}",
        game.id()
    );
    let error = answer["error"].as_str().unwrap_or_default().to_string();
    assert!(!error.is_empty(), "{}: {request} -> {answer}", game.id());
    error
}

/// What one game's judge offers of the shared fields, for the requests below.
struct Shared {
    /// For a game whose `legal` and `beats` read `last`: a hand, a play that some of it
    /// beats, and a single card of it, in the game's notation.
    last: Option<(&'static str, &'static str, &'static str)>,
    /// Requests of the game's replaying ops whose action 1 (from 0) is refused.
    replays: Vec<Value>,
}

/// A deck of 54 cards in the suited notation, in order.
fn whole_deck() -> String {
    let mut cards = Vec::new();
    for rank in [
        "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2",
    ] {
        for suit in ["d", "c", "h", "s"] {
            cards.push(format!("{rank}{suit}"));
        }
    }
    cards.extend(["BJ".to_string(), "RJ".to_string()]);
    cards.join(" ")
}

/// Each game's part in the shared fields. A game added to the registry must say here
/// which it reads, so that its judge is held to them too.
fn shared(id: &str) -> Shared {
    match id {
        "doudizhu" => Shared {
            last: Some(("3 4 5 5", "4", "5")),
            replays: vec![
                json!({"op":"game","hands":["3 3 4","5 6","7 8"],"kitty":"","first_bidder":0,
                       "actions":[{"seat":0,"bid":3},{"seat":1,"play":"5"}]}),
                json!({"op":"game","hands":["3 3 4","5 6","7 8"],"kitty":"","first_bidder":0,
                       "actions":[{"seat":0,"bid":3},7]}),
                json!({"op":"game","hands":["3 3 4","5 6","7 8"],"kitty":"","first_bidder":0,
                       "actions":[{"seat":0,"bid":3},{"seat":9,"play":"3"}]}),
                json!({"op":"act","bot":"random","seat":1,"landlord":0,
                       "hand":"3 4 5 6 7 8 9 T J Q K A 2 2 BJ 3 4",
                       "history":[[0,"6"],[0,"7"]]}),
            ],
        },
        "doudizhu5" => Shared {
            last: Some(("3 4 5 5", "4", "5")),
            replays: Vec::new(),
        },
        "bigtwo" => Shared {
            last: Some(("3d 4d 5d 5s", "4c", "5d")),
            replays: Vec::new(),
        },
        "tenhalf" => Shared {
            last: None,
            replays: vec![
                json!({"op":"game","players":2,"deck":whole_deck(),
                       "actions":[{"seat":1,"act":"hit"},{"seat":1,"act":"double"}]}),
                json!({"op":"game","players":2,"deck":whole_deck(),
                       "actions":[{"seat":1,"act":"hit"},"hit"]}),
                json!({"op":"game","players":2,"deck":whole_deck(),
                       "actions":[{"seat":1,"act":"hit"},{"seat":9,"act":"hit"}]}),
            ],
        },
        "gomoku" => Shared {
            last: None,
            replays: vec![
                json!({"op":"winner","moves":[[7,7],[7,7]]}),
                json!({"op":"winner","moves":[[7,7],[1]]}),
                json!({"op":"legal","moves":[[7,7],[7,7]],"point":[0,0]}),
            ],
        },
        other => panic!("say which shared judge fields {other} reads"),
    }
}

#[test]
fn a_request_that_is_no_request_is_refused_alike() {
    for game in registry().games() {
        for (request, error) in [
            (json!([1]), "a request is a JSON object with an \"op\""),
            (json!("act"), "a request is a JSON object with an \"op\""),
            (json!({"seat":0}), "missing \"op\""),
            (json!({"op":null}), "missing \"op\""),
            (json!({"op":7}), "\"op\" must be a string"),
        ] {
            assert_eq!(refused(game, &request), error, "{}: {request}", game.id());
        }
        let unknown = refused(game, &json!({"op":"fly"}));
        assert!(
            unknown.starts_with("unknown op 'fly' (ops: ") && unknown.contains("act"),
            "{}: {unknown}",
            game.id()
        );
    }
}

#[test]
fn seat_seed_and_bot_mean_the_same_in_every_act() {
    for game in registry().games() {
        let most = *game.seats(&Value::Null).expect("seats").end();
        let id = game.id();
        let error = refused(game, &json!({"op":"act","bot":"random","seat":99}));
        assert!(
            error.starts_with("\"seat\": a seat is 0") && error.ends_with(", not 99"),
            "{id}: {error}"
        );
        assert!(
            error.contains(&(most - 1).to_string()),
            "{id}: {most} seats: {error}"
        );
        assert_eq!(
            refused(game, &json!({"op":"act","bot":"random","seat":-1})),
            "\"seat\" must be a non-negative integer",
            "{id}"
        );
        assert_eq!(
            refused(game, &json!({"op":"act","seat":0})),
            "missing \"bot\"",
            "{id}"
        );
        assert_eq!(
            refused(
                game,
                &json!({"op":"act","bot":"random","seat":0,"seed":"nope"})
            ),
            "\"seed\": a seed is a number or 64 hex digits (a printed seed), not 'nope'",
            "{id}"
        );
        assert_eq!(
            refused(game, &json!({"op":"act","bot":"random","seat":0,"seed":-1})),
            "\"seed\" must be a non-negative integer or a printed seed (64 hex digits)",
            "{id}"
        );
        // A good seed, as a number or as text, gets as far as the view.
        for seed in [json!(7), json!("7"), json!(null)] {
            let error = refused(
                game,
                &json!({"op":"act","bot":"random","seat":0,"seed":seed}),
            );
            assert!(!error.contains("seed"), "{id}: {seed}: {error}");
        }
    }
}

#[test]
fn last_absent_null_blank_and_pass_all_mean_leading() {
    let mut card_games = 0;
    for game in registry().games() {
        let id = game.id();
        let Some((hand, to_beat, single)) = shared(id).last else {
            continue;
        };
        card_games += 1;
        let leading = game.judge(&json!({"op":"legal","hand":hand}));
        assert_eq!(leading["ok"], json!(true), "{id}: {leading}");
        assert!(
            !leading["plays"]
                .as_array()
                .expect("plays")
                .contains(&json!("pass")),
            "{id}: the leader cannot pass: {leading}"
        );
        for last in [
            json!(null),
            json!(""),
            json!("  "),
            json!("pass"),
            json!(" PASS "),
        ] {
            let answer = game.judge(&json!({"op":"legal","hand":hand,"last":last}));
            assert_eq!(answer, leading, "{id}: last {last}");
            let beats = game.judge(&json!({"op":"beats","play":single,"last":last}));
            assert_eq!(beats, json!({"ok":true,"beats":true}), "{id}: last {last}");
        }
        let following = game.judge(&json!({"op":"legal","hand":hand,"last":to_beat}));
        let plays = following["plays"].as_array().expect("plays");
        assert_eq!(plays.last(), Some(&json!("pass")), "{id}: {following}");
        let garbage = refused(game, &json!({"op":"legal","hand":hand,"last":"Zz"}));
        assert!(garbage.starts_with("\"last\": "), "{id}: {garbage}");
        assert_eq!(
            refused(game, &json!({"op":"legal","hand":hand,"last":7})),
            "\"last\" must be a string of cards, or \"pass\"",
            "{id}"
        );
        let not_a_play = refused(game, &json!({"op":"beats","play":single,"last":hand}));
        assert!(
            not_a_play.starts_with("\"last\": ") && not_a_play.contains("not a"),
            "{id}: {not_a_play}"
        );
        assert_eq!(
            refused(game, &json!({"op":"legal","hand":7})),
            "\"hand\" must be a string of cards",
            "{id}"
        );
        let bad_hand = refused(game, &json!({"op":"legal","hand":"Zz"}));
        assert!(
            bad_hand.starts_with("\"hand\": unknown card"),
            "{id}: {bad_hand}"
        );
    }
    assert!(
        card_games >= 2,
        "the shared meaning of `last` is shared by several games"
    );
}

#[test]
fn a_replay_fails_at_the_index_of_the_action_that_fails() {
    let mut replays = 0;
    for game in registry().games() {
        let id = game.id();
        for request in shared(id).replays {
            let answer = game.judge(&request);
            assert_eq!(answer["ok"], json!(false), "{id}: {request} -> {answer}");
            assert_eq!(answer["at"], json!(1), "{id}: {request} -> {answer}");
            let error = answer["error"].as_str().unwrap_or_default();
            assert!(!error.is_empty(), "{id}: {answer}");
            assert_eq!(
                answer.as_object().map(|o| o.len()),
                Some(3),
                "{id}: ok, error and at, nothing else: {answer}"
            );
            // The same kinds of mistake read alike: an action of the wrong shape names
            // its place in the list, a seat the table lacks says which seats it has,
            // a move the rules refuse names the seat that made it.
            let wrong_shape = error.contains("[1] must be");
            let no_seat = error.starts_with("\"seat\": a seat is 0");
            let ruled = error.starts_with("seat ");
            let unknown = error.starts_with("\"act\": unknown act");
            let out_of_turn = error.contains("turn");
            assert!(
                wrong_shape || no_seat || ruled || unknown || out_of_turn,
                "{id}: {error}"
            );
            replays += 1;
        }
    }
    assert!(replays >= 5, "{replays}");
}
