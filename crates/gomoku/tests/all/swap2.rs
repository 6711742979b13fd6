//! The swap2 opening (`"opening_rule":"swap2"`, docs/rules/gomoku.md "Swap2"): one test per
//! rule, the bots through every step, and properties over random openings.

use crate::common::pt;
use game::{registry, GameSpec, RuleError, Rules, Seed, ToAct, Viewer};
use gomoku::rules::{EndReason, Event};
use gomoku::{Action, Color, Config, Gomoku, OpeningRule, State, Swap2Step};
use proptest::prelude::*;

fn swap2(black: u8) -> Config {
    Config {
        opening_rule: OpeningRule::Swap2,
        black,
        ..Config::default()
    }
}

fn start(config: Config) -> State {
    Gomoku::start(&config, 2, &Seed::from_u64(1)).unwrap()
}

fn apply(s: &mut State, seat: usize, a: Action) -> Result<Vec<Event>, RuleError> {
    let mut ev = Vec::new();
    Gomoku::apply(s, seat, a, &mut ev).map(|_| ev)
}

fn place(s: &mut State, seat: usize, p: &str) {
    apply(s, seat, Action::Place(pt(p))).unwrap();
}

/// A game whose first player (seat `first`) has laid h8 (black), i8 (white), j9 (black).
fn three_laid(first: u8) -> State {
    let mut s = start(swap2(first));
    let f = usize::from(first);
    for p in ["h8", "i8", "j9"] {
        place(&mut s, f, p);
    }
    s
}

#[test]
fn rule_swap2_is_off_by_default_and_left_out_of_the_json() {
    assert_eq!(Config::default().opening_rule, OpeningRule::Free);
    assert_eq!(
        serde_json::to_value(Config::default())
            .unwrap()
            .get("opening_rule"),
        None
    );
    assert_eq!(
        serde_json::to_value(swap2(0)).unwrap()["opening_rule"],
        "swap2"
    );
    let s = start(Config::default());
    let v = Gomoku::view(&s, Viewer::Spectator);
    assert_eq!(v.swap2, None);
    assert_eq!(
        serde_json::to_value(&v).unwrap()["swap2"],
        serde_json::Value::Null
    );
}

#[test]
fn rule_swap2_first_player_lays_black_white_black() {
    let mut s = start(swap2(1));
    // Seat 1 is the first player: it lays all three, the other seat may not.
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(1));
    assert_eq!(s.swap2(), Some(Swap2Step::LayThree));
    assert_eq!(
        apply(&mut s, 0, Action::Place(pt("h8"))),
        Err(RuleError::NotYourTurn(0))
    );
    for (i, p) in ["h8", "i8", "j9"].into_iter().enumerate() {
        assert_eq!(Gomoku::to_act(&s), ToAct::Seat(1), "stone {i}");
        assert!(!Gomoku::legal(&s, 1).contains(&Action::TakeBlack));
        let ev = apply(&mut s, 1, Action::Place(pt(p))).unwrap();
        let color = if i == 1 { Color::White } else { Color::Black };
        assert_eq!(
            ev,
            vec![Event::Placed {
                color,
                point: pt(p)
            }]
        );
    }
    assert_eq!(s.swap2(), Some(Swap2Step::Choose));
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(0));
}

#[test]
fn rule_swap2_second_player_may_play_white_by_placing_the_fourth_stone() {
    let mut s = three_laid(0);
    let legal = Gomoku::legal(&s, 1);
    assert!(legal.contains(&Action::TakeBlack) && legal.contains(&Action::PlaceTwo));
    assert!(legal.contains(&Action::Place(pt("h9"))));
    // The first player has nothing to do but resign.
    assert_eq!(Gomoku::legal(&s, 0), vec![Action::Resign]);
    let ev = apply(&mut s, 1, Action::Place(pt("h9"))).unwrap();
    assert_eq!(
        ev[0],
        Event::Chose {
            seat: 1,
            color: Color::White
        }
    );
    assert_eq!(s.swap2(), None);
    assert_eq!(
        (s.color_of(0), s.color_of(1)),
        (Some(Color::Black), Some(Color::White))
    );
    // Black (the first player) moves next; play goes on as usual.
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(0));
    place(&mut s, 0, "k10");
}

#[test]
fn rule_swap2_second_player_may_take_black_and_the_first_places_whites_fourth() {
    let mut s = three_laid(0);
    let ev = apply(&mut s, 1, Action::TakeBlack).unwrap();
    assert_eq!(
        ev,
        vec![Event::Chose {
            seat: 1,
            color: Color::Black
        }]
    );
    assert_eq!(s.color_of(1), Some(Color::Black));
    let v = Gomoku::view(&s, Viewer::Seat(0));
    assert_eq!((v.black, v.swap2, v.to_move), (1, None, Some(Color::White)));
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(0));
    place(&mut s, 0, "h9");
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(1));
    // The outcome follows the colours chosen: seat 1 (black) resigns, seat 0 wins as white.
    apply(&mut s, 1, Action::Resign).unwrap();
    let o = Gomoku::outcome(&s).unwrap();
    assert_eq!(o.scores, vec![1, -1]);
    assert_eq!(o.roles, vec!["white", "black"]);
}

