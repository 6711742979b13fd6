//! One test per rule of the original rules' appendix (a network Dou Dizhu's) and of the
//! choices in docs/rules/doudizhu.md.

use cards::RankCounts;
use doudizhu::{Action, Config, CustomDeal, DouDizhu, Event, Phase, Play, State};
use game::{RuleError, Rules, Seed, ToAct};

fn rc(s: &str) -> RankCounts {
    s.parse().expect("test cards")
}

fn play(s: &str) -> Action {
    Action::Play(s.parse::<Play>().expect("test play"))
}

/// A game from given hands and kitty, bidding from `first_bidder`.
fn dealt(hands: [&str; 3], kitty: &str, first_bidder: usize) -> State {
    let config = Config {
        first_bidder: Some(first_bidder),
        deal: Some(CustomDeal {
            hands: hands.map(rc),
            kitty: rc(kitty),
        }),
        ..Config::default()
    };
    DouDizhu::start(&config, 3, &Seed::from_u64(1)).expect("valid deal")
}

/// A game where `landlord` already holds the kitty and leads (no bidding, base 1).
fn playing(hands: [&str; 3], landlord: usize) -> State {
    let config = Config {
        landlord: Some(landlord),
        deal: Some(CustomDeal {
            hands: hands.map(rc),
            kitty: RankCounts::EMPTY,
        }),
        ..Config::default()
    };
    DouDizhu::start(&config, 3, &Seed::from_u64(1)).expect("valid deal")
}

fn act(state: &mut State, seat: usize, action: Action) -> Result<Vec<Event>, RuleError> {
    let mut events = Vec::new();
    DouDizhu::apply(state, seat, action, &mut events).map(|_| events)
}

fn ok(state: &mut State, seat: usize, action: Action) -> Vec<Event> {
    act(state, seat, action).expect("legal action")
}

/// A full 54-card deal: seat 0 gets 3..7 ×4 minus one 7, etc.
fn full_deal() -> ([&'static str; 3], &'static str) {
    (
        [
            "3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 7",
            "7 7 7 8 8 8 8 9 9 9 9 T T T T J J",
            "J J Q Q Q Q K K K K A A A A 2 2 2",
        ],
        "2 BJ RJ",
    )
}

#[test]
fn appendix_b_deal_is_17_each_and_3_in_the_kitty() {
    let s = DouDizhu::start(&Config::default(), 3, &Seed::from_u64(9)).unwrap();
    for seat in 0..3 {
        assert_eq!(s.hand(seat).len(), 17);
    }
    let v = DouDizhu::view(&s, game::Viewer::Spectator);
    assert_eq!(
        v.kitty, None,
        "the kitty is hidden until there is a landlord"
    );
    assert_eq!(v.hand_sizes, [17, 17, 17]);
}

#[test]
fn appendix_b_each_player_bids_once_in_turn_and_highest_bidder_is_landlord() {
    let (h, k) = full_deal();
    let mut s = dealt(h, k, 1);
    assert_eq!(DouDizhu::to_act(&s), ToAct::Seat(1));
    ok(&mut s, 1, Action::Bid(1));
    assert_eq!(
        act(&mut s, 1, Action::Bid(2)),
        Err(RuleError::NotYourTurn(1))
    );
    ok(&mut s, 2, Action::Bid(0));
    ok(&mut s, 0, Action::Bid(2));
    assert_eq!(s.phase(), Phase::Playing);
    assert_eq!(s.landlord(), Some(0));
}

#[test]
fn appendix_b_a_bid_must_be_higher_than_the_highest() {
    let (h, k) = full_deal();
    let mut s = dealt(h, k, 0);
    ok(&mut s, 0, Action::Bid(2));
    let before = s.clone();
    assert!(matches!(
        act(&mut s, 1, Action::Bid(2)),
        Err(RuleError::Illegal(_))
    ));
    assert!(matches!(
        act(&mut s, 1, Action::Bid(1)),
        Err(RuleError::Illegal(_))
    ));
    assert!(matches!(
        act(&mut s, 1, Action::Bid(4)),
        Err(RuleError::Illegal(_))
    ));
    assert_eq!(
        format!("{s:?}"),
        format!("{before:?}"),
        "refusals leave the state"
    );
    assert_eq!(DouDizhu::legal(&s, 1), vec![Action::Bid(0), Action::Bid(3)]);
}

#[test]
fn appendix_b_a_bid_of_3_ends_the_bidding_at_once() {
    let (h, k) = full_deal();
    let mut s = dealt(h, k, 2);
    let events = ok(&mut s, 2, Action::Bid(3));
    assert_eq!(s.landlord(), Some(2));
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Landlord {
            seat: 2,
            bid: 3,
            ..
        }
    )));
    assert_eq!(DouDizhu::to_act(&s), ToAct::Seat(2), "the landlord leads");
}

