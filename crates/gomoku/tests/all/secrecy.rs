//! Gomoku has no hidden information: every seat receives exactly what a spectator does,
//! and every action is public as it is. The same secrecy property as the card games',
//! in its simplest form — a view that grew a seat-private field would fail it.

use game::registry::{entry, first_difference, observe, play_with_bots};
use game::{Seed, TableSetup, Viewer};
use gomoku::Gomoku;
use proptest::prelude::*;
use serde_json::json;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_seat_receives_what_a_spectator_does(
        seed in any::<u64>(),
        rule in prop::sample::select(vec!["freestyle", "standard", "renju"]),
        size in 7u8..=15,
    ) {
        let config = json!({"rule": rule, "size": size});
        let game = entry::<Gomoku>();
        let setup = TableSetup::new("g", config, 2, Seed::from_u64(seed));
        let mut world = game.new_table(&setup).unwrap();
        let actions = play_with_bots(world.as_mut(), "random", &Seed::from_u64(seed)).unwrap();
        let watch = |viewer| observe(game.new_table(&setup).unwrap().as_mut(), viewer, &actions, |_, _| false).unwrap();
        let spectator = watch(Viewer::Spectator);
        for seat in 0..2 {
            let diff = first_difference(&watch(Viewer::Seat(seat)), &spectator);
            prop_assert!(diff.is_none(), "seat {}: {:?}", seat, diff);
        }
    }
}
