//! The engine: every level completes its five and blocks a four; renju black never plays a
//! forbidden point; white aims at them; the threat solver and the search agree.

use crate::common;
use common::{interleave, pt};
use game::{Bot, Decision, GameSpec, Rules, Seed};
use gomoku::engine::{Engine, Limits, WIN_BOUND};
use gomoku::renju::forbidden;
use gomoku::{Action, Config, Gomoku, Rule, State};

fn state(rule: Rule, black: &str, white: &str) -> State {
    let mut s = State::new(&Config {
        rule,
        ..Config::default()
    })
    .unwrap();
    for p in interleave(black, white) {
        s.play(p).unwrap();
    }
    s
}

fn bot_move(name: &str, s: &State) -> Action {
    let seat = s.to_move().index();
    let legal = Gomoku::legal(s, seat);
    let mut bot: Box<dyn Bot<Gomoku>> = Gomoku::bot(name, &Seed::from_u64(5)).unwrap();
    bot.act(&Decision::from_state(s, seat, &legal))
}

fn levels() -> Vec<String> {
    (1..=10)
        .map(|n| format!("engine:L{n}"))
        .chain(["engine".to_string(), "classic".to_string()])
        .collect()
}

#[test]
fn every_level_completes_its_own_five() {
    // Black d8 e8 f8 g8 (c8 blocked by white): h8 wins. White also has a four elsewhere.
    let s = state(Rule::Freestyle, "d8 e8 f8 g8 a15", "c8 a1 a2 a3 a4");
    for name in levels() {
        assert_eq!(bot_move(&name, &s), Action::Place(pt("h8")), "{name}");
    }
}

#[test]
fn every_level_blocks_a_four() {
    // White to move; black threatens h8 (d8 e8 f8 g8, c8 white).
    let s = state(Rule::Freestyle, "d8 e8 f8 g8 o15", "c8 a1 a5 m2");
    for name in levels() {
        assert_eq!(bot_move(&name, &s), Action::Place(pt("h8")), "{name}");
    }
}

#[test]
fn every_level_stops_an_open_three_or_wins_faster() {
    // White to move; black has an open three e8 f8 g8 and white has nothing.
    let s = state(Rule::Freestyle, "e8 f8 g8", "a1 o1");
    for name in levels() {
        let Action::Place(p) = bot_move(&name, &s) else {
            panic!("{name}")
        };
        assert!(
            ["d8", "h8", "c8", "i8"].iter().any(|q| pt(q) == p),
            "{name} played {p:?}"
        );
    }
}

#[test]
fn renju_black_engine_never_plays_a_forbidden_point() {
    // h8 would be black's best point but is a double-three.
    let s = state(Rule::Renju, "g8 i8 h7 h9", "a1 a3 a5 o1");
    assert!(forbidden(s.board(), pt("h8")).is_some());
    for name in levels() {
        let a = bot_move(&name, &s);
        assert_ne!(a, Action::Place(pt("h8")), "{name}");
        assert!(Gomoku::legal(&s, 0).contains(&a), "{name}: {a:?}");
    }
    let mut e = Engine::new(15, Rule::Renju, 16);
    e.set_moves(15, Rule::Renju, s.moves()).unwrap();
    let t = e.think(&Limits {
        max_nodes: 50_000,
        ..Limits::default()
    });
    assert!(forbidden(s.board(), t.best.unwrap()).is_none());
}

#[test]
fn renju_engine_sees_a_three_completed_only_at_a_five_point_as_no_three() {
    // Black f8 g8 (d8 white), h7 h9 and the four i4–i7 (i3 white): h8 makes one three, since
    // row 8's only straight-four point i8 makes five. The engine's board agrees with the
    // rules, and black's legal points include h8.
    let s = state(
        Rule::Renju,
        "f8 g8 h7 h9 i4 i5 i6 i7",
        "d8 i3 a1 a3 a5 a7 o1 o3",
    );
    let h8 = pt("h8");
    assert!(forbidden(s.board(), h8).is_none());
    assert!(Gomoku::legal(&s, 0).contains(&Action::Place(h8)));
    let mut e = Engine::new(15, Rule::Renju, 14);
    e.set_moves(15, Rule::Renju, s.moves()).unwrap();
    let pos = e.position();
    let sq = pos.sq_checked(h8).unwrap();
    assert!(!pos.forbidden(sq, 0));
    // Not barred as forbidden: black's class there is the double three the lines show.
    assert_eq!(pos.combo(sq, 0), gomoku::engine::pattern::C_F3F3);
}

