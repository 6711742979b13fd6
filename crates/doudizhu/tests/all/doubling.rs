//! 加倍 / 超级加倍, the `doubling` table option: one test per rule docs/rules/doudizhu.md
//! decides ("Table options"), and the option's configuration.

use cards::RankCounts;
use doudizhu::{
    settle, Action, Config, CustomDeal, DouDizhu, Doubling, Event, Phase, Play, ScoreInput, State,
};
use game::{RuleError, Rules, Seed, ToAct, Viewer};

pub(crate) fn rc(s: &str) -> RankCounts {
    s.parse().expect("test cards")
}

pub(crate) fn play(s: &str) -> Action {
    Action::Play(s.parse::<Play>().expect("test play"))
}

/// A full 54-card deal in which seat 2 holds the strongest cards.
pub(crate) const HANDS: [&str; 3] = [
    "3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 7",
    "7 7 7 8 8 8 8 9 9 9 9 T T T T J J",
    "J J Q Q Q Q K K K K A A A A 2 2 2",
];
/// The kitty of [`HANDS`].
pub(crate) const KITTY: &str = "2 BJ RJ";

/// A game of [`HANDS`] with these options, seat 0 bidding first.
pub(crate) fn table(doubling: Doubling, show_cards: bool) -> State {
    let config = Config {
        doubling,
        show_cards,
        first_bidder: Some(0),
        deal: Some(CustomDeal {
            hands: HANDS.map(rc),
            kitty: rc(KITTY),
        }),
        ..Config::default()
    };
    DouDizhu::start(&config, 3, &Seed::from_u64(1)).expect("valid deal")
}

pub(crate) fn act(state: &mut State, seat: usize, action: Action) -> Result<Vec<Event>, RuleError> {
    let mut events = Vec::new();
    DouDizhu::apply(state, seat, action, &mut events).map(|_| events)
}

pub(crate) fn ok(state: &mut State, seat: usize, action: Action) -> Vec<Event> {
    act(state, seat, action).expect("legal action")
}

/// Seat 0 passes, seat 1 bids 1, seat 2 bids 3: seat 2 is the landlord at 3.
pub(crate) fn seat_2_landlord_at_3(state: &mut State) {
    ok(state, 0, Action::Bid(0));
    ok(state, 1, Action::Bid(1));
    ok(state, 2, Action::Bid(3));
}

fn seat_to_act(state: &State) -> usize {
    match DouDizhu::to_act(state) {
        ToAct::Seat(s) => s,
        other => panic!("one seat should act, not {other:?}"),
    }
}

#[test]
fn doubling_is_off_by_default_and_the_landlord_leads_after_the_kitty() {
    assert_eq!(Config::default().doubling, Doubling::Off);
    assert!(!Config::default().show_cards);
    let mut s = table(Doubling::Off, false);
    seat_2_landlord_at_3(&mut s);
    assert_eq!(s.phase(), Phase::Playing);
    assert_eq!(seat_to_act(&s), 2);
    assert_eq!(s.doubles(), [0; 3]);
}

#[test]
fn doubling_comes_after_the_kitty_peasants_first_from_the_landlords_right_then_the_landlord() {
    let mut s = table(Doubling::Double, false);
    seat_2_landlord_at_3(&mut s);
    assert_eq!(s.phase(), Phase::Doubling);
    assert_eq!(
        s.hand(2).len(),
        20,
        "the kitty is already in the landlord's hand"
    );
    let mut order = Vec::new();
    while s.phase() == Phase::Doubling {
        let seat = seat_to_act(&s);
        order.push(seat);
        ok(&mut s, seat, Action::Double(1));
    }
    assert_eq!(order, [0, 1, 2]);
    assert_eq!(s.phase(), Phase::Playing);
    assert_eq!(seat_to_act(&s), 2, "the landlord leads");
}

#[test]
fn doubling_offers_no_double_and_double_and_super_only_where_the_table_allows_it() {
    let mut s = table(Doubling::Double, false);
    seat_2_landlord_at_3(&mut s);
    assert_eq!(
        DouDizhu::legal(&s, 0),
        [Action::Double(1), Action::Double(2)]
    );
    assert!(DouDizhu::legal(&s, 1).is_empty(), "one seat at a time");
    let refused = act(&mut s, 0, Action::Double(4)).unwrap_err();
    assert!(
        refused.to_string().contains("1 (no double) or 2"),
        "{refused}"
    );
    for f in [0, 3, 8] {
        assert!(act(&mut s, 0, Action::Double(f)).is_err());
    }
    let mut s = table(Doubling::Super, false);
    seat_2_landlord_at_3(&mut s);
    assert_eq!(
        DouDizhu::legal(&s, 0),
        [Action::Double(1), Action::Double(2), Action::Double(4)]
    );
}

#[test]
fn doubling_refuses_other_actions_and_out_of_turn_choices_without_changing_the_game() {
    let mut s = table(Doubling::Super, true);
    assert!(matches!(
        act(&mut s, 0, Action::Double(2)),
        Err(RuleError::WrongPhase(_))
    ));
    seat_2_landlord_at_3(&mut s);
    let before = DouDizhu::view(&s, Viewer::Spectator);
    assert!(matches!(
        act(&mut s, 1, Action::Double(2)),
        Err(RuleError::NotYourTurn(1))
    ));
    assert!(matches!(
        act(&mut s, 0, play("3")),
        Err(RuleError::WrongPhase(_))
    ));
    assert!(matches!(
        act(&mut s, 0, Action::Show(true)),
        Err(RuleError::WrongPhase(_))
    ));
    assert_eq!(DouDizhu::view(&s, Viewer::Spectator), before);
}

