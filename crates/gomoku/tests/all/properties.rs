//! Property tests over random games: win detection against a brute-force scan, records
//! replaying, the engine's incremental board against a fresh one and the rules, and
//! legality.

use game::{registry, Rules, Seed, ToAct};
use gomoku::engine::pattern::{Pattern, B4, C_B4, C_F3, C_FIVE, C_NONE, F3, F4, FIVE, OVERLINE};
use gomoku::engine::position::Position;
use gomoku::engine::{Engine, Limits};
use gomoku::notation::{format_point, parse_point};
use gomoku::records::{from_psq, from_sgf, to_psq, to_sgf, GameRecord};
use gomoku::{renju, Action, Board, Color, Config, Gomoku, Point, Rule, State};
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
    random_game_within(rule, size, picks, size)
}

/// As [`random_game`], with the stones kept within `radius` points of the centre (both
/// ways): crowded games, where threes and renju's forbidden points are common.
fn random_game_within(rule: Rule, size: u8, picks: &[usize], radius: u8) -> State {
    let centre = i32::from(size / 2);
    let near = |p: Point| {
        (i32::from(p.x) - centre).abs() <= i32::from(radius)
            && (i32::from(p.y) - centre).abs() <= i32::from(radius)
    };
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
            .filter_map(|a| match a {
                Action::Place(p) if near(p) => Some(p),
                _ => None,
            })
            .collect();
        if places.is_empty() {
            break;
        }
        s.play(places[i % places.len()]).unwrap();
    }
    s
}

/// The points where the engine's board holds a renju verdict for black that the rules
/// disagree with: where black's lines show two threes (and no five, no two fours, no
/// overline), the class must be none (barred) exactly when [`renju::forbidden`] says
/// black may not play there.
fn stale_verdicts(pos: &Position, board: &Board) -> Vec<String> {
    if pos.rule() != Rule::Renju {
        return Vec::new();
    }
    let mut out = Vec::new();
    for sq in (0..pos.cells()).filter(|&sq| pos.is_empty(sq)) {
        let lines = pos.patterns(sq, 0);
        let count = |which: &[Pattern]| lines.iter().filter(|p| which.contains(p)).count();
        if count(&[FIVE, OVERLINE]) == 0 && count(&[B4, F4]) < 2 && count(&[F3]) >= 2 {
            let forbidden = renju::forbidden(board, pos.point(sq)).is_some();
            if (pos.combo(sq, 0) == C_NONE) != forbidden {
                out.push(format!(
                    "{} after {} stones: stale verdict (forbidden: {forbidden})",
                    format_point(pos.point(sq), 15),
                    pos.ply()
                ));
            }
        }
    }
    out
}

/// Where the engine's board, played move by move and then taken back `undos` times,
/// differs from one built from the moves left, or (at any step) from the rules' renju
/// verdicts: empty when the incremental board is exact. A board built move by move could
/// carry a stale verdict as well as one with take-backs, so comparing the two alone would
/// not see it.
fn incremental_board_differences(rule: Rule, moves: &[Point], undos: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut pos = Position::new(15, rule);
    let mut board = Board::new(15);
    for (i, &p) in moves.iter().enumerate() {
        pos.play(pos.sq_checked(p).unwrap());
        board.set(p, Some(Color::of_ply(i)));
        out.extend(stale_verdicts(&pos, &board));
    }
    let undos = undos.min(moves.len());
    for &p in moves.iter().rev().take(undos) {
        pos.undo();
        board.set(p, None);
        out.extend(stale_verdicts(&pos, &board));
    }
    let left = &moves[..moves.len() - undos];
    let fresh = Position::from_moves(15, rule, left).unwrap();
    let mut differ = |what: String| out.push(what);
    if pos.hash() != fresh.hash() {
        differ("hash".into());
    }
    if pos.evaluate() != fresh.evaluate() {
        differ(format!(
            "evaluation {} against {}",
            pos.evaluate(),
            fresh.evaluate()
        ));
    }
    for c in 0..2 {
        for k in [C_F3, C_B4, C_FIVE] {
            if pos.count_at_least(c, k) != fresh.count_at_least(c, k) {
                differ(format!("colour {c}: count of class {k} and above"));
            }
        }
    }
    for sq in (0..pos.cells()).filter(|&sq| pos.is_empty(sq)) {
        let at = format_point(pos.point(sq), 15);
        for c in 0..2 {
            if pos.patterns(sq, c) != fresh.patterns(sq, c) {
                differ(format!("{at} colour {c}: patterns"));
            }
            if pos.combo(sq, c) != fresh.combo(sq, c) {
                differ(format!(
                    "{at} colour {c}: class {} against {}",
                    pos.combo(sq, c),
                    fresh.combo(sq, c)
                ));
            }
        }
        if pos.is_near(sq) != fresh.is_near(sq) {
            differ(format!("{at}: candidate"));
        }
    }
    out
}

#[test]
fn the_incremental_renju_board_renews_verdicts_that_hang_on_distant_stones() {
    // A crowded renju game found by a random search. After it (and two take-backs) black's
    // g7 shows two threes on its lines; whether it is forbidden depends on stones off
    // those lines — the recursion looks along the lines of the points that would complete
    // the threes — and those stones came and went without g7's lines changing shape.
    let moves: Vec<Point> = "e6 i7 e10 g12 g8 e5 h8 e7 j4 g11 g6 g4 i5 h7 d6 k12 f4 l4 e8 g10 d4"
        .split_whitespace()
        .map(|t| parse_point(t, 15).unwrap())
        .collect();
    assert_eq!(
        incremental_board_differences(Rule::Renju, &moves, 2),
        Vec::<String>::new()
    );
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

proptest! {
    // Crowded games are where renju verdicts hang on distant stones; they are cheap, so
    // this property gets more cases.
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    #[test]
    fn the_incremental_board_matches_a_fresh_one(rule in rule_strategy(), picks in prop::collection::vec(0usize..1000, 1..60), undos in 0usize..10, crowded in any::<bool>()) {
        let s = random_game_within(rule, 15, &picks, if crowded { 4 } else { 15 });
        let differences = incremental_board_differences(rule, s.moves(), undos);
        prop_assert!(differences.is_empty(), "{:?} after {:?}", differences, s.moves());
    }
}
