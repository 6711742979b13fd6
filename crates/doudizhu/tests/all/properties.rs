//! Invariants over random games: cards are conserved, every generated action is legal,
//! views hide other hands, and records replay to the same result.

use cards::{Deck, RankCounts};
use doudizhu::{Action, Config, DouDizhu, Phase, State};
use game::registry::entry;
use game::{Bot, Decision, RandomBot, Rules, Seed, ToAct, Viewer};
use proptest::prelude::*;

/// Everything still in a hand plus every card played (the kitty is in the landlord's hand
/// once there is a landlord; before that it is the three cards missing).
fn all_cards(s: &State) -> RankCounts {
    let v = DouDizhu::view(s, Viewer::Spectator);
    let mut total = (0..3).fold(RankCounts::EMPTY, |a, seat| a.plus(s.hand(seat)));
    for (_, p) in &v.history {
        if let Some(p) = p {
            total = total.plus(p.cards());
        }
    }
    total
}

/// Plays one random game, checking every invariant at every step.
fn check_game(seed: u64) -> Result<(), TestCaseError> {
    let seed = Seed::from_u64(seed);
    let mut s = DouDizhu::start(&Config::default(), 3, &seed).unwrap();
    let mut bot = RandomBot::new(&seed.derive(1));
    let mut legal = Vec::new();
    let mut events = Vec::new();
    let deck = Deck::WITH_JOKERS.rank_counts();
    while let ToAct::Seat(seat) = DouDizhu::to_act(&s) {
        // Conservation: hands, plays and (while hidden) the kitty make one deck.
        let v = DouDizhu::view(&s, Viewer::Spectator);
        let counted = all_cards(&s);
        if v.landlord.is_some() {
            prop_assert_eq!(counted, deck);
        } else {
            prop_assert_eq!(counted.len(), 51);
            prop_assert!(deck.contains(counted));
        }
        // Views: each seat sees its own hand and nobody else's.
        for viewer in 0..3 {
            let view = DouDizhu::view(&s, Viewer::Seat(viewer));
            prop_assert_eq!(view.hand, Some(s.hand(viewer)));
            prop_assert_eq!(view.revealed, None);
            let json = serde_json::to_value(&view).unwrap();
            prop_assert_eq!(
                json["hand"].as_str().map(str::to_owned),
                Some(s.hand(viewer).to_string())
            );
        }
        prop_assert_eq!(v.hand, None);
        // Every generated action is legal: it applies, and plays beat the table.
        legal.clear();
        DouDizhu::legal_into(&s, seat, &mut legal);
        prop_assert!(!legal.is_empty());
        for other in 0..3 {
            if other != seat {
                prop_assert!(DouDizhu::legal(&s, other).is_empty());
            }
        }
        let last = v.last.map(|(_, p)| p);
        for a in legal.iter().take(40) {
            if let Action::Play(p) = a {
                prop_assert_eq!(doudizhu::Play::classify(p.cards()), Some(*p));
                prop_assert!(s.hand(seat).contains(p.cards()));
                if let Some(l) = last {
                    prop_assert!(p.beats(l));
                }
            }
            let mut copy = s.clone();
            prop_assert!(DouDizhu::apply(&mut copy, seat, *a, &mut Vec::new()).is_ok());
        }
        let action = Bot::<DouDizhu>::act(&mut bot, &Decision::from_state(&s, seat, &legal));
        events.clear();
        DouDizhu::apply(&mut s, seat, action, &mut events).unwrap();
    }
    prop_assert_eq!(s.phase(), Phase::Finished);
    let o = DouDizhu::outcome(&s).unwrap();
    prop_assert_eq!(o.scores.iter().sum::<i64>(), 0);
    prop_assert_eq!(
        o.won.iter().filter(|w| **w).count(),
        if o.won[s.landlord().unwrap()] { 1 } else { 2 }
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_games_conserve_cards_generate_legal_moves_and_hide_hands(seed in any::<u64>()) {
        check_game(seed)?;
    }

    #[test]
    fn a_record_replays_to_the_same_result(seed in any::<u64>()) {
        let game = entry::<DouDizhu>();
        let seed = Seed::from_u64(seed);
        let mut table = game.new_table(&game::TableSetup::new("t", serde_json::Value::Null, 3, seed)).unwrap();
        for s in 0..3 {
            table.set_bot(s, "random", &seed.derive(s as u64)).unwrap();
        }
        let mut halfway = None;
        while let ToAct::Seat(s) = table.to_act() {
            table.bot_move(s).unwrap();
            let running = table.to_act() != ToAct::Finished;
            if halfway.is_none() && running && table.record().actions.len() == 20 {
                // A running table's record hides the seed; resuming from its journal with
                // the seed rebuilds the same position, every hidden hand included, and
                // another seed is refused rather than dealt.
                let journal = table.journal();
                prop_assert!(journal.seed.is_none() && table.record().seed.is_none());
                prop_assert!(game.resume(&journal, seed.derive(7)).is_err());
                let resumed = game.resume(&journal, seed).unwrap();
                for viewer in [Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(1), Viewer::Seat(2)] {
                    prop_assert_eq!(resumed.view(viewer).unwrap(), table.view(viewer).unwrap());
                }
                halfway = Some(());
            }
        }
        let record = table.record();
        prop_assert_eq!(record.seed, Some(seed));
        let outcome = game.verify(&record, &game::VerifyOptions::default()).unwrap();
        prop_assert_eq!(Some(outcome.outcome), table.outcome());
        let json = serde_json::to_string(&record).unwrap();
        let back: game::Record = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, record);
    }
}

