//! The random opening (`Config::opening`): stones drawn from the deal's seed before play,
//! for engine matches that compare engines rather than colours.

use crate::common;

use game::{Rules, Seed};
use gomoku::rules::Event;
use gomoku::{Action, Color, Config, Gomoku, State, UndoPolicy};

fn opened(stones: u8, seed: u64) -> State {
    let config = Config {
        opening: stones,
        ..Config::default()
    };
    Gomoku::start(&config, 2, &Seed::from_u64(seed)).expect("an opening")
}

fn apply(s: &mut State, seat: usize, a: Action) -> Result<Vec<Event>, game::RuleError> {
    let mut events = Vec::new();
    Gomoku::apply(s, seat, a, &mut events).map(|_| events)
}

#[test]
fn an_opening_lays_its_stones_from_the_seed_alternately_near_the_centre() {
    let s = opened(3, 1);
    assert_eq!(s.moves().len(), 3);
    assert_eq!(
        s.moves(),
        opened(3, 1).moves(),
        "the seed decides the stones"
    );
    for p in s.moves() {
        assert!(
            p.x.abs_diff(7) <= 3 && p.y.abs_diff(7) <= 3,
            "{p:?} is near h8"
        );
    }
    for (i, p) in s.moves().iter().enumerate() {
        assert_eq!(s.board().get(*p), Some(Color::of_ply(i)));
    }
    assert_eq!(s.to_move(), Color::White, "after three stones white moves");
    assert!(s.end().is_none());
    let distinct: std::collections::BTreeSet<Vec<_>> = (0..20)
        .map(|seed| opened(3, seed).moves().to_vec())
        .collect();
    assert!(
        distinct.len() > 15,
        "seeds give varied openings: {}",
        distinct.len()
    );
    assert!(
        opened(0, 1).moves().is_empty(),
        "no opening, an empty board"
    );
}

#[test]
fn the_opening_is_not_taken_back_by_an_undo() {
    let config = Config {
        opening: 3,
        undo: UndoPolicy::Granted,
        ..Config::default()
    };
    let mut s = Gomoku::start(&config, 2, &Seed::from_u64(4)).expect("an opening");
    let opening = s.moves().to_vec();
    for seat in [0, 1] {
        assert!(!Gomoku::legal(&s, seat).contains(&Action::RequestUndo));
        assert!(apply(&mut s, seat, Action::RequestUndo).is_err());
    }
    let white = Gomoku::legal(&s, 1)
        .into_iter()
        .find(|a| matches!(a, Action::Place(_)))
        .expect("a point");
    apply(&mut s, 1, white).expect("white plays");
    assert!(
        !Gomoku::legal(&s, 0).contains(&Action::RequestUndo),
        "black's only stones are the opening's"
    );
    apply(&mut s, 1, Action::RequestUndo).expect("white takes its own stone back");
    assert_eq!(s.moves(), opening.as_slice());
}

#[test]
fn an_opening_too_large_or_on_a_small_board_is_refused() {
    for config in [
        Config {
            opening: 9,
            ..Config::default()
        },
        Config {
            opening: 3,
            size: 7,
            ..Config::default()
        },
    ] {
        assert!(Gomoku::start(&config, 2, &Seed::from_u64(1)).is_err());
    }
}

#[test]
fn a_configuration_without_an_opening_reads_and_writes_as_before() {
    let plain = serde_json::to_value(Config::default()).expect("json");
    assert!(plain.get("opening").is_none(), "{plain}");
    let with: Config = serde_json::from_value(serde_json::json!({"opening": 5})).expect("json");
    assert_eq!(with.opening, 5);
}

#[test]
fn a_game_with_an_opening_verifies_from_its_record() {
    common::play_out_and_verify(
        serde_json::json!({"opening": 5, "rule": "renju"}),
        3,
        ["engine:L2", "engine:L2"],
    );
}
