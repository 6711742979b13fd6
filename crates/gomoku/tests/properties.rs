//! Property tests over random games: win detection against a brute-force scan, records
//! replaying, the engine's incremental board against a fresh one, and legality.

use game::{registry, Rules, Seed, ToAct};
use gomoku::engine::pattern::{C_B4, C_F3, C_FIVE};
use gomoku::engine::position::Position;
use gomoku::engine::{Engine, Limits};
use gomoku::records::{from_psq, from_sgf, to_psq, to_sgf, GameRecord};
use gomoku::{Action, Board, Color, Config, Gomoku, Point, Rule, State};
use proptest::prelude::*;

/// Whether `color` has a winning line anywhere, by scanning every maximal run.
fn brute_force_win(b: &Board, color: Color, rule: Rule) -> bool {
    let n = i32::from(b.size());
    for y in 0..n {
        for x in 0..n {
            for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                let at = |k: i32| {
                    let (a, c) = (x + dx * k, y + dy * k);
                    (0..n).contains(&a)
                        && (0..n).contains(&c)
                        && b.get(Point::new(a as u8, c as u8)) == Some(color)
                };
                // Only count a run from its first stone.
                if !at(0) || at(-1) {
                    continue;
                }
                let mut len = 0;
                while at(len) {
                    len += 1;
                }
                if len == 5 || (len > 5 && !rule.exact_five(color)) {
                    return true;
                }
            }
        }
    }
    false
}

fn rule_strategy() -> impl Strategy<Value = Rule> {
    prop_oneof![
        Just(Rule::Freestyle),
        Just(Rule::Standard),
        Just(Rule::Renju)
    ]
}

/// Plays the picks (indices into the legal placements) until the game ends or they run out.
fn random_game(rule: Rule, size: u8, picks: &[usize]) -> State {
    let mut s = State::new(&Config {
        rule,
        size,
        ..Config::default()
    })
    .unwrap();
    for &i in picks {
        if s.end().is_some() {
            break;
        }
        let seat = s.to_move().index();
        let places: Vec<Point> = Gomoku::legal(&s, seat)
            .into_iter()
            .filter_map(|a| {
                if let Action::Place(p) = a {
                    Some(p)
                } else {
                    None
                }
            })
            .collect();
        if places.is_empty() {
            break;
        }
        s.play(places[i % places.len()]).unwrap();
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn win_detection_agrees_with_a_brute_force_scan(rule in rule_strategy(), picks in prop::collection::vec(0usize..400, 1..120)) {
        let mut s = State::new(&Config { rule, size: 9, ..Config::default() }).unwrap();
        for &i in &picks {
            if s.end().is_some() { break; }
            let empty: Vec<Point> = s.board().points().filter(|&p| s.board().is_empty_at(p)).collect();
            let p = empty[i % empty.len()];
            let mover = s.to_move();
            if s.play(p).is_err() {
                continue; // a renju-forbidden point: refused, nothing changed
            }
            let won = s.end().map(|e| e.winner) == Some(Some(mover));
            prop_assert_eq!(won, brute_force_win(s.board(), mover, rule));
        }
    }

    #[test]
    fn records_replay_to_the_same_game(rule in rule_strategy(), picks in prop::collection::vec(0usize..1000, 0..80)) {
        let s = random_game(rule, 15, &picks);
        let rec = GameRecord { size: 15, rule, moves: s.moves().to_vec() };
        prop_assert_eq!(from_sgf(&to_sgf(&rec, s.end())).unwrap(), rec.clone());
        prop_assert_eq!(from_psq(&to_psq(&rec), rule).unwrap(), rec.clone());
        let again = rec.replay().unwrap();
        prop_assert_eq!(again.end(), s.end());
    }

    #[test]
    fn registry_records_verify(seed in 0u64..1000) {
        let g = registry::entry::<Gomoku>();
        let mut t = g.new_table(&game::TableSetup::new("p", serde_json::json!({"rule": "renju", "size": 9}), 2, Seed::from_u64(seed))).unwrap();
        t.set_bot(0, "random", &Seed::from_u64(seed + 1)).unwrap();
        t.set_bot(1, "random", &Seed::from_u64(seed + 2)).unwrap();
        while let ToAct::Seat(s) = t.to_act() {
            t.bot_move(s).unwrap();
        }
        let r = t.record();
        prop_assert_eq!(g.verify(&r, &game::VerifyOptions::default()).unwrap().outcome, t.outcome().unwrap());
    }

    #[test]
    fn the_incremental_board_matches_a_fresh_one(rule in rule_strategy(), picks in prop::collection::vec(0usize..1000, 1..60), undos in 0usize..10) {
        let s = random_game(rule, 15, &picks);
        let moves = s.moves();
        let mut pos = Position::from_moves(15, rule, moves).unwrap();
        let undos = undos.min(moves.len());
        for _ in 0..undos { pos.undo(); }
        let fresh = Position::from_moves(15, rule, &moves[..moves.len() - undos]).unwrap();
        prop_assert_eq!(pos.hash(), fresh.hash());
        if rule != Rule::Renju {
            prop_assert_eq!(pos.evaluate(), fresh.evaluate());
        }
        // Renju black's threat classes carry a forbidden-point verdict that may depend on
        // stones beyond the updated lines (the exact check decides at play time), so for
        // it only the line patterns must match exactly.
        let exact_classes = |c: usize| !(rule == Rule::Renju && c == 0);
        for c in (0..2).filter(|&c| exact_classes(c)) {
            for k in [C_F3, C_B4, C_FIVE] {
                prop_assert_eq!(pos.count_at_least(c, k), fresh.count_at_least(c, k));
            }
        }
        for sq in 0..pos.cells() {
            if pos.is_empty(sq) {
                for c in 0..2 {
                    prop_assert_eq!(pos.patterns(sq, c), fresh.patterns(sq, c));
                    if exact_classes(c) {
                        prop_assert_eq!(pos.combo(sq, c), fresh.combo(sq, c));
                    }
                }
                prop_assert_eq!(pos.is_near(sq), fresh.is_near(sq));
            }
        }
    }

    #[test]
    fn the_engine_always_answers_with_a_legal_point(rule in rule_strategy(), picks in prop::collection::vec(0usize..1000, 1..40)) {
        let s = random_game(rule, 15, &picks);
        prop_assume!(s.end().is_none());
        let mut e = Engine::new(15, rule, 14);
        e.set_moves(15, rule, s.moves()).unwrap();
        let t = e.think(&Limits { max_nodes: 2_000, vcf_nodes: 2_000, vct_nodes: 500, ..Limits::default() });
        let p = t.best.unwrap();
        prop_assert!(s.check_place(p).is_ok(), "{:?} at {:?}", s.check_place(p), p);
    }

    #[test]
    fn every_generated_action_applies(rule in rule_strategy(), picks in prop::collection::vec(0usize..1000, 0..30)) {
        let s = random_game(rule, 15, &picks);
        for seat in 0..2 {
            for a in Gomoku::legal(&s, seat) {
                let mut t = s.clone();
                let mut ev = Vec::new();
                prop_assert!(Gomoku::apply(&mut t, seat, a, &mut ev).is_ok(), "{:?}", a);
            }
        }
    }
}