#[test]
fn verify_refuses_a_tampered_record() {
    let game = entry::<DouDizhu>();
    let seed = Seed::from_u64(5);
    let mut table = game
        .new_table(&game::TableSetup::new(
            "t",
            serde_json::Value::Null,
            3,
            seed,
        ))
        .unwrap();
    for s in 0..3 {
        table.set_bot(s, "random", &seed.derive(s as u64)).unwrap();
    }
    while let ToAct::Seat(s) = table.to_act() {
        table.bot_move(s).unwrap();
    }
    let record = table.record();
    assert!(game
        .verify(&record, &game::VerifyOptions::default())
        .is_ok());

    let mut other_seed = record.clone();
    other_seed.seed = Some(Seed::from_u64(6));
    let err = game
        .verify(&other_seed, &game::VerifyOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("does not match the commitment"), "{err}");

    let mut other_result = record.clone();
    if let Some(o) = other_result.outcome.as_mut() {
        o.scores[0] += 1;
    }
    let err = game
        .verify(&other_result, &game::VerifyOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("outcome"), "{err}");

    let mut cut = record.clone();
    cut.actions.pop();
    assert!(
        game.verify(&cut, &game::VerifyOptions::default()).is_err(),
        "an unfinished replay does not verify"
    );

    let mut swapped = record;
    let last = swapped.actions.len() - 1;
    swapped.actions[last].seat = (swapped.actions[last].seat + 1) % 3;
    let err = game
        .verify(&swapped, &game::VerifyOptions::default())
        .unwrap_err()
        .to_string();
    assert!(err.contains("not your turn"), "{err}");
}

#[test]
fn bad_actions_through_the_registry_leave_the_table_untouched() {
    let game = entry::<DouDizhu>();
    let mut table = game
        .new_table(&game::TableSetup::new(
            "t",
            serde_json::json!({"first_bidder": 0}),
            3,
            Seed::from_u64(3),
        ))
        .unwrap();
    let before = table.view(Viewer::Spectator).unwrap();
    for bad in [
        serde_json::json!({"bid": 9}),
        serde_json::json!({"play": "3 4"}),
        serde_json::json!({"play": "Xz"}),
        serde_json::json!("fold"),
        serde_json::json!(null),
        serde_json::json!({"bid": -1}),
    ] {
        assert!(table.apply(0, &bad).is_err(), "{bad}");
    }
    assert!(
        table.apply(1, &serde_json::json!({"bid": 1})).is_err(),
        "out of turn"
    );
    assert!(
        table.apply(7, &serde_json::json!({"bid": 1})).is_err(),
        "no such seat"
    );
    assert!(table.apply_text(0, "bid seven").is_err());
    assert_eq!(table.view(Viewer::Spectator).unwrap(), before);
    assert!(
        table.record().actions.is_empty(),
        "nothing refused is recorded"
    );
    assert!(game
        .new_table(&game::TableSetup::new(
            "t",
            serde_json::json!({"no_such_option": 1}),
            3,
            Seed::from_u64(3)
        ))
        .is_err());
}
