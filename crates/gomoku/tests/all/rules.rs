//! One test per rule of the original game description and of docs/rules/gomoku.md.

use crate::common;
use common::{interleave, pt};
use game::{registry, GameSpec, RuleError, Rules, Seed, ToAct, Viewer};
use gomoku::rules::{EndReason, Event};
use gomoku::{Action, Color, Config, Gomoku, Rule, State, UndoPolicy};

fn start(config: Config) -> State {
    Gomoku::start(&config, 2, &Seed::from_u64(1)).unwrap()
}

fn apply(s: &mut State, seat: usize, a: Action) -> Result<Vec<Event>, RuleError> {
    let mut ev = Vec::new();
    Gomoku::apply(s, seat, a, &mut ev).map(|_| ev)
}

fn place(s: &mut State, p: &str) {
    let seat = s.config().seat_of(s.to_move());
    apply(s, seat, Action::Place(pt(p))).unwrap();
}

#[test]
fn rule_board_is_15_by_default_with_19_and_20_as_options() {
    assert_eq!(Config::default().size, 15);
    for size in [19u8, 20] {
        let s = start(Config {
            size,
            ..Config::default()
        });
        assert_eq!(s.board().size(), size);
    }
    assert!(Gomoku::start(
        &Config {
            size: 21,
            ..Config::default()
        },
        2,
        &Seed::from_u64(1)
    )
    .is_err());
    assert!(Gomoku::start(&Config::default(), 3, &Seed::from_u64(1)).is_err());
}

#[test]
fn rule_black_moves_first_and_turns_alternate() {
    let mut s = start(Config::default());
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(0));
    assert_eq!(
        apply(&mut s, 1, Action::Place(pt("h8"))),
        Err(RuleError::NotYourTurn(1))
    );
    place(&mut s, "h8");
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(1));
}

#[test]
fn rule_freestyle_five_or_more_wins() {
    // Seed: five in a row wins; freestyle is the default and an overline wins too.
    let mut s = start(Config::default());
    for p in interleave("d8 e8 f8 h8 i8 g8", "d1 e1 f1 h1 i1") {
        let seat = s.to_move().index();
        apply(&mut s, seat, Action::Place(p)).unwrap();
    }
    let end = s.end().unwrap();
    assert_eq!(
        (end.winner, end.reason),
        (Some(Color::Black), EndReason::Five)
    );
    assert_eq!(Gomoku::to_act(&s), ToAct::Finished);
    let o = Gomoku::outcome(&s).unwrap();
    assert_eq!(o.won, vec![true, false]);
    assert_eq!(o.scores, vec![1, -1]);
    assert_eq!(o.roles, vec!["black", "white"]);
}

#[test]
fn rule_standard_only_exactly_five_wins() {
    let mut s = start(Config {
        rule: Rule::Standard,
        ..Config::default()
    });
    for p in interleave("d8 e8 f8 h8 i8 g8", "d1 e1 f1 h1 i1 a15") {
        let seat = s.to_move().index();
        apply(&mut s, seat, Action::Place(p)).unwrap();
    }
    // g8 made six: allowed in standard, but no win.
    assert!(s.end().is_none());
    assert_eq!(s.board().get(pt("g8")), Some(Color::Black));
}

#[test]
fn rule_renju_refuses_black_forbidden_moves_and_leaves_the_state() {
    let mut s = start(Config {
        rule: Rule::Renju,
        ..Config::default()
    });
    for p in interleave("g8 i8 h7 h9", "a1 a3 a5 o1") {
        let seat = s.to_move().index();
        apply(&mut s, seat, Action::Place(p)).unwrap();
    }
    let before = s.moves().to_vec();
    let err = apply(&mut s, 0, Action::Place(pt("h8"))).unwrap_err();
    assert!(err.to_string().contains("double-three"), "{err}");
    assert_eq!(s.moves(), &before[..]);
    assert!(!Gomoku::legal(&s, 0).contains(&Action::Place(pt("h8"))));
    assert!(Gomoku::view(&s, Viewer::Spectator)
        .forbidden
        .contains(&pt("h8")));
}

#[test]
fn rule_full_board_with_no_five_is_a_draw() {
    // 5×5: rows XXOOX / OOXXO / XXOOX / OOXXO / XXOOX hold no five in any line.
    let rows = ["XXOOX", "OOXXO", "XXOOX", "OOXXO", "XXOOX"];
    let mut black = Vec::new();
    let mut white = Vec::new();
    for (y, r) in rows.iter().enumerate() {
        for (x, c) in r.chars().enumerate() {
            let p = gomoku::Point::new(x as u8, y as u8);
            if c == 'X' {
                black.push(p)
            } else {
                white.push(p)
            }
        }
    }
    let mut s = start(Config {
        size: 5,
        ..Config::default()
    });
    for i in 0..25 {
        let p = if i % 2 == 0 {
            black[i / 2]
        } else {
            white[i / 2]
        };
        apply(&mut s, i % 2, Action::Place(p)).unwrap();
    }
    let end = s.end().unwrap();
    assert_eq!((end.winner, end.reason), (None, EndReason::FullBoard));
    assert_eq!(Gomoku::outcome(&s).unwrap().scores, vec![0, 0]);
}

