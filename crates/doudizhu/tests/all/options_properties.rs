//! The invariants of random games, with 加倍 and 明牌 on: cards are conserved, every
//! generated action is legal, views hold no other seat's hidden cards (a shown hand is
//! not hidden), the stakes settle as the rules page says, and records replay and verify.

use crate::secrecy::{random_deal, stream, twin};
use cards::{Deck, RankCounts};
use doudizhu::{settle, Action, Config, CustomDeal, DouDizhu, Doubling, Phase, ScoreInput, State};
use game::registry::{entry, play_with_bots};
use game::{Bot, Decision, RandomBot, Rules, Seat, Seed, TableSetup, ToAct, Viewer};
use proptest::prelude::*;
use serde_json::{json, Value};

fn options(doubling: u8, show_cards: bool) -> Config {
    Config {
        doubling: [Doubling::Off, Doubling::Double, Doubling::Super][usize::from(doubling % 3)],
        show_cards,
        ..Config::default()
    }
}

/// Hands plus every card played: one deck once the kitty is in the landlord's hand.
fn all_cards(s: &State) -> RankCounts {
    let v = DouDizhu::view(s, Viewer::Spectator);
    let held = (0..3).fold(RankCounts::EMPTY, |a, seat| a.plus(s.hand(seat)));
    v.history
        .iter()
        .filter_map(|(_, p)| *p)
        .fold(held, |a, p| a.plus(p.cards()))
}

/// One random game under `config`, checking every invariant at every step.
fn check_game(config: &Config, seed: u64) -> Result<(), TestCaseError> {
    let seed = Seed::from_u64(seed);
    let mut s = DouDizhu::start(config, 3, &seed).unwrap();
    let mut bot = RandomBot::new(&seed.derive(1));
    let mut legal = Vec::new();
    let deck = Deck::WITH_JOKERS.rank_counts();
    while let ToAct::Seat(seat) = DouDizhu::to_act(&s) {
        if s.landlord().is_some() {
            prop_assert_eq!(all_cards(&s), deck);
        }
        // Views: one's own hand; the landlord's once shown; nobody else's.
        let shown = s.shown().then(|| s.hand(s.landlord().unwrap()));
        for viewer in [
            Viewer::Spectator,
            Viewer::Seat(0),
            Viewer::Seat(1),
            Viewer::Seat(2),
        ] {
            let view = DouDizhu::view(&s, viewer);
            prop_assert_eq!(view.hand, viewer.seat().map(|me| s.hand(me)));
            prop_assert_eq!(view.shown, shown);
            prop_assert_eq!(view.revealed, None);
            prop_assert_eq!(view.doubles, s.doubles());
        }
        legal.clear();
        DouDizhu::legal_into(&s, seat, &mut legal);
        prop_assert!(!legal.is_empty());
        for other in (0..3).filter(|&o| o != seat) {
            prop_assert!(DouDizhu::legal(&s, other).is_empty());
        }
        for a in legal.iter().take(40) {
            match (s.phase(), a) {
                (Phase::Doubling, Action::Double(f)) => {
                    prop_assert!(config.doubling.factors().contains(f))
                }
                (Phase::Showing, Action::Show(_)) => prop_assert!(config.show_cards),
                (Phase::Bidding, Action::Bid(_)) | (Phase::Playing, _) => {}
                (phase, a) => prop_assert!(false, "{a:?} offered in {phase:?}"),
            }
            let mut copy = s.clone();
            prop_assert!(DouDizhu::apply(&mut copy, seat, *a, &mut Vec::new()).is_ok());
        }
        let action = Bot::<DouDizhu>::act(&mut bot, &Decision::from_state(&s, seat, &legal));
        DouDizhu::apply(&mut s, seat, action, &mut Vec::new()).unwrap();
    }
    prop_assert_eq!(s.phase(), Phase::Finished);
    let o = DouDizhu::outcome(&s).unwrap();
    prop_assert_eq!(o.scores.iter().sum::<i64>(), 0);
    // The settlement: each peasant's stake is base × M × the landlord's × its own factor.
    let l = s.landlord().unwrap();
    let v = DouDizhu::view(&s, Viewer::Spectator);
    let factor = |seat: Seat| v.doubles[seat].max(1);
    let (p0, p1) = ((l + 1) % 3, (l + 2) % 3);
    let input = ScoreInput {
        bid: v.bid,
        landlord_won: o.won[l],
        bombs: 0,
        spring: false,
        anti_spring: false,
        shown: false,
    };
    let (landlord, peasants) = settle(&input, factor(l), [factor(p0), factor(p1)]);
    let m = v.multiplier;
    prop_assert_eq!(o.scores[l], landlord * m);
    prop_assert_eq!(
        [o.scores[p0], o.scores[p1]],
        [peasants[0] * m, peasants[1] * m]
    );
    if config.doubling.is_off() {
        prop_assert_eq!(v.doubles, [0; 3]);
    } else {
        prop_assert!(v.doubles.iter().all(|f| [1, 2, 4].contains(f)));
    }
    Ok(())
}