#[test]
fn rule_swap2_place_two_more_then_the_first_player_chooses() {
    // Place two: white then black by the second player, then the first player chooses.
    for take_black in [false, true] {
        let mut s = three_laid(0);
        assert!(apply(&mut s, 1, Action::PlaceTwo).unwrap().is_empty());
        assert_eq!(s.swap2(), Some(Swap2Step::LayTwo));
        assert_eq!(Gomoku::to_act(&s), ToAct::Seat(1));
        assert!(!Gomoku::legal(&s, 1).contains(&Action::TakeBlack));
        place(&mut s, 1, "h9");
        place(&mut s, 1, "g7");
        assert_eq!(s.moves().len(), 5);
        assert_eq!(s.swap2(), Some(Swap2Step::ChooseAgain));
        assert_eq!(Gomoku::to_act(&s), ToAct::Seat(0));
        let legal = Gomoku::legal(&s, 0);
        assert!(legal.contains(&Action::TakeBlack) && !legal.contains(&Action::PlaceTwo));
        assert_eq!(
            apply(&mut s.clone(), 0, Action::PlaceTwo),
            Err(RuleError::WrongPhase(
                "placing two more stones is the second player's first choice only".into()
            ))
        );
        if take_black {
            apply(&mut s, 0, Action::TakeBlack).unwrap();
            assert_eq!(s.color_of(0), Some(Color::Black));
            // The second player is White and places the sixth stone.
            assert_eq!(Gomoku::to_act(&s), ToAct::Seat(1));
        } else {
            let ev = apply(&mut s, 0, Action::Place(pt("f6"))).unwrap();
            assert_eq!(
                ev[0],
                Event::Chose {
                    seat: 0,
                    color: Color::White
                }
            );
            assert_eq!(s.color_of(0), Some(Color::White));
            assert_eq!(s.moves().len(), 6);
            // Black (the second player) moves next.
            assert_eq!(Gomoku::to_act(&s), ToAct::Seat(1));
        }
        assert_eq!(s.swap2(), None);
    }
}

#[test]
fn rule_swap2_no_undo_in_the_opening_and_its_stones_stay() {
    let mut s = start(swap2(0));
    place(&mut s, 0, "h8");
    assert!(!Gomoku::legal(&s, 0).contains(&Action::RequestUndo));
    assert_eq!(
        apply(&mut s, 0, Action::RequestUndo),
        Err(RuleError::Illegal(
            "the swap2 opening's stones are not taken back".into()
        ))
    );
    place(&mut s, 0, "i8");
    place(&mut s, 0, "j9");
    assert!(apply(&mut s, 0, Action::RequestUndo).is_err());
    // White's fourth stone after the choice may be taken back; the choice stands.
    place(&mut s, 1, "h9");
    assert!(Gomoku::legal(&s, 1).contains(&Action::RequestUndo));
    apply(&mut s, 1, Action::RequestUndo).unwrap();
    apply(&mut s, 0, Action::AnswerUndo(true)).unwrap();
    assert_eq!(s.moves().len(), 3);
    assert_eq!((s.swap2(), s.color_of(1)), (None, Some(Color::White)));
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(1));
    // Black (seat 0) has only the opening's stones: nothing to take back.
    place(&mut s, 1, "h9");
    assert!(!Gomoku::legal(&s, 0).contains(&Action::RequestUndo));
}

#[test]
fn rule_swap2_either_player_may_resign_at_any_step() {
    let mut s = three_laid(0);
    apply(&mut s, 0, Action::Resign).unwrap();
    assert_eq!(s.end().unwrap().reason, EndReason::Resignation);
    assert_eq!(s.end().unwrap().winner, Some(Color::White));
    // A turn run out in the opening resigns, as in play.
    let s = three_laid(0);
    assert_eq!(Gomoku::default_action(&s, 1), Action::Resign);
}

#[test]
fn rule_swap2_choices_are_refused_outside_the_opening() {
    let mut s = start(Config::default());
    assert!(matches!(
        apply(&mut s, 0, Action::TakeBlack),
        Err(RuleError::WrongPhase(_))
    ));
    let mut s = start(swap2(0));
    assert!(matches!(
        apply(&mut s, 0, Action::TakeBlack),
        Err(RuleError::WrongPhase(_))
    ));
    // A random opening does not go with swap2.
    assert!(matches!(
        Gomoku::start(
            &Config {
                opening: 3,
                ..swap2(0)
            },
            2,
            &Seed::from_u64(1)
        ),
        Err(RuleError::BadConfig(_))
    ));
}