#[test]
fn rule_occupied_and_off_board_points_are_refused() {
    let mut s = start(Config::default());
    place(&mut s, "h8");
    assert!(matches!(
        apply(&mut s, 1, Action::Place(pt("h8"))),
        Err(RuleError::Illegal(_))
    ));
    let off = gomoku::Point::new(15, 0);
    assert!(matches!(
        apply(&mut s, 1, Action::Place(off)),
        Err(RuleError::Illegal(_))
    ));
    assert_eq!(s.moves().len(), 1);
}

#[test]
fn rule_computer_as_black_opens_at_the_centre() {
    // Seed: when the computer moves first it takes 天元, the centre.
    for bot in ["classic", "engine:L1", "engine:L10"] {
        let mut t = registry::entry::<Gomoku>()
            .new_table(&game::TableSetup::new(
                "t",
                serde_json::Value::Null,
                2,
                Seed::from_u64(3),
            ))
            .unwrap();
        t.set_bot(0, bot, &Seed::from_u64(4)).unwrap();
        let applied = t.bot_move(0).unwrap();
        assert_eq!(
            applied.action,
            serde_json::json!({"place": [7, 7]}),
            "{bot}"
        );
    }
}

#[test]
fn rule_undo_against_the_computer_is_granted_and_takes_back_two_plies() {
    let mut s = start(Config {
        undo: UndoPolicy::Granted,
        ..Config::default()
    });
    place(&mut s, "h8");
    place(&mut s, "i9");
    let ev = apply(&mut s, 0, Action::RequestUndo).unwrap();
    assert_eq!(
        ev,
        vec![Event::TakenBack {
            points: vec![pt("i9"), pt("h8")]
        }]
    );
    assert!(s.moves().is_empty());
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(0));
    // Always granted: no limit.
    for _ in 0..5 {
        place(&mut s, "h8");
        place(&mut s, "i9");
        apply(&mut s, 0, Action::RequestUndo).unwrap();
    }
}

#[test]
fn rule_undo_between_people_goes_to_the_opponent_who_may_accept() {
    let mut s = start(Config::default());
    place(&mut s, "h8");
    place(&mut s, "i9");
    place(&mut s, "h9");
    // White asks while black is to move: its own last move and black's reply come back.
    apply(&mut s, 1, Action::RequestUndo).unwrap();
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(0));
    assert_eq!(
        Gomoku::legal(&s, 0),
        vec![Action::AnswerUndo(true), Action::AnswerUndo(false)]
    );
    let ev = apply(&mut s, 0, Action::AnswerUndo(true)).unwrap();
    assert_eq!(
        ev,
        vec![Event::TakenBack {
            points: vec![pt("h9"), pt("i9")]
        }]
    );
    assert_eq!(s.to_move(), Color::White);
}

#[test]
fn rule_undo_refused_leaves_the_board() {
    let mut s = start(Config::default());
    place(&mut s, "h8");
    apply(&mut s, 0, Action::RequestUndo).unwrap();
    assert_eq!(
        apply(&mut s, 1, Action::AnswerUndo(false)).unwrap(),
        vec![Event::UndoRefused {
            color: Color::Black
        }]
    );
    assert_eq!(s.moves(), &[pt("h8")]);
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(1));
}

#[test]
fn rule_no_stone_may_be_played_while_an_undo_is_pending() {
    let mut s = start(Config::default());
    place(&mut s, "h8");
    apply(&mut s, 0, Action::RequestUndo).unwrap();
    assert!(matches!(
        apply(&mut s, 1, Action::Place(pt("i9"))),
        Err(RuleError::WrongPhase(_))
    ));
    assert!(matches!(
        apply(&mut s, 0, Action::AnswerUndo(true)),
        Err(RuleError::NotYourTurn(0))
    ));
}

#[test]
fn rule_undo_is_asked_right_after_ones_own_move_and_takes_back_that_stone() {
    let mut s = start(Config::default());
    place(&mut s, "h8");
    // White is to move; black, waiting, may ask (and resign), and may not place.
    assert_eq!(
        Gomoku::legal(&s, 0),
        vec![Action::RequestUndo, Action::Resign]
    );
    apply(&mut s, 0, Action::RequestUndo).unwrap();
    let ev = apply(&mut s, 1, Action::AnswerUndo(true)).unwrap();
    assert_eq!(
        ev,
        vec![Event::TakenBack {
            points: vec![pt("h8")]
        }]
    );
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(0));
    assert_eq!(Gomoku::view(&s, Viewer::Spectator).undo_left, [2, 3]);
}