fn registry_config(deal: &CustomDeal, first: Seat, doubling: u8, show: bool) -> Value {
    serde_json::to_value(Config {
        deal: Some(deal.clone()),
        first_bidder: Some(first),
        ..options(doubling, show)
    })
    .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn options_random_games_conserve_cards_generate_legal_moves_hide_hands_and_settle_stakes(
        seed in any::<u64>(),
        doubling in 0u8..3,
        show in any::<bool>(),
    ) {
        check_game(&options(doubling, show), seed)?;
    }

    #[test]
    fn options_a_record_replays_and_verifies(
        seed in any::<u64>(),
        doubling in 1u8..3,
        show in any::<bool>(),
        bot in prop::sample::select(vec!["random", "heuristic"]),
    ) {
        let game = entry::<DouDizhu>();
        let seed = Seed::from_u64(seed);
        let config = serde_json::to_value(options(doubling, show)).unwrap();
        let mut table = game.new_table(&TableSetup::new("t", config.clone(), 3, seed)).unwrap();
        for s in 0..3 {
            table.set_bot(s, bot, &seed.derive(s as u64)).unwrap();
        }
        let mut resumed_once = false;
        while let ToAct::Seat(s) = table.to_act() {
            table.bot_move(s).unwrap();
            let view = table.view(Viewer::Spectator).unwrap();
            if !resumed_once && view["phase"] == "playing" && table.to_act() != ToAct::Finished {
                // Resumed from its journal just after the options' phases, with the same
                // seed, the table is the same for everyone.
                let resumed = game.resume(&table.journal(), seed).unwrap();
                for v in [Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(1), Viewer::Seat(2)] {
                    prop_assert_eq!(resumed.view(v).unwrap(), table.view(v).unwrap());
                }
                resumed_once = true;
            }
        }
        let record = table.record();
        prop_assert_eq!(&record.config, &config);
        let verdict = game.verify(&record, &game::VerifyOptions::default()).unwrap();
        prop_assert_eq!(Some(verdict.outcome), table.outcome());
        let back: game::Record = serde_json::from_str(&serde_json::to_string(&record).unwrap()).unwrap();
        prop_assert_eq!(back, record);
    }

    #[test]
    fn options_nothing_a_seat_sees_changes_when_hidden_cards_are_swapped(
        seed in any::<u64>(),
        first in 0usize..3,
        observer in 0usize..4,
        n in 1usize..10,
        swap_seed in any::<u64>(),
        doubling in 1u8..3,
        show in any::<bool>(),
    ) {
        let deal = random_deal(seed);
        let a_cfg = registry_config(&deal, first, doubling, show);
        let game = entry::<DouDizhu>();
        let mut table = game.new_table(&TableSetup::new("g", a_cfg.clone(), 3, Seed::from_u64(1))).unwrap();
        let actions = play_with_bots(table.as_mut(), "random", &Seed::from_u64(seed)).unwrap();
        let redealt = actions.iter().take(3).all(|(_, a)| *a == json!({"bid": 0}));
        prop_assume!(!redealt);
        let view = table.view(Viewer::Spectator).unwrap();
        let landlord = view["landlord"].as_u64().map(|l| l as usize);
        let shown = actions.iter().any(|(_, a)| *a == json!({"show": true}));
        let (viewer, others) = match observer {
            3 => (Viewer::Spectator, (0, 1)),
            o => (Viewer::Seat(o), ((o + 1) % 3, (o + 2) % 3)),
        };
        // A shown hand is no secret: swap only between two hands the observer cannot see.
        prop_assume!(!(shown && landlord.is_some_and(|l| l == others.0 || l == others.1)));
        let b_deal = twin(&deal, &actions, others.0, others.1, n, swap_seed);
        prop_assume!(b_deal != deal, "nothing to trade");
        let b_cfg = registry_config(&b_deal, first, doubling, show);
        prop_assert_eq!(stream(&a_cfg, viewer, &actions), stream(&b_cfg, viewer, &actions));
    }
}

/// The twin comparison sees a shown hand: swapping the landlord's unplayed cards with a
/// peasant's changes what the other peasant receives once the hand is shown.
#[test]
fn options_the_comparison_sees_a_shown_hand() {
    let mut compared = 0;
    for seed in 0..60 {
        let deal = random_deal(seed);
        // Seat 0 bids 3 at once: it is the landlord, and it shows.
        let cfg = registry_config(&deal, 0, 0, true);
        let game = entry::<DouDizhu>();
        let mut table = game
            .new_table(&TableSetup::new("g", cfg.clone(), 3, Seed::from_u64(1)))
            .unwrap();
        let mut actions = vec![(0, json!({"bid": 3})), (0, json!({"show": true}))];
        for (s, a) in &actions {
            table.apply(*s, a).unwrap();
        }
        actions.extend(play_with_bots(table.as_mut(), "random", &Seed::from_u64(seed)).unwrap());
        let b = twin(&deal, &actions, 0, 1, 3, seed);
        if b == deal {
            continue;
        }
        compared += 1;
        let b_cfg = registry_config(&b, 0, 0, true);
        assert_ne!(
            stream(&cfg, Viewer::Seat(2), &actions),
            stream(&b_cfg, Viewer::Seat(2), &actions)
        );
    }
    assert!(compared >= 8, "only {compared} twins differed");
}
