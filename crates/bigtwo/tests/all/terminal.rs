//! Terminal play through the registry, as `qipai play bigtwo` drives it: rendering, typed
//! plays, hints and help.

use bigtwo::{Action, BigTwo, Opening, State};
use game::{Bot, GameSpec, Rules, Seed, ToAct, Viewer};

fn table() -> (Box<dyn game::Table>, usize) {
    let entry = game::registry::entry::<BigTwo>();
    let table = entry
        .new_table(&game::TableSetup::new(
            "t",
            serde_json::Value::Null,
            4,
            Seed::from_u64(11),
        ))
        .expect("a table");
    let ToAct::Seat(first) = table.to_act() else {
        panic!("someone leads")
    };
    (table, first)
}

#[test]
fn the_view_renders_hand_table_counts_and_turn() {
    let (mut table, first) = table();
    let text = table.render(Viewer::Seat(first));
    assert!(text.contains("your hand: 3♦"), "{text}");
    assert!(text.contains("The first play must include 3♦."), "{text}");
    assert!(
        text.contains(&format!("▶ seat {} (you)", first + 1)),
        "{text}"
    );
    assert!(text.contains("you lead first."), "{text}");
    table.apply_text(first, "3d").expect("3d leads");
    let next = (first + 1) % 4;
    let text = table.render(Viewer::Seat(next));
    assert!(
        text.contains(&format!("to beat: 3♦ (a single) from seat {}", first + 1)),
        "{text}"
    );
    assert!(text.contains("12 cards"), "{text}");
    let spectator = table.render(Viewer::Spectator);
    assert!(!spectator.contains("your hand"), "{spectator}");
}

#[test]
fn typed_plays_and_pass_are_read() {
    let (mut table, first) = table();
    let err = table.apply_text(first, "pass").unwrap_err().to_string();
    assert!(err.contains("cannot pass"), "{err}");
    let err = table.apply_text(first, "3d 3d").unwrap_err().to_string();
    assert!(err.contains("two 3d"), "{err}");
    let err = table.apply_text(first, "3d Zz").unwrap_err().to_string();
    assert!(err.contains("unknown card 'Zz'"), "{err}");
    table.apply_text(first, "3♦").expect("symbols are read");
    table
        .apply_text((first + 1) % 4, "PASS")
        .expect("pass in any case");
    let entry = game::registry::entry::<BigTwo>();
    assert_eq!(
        entry.action_text(&serde_json::Value::Null, &serde_json::json!("pass")),
        "pass"
    );
    assert_eq!(
        entry.action_text(
            &serde_json::Value::Null,
            &serde_json::json!({"play":"3s 3d"})
        ),
        "3♦ 3♠"
    );
}

/// A deal of `hands` after seat 0 led the 3♦: the state, seat 1's view and legal
/// actions, and its hints as it reads them.
fn after_the_3d(hands: [&str; 4]) -> (State, bigtwo::View, Vec<Action>, Vec<String>) {
    let mut state =
        State::from_hands(hands.map(|h| h.parse().unwrap()), Opening::ThreeOfDiamonds).unwrap();
    BigTwo::apply(
        &mut state,
        0,
        Action::Play("3d".parse().unwrap()),
        &mut Vec::new(),
    )
    .unwrap();
    let view = BigTwo::view(&state, Viewer::Seat(1));
    let legal = BigTwo::legal(&state, 1);
    let hints = BigTwo::hints(&view, &legal)
        .iter()
        .map(BigTwo::action_text)
        .collect();
    (state, view, legal, hints)
}

#[test]
fn hints_offer_the_computers_play_first_then_smallest_first_breaking_up_a_pair_last() {
    let (mut state, view, legal, hints) = after_the_3d(["3d 9d 9s", "4d 5h 5s 2s", "6d", "7d"]);
    // The heuristic takes the lead back with its 2; smallest first alone would offer
    // 4♦ 5♥ 5♠ 2♠, splitting the pair of fives before the 2.
    let computer = bigtwo::bots::Heuristic::new().act(&game::Decision::from_view(&view, 1, &legal));
    assert_eq!(BigTwo::action_text(&computer), "2♠");
    assert_eq!(hints, ["2♠", "4♦", "5♥", "5♠"]);
    BigTwo::apply(
        &mut state,
        1,
        Action::Play("2s".parse().unwrap()),
        &mut Vec::new(),
    )
    .unwrap();
    let legal = BigTwo::legal(&state, 2);
    let hints = BigTwo::hints(&BigTwo::view(&state, Viewer::Seat(2)), &legal);
    assert_eq!(hints, [Action::Pass]);
}

#[test]
fn hints_offer_a_card_that_stands_alone_before_one_out_of_a_pair() {
    let (_, _, _, hints) = after_the_3d(["3d 8d", "4d 4s 6h 9c", "7d", "Td"]);
    let at = |card: &str| hints.iter().position(|h| h == card);
    assert_eq!(hints.len(), 4, "every single is offered once: {hints:?}");
    for lone in ["6♥", "9♣"] {
        for paired in ["4♦", "4♠"] {
            assert!(at(lone) < at(paired), "{lone} before {paired}: {hints:?}");
        }
    }
}