#[test]
fn rule_swap2_first_player_alternates_from_game_to_game() {
    let first = swap2(0);
    let mut s = three_laid(0);
    apply(&mut s, 1, Action::TakeBlack).unwrap();
    let next = Gomoku::next_game(&first, 2, &s);
    assert_eq!((next.black, next.opening_rule), (1, OpeningRule::Swap2));
    let s = start(next);
    assert_eq!(Gomoku::to_act(&s), ToAct::Seat(1));
}

#[test]
fn rule_swap2_terminal_says_what_the_opening_asks() {
    let s = start(swap2(0));
    let text = Gomoku::render(&Gomoku::view(&s, Viewer::Seat(0)), Viewer::Seat(0));
    assert!(text.contains("your turn: lay stone 1 of 3"), "{text}");
    let s = three_laid(0);
    let v = Gomoku::view(&s, Viewer::Seat(1));
    let text = Gomoku::render(&v, Viewer::Seat(1));
    assert!(
        text.contains("'black' takes Black") && text.contains("'two'"),
        "{text}"
    );
    assert_eq!(Gomoku::parse_action(&v, "black"), Ok(Action::TakeBlack));
    assert_eq!(Gomoku::parse_action(&v, "two"), Ok(Action::PlaceTwo));
    assert_eq!(Gomoku::action_text(&Action::TakeBlack), "black");
}

#[test]
fn rule_swap2_every_bot_plays_through_the_opening() {
    let g = registry::entry::<Gomoku>();
    for bot in ["random", "classic", "engine:L1", "engine:L5"] {
        for black in [0, 1] {
            let config = serde_json::json!({"opening_rule": "swap2", "black": black});
            let mut t = g
                .new_table(&game::TableSetup::new("p", config, 2, Seed::from_u64(7)))
                .unwrap();
            t.set_bot(0, bot, &Seed::from_u64(8)).unwrap();
            t.set_bot(1, bot, &Seed::from_u64(9)).unwrap();
            let mut n = 0;
            while let ToAct::Seat(s) = t.to_act() {
                t.bot_move(s).unwrap();
                n += 1;
                assert!(n < 400, "{bot}: no end");
            }
            let r = t.record();
            assert_eq!(
                g.verify(&r, &game::VerifyOptions::default())
                    .unwrap()
                    .outcome,
                t.outcome().unwrap(),
                "{bot}"
            );
        }
    }
}

#[test]
fn rule_swap2_the_engine_takes_black_when_black_is_ahead() {
    // Black h8 and i8 side by side in the centre, White's stone in the corner: black is
    // well ahead, and the engine, second, takes Black.
    let mut s = start(swap2(0));
    for p in ["h8", "a1", "i8"] {
        place(&mut s, 0, p);
    }
    let mut bot = Gomoku::bot("engine:L5", &Seed::from_u64(3)).unwrap();
    let view = Gomoku::view(&s, Viewer::Seat(1));
    let legal = Gomoku::legal(&s, 1);
    let a = bot.act(&game::Decision::from_view(&view, 1, &legal));
    assert_eq!(
        a,
        Action::TakeBlack,
        "black's open two against a corner stone"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Through every path of the opening, each generated action applies, and the game's
    /// record replays to the same state.
    #[test]
    fn swap2_generated_actions_apply_and_records_replay(picks in prop::collection::vec(0usize..1000, 0..24), first in 0u8..2) {
        let g = registry::entry::<Gomoku>();
        let config = serde_json::json!({"opening_rule": "swap2", "black": first, "size": 9});
        let mut t = g.new_table(&game::TableSetup::new("p", config.clone(), 2, Seed::from_u64(1))).unwrap();
        let mut s = start(Config { size: 9, ..swap2(first) });
        for &i in &picks {
            let ToAct::Seat(seat) = Gomoku::to_act(&s) else { break };
            for other in 0..2 {
                for a in Gomoku::legal(&s, other) {
                    let mut c = s.clone();
                    let mut ev = Vec::new();
                    prop_assert!(Gomoku::apply(&mut c, other, a, &mut ev).is_ok(), "{:?} by {}", a, other);
                }
            }
            // Choices more often than their share of the legal actions, and no resigning.
            let legal: Vec<Action> = Gomoku::legal(&s, seat).into_iter().filter(|a| *a != Action::Resign).collect();
            let choices: Vec<Action> = legal.iter().copied().filter(|a| matches!(a, Action::TakeBlack | Action::PlaceTwo)).collect();
            let a = if !choices.is_empty() && i % 3 != 0 { choices[i % choices.len()] } else { legal[i % legal.len()] };
            apply(&mut s, seat, a).unwrap();
            t.apply(seat, &serde_json::to_value(a).unwrap()).unwrap();
        }
        let r = t.record();
        let again: State = r.replay_with_seed::<Gomoku>(&Seed::from_u64(1)).unwrap();
        prop_assert_eq!(again.moves(), s.moves());
        prop_assert_eq!(Gomoku::view(&again, Viewer::Spectator), Gomoku::view(&s, Viewer::Spectator));
    }
}
