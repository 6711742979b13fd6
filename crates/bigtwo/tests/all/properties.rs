//! Properties over whole deals: cards are conserved, every generated play is legal and beats
//! the table, views hide other hands, and records replay to the same outcome.

use bigtwo::{bots, Action, BigTwo, Combo, Config, Opening, State, View, DECK};
use cards::{Card, CardSet};
use game::{Bot, Decision, Rules, Seed, ToAct, Viewer};
use proptest::prelude::*;

/// Plays a deal with the named bots, calling `check` before every action.
fn play_deal(
    config: &Config,
    seed: u64,
    bot_names: [&str; 4],
    mut check: impl FnMut(&State, &[Action]),
) -> State {
    let seed = Seed::from_u64(seed);
    let mut state = BigTwo::start(config, 4, &seed).expect("deals");
    let mut bots: Vec<Box<dyn Bot<BigTwo>>> = bot_names
        .iter()
        .enumerate()
        .map(|(s, n)| bots::by_name(n, &seed.derive(s as u64)).expect("known bot"))
        .collect();
    let mut events = Vec::new();
    while let ToAct::Seat(seat) = BigTwo::to_act(&state) {
        let legal = BigTwo::legal(&state, seat);
        check(&state, &legal);
        let action = bots[seat].act(&Decision::from_state(&state, seat, &legal));
        assert!(legal.contains(&action), "bots choose legal actions");
        BigTwo::apply(&mut state, seat, action, &mut events).expect("legal actions apply");
    }
    state
}

fn config(opening: u8) -> Config {
    Config {
        opening: if opening < 4 {
            Opening::Seat(opening as usize)
        } else {
            Opening::ThreeOfDiamonds
        },
    }
}

fn bots_for(mix: u8) -> [&'static str; 4] {
    let name = |bit: u8| {
        if mix & (1 << bit) != 0 {
            "heuristic"
        } else {
            "random"
        }
    };
    [name(0), name(1), name(2), name(3)]
}

fn cards_in(text: &str) -> Vec<Card> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter_map(|t| t.parse::<Card>().ok().filter(|c| !c.is_joker()))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn cards_are_conserved(seed in any::<u64>(), opening in 0u8..5, mix in 0u8..16) {
        let end = play_deal(&config(opening), seed, bots_for(mix), |state, _| {
            let mut all = state.played();
            let mut total = state.played().len();
            for s in 0..4 {
                assert_eq!(all.bits() & state.hand(s).bits(), 0, "a card is in two places");
                all = all.union(state.hand(s));
                total += state.hand(s).len();
            }
            assert_eq!(all, DECK);
            assert_eq!(total, 52);
        });
        let result = end.result().expect("a finished deal has a result");
        prop_assert_eq!(result.results.iter().sum::<i64>(), 0);
        prop_assert!(end.hand(result.winner).is_empty());
    }

    #[test]
    fn generated_plays_are_legal_and_beat_the_table(seed in any::<u64>(), opening in 0u8..5) {
        play_deal(&config(opening), seed, bots_for(0), |state, legal| {
            let ToAct::Seat(seat) = BigTwo::to_act(state) else { unreachable!() };
            let last = state.last().map(|t| t.play);
            assert!(!legal.is_empty());
            assert_eq!(legal.contains(&Action::Pass), last.is_some());
            let mut seen = std::collections::HashSet::new();
            for action in legal {
                assert!(seen.insert(action.clone()), "{action:?} generated twice");
                if let Action::Play(cards) = action {
                    let combo = Combo::classify(*cards).expect("a generated play is a play");
                    assert!(state.hand(seat).contains_all(*cards));
                    assert!(last.is_none_or(|l| combo.beats(&l)));
                    assert!(state.must_include().is_none_or(|m| cards.contains(m)));
                }
                let mut trial = state.clone();
                BigTwo::apply(&mut trial, seat, action.clone(), &mut Vec::new())
                    .expect("a generated action applies");
            }
            // Nothing outside the list applies: every single and pair of the hand is checked.
            for a in state.hand(seat).iter() {
                for b in state.hand(seat).iter().filter(|b| *b >= a) {
                    let action = Action::Play([a, b].into_iter().collect());
                    let applies = BigTwo::apply(&mut state.clone(), seat, action.clone(), &mut Vec::new()).is_ok();
                    assert_eq!(applies, legal.contains(&action), "{action:?}");
                }
            }
        });
    }

    #[test]
    fn views_never_show_another_seats_hand(seed in any::<u64>(), mix in 0u8..16) {
        play_deal(&Config::default(), seed, bots_for(mix), |state, _| {
            for viewer in (0..4).map(Viewer::Seat).chain([Viewer::Spectator]) {
                let view: View = BigTwo::view(state, viewer);
                let text = serde_json::to_string(&view).expect("views serialize");
                let mine = viewer.seat().map_or(CardSet::EMPTY, |s| state.hand(s));
                assert_eq!(view.hand, viewer.seat().map(|s| state.hand(s)));
                // Who holds 3d is public before the first play: that seat is the one to lead.
                let public = view.must_include.into_iter().collect::<CardSet>();
                for card in cards_in(&text).into_iter().filter(|c| !public.contains(*c)) {
                    let hidden = (0..4).any(|s| state.hand(s).contains(card)) && !mine.contains(card);
                    assert!(!hidden, "{viewer:?} sees {card} in {text}");
                }
            }
        });
    }

    #[test]
    fn records_replay_to_the_same_outcome(seed in any::<u64>(), mix in 0u8..16, cut in 0usize..60) {
        let entry = game::registry::entry::<BigTwo>();
        let seed = Seed::from_u64(seed);
        let mut table = entry.new_table(&game::TableSetup::new("t", serde_json::Value::Null, 4, seed)).expect("a table");
        for (s, name) in bots_for(mix).iter().enumerate() {
            table.set_bot(s, name, &seed.derive(7 + s as u64)).expect("known bot");
        }
        let mut moves = 0;
        while let ToAct::Seat(s) = table.to_act() {
            if moves == cut {
                // A server resuming mid-deal from the journal and the secret seed: every
                // hand is as it was; another seed is refused.
                let resumed = entry.resume(&table.journal(), seed).expect("resumes");
                for viewer in [Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(1), Viewer::Seat(2), Viewer::Seat(3)] {
                    prop_assert_eq!(resumed.view(viewer).unwrap(), table.view(viewer).unwrap());
                }
                prop_assert!(entry.resume(&table.journal(), seed.derive(1)).is_err());
                prop_assert!(table.record().seed.is_none(), "the seed stays secret while playing");
            }
            table.bot_move(s).expect("bots move");
            moves += 1;
        }
        let record = table.record();
        let outcome = entry.verify(&record, &game::VerifyOptions::default()).expect("the record verifies");
        prop_assert_eq!(Some(outcome.outcome), table.outcome());
    }
}

#[test]
fn a_tampered_record_does_not_verify() {
    let entry = game::registry::entry::<BigTwo>();
    let seed = Seed::from_u64(5);
    let mut table = entry
        .new_table(&game::TableSetup::new(
            "t",
            serde_json::Value::Null,
            4,
            seed,
        ))
        .expect("a table");
    for s in 0..4 {
        table.set_bot(s, "heuristic", &seed).expect("known bot");
    }
    while let ToAct::Seat(s) = table.to_act() {
        table.bot_move(s).expect("bots move");
    }
    let mut record = table.record();
    record.actions.swap(0, 1);
    assert!(entry
        .verify(&record, &game::VerifyOptions::default())
        .is_err());
}