#[test]
fn appendix_b_kitty_is_shown_and_joins_the_landlord_hand() {
    let (h, k) = full_deal();
    let mut s = dealt(h, k, 0);
    ok(&mut s, 0, Action::Bid(0));
    ok(&mut s, 1, Action::Bid(1));
    ok(&mut s, 2, Action::Bid(0));
    assert_eq!(s.hand(1).len(), 20);
    assert_eq!(s.hand(1), rc(h[1]).plus(rc(k)));
    for viewer in [game::Viewer::Spectator, game::Viewer::Seat(0)] {
        assert_eq!(DouDizhu::view(&s, viewer).kitty, Some(rc(k)));
    }
}

#[test]
fn rules_all_pass_redeals_with_the_same_first_bidder() {
    let (h, k) = full_deal();
    let mut s = dealt(h, k, 1);
    for seat in [1, 2, 0] {
        ok(&mut s, seat, Action::Bid(0));
    }
    assert_eq!(s.phase(), Phase::Bidding);
    assert_eq!(DouDizhu::to_act(&s), ToAct::Seat(1));
    let v = DouDizhu::view(&s, game::Viewer::Spectator);
    assert_eq!(v.redeals, 1);
    assert!(v.bids.is_empty());
    let total = (0..3).fold(RankCounts::EMPTY, |a, seat| a.plus(s.hand(seat)));
    assert_eq!(total.len(), 51, "a fresh 17-card deal each");
    assert_ne!(s.hand(0), rc(h[0]), "the cards were shuffled again");
}

#[test]
fn rules_after_three_redeals_the_first_bidder_is_landlord_at_1() {
    let (h, k) = full_deal();
    let mut s = dealt(h, k, 2);
    for round in 0..4 {
        for seat in [2, 0, 1] {
            ok(&mut s, seat, Action::Bid(0));
        }
        if round < 3 {
            assert_eq!(s.phase(), Phase::Bidding);
        }
    }
    assert_eq!(s.phase(), Phase::Playing);
    assert_eq!(s.landlord(), Some(2));
    assert_eq!(DouDizhu::view(&s, game::Viewer::Spectator).bid, 1);
}

#[test]
fn appendix_b_the_leader_must_play_and_may_play_any_kind() {
    let mut s = playing(["3 4 5 6 7 9 9", "8 8", "T T"], 0);
    assert!(matches!(
        act(&mut s, 0, Action::Pass),
        Err(RuleError::Illegal(_))
    ));
    assert!(!DouDizhu::legal(&s, 0).contains(&Action::Pass));
    ok(&mut s, 0, play("3 4 5 6 7"));
}

#[test]
fn appendix_b_followers_play_counter_clockwise_and_may_pass() {
    let mut s = playing(["3 4 Q", "8 8 9", "T T J"], 0);
    ok(&mut s, 0, play("3"));
    assert_eq!(DouDizhu::to_act(&s), ToAct::Seat(1));
    assert!(DouDizhu::legal(&s, 1).contains(&Action::Pass));
    ok(&mut s, 1, Action::Pass);
    assert_eq!(DouDizhu::to_act(&s), ToAct::Seat(2));
}