#[test]
fn doubling_choices_are_public_as_they_are_made() {
    let mut s = table(Doubling::Super, false);
    seat_2_landlord_at_3(&mut s);
    let events = ok(&mut s, 0, Action::Double(4));
    assert_eq!(events, [Event::Doubled { seat: 0, factor: 4 }]);
    for viewer in [Viewer::Spectator, Viewer::Seat(1), Viewer::Seat(2)] {
        assert_eq!(DouDizhu::view(&s, viewer).doubles, [4, 0, 0]);
    }
}

#[test]
fn doubling_a_peasants_factor_multiplies_only_its_own_stake_with_the_landlord() {
    let mut s = table(Doubling::Super, false);
    seat_2_landlord_at_3(&mut s);
    ok(&mut s, 0, Action::Double(2));
    ok(&mut s, 1, Action::Double(1));
    ok(&mut s, 2, Action::Double(1));
    // The landlord (seat 2, bid 3) plays everything out: a spring (×2). Its plays are
    // leads the peasants pass; bombs and the rocket led are not effective bombs.
    let landlord_wins = ["J J", "Q Q Q Q", "K K K K", "A A A A", "2 2 2 2", "BJ RJ"];
    for (i, cards) in landlord_wins.iter().enumerate() {
        ok(&mut s, 2, play(cards));
        if i + 1 < landlord_wins.len() {
            ok(&mut s, 0, Action::Pass);
            ok(&mut s, 1, Action::Pass);
        }
    }
    assert_eq!(s.phase(), Phase::Finished);
    // M = 2 (spring). Seat 0's stake 3 × 2 × 1 × 2 = 12, seat 1's 3 × 2 × 1 × 1 = 6.
    let o = DouDizhu::outcome(&s).unwrap();
    assert_eq!(o.scores, [-12, -6, 18]);
}

#[test]
fn doubling_the_landlords_factor_multiplies_both_stakes() {
    let input = ScoreInput {
        bid: 2,
        landlord_won: false,
        bombs: 1,
        spring: false,
        anti_spring: false,
        shown: false,
    };
    // M = 2; the landlord ×4, the peasants ×1 and ×2: stakes 2·2·4·1 = 16 and 2·2·4·2 = 32.
    assert_eq!(settle(&input, 4, [1, 2]), (-48, [16, 32]));
    assert_eq!(
        settle(&input, 1, [1, 1]),
        (-8, [4, 4]),
        "nobody doubled: the plain score"
    );
}

#[test]
fn doubling_the_worked_example_of_the_rules_page() {
    // Bid 2, one effective bomb, the hand shown; A ×2, B ×1, the landlord ×2; it wins.
    let input = ScoreInput {
        bid: 2,
        landlord_won: true,
        bombs: 1,
        spring: false,
        anti_spring: false,
        shown: true,
    };
    assert_eq!(settle(&input, 2, [2, 1]), (48, [-32, -16]));
}

#[test]
fn doubling_on_timeout_is_no_double() {
    let mut s = table(Doubling::Super, true);
    seat_2_landlord_at_3(&mut s);
    assert_eq!(DouDizhu::default_action(&s, 0), Action::Double(1));
    for seat in [0, 1, 2] {
        ok(&mut s, seat, Action::Double(1));
    }
    assert_eq!(s.phase(), Phase::Showing);
    assert_eq!(DouDizhu::default_action(&s, 2), Action::Show(false));
}

#[test]
fn doubling_option_values_are_checked_with_a_clear_error() {
    let game = game::registry::entry::<DouDizhu>();
    let ok = serde_json::json!({"doubling": "super", "show_cards": true});
    assert!(game.normalize_config(&ok).is_ok());
    for (bad, says) in [
        (
            serde_json::json!({"doubling": "triple"}),
            "the doubling option is \"off\", \"double\" or \"super\", not \"triple\"",
        ),
        (serde_json::json!({"doubling": true}), "expected"),
        (
            serde_json::json!({"show_cards": "yes"}),
            "expected a boolean",
        ),
        (serde_json::json!({"doubled": "double"}), "unknown field"),
    ] {
        let error = game.normalize_config(&bad).unwrap_err().to_string();
        assert!(error.contains(says), "{bad}: {error}");
    }
}

#[test]
fn doubling_options_off_leave_the_configuration_json_as_it_was() {
    let json = serde_json::to_value(Config::default()).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"all_bombs_double": false, "first_bidder": null, "landlord": null, "deal": null})
    );
    let on = Config {
        doubling: Doubling::Super,
        show_cards: true,
        ..Config::default()
    };
    let json = serde_json::to_value(&on).unwrap();
    assert_eq!(json["doubling"], "super");
    assert_eq!(json["show_cards"], true);
    assert_eq!(serde_json::from_value::<Config>(json).unwrap(), on);
}

/// The hall offers the stakes options written out, for the page's create-table dialog to
/// find; a table set up with them off stores the configuration as it always did.
#[test]
fn the_offered_configuration_names_the_stakes_options() {
    let game = game::registry::entry::<DouDizhu>();
    let offered = game.default_config();
    assert_eq!(offered["doubling"], "off");
    assert_eq!(offered["show_cards"], false);
    assert_eq!(
        game.normalize_config(&offered).unwrap(),
        serde_json::to_value(Config::default()).unwrap()
    );
}