#[test]
fn rule_three_undos_granted_per_player_and_a_refusal_costs_none() {
    let mut s = start(Config::default());
    assert_eq!(Config::default().undo_limit, 3);
    let seen = |s: &State| {
        let v = Gomoku::view(s, Viewer::Spectator);
        (v.undo_left, v.undo_refused)
    };
    place(&mut s, "h8");
    // Refused: nothing used up.
    apply(&mut s, 0, Action::RequestUndo).unwrap();
    apply(&mut s, 1, Action::AnswerUndo(false)).unwrap();
    assert_eq!(seen(&s), ([3, 3], [true, false]));
    // The same request again, before another stone, costs one at once, granted or not.
    apply(&mut s, 0, Action::RequestUndo).unwrap();
    assert_eq!(seen(&s).0, [2, 3]);
    apply(&mut s, 1, Action::AnswerUndo(false)).unwrap();
    apply(&mut s, 0, Action::RequestUndo).unwrap();
    apply(&mut s, 1, Action::AnswerUndo(true)).unwrap();
    assert!(s.moves().is_empty());
    assert_eq!(
        seen(&s),
        ([1, 3], [false, false]),
        "a paid request is not paid twice"
    );
    // A request after another stone is a new one: granted, it costs one.
    place(&mut s, "h8");
    place(&mut s, "i9");
    apply(&mut s, 1, Action::RequestUndo).unwrap();
    apply(&mut s, 0, Action::AnswerUndo(false)).unwrap();
    place(&mut s, "j10");
    assert_eq!(
        seen(&s),
        ([1, 3], [false, false]),
        "the next stone clears a refusal"
    );
    apply(&mut s, 0, Action::RequestUndo).unwrap();
    apply(&mut s, 1, Action::AnswerUndo(true)).unwrap();
    assert_eq!(seen(&s).0, [0, 3]);
    let err = apply(&mut s, 0, Action::RequestUndo).unwrap_err();
    assert!(err.to_string().contains("no undo left"), "{err}");
    assert!(!Gomoku::legal(&s, 0).contains(&Action::RequestUndo));
    // White has its own three.
    assert!(Gomoku::legal(&s, 1).contains(&Action::RequestUndo));
}

#[test]
fn rule_games_from_when_every_request_cost_one_still_replay() {
    // When every request cost one, three in a row, all refused, were allowed. They cost no
    // more now (the first nothing, the repeats one each), so such a record replays; the
    // undo they leave may be asked for once more.
    let mut s = start(Config::default());
    place(&mut s, "h8");
    for _ in 0..3 {
        apply(&mut s, 0, Action::RequestUndo).unwrap();
        apply(&mut s, 1, Action::AnswerUndo(false)).unwrap();
    }
    assert_eq!(Gomoku::view(&s, Viewer::Spectator).undo_left, [1, 3]);
    apply(&mut s, 0, Action::RequestUndo).unwrap();
    apply(&mut s, 1, Action::AnswerUndo(false)).unwrap();
    assert!(apply(&mut s, 0, Action::RequestUndo).is_err());
}

#[test]
fn rule_colours_swap_from_game_to_game() {
    let first = Config::default();
    let s = start(first.clone());
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(0));
    let second = Gomoku::next_game(&first, 2, &s);
    assert_eq!(second.black, 1);
    // The seat that was white is black and opens.
    let mut s = start(second.clone());
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(1));
    assert_eq!(
        apply(&mut s, 0, Action::Place(pt("h8"))),
        Err(RuleError::NotYourTurn(0))
    );
    apply(&mut s, 1, Action::Place(pt("h8"))).unwrap();
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(0));
    let view = Gomoku::view(&s, Viewer::Seat(0));
    assert_eq!(
        (view.color_of(0), view.color_of(1)),
        (Some(Color::White), Some(Color::Black))
    );
    let text = Gomoku::render(&view, Viewer::Seat(0));
    assert!(text.contains("you play white (O)"), "{text}");
    // Black (seat 1) resigns: seat 0 wins, as white.
    apply(&mut s, 1, Action::Resign).unwrap();
    let outcome = Gomoku::outcome(&s).unwrap();
    assert_eq!(outcome.scores, vec![1, -1]);
    assert_eq!(outcome.roles, vec!["white", "black"]);
    assert_eq!(Gomoku::next_game(&second, 2, &s).black, 0);
    // The configuration says it, and is as before when seat 0 has black.
    assert_eq!(serde_json::to_value(&first).unwrap().get("black"), None);
    assert_eq!(serde_json::to_value(&second).unwrap()["black"], 1);
    assert!(matches!(
        Gomoku::start(
            &Config {
                black: 2,
                ..Config::default()
            },
            2,
            &Seed::from_u64(1)
        ),
        Err(RuleError::BadConfig(_))
    ));
}

