//! Invariants over random games: cards are conserved, generated actions are legal, records
//! replay.

use doudizhu5::{Action, DouDizhu5, DECK, SEATS};
use game::{registry, Bot, Decision, RandomBot, Rules, Seed, ToAct, Viewer};
use proptest::prelude::*;

fn total_in_play(state: &doudizhu5::State) -> cards::RankCounts {
    let mut rc = state.out_of_hands();
    for s in 0..SEATS {
        rc = rc.plus(state.hand(s).unwrap().ranks());
    }
    rc
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn cards_are_conserved_and_every_legal_action_applies(seed in any::<u64>()) {
        let seed = Seed::from_u64(seed);
        let mut state = DouDizhu5::start(&Default::default(), SEATS, &seed).unwrap();
        let mut bots: Vec<RandomBot> = (0..SEATS).map(|s| RandomBot::new(&seed.derive(s as u64))).collect();
        let mut legal = Vec::new();
        let mut steps = 0;
        loop {
            prop_assert_eq!(total_in_play(&state), DECK.rank_counts());
            let seat = match DouDizhu5::to_act(&state) {
                ToAct::Finished => break,
                ToAct::Seat(s) => s,
                ToAct::Seats(set) => set.iter().last().unwrap(),
            };
            legal.clear();
            DouDizhu5::legal_into(&state, seat, &mut legal);
            prop_assert!(!legal.is_empty());
            // Every listed action applies to a copy; the default action is listed.
            prop_assert!(legal.contains(&DouDizhu5::default_action(&state, seat)));
            for a in legal.iter().take(40) {
                let mut copy = state.clone();
                prop_assert!(DouDizhu5::apply(&mut copy, seat, *a, &mut Vec::new()).is_ok(), "{:?}", a);
            }
            let a: Action = Bot::<DouDizhu5>::act(&mut bots[seat], &Decision::from_state(&state, seat, &legal));
            DouDizhu5::apply(&mut state, seat, a, &mut Vec::new()).unwrap();
            steps += 1;
            prop_assert!(steps < 5000);
        }
        let o = DouDizhu5::outcome(&state).unwrap();
        prop_assert_eq!(o.scores.iter().sum::<i64>(), 0);
    }

    #[test]
    fn records_replay_to_the_same_outcome(seed in any::<u64>(), heuristic in any::<bool>()) {
        let game = registry::entry::<DouDizhu5>();
        let seed = Seed::from_u64(seed);
        let mut table = game.new_table(&game::TableSetup::new("t", serde_json::Value::Null, SEATS, seed)).unwrap();
        for s in 0..SEATS {
            let name = if heuristic && s % 2 == 0 { "heuristic" } else { "random" };
            table.set_bot(s, name, &seed.derive(100 + s as u64)).unwrap();
        }
        let mut steps = 0;
        while let Some(s) = table.to_act().seats().iter().next() {
            table.bot_move(s).unwrap();
            steps += 1;
            prop_assert!(steps < 5000);
        }
        let record = table.record();
        let replayed = game.verify(&record, &game::VerifyOptions::default()).unwrap();
        prop_assert_eq!(Some(replayed.outcome), table.outcome());
        // The record survives its JSON form.
        let json = serde_json::to_string(&record).unwrap();
        let back: game::Record = serde_json::from_str(&json).unwrap();
        prop_assert!(game.verify(&back, &game::VerifyOptions::default()).is_ok());
        prop_assert!(!table.render(Viewer::Spectator).is_empty());
    }
}