#[test]
fn a_person_can_play_a_whole_deal_against_bots() {
    let (mut table, _) = table();
    for s in 1..4 {
        table
            .set_bot(s, "heuristic", &Seed::from_u64(s as u64))
            .expect("known bot");
    }
    while let ToAct::Seat(s) = table.to_act() {
        if table.has_bot(s) {
            table.bot_move(s).expect("bot moves");
        } else {
            let hint = table.hints(s).first().cloned().expect("a hint");
            table.apply_text(s, &hint).expect("hints are legal");
        }
    }
    let end = table.render(Viewer::Seat(0));
    assert!(end.contains("Deal over"), "{end}");
    assert!(end.contains("card score"), "{end}");
    assert!(BigTwo::help().contains("pass"));
    assert!(table.outcome().is_some());
}

/// An action as typed.
fn typed(text: &str) -> Action {
    match text {
        "pass" => Action::Pass,
        cards => Action::Play(cards.parse().expect("test cards")),
    }
}

#[test]
fn log_tells_each_seat_what_happened_in_words() {
    let hands = ["3d 9d 9s", "4d 5h 5s 2s", "6d", "7d"].map(|h| h.parse().unwrap());
    let mut state = State::from_hands(hands, Opening::ThreeOfDiamonds).unwrap();
    let mut lines = Vec::new();
    for (seat, action) in [(0, "3d"), (1, "2s"), (2, "pass"), (3, "pass"), (0, "pass")] {
        let action = typed(action);
        let mut events = Vec::new();
        BigTwo::apply(&mut state, seat, action, &mut events).unwrap();
        lines.extend(
            events
                .iter()
                .filter_map(|e| BigTwo::event_text(e, Viewer::Seat(1))),
        );
    }
    assert_eq!(
        lines,
        [
            "seat 1 plays 3♦ (a single); 2 cards left",
            "you play 2♠ (a single); 3 cards left",
            "seat 3 passes",
            "seat 4 passes",
            "seat 1 passes",
            "Nobody beats it: you lead a new round.",
        ]
    );
    let mut events = Vec::new();
    BigTwo::apply(&mut state, 1, typed("5h 5s"), &mut events).unwrap();
    let mut events2 = Vec::new();
    BigTwo::apply(&mut state, 2, Action::Pass, &mut events2).unwrap();
    let mut events3 = Vec::new();
    BigTwo::apply(&mut state, 3, Action::Pass, &mut events3).unwrap();
    let mut events4 = Vec::new();
    BigTwo::apply(&mut state, 0, Action::Pass, &mut events4).unwrap();
    let mut end = Vec::new();
    BigTwo::apply(&mut state, 1, typed("4d"), &mut end).unwrap();
    let last: Vec<String> = end
        .iter()
        .filter_map(|e| BigTwo::event_text(e, Viewer::Seat(0)))
        .collect();
    assert_eq!(
        last,
        [
            "seat 2 plays 4♦ (a single)",
            "seat 2 is out of cards and wins the deal (+4). Left holding: you 2 cards (-4), \
             seat 3 1 card (0), seat 4 1 card (0)."
        ]
    );
}

/// A whole deal through the registry, as the terminal plays it: every accepted action
/// gives at least one log line, and no line shows an internal name or JSON.
#[test]
fn every_action_of_a_deal_reads_as_words() {
    let entry = game::registry::entry::<BigTwo>();
    for seed in 0..5 {
        let (mut table, _) = table();
        for s in 0..4 {
            table
                .set_bot(s, "heuristic", &Seed::from_u64(seed * 4 + s as u64))
                .expect("bot");
        }
        while let ToAct::Seat(s) = table.to_act() {
            let applied = table.bot_move(s).expect("a bot move");
            let lines: Vec<String> = applied
                .events
                .iter()
                .filter_map(|e| entry.event_text(e, Viewer::Seat(0)))
                .collect();
            assert!(!lines.is_empty(), "no line for {:?}", applied.events);
            for l in &lines {
                assert!(!l.contains('_') && !l.contains('{'), "{l}");
            }
        }
    }
}

#[test]
fn outcome_says_who_went_out_and_the_result_by_cards_left() {
    let o = game::Outcome {
        scores: vec![1, 5, 1, -7],
        won: vec![false, true, false, false],
        roles: vec![
            "opener".into(),
            "follower".into(),
            "follower".into(),
            "follower".into(),
        ],
    };
    assert_eq!(
        BigTwo::outcome_text(&o, Viewer::Seat(0)),
        "Seat 2 went out first and wins the deal; your result, by the cards left, is +1."
    );
    assert_eq!(
        BigTwo::outcome_text(&o, Viewer::Seat(1)),
        "You went out first and win the deal, +5."
    );
}