#[test]
fn appendix_b_round_ends_when_the_others_pass_and_the_last_player_leads() {
    let mut s = playing(["3 4 Q", "8 8 9", "T T J"], 0);
    ok(&mut s, 0, play("3"));
    ok(&mut s, 1, play("9"));
    ok(&mut s, 2, Action::Pass);
    let events = ok(&mut s, 0, Action::Pass);
    assert!(events.contains(&Event::RoundWon { seat: 1 }));
    assert_eq!(DouDizhu::to_act(&s), ToAct::Seat(1));
    assert!(
        !DouDizhu::legal(&s, 1).contains(&Action::Pass),
        "seat 1 leads"
    );
    ok(&mut s, 1, play("8 8"));
}

#[test]
fn appendix_b_only_the_same_kind_and_size_follows() {
    let mut s = playing(["3 3 K", "4 5 5 5", "T T J"], 0);
    ok(&mut s, 0, play("3 3"));
    let err = act(&mut s, 1, play("5 5 5 4")).unwrap_err();
    assert!(err.to_string().contains("cannot follow"), "{err}");
    let err = act(&mut s, 1, play("4")).unwrap_err();
    assert!(err.to_string().contains("cannot follow"), "{err}");
    ok(&mut s, 1, play("5 5"));
}

#[test]
fn appendix_b_a_follower_must_play_higher() {
    let mut s = playing(["8 8 K", "4 4 5", "T T J"], 0);
    ok(&mut s, 0, play("8 8"));
    let err = act(&mut s, 1, play("4 4")).unwrap_err();
    assert_eq!(err.to_string(), "4 4 is not higher than 8 8");
}

#[test]
fn appendix_b_you_can_only_play_cards_you_hold() {
    let mut s = playing(["8 8 K", "4 4 5", "T T J"], 0);
    let err = act(&mut s, 0, play("K K")).unwrap_err();
    assert_eq!(err.to_string(), "you do not hold K K");
}

#[test]
fn appendix_b_a_bomb_beats_any_non_bomb_and_the_rocket_beats_a_bomb() {
    let mut s = playing(["2 2 K", "4 4 4 4 5", "BJ RJ J"], 0);
    ok(&mut s, 0, play("2 2"));
    ok(&mut s, 1, play("4 4 4 4"));
    ok(&mut s, 2, play("BJ RJ"));
    assert_eq!(s.multiplier(), 4, "two effective bombs: ×4");
}

#[test]
fn appendix_b_a_bomb_led_does_not_double() {
    let mut s = playing(["5 5 5 5 3 K", "4 6", "T J"], 0);
    let events = ok(&mut s, 0, play("5 5 5 5"));
    assert!(matches!(events[0], Event::Played { multiplier: 1, .. }));
    assert_eq!(s.multiplier(), 1);
}

#[test]
fn option_all_bombs_double_counts_a_led_bomb() {
    let config = Config {
        landlord: Some(0),
        all_bombs_double: true,
        deal: Some(CustomDeal {
            hands: ["5 5 5 5 3 K", "4 6", "T J"].map(rc),
            kitty: RankCounts::EMPTY,
        }),
        ..Config::default()
    };
    let mut s = DouDizhu::start(&config, 3, &Seed::from_u64(1)).unwrap();
    ok(&mut s, 0, play("5 5 5 5"));
    assert_eq!(s.multiplier(), 2);
}