#[test]
fn rule_undo_needs_a_move_to_take_back() {
    let mut s = start(Config::default());
    assert!(apply(&mut s, 0, Action::RequestUndo).is_err());
    place(&mut s, "h8");
    assert!(apply(&mut s, 1, Action::RequestUndo).is_err());
}

#[test]
fn rule_resign_is_an_action_and_ends_the_game() {
    let mut s = start(Config::default());
    place(&mut s, "h8");
    // White may resign on its turn; black may resign while waiting too.
    assert_eq!(
        apply(&mut s, 1, Action::Resign).unwrap(),
        vec![Event::Resigned {
            color: Color::White
        }]
    );
    let end = s.end().unwrap();
    assert_eq!(
        (end.winner, end.reason),
        (Some(Color::Black), EndReason::Resignation)
    );
    assert_eq!(
        apply(&mut s, 0, Action::Place(pt("i9"))),
        Err(RuleError::GameOver)
    );
}

#[test]
fn rule_timeout_refuses_a_pending_undo_and_otherwise_loses() {
    let mut s = start(Config::default());
    assert_eq!(Gomoku::default_action(&s, 0), Action::Resign);
    place(&mut s, "h8");
    apply(&mut s, 0, Action::RequestUndo).unwrap();
    assert_eq!(Gomoku::default_action(&s, 1), Action::AnswerUndo(false));
}

#[test]
fn rule_every_generated_action_is_legal() {
    let mut s = start(Config {
        rule: Rule::Renju,
        ..Config::default()
    });
    for p in interleave("g8 i8 h7 h9", "a1 a3 a5 o1") {
        let seat = s.to_move().index();
        apply(&mut s, seat, Action::Place(p)).unwrap();
    }
    for seat in 0..2 {
        for a in Gomoku::legal(&s, seat) {
            let mut t = s.clone();
            assert!(apply(&mut t, seat, a).is_ok(), "{a:?} by {seat}");
        }
    }
}

#[test]
fn rule_terminal_parses_points_undo_and_resign_and_renders_coordinates() {
    let s = start(Config::default());
    let view = Gomoku::view(&s, Viewer::Seat(0));
    assert_eq!(
        Gomoku::parse_action(&view, "h8"),
        Ok(Action::Place(pt("h8")))
    );
    assert_eq!(
        Gomoku::parse_action(&view, "7,7"),
        Ok(Action::Place(pt("h8")))
    );
    assert_eq!(Gomoku::parse_action(&view, "undo"), Ok(Action::RequestUndo));
    assert_eq!(Gomoku::parse_action(&view, "resign"), Ok(Action::Resign));
    assert_eq!(
        Gomoku::parse_action(&view, "yes"),
        Ok(Action::AnswerUndo(true))
    );
    assert!(Gomoku::parse_action(&view, "z99").is_err());
    let mut s = s;
    place(&mut s, "h8");
    let text = Gomoku::render(&Gomoku::view(&s, Viewer::Seat(1)), Viewer::Seat(1));
    assert!(text.contains(" a b c d e f g h i j k l m n o"));
    assert!(text.contains("[X]"), "{text}");
    assert!(text.lines().any(|l| l.starts_with(" 8 ")));
    assert!(
        text.contains("you play white (O)") && text.contains("Your move."),
        "{text}"
    );
    let watched = Gomoku::render(&Gomoku::view(&s, Viewer::Spectator), Viewer::Spectator);
    assert!(watched.contains("White (O) to move."), "{watched}");
    for a in [
        Action::Place(pt("h8")),
        Action::RequestUndo,
        Action::Resign,
        Action::AnswerUndo(false),
    ] {
        assert_eq!(Gomoku::parse_action(&view, &Gomoku::action_text(&a)), Ok(a));
        assert_eq!(
            Gomoku::parse_action(&view, &Gomoku::action_text_at(&view, &a)),
            Ok(a)
        );
    }
    assert!(!Gomoku::hints(&view, &Gomoku::legal(&s, 1)).is_empty());
}

#[test]
fn rule_the_registry_plays_a_table_to_the_end_and_its_record_verifies() {
    common::play_out_and_verify(
        serde_json::json!({"rule": "renju"}),
        9,
        ["engine:L2", "classic"],
    );
    common::play_out_and_verify(
        serde_json::json!({"rule": "renju", "black": 1}),
        9,
        ["engine:L2", "classic"],
    );
    assert!(registry::entry::<Gomoku>()
        .bot_names()
        .contains(&"engine:L10"));
}
