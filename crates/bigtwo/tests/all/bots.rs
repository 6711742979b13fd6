//! The heuristic bot's judgement in positions where the right play is clear.

use bigtwo::{bots::Heuristic, Action, BigTwo, Opening, State};
use cards::CardSet;
use game::{Bot, Decision, Rules};

fn set(text: &str) -> CardSet {
    text.parse().expect("test cards are valid")
}

/// The heuristic's choice for the seat to act after `moves` from the given deal.
fn choice(hands: [&str; 4], opening: Opening, moves: &[(usize, &str)]) -> Action {
    let mut state = State::from_hands(hands.map(set), opening).expect("a valid deal");
    for &(seat, m) in moves {
        let action = if m == "pass" {
            Action::Pass
        } else {
            Action::Play(set(m))
        };
        BigTwo::apply(&mut state, seat, action, &mut Vec::new()).expect("setup moves apply");
    }
    let game::ToAct::Seat(seat) = BigTwo::to_act(&state) else {
        panic!("someone is to act")
    };
    let legal = BigTwo::legal(&state, seat);
    Heuristic::new().act(&Decision::from_state(&state, seat, &legal))
}

#[test]
fn goes_out_when_the_whole_hand_is_one_play() {
    let a = choice(
        ["3d 4d 5d 6d 8d", "3c 9c", "3h 9h", "3s 9s"],
        Opening::Seat(0),
        &[],
    );
    assert_eq!(a, Action::Play(set("3d 4d 5d 6d 8d")));
}

#[test]
fn leads_its_sure_winner_first_to_keep_the_lead() {
    let a = choice(
        ["2s 5d", "3c 9c Kc", "3h 9h Kh", "3s 9s Ks"],
        Opening::Seat(0),
        &[],
    );
    assert_eq!(a, Action::Play(set("2s")));
}

#[test]
fn does_not_lead_a_beatable_single_into_a_player_with_one_card() {
    let hands = ["4d 4c 5h 9d", "3c 9c Kc", "3h 9h Kh", "Ks"];
    let a = choice(hands, Opening::Seat(0), &[]);
    assert_eq!(a, Action::Play(set("4d 4c")));
}

#[test]
fn blocks_a_single_from_a_player_about_to_go_out() {
    // Seat 3 is down to one card after leading; seat 0 must stop the next single.
    let hands = ["4d 6c Kh 2d 8s", "5c 9c Jc", "5h 9h Jh", "3d Qs"];
    let a = choice(hands, Opening::ThreeOfDiamonds, &[(3, "3d")]);
    assert_eq!(a, Action::Play(set("2d")));
}

#[test]
fn keeps_its_2_when_a_lower_card_beats_the_table() {
    let hands = [
        "4d 5c 6h 8s 9d Tc Jh Qs Kd 2s 3c 7d 7c",
        "3d 4c 5h 6s 8d 9c Th Js Qd Kc Ah 3h 7h",
        "4h 5s 6d 8c 9h Ts Jd Qc Kh Ad 2c 3s 7s",
        "4s 5d 6c 8h 9s Td Jc Qh Ks Ac As 2d 2h",
    ];
    let a = choice(
        hands,
        Opening::ThreeOfDiamonds,
        &[(1, "3d"), (2, "4h"), (3, "5d")],
    );
    assert!(
        matches!(a, Action::Play(c) if c.len() == 1 && !c.contains("2s".parse().unwrap())),
        "{a:?}"
    );
}

#[test]
fn answers_a_straight_with_a_straight_and_keeps_its_four() {
    let hands = [
        "8c 9d Th Js Qd Kc Kd Kh Ks 3s 5c",
        "3d 4d 5h 6s 7d 9c",
        "4h 5s 6d 8s 9h",
        "4s 5d 6c 8h 9s",
    ];
    let a = choice(
        hands,
        Opening::ThreeOfDiamonds,
        &[(1, "3d 4d 5h 6s 7d"), (2, "pass"), (3, "pass")],
    );
    assert_eq!(a, Action::Play(set("8c 9d Th Js Qd")));
}