#[test]
fn appendix_b_the_game_ends_when_a_hand_is_empty_and_landlord_wins_twice_the_bid() {
    let (h, k) = full_deal();
    let mut s = dealt(h, k, 0);
    ok(&mut s, 0, Action::Bid(2));
    ok(&mut s, 1, Action::Bid(0));
    ok(&mut s, 2, Action::Bid(0));
    // Seat 0 holds 3333 4444 5555 6666 7 + kitty 2 BJ RJ and plays it out unanswered.
    ok(&mut s, 0, play("3 3 3 3 5 5 6 6"));
    assert!(matches!(
        act(&mut s, 0, Action::Pass),
        Err(RuleError::NotYourTurn(0))
    ));
    ok(&mut s, 1, Action::Pass);
    ok(&mut s, 2, Action::Pass);
    ok(&mut s, 0, play("4 4 4 4 5 5 6 6"));
    ok(&mut s, 1, Action::Pass);
    ok(&mut s, 2, Action::Pass);
    ok(&mut s, 0, play("7"));
    ok(&mut s, 1, Action::Pass);
    ok(&mut s, 2, Action::Pass);
    ok(&mut s, 0, play("2"));
    ok(&mut s, 1, Action::Pass);
    ok(&mut s, 2, Action::Pass);
    let events = ok(&mut s, 0, play("BJ RJ"));
    assert_eq!(DouDizhu::to_act(&s), ToAct::Finished);
    // Bid 2, no effective bomb (all led), spring ×2: landlord +8, peasants −4.
    assert!(events.iter().any(|e| matches!(
        e,
        Event::Finished {
            winner: 0,
            landlord_won: true,
            spring: true,
            scores: [8, -4, -4],
            ..
        }
    )));
    let o = DouDizhu::outcome(&s).unwrap();
    assert_eq!(o.scores, vec![8, -4, -4]);
    assert_eq!(o.won, vec![true, false, false]);
    assert_eq!(o.roles, vec!["landlord", "peasant", "peasant"]);
    assert_eq!(act(&mut s, 1, Action::Pass), Err(RuleError::GameOver));
}

#[test]
fn appendix_b_peasants_win_when_either_goes_out_first() {
    let mut s = playing(["3 K K", "4 5", "T A"], 0);
    ok(&mut s, 0, play("3"));
    ok(&mut s, 1, play("4"));
    ok(&mut s, 2, play("A"));
    ok(&mut s, 0, Action::Pass);
    ok(&mut s, 1, Action::Pass);
    ok(&mut s, 2, play("T"));
    let o = DouDizhu::outcome(&s).unwrap();
    // Base 1; the landlord played only the opening lead: anti-spring ×2.
    assert_eq!(o.scores, vec![-4, 2, 2]);
    assert_eq!(o.won, vec![false, true, true]);
}

#[test]
fn appendix_b_spring_needs_both_peasants_silent() {
    let mut s = playing(["3 3 K", "4 4 5 6", "T T J"], 0);
    ok(&mut s, 0, play("3 3"));
    ok(&mut s, 1, play("4 4"));
    ok(&mut s, 2, Action::Pass);
    ok(&mut s, 0, Action::Pass);
    ok(&mut s, 1, play("5"));
    ok(&mut s, 2, Action::Pass);
    ok(&mut s, 0, play("K"));
    // The landlord went out, but seat 1 had played: no spring, base 1.
    assert_eq!(DouDizhu::outcome(&s).unwrap().scores, vec![2, -1, -1]);
}

#[test]
fn rules_wrong_phase_actions_are_refused() {
    let (h, k) = full_deal();
    let mut s = dealt(h, k, 0);
    assert!(matches!(
        act(&mut s, 0, play("3")),
        Err(RuleError::WrongPhase(_))
    ));
    assert!(matches!(
        act(&mut s, 0, Action::Pass),
        Err(RuleError::WrongPhase(_))
    ));
    ok(&mut s, 0, Action::Bid(3));
    assert!(matches!(
        act(&mut s, 0, Action::Bid(1)),
        Err(RuleError::WrongPhase(_))
    ));
}

#[test]
fn rules_custom_deals_are_checked_against_the_deck() {
    let config = Config {
        deal: Some(CustomDeal {
            hands: ["RJ", "RJ", "3"].map(rc),
            kitty: RankCounts::EMPTY,
        }),
        ..Config::default()
    };
    let err = DouDizhu::start(&config, 3, &Seed::from_u64(0)).unwrap_err();
    assert!(err.to_string().contains("RJ"), "{err}");
    assert!(DouDizhu::start(&Config::default(), 4, &Seed::from_u64(0)).is_err());
}

#[test]
fn rules_timeout_defaults_are_no_bid_lowest_single_and_pass() {
    let (h, k) = full_deal();
    let mut s = dealt(h, k, 0);
    assert_eq!(DouDizhu::default_action(&s, 0), Action::Bid(0));
    ok(&mut s, 0, Action::Bid(3));
    assert_eq!(DouDizhu::default_action(&s, 0), play("3"));
    ok(&mut s, 0, play("3"));
    assert_eq!(DouDizhu::default_action(&s, 1), Action::Pass);
}