#[test]
fn renju_white_wins_with_a_four_whose_block_is_forbidden() {
    // Black's h8 is a double-three. White e5 f6 g7 plays d4 (c3 and i9 are black): the
    // only block of the four d4–g7 is h8, which black may not play.
    let s = state(Rule::Renju, "g8 i8 h7 h9 c3 i9", "e5 f6 g7 o15 a15");
    assert!(forbidden(s.board(), pt("h8")).is_some());
    let mut e = Engine::new(15, Rule::Renju, 16);
    e.set_moves(15, Rule::Renju, s.moves()).unwrap();
    let t = e.think(&Limits {
        max_nodes: 100_000,
        ..Limits::default()
    });
    assert_eq!(t.best, Some(pt("d4")), "{t:?}");
    assert!(t.win_in.is_some() && t.eval > WIN_BOUND);
}

#[test]
fn the_engine_finds_a_vcf_and_reports_its_length() {
    // Black: a broken row and column that chain into fours: e8 f8 g8 (closed at d8) and
    // h5 h6 h7 (closed at h4): h8 makes a double four.
    let s = state(Rule::Freestyle, "e8 f8 g8 h5 h6 h7", "d8 h4 a1 o1 o3 o5");
    let mut e = Engine::new(15, Rule::Freestyle, 16);
    e.set_moves(15, Rule::Freestyle, s.moves()).unwrap();
    let t = e.think(&Limits {
        max_nodes: 100_000,
        ..Limits::default()
    });
    assert!(t.win_in.is_some(), "{t:?}");
    assert!(t.win_in.unwrap() <= 3);
}

#[test]
fn node_and_depth_limits_make_the_engine_deterministic() {
    let s = state(Rule::Freestyle, "h8 i9 g7", "h9 j10");
    let think = || {
        let mut e = Engine::new(15, Rule::Freestyle, 16);
        e.set_moves(15, Rule::Freestyle, s.moves()).unwrap();
        e.think(&Limits {
            max_nodes: 20_000,
            max_depth: 6,
            ..Limits::default()
        })
    };
    let (a, b) = (think(), think());
    assert_eq!(a, b);
    assert!(a.nodes <= 20_000 + 60_000, "{}", a.nodes);
}

#[test]
fn a_hard_time_already_spent_stops_the_search_at_its_next_clock_reading() {
    // A hard time of zero has passed by the first reading of the clock, which the search
    // takes every 1024 nodes: it must stop there and still answer. (No wall-clock bound
    // is asserted; the node counts say it stopped.)
    let s = state(Rule::Freestyle, "h8 i9 g7 j8", "h9 j10 g9");
    let mut e = Engine::new(15, Rule::Freestyle, 16);
    e.set_moves(15, Rule::Freestyle, s.moves()).unwrap();
    let limits = Limits {
        max_depth: 6,
        vcf_nodes: 1000,
        vct_nodes: 1000,
        inner_vcf: 0,
        ..Limits::default()
    };
    let stopped = e.think(&Limits {
        hard_time: Some(std::time::Duration::ZERO),
        ..limits.clone()
    });
    let best = stopped.best.expect("a move even when stopped at once");
    assert!(s.check_place(best).is_ok(), "{best:?}");
    // The threat solvers (2,000 nodes at most) run before the search, and the search
    // reads the clock again within 1024 nodes.
    assert!(stopped.nodes <= 2_000 + 1_024, "{} nodes", stopped.nodes);
    let free = e.think(&limits);
    assert!(
        free.depth == 6 && free.nodes > 10 * stopped.nodes,
        "{free:?}"
    );
}

#[test]
fn engine_levels_and_bot_names_are_offered() {
    let names = Gomoku::bot_names();
    for n in ["random", "classic", "engine:L1", "engine:L10", "engine"] {
        assert!(names.contains(&n), "{n}");
        assert!(Gomoku::bot(n, &Seed::from_u64(1)).is_some());
    }
    assert!(Gomoku::bot("engine:L11", &Seed::from_u64(1)).is_none());
    assert!(Gomoku::bot("engine:L0", &Seed::from_u64(1)).is_none());
    let _ = Gomoku::start(&Config::default(), 2, &Seed::from_u64(1)).unwrap();
}

#[test]
fn bots_grant_undo_requests() {
    let mut s = State::new(&Config::default()).unwrap();
    s.play(pt("h8")).unwrap();
    let mut ev = Vec::new();
    Gomoku::apply(&mut s, 0, Action::RequestUndo, &mut ev).unwrap();
    for name in ["random", "classic", "engine:L3"] {
        assert_eq!(bot_move_seat(name, &s, 1), Action::AnswerUndo(true));
    }
}

fn bot_move_seat(name: &str, s: &State, seat: usize) -> Action {
    let legal = Gomoku::legal(s, seat);
    let mut bot = Gomoku::bot(name, &Seed::from_u64(5)).unwrap();
    bot.act(&Decision::from_state(s, seat, &legal))
}
