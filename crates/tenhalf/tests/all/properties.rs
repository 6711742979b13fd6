//! Invariants over random games: cards are conserved, penalties are what the events say,
//! every generated move is legal and illegal ones change nothing, views never show another
//! seat's face-down card, and records replay to the same outcome.

use cards::{Card, CardSet};
use game::{registry, GameSpec, RuleError, Rules, Seed, ToAct, Viewer};
use proptest::prelude::*;
use serde_json::Value;
use tenhalf::{Action, Config, Event, State, TenHalf, DECK_SIZE};

/// Plays a game choosing among the legal actions by `choices` (cycled), checking `check`
/// after every action. Returns the final state and every event.
fn play(
    seats: usize,
    dealer: usize,
    seed: u64,
    choices: &[u8],
    mut check: impl FnMut(&State, &[Event]),
) -> (State, Vec<Event>) {
    let mut s = State::new(&Config { dealer }, seats, &Seed::from_u64(seed)).unwrap();
    let mut all = Vec::new();
    let mut i = 0;
    while let ToAct::Seat(seat) = TenHalf::to_act(&s) {
        let legal = TenHalf::legal(&s, seat);
        assert!(!legal.is_empty(), "a seat to act has a move");
        let action = legal[choices[i % choices.len()] as usize % legal.len()];
        i += 1;
        let mut events = Vec::new();
        TenHalf::apply(&mut s, seat, action, &mut events).expect("generated moves are legal");
        check(&s, &events);
        all.extend(events);
        assert!(i < 10_000, "a game ends");
    }
    (s, all)
}

/// Every card named in a JSON value (strings of the notation, anywhere in it).
fn cards_in(value: &Value, out: &mut CardSet) {
    match value {
        Value::String(s) => {
            for token in s.split_whitespace() {
                if let Ok(c) = token.parse::<Card>() {
                    out.insert(c);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|v| cards_in(v, out)),
        Value::Object(o) => o.values().for_each(|v| cards_in(v, out)),
        _ => {}
    }
}

fn game_args() -> impl Strategy<Value = (usize, usize, u64, Vec<u8>)> {
    (2usize..=8).prop_flat_map(|seats| {
        (
            Just(seats),
            0..seats,
            any::<u64>(),
            prop::collection::vec(any::<u8>(), 1..16),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn cards_are_conserved((seats, dealer, seed, choices) in game_args()) {
        play(seats, dealer, seed, &choices, |s, _| {
            let mut all = s.discards();
            let mut count = s.discards().len() as usize + s.deck().len();
            for c in s.deck() {
                all.insert(*c);
            }
            for seat in 0..seats {
                let hand = s.hand(seat).unwrap();
                count += hand.len();
                for &c in hand.cards() {
                    all.insert(c);
                }
            }
            assert_eq!(count, DECK_SIZE, "no card twice");
            assert_eq!(all.len() as usize, DECK_SIZE, "no card lost");
        });
    }

    #[test]
    fn penalties_add_up_to_what_the_events_say((seats, dealer, seed, choices) in game_args()) {
        let (s, events) = play(seats, dealer, seed, &choices, |_, _| {});
        let mut from_events = vec![0u32; seats];
        for e in &events {
            match e {
                Event::Busted { seat, penalty, .. } => from_events[*seat] += penalty,
                Event::Showdown(sd) => {
                    if let Some(l) = sd.loser {
                        from_events[l] += sd.pot;
                    }
                }
                _ => {}
            }
        }
        prop_assert_eq!(&from_events, &s.penalties());
        match events.last() {
            Some(Event::GameOver { penalties }) => prop_assert_eq!(penalties, &from_events),
            other => prop_assert!(false, "the game ends with GameOver, not {:?}", other),
        }
        let outcome = TenHalf::outcome(&s).unwrap();
        let scores: Vec<i64> = from_events.iter().map(|&p| -i64::from(p)).collect();
        prop_assert_eq!(outcome.scores, scores);
    }

    #[test]
    fn illegal_actions_change_nothing((seats, dealer, seed, choices) in game_args()) {
        play(seats, dealer, seed, &choices, |s, _| {
            let ToAct::Seat(turn) = TenHalf::to_act(s) else { return };
            let before = format!("{s:?}");
            let mut events = Vec::new();
            let mut copy = s.clone();
            let other = (turn + 1) % seats;
            assert_eq!(
                TenHalf::apply(&mut copy, other, Action::Hit, &mut events),
                Err(RuleError::NotYourTurn(other))
            );
            if s.hand(turn).unwrap().must_hit() {
                assert!(TenHalf::apply(&mut copy, turn, Action::Stand, &mut events).is_err());
            }
            assert!(events.is_empty());
            assert_eq!(format!("{copy:?}"), before);
        });
    }

    #[test]
    fn views_never_show_another_seats_face_down_card(
        (seats, dealer, seed, choices) in game_args()
    ) {
        play(seats, dealer, seed, &choices, |s, events| {
            let hidden: Vec<(usize, Card)> = (0..seats)
                .filter(|&seat| s.base_hidden(seat))
                .filter_map(|seat| Some((seat, s.hand(seat)?.base()?)))
                .collect();
            let mut in_events = CardSet::EMPTY;
            cards_in(&serde_json::to_value(events).unwrap(), &mut in_events);
            for viewer in (0..seats).map(Viewer::Seat).chain([Viewer::Spectator]) {
                let log: String = events
                    .iter()
                    .filter_map(|e| TenHalf::event_text(e, viewer))
                    .collect();
                for &(seat, base) in &hidden {
                    assert!(!log.contains(&base.pretty()), "the log shows seat {seat}'s {base}");
                }
                let mut shown = CardSet::EMPTY;
                cards_in(&serde_json::to_value(TenHalf::view(s, viewer)).unwrap(), &mut shown);
                for &(seat, base) in &hidden {
                    assert!(!in_events.contains(base), "an event shows {base}");
                    if viewer != Viewer::Seat(seat) {
                        assert!(!shown.contains(base), "{viewer:?} sees seat {seat}'s {base}");
                    } else {
                        assert!(shown.contains(base), "seat {seat} sees its own base");
                    }
                }
            }
        });
    }

    #[test]
    fn records_replay_to_the_same_outcome(
        seats in 2usize..=8,
        seed in any::<u64>(),
        names in prop::collection::vec(prop::sample::select(vec!["random", "seed", "counting"]), 8),
    ) {
        let entry = registry::entry::<TenHalf>();
        let mut table = entry
            .new_table(&game::TableSetup::new("t", Value::Null, seats, Seed::from_u64(seed)))
            .unwrap();
        for (seat, name) in names.iter().take(seats).enumerate() {
            table.set_bot(seat, name, &Seed::from_u64(seed).derive(seat as u64)).unwrap();
        }
        while let ToAct::Seat(seat) = table.to_act() {
            table.bot_move(seat).unwrap();
        }
        let record = table.record();
        prop_assert!(record.seed.is_some());
        let outcome = entry.verify(&record, &game::VerifyOptions::default()).unwrap();
        prop_assert_eq!(Some(outcome.outcome), table.outcome());
    }
}
