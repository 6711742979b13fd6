//! What a person at `qipai play doudizhu` reads and types with 加倍 and 明牌 on: the
//! table asks for the choice, the log says it in words, typed choices are read, and the
//! help explains them.

use crate::doubling::{ok, seat_2_landlord_at_3, table};
use doudizhu::{Action, DouDizhu, Doubling, Event, ParseActionError};
use game::{GameSpec, Rules, Seed, TableSetup, ToAct, Viewer};

fn line(event: Event, viewer: Viewer) -> String {
    DouDizhu::event_text(&event, viewer).expect("every event has a line")
}

#[test]
fn terminal_logs_doublings_and_the_shown_hand_in_words() {
    let me = Viewer::Seat(0);
    assert_eq!(
        line(Event::Doubled { seat: 1, factor: 4 }, me),
        "seat 2 super-doubles (超级加倍, ×4)"
    );
    assert_eq!(
        line(Event::Doubled { seat: 0, factor: 2 }, me),
        "you double (加倍, ×2)"
    );
    assert_eq!(
        line(Event::Doubled { seat: 2, factor: 1 }, me),
        "seat 3 does not double"
    );
    let hand = "3 3 4".parse().expect("cards");
    assert_eq!(
        line(
            Event::Shown {
                seat: 2,
                hand: Some(hand)
            },
            me
        ),
        "seat 3 shows their hand (明牌, ×2): 3 3 4"
    );
    assert_eq!(
        line(
            Event::Shown {
                seat: 2,
                hand: None
            },
            me
        ),
        "seat 3 keeps their hand hidden"
    );
    let end = line(
        Event::Finished {
            winner: 2,
            landlord_won: true,
            scores: [-12, -6, 18],
            spring: false,
            anti_spring: false,
            doubles: [2, 1, 1],
            shown: true,
        },
        me,
    );
    assert!(
        end.contains("the shown hand (明牌) doubles the score"),
        "{end}"
    );
    assert!(end.contains("doubled stakes: seat 1 ×2."), "{end}");
}

#[test]
fn terminal_asks_the_seat_to_double_and_shows_everyones_choice() {
    let mut s = table(Doubling::Super, true);
    seat_2_landlord_at_3(&mut s);
    ok(&mut s, 0, Action::Double(2));
    let mine = DouDizhu::render(&DouDizhu::view(&s, Viewer::Seat(1)), Viewer::Seat(1));
    assert!(
        mine.contains("doubling (加倍): seat 1 ×2 · seat 2 (you) … · seat 3 …"),
        "{mine}"
    );
    assert!(
        mine.contains("double your stake? 1 no, 2 double (加倍, ×2) or 4 super double"),
        "{mine}"
    );
    let theirs = DouDizhu::render(&DouDizhu::view(&s, Viewer::Seat(0)), Viewer::Seat(0));
    assert!(theirs.contains("seat 2 chooses a doubling"), "{theirs}");
    ok(&mut s, 1, Action::Double(1));
    ok(&mut s, 2, Action::Double(4));
    let landlord = DouDizhu::render(&DouDizhu::view(&s, Viewer::Seat(2)), Viewer::Seat(2));
    assert!(
        landlord.contains("show your hand to everyone (明牌, ×2)?"),
        "{landlord}"
    );
    ok(&mut s, 2, Action::Show(true));
    let peasant = DouDizhu::render(&DouDizhu::view(&s, Viewer::Seat(0)), Viewer::Seat(0));
    assert!(
        peasant.contains(
            "the landlord's hand, shown (明牌): J J Q Q Q Q K K K K A A A A 2 2 2 2 BJ RJ"
        ),
        "{peasant}"
    );
    assert!(peasant.contains("multiplier ×2"), "{peasant}");
}

#[test]
fn terminal_reads_typed_doublings_and_showing() {
    let mut s = table(Doubling::Super, true);
    seat_2_landlord_at_3(&mut s);
    let view = DouDizhu::view(&s, Viewer::Seat(0));
    for (typed, want) in [
        ("1", 1),
        ("no", 1),
        ("不加倍", 1),
        ("2", 2),
        ("double", 2),
        ("加倍", 2),
        ("4", 4),
        ("super double", 4),
        ("超级加倍", 4),
    ] {
        assert_eq!(
            DouDizhu::parse_action(&view, typed),
            Ok(Action::Double(want)),
            "{typed}"
        );
    }
    let refused = DouDizhu::parse_action(&view, "3 3").unwrap_err();
    assert_eq!(refused, ParseActionError::NotADouble("3 3".into()));
    assert!(refused
        .to_string()
        .contains("type 1 (no double), 2 (double) or 4"));
    for seat in [0, 1, 2] {
        ok(&mut s, seat, Action::Double(1));
    }
    let view = DouDizhu::view(&s, Viewer::Seat(2));
    assert_eq!(
        DouDizhu::parse_action(&view, "show"),
        Ok(Action::Show(true))
    );
    assert_eq!(
        DouDizhu::parse_action(&view, "明牌"),
        Ok(Action::Show(true))
    );
    assert_eq!(DouDizhu::parse_action(&view, "no"), Ok(Action::Show(false)));
    assert!(DouDizhu::parse_action(&view, "maybe").is_err());
}

/// A whole game with both options through the registry, as the terminal plays it: every
/// action is offered as text that reads back as that action, every event has a line in
/// words, and the help explains the options.
#[test]
fn terminal_plays_a_whole_game_with_the_options_in_words() {
    let entry = game::registry::entry::<DouDizhu>();
    let config = serde_json::json!({"doubling": "super", "show_cards": true});
    for seed in 0..5 {
        let mut table = entry
            .new_table(&TableSetup::new(
                "t",
                config.clone(),
                3,
                Seed::from_u64(seed),
            ))
            .expect("a table");
        for s in 0..3 {
            table
                .set_bot(s, "heuristic", &Seed::from_u64(s as u64))
                .expect("bot");
        }
        let mut asked = 0;
        while let ToAct::Seat(seat) = table.to_act() {
            let view = table.view(Viewer::Seat(seat)).expect("a view");
            if view["phase"] == "doubling" || view["phase"] == "showing" {
                asked += 1;
                for a in table.legal(seat).expect("legal actions") {
                    let typed = entry.action_text(&view, &a);
                    let mut copy = entry
                        .resume(&table.journal(), Seed::from_u64(seed))
                        .expect("the same table");
                    let applied = copy
                        .apply_text(seat, &typed)
                        .expect("typed text reads back");
                    assert_eq!(applied.action, a, "{typed}");
                }
            }
            let applied = table.bot_move(seat).expect("a bot move");
            for e in &applied.events {
                let l = entry.event_text(e, Viewer::Seat(0)).expect("a line");
                assert!(!l.contains('_') && !l.contains('{'), "{l}");
            }
        }
        assert_eq!(asked, 4, "three doublings and the showing");
        let end = table.render(Viewer::Seat(0));
        assert!(end.contains("doubling (加倍): "), "{end}");
        let shown =
            table.view(Viewer::Spectator).expect("a view")["shown"] != serde_json::Value::Null;
        assert_eq!(end.contains("shown hand (明牌): ×2"), shown, "{end}");
        assert!(!end.contains("the landlord's hand, shown"), "{end}");
    }
    let help = DouDizhu::help();
    assert!(help.contains("加倍") && help.contains("明牌"), "{help}");
}
