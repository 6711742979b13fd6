//! Terminal play through the registry, as `qipai play bigtwo` drives it: rendering, typed
//! plays, hints and help.

use bigtwo::{Action, BigTwo, Opening, State};
use game::{GameSpec, Rules, Seed, ToAct, Viewer};

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
    assert!(text.contains("Your hand: 3♦"), "{text}");
    assert!(text.contains("The first play must include 3♦."), "{text}");
    assert!(text.contains("<- to play"), "{text}");
    assert!(text.contains("Your turn: lead anything."), "{text}");
    table.apply_text(first, "3d").expect("3d leads");
    let next = (first + 1) % 4;
    let text = table.render(Viewer::Seat(next));
    assert!(
        text.contains(&format!("On the table: 3♦ (single) by seat {first}")),
        "{text}"
    );
    assert!(text.contains("12 cards"), "{text}");
    let spectator = table.render(Viewer::Spectator);
    assert!(!spectator.contains("Your hand"), "{spectator}");
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
        "3d 3s"
    );
}

#[test]
fn hints_are_the_plays_that_beat_the_table_smallest_first() {
    let hands = ["3d 9d 9s", "4d 5h 5s 2s", "6d", "7d"].map(|h| h.parse().unwrap());
    let mut state = State::from_hands(hands, Opening::ThreeOfDiamonds).unwrap();
    BigTwo::apply(
        &mut state,
        0,
        Action::Play("3d".parse().unwrap()),
        &mut Vec::new(),
    )
    .unwrap();
    let view = BigTwo::view(&state, Viewer::Seat(1));
    let legal = BigTwo::legal(&state, 1);
    let hints: Vec<String> = BigTwo::hints(&view, &legal)
        .iter()
        .map(BigTwo::action_text)
        .collect();
    assert_eq!(hints, ["4d", "5h", "5s", "2s"]);
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
