//! 明牌, the `show_cards` table option: one test per rule docs/rules/doudizhu.md decides
//! ("Table options").

use crate::doubling::{act, ok, play, rc, seat_2_landlord_at_3, table, HANDS, KITTY};
use doudizhu::{Action, DouDizhu, Doubling, Event, Phase};
use game::{RuleError, Rules, ToAct, Viewer};

const VIEWERS: [Viewer; 4] = [
    Viewer::Spectator,
    Viewer::Seat(0),
    Viewer::Seat(1),
    Viewer::Seat(2),
];

#[test]
fn showing_is_the_landlords_choice_right_after_the_kitty_before_the_first_play() {
    let mut s = table(Doubling::Off, true);
    seat_2_landlord_at_3(&mut s);
    assert_eq!(s.phase(), Phase::Showing);
    assert_eq!(DouDizhu::to_act(&s), ToAct::Seat(2));
    assert_eq!(
        DouDizhu::legal(&s, 2),
        [Action::Show(false), Action::Show(true)]
    );
    for peasant in [0, 1] {
        assert!(DouDizhu::legal(&s, peasant).is_empty());
        assert!(matches!(
            act(&mut s, peasant, Action::Show(true)),
            Err(RuleError::NotYourTurn(_))
        ));
    }
    assert!(matches!(
        act(&mut s, 2, play("J J")),
        Err(RuleError::WrongPhase(_))
    ));
    ok(&mut s, 2, Action::Show(false));
    assert_eq!(s.phase(), Phase::Playing);
    assert_eq!(DouDizhu::to_act(&s), ToAct::Seat(2), "the landlord leads");
    assert!(matches!(
        act(&mut s, 2, Action::Show(true)),
        Err(RuleError::WrongPhase(_))
    ));
}

#[test]
fn showing_comes_after_the_doubling_when_the_table_has_both() {
    let mut s = table(Doubling::Double, true);
    seat_2_landlord_at_3(&mut s);
    for seat in [0, 1, 2] {
        assert_eq!(s.phase(), Phase::Doubling);
        ok(&mut s, seat, Action::Double(2));
    }
    assert_eq!(s.phase(), Phase::Showing);
    ok(&mut s, 2, Action::Show(true));
    assert_eq!(s.phase(), Phase::Playing);
    assert_eq!(s.doubles(), [2, 2, 2]);
}

#[test]
fn showing_puts_the_landlords_hand_in_every_view_as_it_is_played_down() {
    let mut s = table(Doubling::Off, true);
    seat_2_landlord_at_3(&mut s);
    for v in VIEWERS {
        assert_eq!(DouDizhu::view(&s, v).shown, None, "nothing is shown before");
    }
    let events = ok(&mut s, 2, Action::Show(true));
    let landlord_hand = rc(&format!("{} {KITTY}", HANDS[2]));
    assert_eq!(
        events,
        [Event::Shown {
            seat: 2,
            hand: Some(landlord_hand)
        }]
    );
    for v in VIEWERS {
        assert_eq!(DouDizhu::view(&s, v).shown, Some(landlord_hand));
    }
    ok(&mut s, 2, play("J J"));
    let left = landlord_hand.minus(rc("J J"));
    for v in VIEWERS {
        let view = DouDizhu::view(&s, v);
        assert_eq!(view.shown, Some(left));
        assert_eq!(view.revealed, None, "the peasants' hands stay hidden");
        if let Some(me) = v.seat() {
            assert_eq!(view.hand, Some(s.hand(me)));
        }
    }
}

#[test]
fn showing_doubles_the_common_multiplier() {
    let mut s = table(Doubling::Off, true);
    seat_2_landlord_at_3(&mut s);
    assert_eq!(s.multiplier(), 1);
    ok(&mut s, 2, Action::Show(true));
    assert_eq!(s.multiplier(), 2);
    assert_eq!(DouDizhu::view(&s, Viewer::Seat(0)).multiplier, 2);
    // A spring on top: ×4, bid 3: each peasant −12, the landlord +24.
    for cards in ["J J", "Q Q Q Q", "K K K K", "A A A A", "2 2 2 2"] {
        ok(&mut s, 2, play(cards));
        ok(&mut s, 0, Action::Pass);
        ok(&mut s, 1, Action::Pass);
    }
    let events = ok(&mut s, 2, play("BJ RJ"));
    assert_eq!(DouDizhu::outcome(&s).unwrap().scores, [-12, -12, 24]);
    assert!(events
        .iter()
        .any(|e| matches!(e, Event::Finished { shown: true, .. })));
}

#[test]
fn showing_declined_keeps_the_hand_hidden_and_the_multiplier() {
    let mut s = table(Doubling::Off, true);
    seat_2_landlord_at_3(&mut s);
    let events = ok(&mut s, 2, Action::Show(false));
    assert_eq!(
        events,
        [Event::Shown {
            seat: 2,
            hand: None
        }]
    );
    assert_eq!(s.multiplier(), 1);
    for v in [Viewer::Spectator, Viewer::Seat(0), Viewer::Seat(1)] {
        let view = DouDizhu::view(&s, v);
        assert_eq!(view.shown, None);
        assert_ne!(view.hand, Some(s.hand(2)));
    }
}

#[test]
fn showing_is_not_offered_without_the_option() {
    let mut s = table(Doubling::Super, false);
    seat_2_landlord_at_3(&mut s);
    for seat in [0, 1, 2] {
        ok(&mut s, seat, Action::Double(1));
    }
    assert_eq!(s.phase(), Phase::Playing);
    assert!(!DouDizhu::legal(&s, 2).contains(&Action::Show(true)));
    assert!(act(&mut s, 2, Action::Show(true)).is_err());
}
