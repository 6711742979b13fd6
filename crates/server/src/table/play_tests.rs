//! When a seat's turn begins, which decides what is stale.

use super::Running;
use game::{ErasedGame, Seed, Table, TableSetup};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::time::{Duration, Instant};

fn running(table: Box<dyn Table>, seats: usize) -> Running {
    Running {
        game_id: "t-1".into(),
        table,
        turn: 0,
        deadline: None,
        turn_started: Instant::now(),
        banks: vec![Duration::ZERO; seats],
        thinking: HashMap::new(),
        acting: Vec::new(),
        turn_since: vec![0; seats],
    }
}

/// The first deal (by seed) where at least `n` seats act at once.
fn deal_with(game: &dyn ErasedGame, seats: usize, n: usize) -> Box<dyn Table> {
    (0..1000)
        .find_map(|i| {
            let setup = TableSetup::new("t-1", Value::Null, seats, Seed::from_u64(i));
            let t = game.new_table(&setup).ok()?;
            (t.to_act().seats().iter().count() >= n).then_some(t)
        })
        .expect("such a deal")
}

#[test]
fn another_seats_move_in_a_simultaneous_phase_starts_no_new_turn() {
    let game = game::registry::entry::<doudizhu5::DouDizhu5>();
    let mut run = running(deal_with(game.as_ref(), 5, 2), 5);
    run.turns_begin(10, None);
    let (a, b) = (run.acting[0], run.acting[1]);
    run.table.apply(a, &json!("decline")).expect("a declines");
    run.turns_begin(11, Some(a));
    assert!(!run.acting.contains(&a), "a is done grabbing");
    assert!(run.acting.contains(&b));
    assert_eq!(run.turn_since[b], 10, "b's turn runs on from the deal");
}

#[test]
fn in_turn_order_each_move_starts_the_next_seats_turn() {
    let game = game::registry::entry::<doudizhu::DouDizhu>();
    let mut run = running(deal_with(game.as_ref(), 3, 1), 3);
    run.turns_begin(10, None);
    let a = run.acting[0];
    let legal = run.table.legal(a).expect("a may act");
    run.table.apply(a, &legal[0]).expect("a acts");
    run.turns_begin(11, Some(a));
    for &s in &run.acting {
        assert_eq!(run.turn_since[s], 11, "seat {s} acts after a's move");
    }
}
