//! Suited plays: a player names the very copies played, the table shows them, and the
//! marked card shows the sides when its holder chooses to play it (issue 43, defect 13).

use crate::common;

use cards::Card;
use common::{act, any_copies, decline_all, partner_deal, start};
use doudizhu5::declare::Mode;
use doudizhu5::{Action, DouDizhu5, Event, State, SuitedCards, SEATS};
use game::{deal, Rules, Seed, ToAct, Viewer};
use proptest::prelude::*;

fn suited(cards: &str) -> Action {
    Action::PlaySuited(cards.parse().unwrap())
}

fn views(state: &State) -> Vec<doudizhu5::View> {
    (0..SEATS)
        .map(Viewer::Seat)
        .chain([Viewer::Spectator])
        .map(|v| DouDizhu5::view(state, v))
        .collect()
}

#[test]
fn rule_the_marked_card_played_suited_reveals_the_partner_and_shows_its_suits() {
    let mut s = start(&partner_deal());
    decline_all(&mut s);
    act(&mut s, 0, Action::Declare(Mode::Partner));
    // The landlord's own copy of the marked 3♦ reveals nobody.
    let lead = act(&mut s, 0, suited("As 2s 3d 4h 5c"));
    assert!(!lead.iter().any(|e| matches!(e, Event::Revealed { .. })));
    act(&mut s, 1, Action::Pass);
    act(&mut s, 2, Action::Pass);
    let events = act(&mut s, 3, suited("3d 4c 5c 6c 7c"));
    assert!(
        events.contains(&Event::Revealed {
            partner: 3,
            hidden_solo: false
        }),
        "{events:?}"
    );
    assert!(events.contains(&Event::Played {
        seat: 3,
        cards: "3 4 5 6 7".parse().unwrap(),
        suited: Some("3d 4c 5c 6c 7c".parse().unwrap()),
        kind: doudizhu5::Kind::Straight,
    }));
    for v in views(&s) {
        assert_eq!(v.partner, Some(3));
        let shown: Vec<String> = v
            .history
            .iter()
            .map(|t| t.suited.map(|c| c.to_string()).unwrap_or_default())
            .collect();
        assert_eq!(shown, ["3d 4h 5c As 2s", "", "", "3d 4c 5c 6c 7c"]);
        assert_eq!(
            v.on_table.unwrap().suited.unwrap().to_string(),
            "3d 4c 5c 6c 7c"
        );
    }
    assert_eq!(s.hand(3).unwrap().copies("3d".parse().unwrap()), 0);
}

#[test]
fn rule_a_suited_play_of_a_copy_not_held_is_refused_with_the_state_untouched() {
    let mut s = start(&partner_deal());
    decline_all(&mut s);
    act(&mut s, 0, Action::Declare(Mode::Partner));
    let before = format!("{s:?}");
    let mut events = Vec::new();
    // The landlord holds exactly two 3♦ (the third is the partner's), no 3♣, and some
    // card once.
    let hand = s.hand(0).unwrap();
    let once = Card::all().find(|&c| hand.copies(c) == 1).unwrap();
    let twice = SuitedCards::from_cards(&[once, once]).unwrap();
    for (action, says) in [
        (suited("3d 3d 3d"), "you hold no third 3♦".to_string()),
        (
            Action::PlaySuited(twice),
            format!("you hold no second {}", once.pretty()),
        ),
        (suited("3c"), "you hold no 3♣".to_string()),
    ] {
        let e = DouDizhu5::apply(&mut s, 0, action, &mut events).unwrap_err();
        assert_eq!(e.to_string(), says);
    }
    // Held, but not the seat's turn; held, but no play.
    for (seat, action) in [(3, suited("3d")), (0, suited("3d 2s"))] {
        assert!(DouDizhu5::apply(&mut s, seat, action, &mut events).is_err());
    }
    assert!(events.is_empty());
    assert_eq!(format!("{s:?}"), before);
}

#[test]
fn a_play_by_rank_shows_no_suits_and_jokers_alone_are_by_rank() {
    let mut s = start(&partner_deal());
    decline_all(&mut s);
    act(&mut s, 0, Action::Declare(Mode::Partner));
    act(&mut s, 0, Action::Play("A 2 3 4 5".parse().unwrap()));
    let turn = &DouDizhu5::view(&s, Viewer::Spectator).history[0];
    assert_eq!(turn.suited, None);
    let json = |text: &str| serde_json::json!({ "play": text });
    let read = |text: &str| serde_json::from_value::<Action>(json(text)).map_err(|e| e.to_string());
    assert_eq!(read("3 3 BJ"), Ok(Action::Play("3 3 BJ".parse().unwrap())));
    assert_eq!(read("3d 3♣ BJ"), Ok(suited("3d 3c BJ")));
    assert!(read("3d 3").unwrap_err().contains("needs a suit"));
    assert!(read("3d 3d 3d 3d").is_err());
    // Written back: a suited play with its suits, one of jokers alone by rank.
    assert_eq!(
        serde_json::to_value(suited("3c 3d BJ")).unwrap(),
        json("3d 3c BJ")
    );
    assert_eq!(
        serde_json::to_value(suited("BJ RJ")).unwrap(),
        json("BJ RJ")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Every play, put down with copies drawn at random from the hand, applies and takes
    /// exactly those copies; the game's actions, written to JSON and read back, replay to
    /// the same views for every seat.
    #[test]
    fn every_suited_play_applies_and_a_suited_game_replays(seed in any::<u64>()) {
        let seed = Seed::from_u64(seed);
        let mut state = DouDizhu5::start(&Default::default(), SEATS, &seed).unwrap();
        let mut rng = seed.derive(1).rng();
        let mut legal = Vec::new();
        let mut actions = Vec::new();
        while DouDizhu5::to_act(&state) != ToAct::Finished {
            let seat = match DouDizhu5::to_act(&state) {
                ToAct::Seat(s) => s,
                ToAct::Seats(set) => set.iter().last().unwrap(),
                ToAct::Finished => unreachable!(),
            };
            legal.clear();
            DouDizhu5::legal_into(&state, seat, &mut legal);
            let hand = state.hand(seat).unwrap().cards();
            let action = match legal[deal::below(&mut rng, legal.len())] {
                Action::Play(ranks) => Action::PlaySuited(any_copies(&hand, ranks, &mut rng)),
                other => other,
            };
            let applied = DouDizhu5::apply(&mut state, seat, action, &mut Vec::new());
            prop_assert!(applied.is_ok(), "{:?}: {:?}", action, applied);
            if let Action::PlaySuited(cards) = action {
                let mut left = hand.clone();
                for c in cards.cards() {
                    let i = left.iter().position(|&x| x == c).unwrap();
                    left.remove(i);
                }
                prop_assert_eq!(state.hand(seat).unwrap().cards(), left);
                let shown = DouDizhu5::view(&state, Viewer::Spectator).history.last().unwrap().suited;
                prop_assert_eq!(shown, cards.has_suits().then_some(cards));
            }
            actions.push((seat, action));
            prop_assert!(actions.len() < 5000);
        }
        let mut again = DouDizhu5::start(&Default::default(), SEATS, &seed).unwrap();
        for (seat, action) in &actions {
            let back: Action = serde_json::from_value(serde_json::to_value(action).unwrap()).unwrap();
            DouDizhu5::apply(&mut again, *seat, back, &mut Vec::new()).unwrap();
        }
        prop_assert_eq!(views(&again), views(&state));
    }
}
