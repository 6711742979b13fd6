//! One test per rule of the original rules (a 锄大地 rule description) and of the choices in
//! docs/rules/bigtwo.md.

use bigtwo::scoring::{card_score, results};
use bigtwo::{Action, BigTwo, Combo, Config, Event, Kind, Opening, State, STRAIGHTS};
use cards::{Card, CardSet};
use game::{RuleError, Rules, Seed, ToAct};

fn set(text: &str) -> CardSet {
    text.parse().expect("test cards are valid")
}

fn play(text: &str) -> Combo {
    Combo::classify(set(text)).unwrap_or_else(|| panic!("{text} is a play"))
}

fn beats(a: &str, b: &str) -> bool {
    play(a).beats(&play(b))
}

fn deal(hands: [&str; 4], opening: Opening) -> State {
    State::from_hands(hands.map(set), opening).expect("a valid deal")
}

fn act(state: &mut State, seat: usize, action: &str) -> Result<Vec<Event>, RuleError> {
    let action = if action == "pass" {
        Action::Pass
    } else {
        Action::Play(set(action))
    };
    let mut events = Vec::new();
    BigTwo::apply(state, seat, action, &mut events).map(|()| events)
}

#[test]
fn rule_deal_is_52_cards_13_each_without_jokers() {
    let state = BigTwo::start(&Config::default(), 4, &Seed::from_u64(3)).unwrap();
    let mut all = CardSet::EMPTY;
    for s in 0..4 {
        assert_eq!(state.hand(s).len(), 13);
        assert_eq!(all.bits() & state.hand(s).bits(), 0);
        all = all.union(state.hand(s));
    }
    assert_eq!(all, bigtwo::DECK);
    assert!(BigTwo::start(&Config::default(), 3, &Seed::from_u64(3)).is_err());
}

#[test]
fn rule_single_compares_rank_then_suit() {
    assert!(beats("2d", "As"));
    assert!(beats("As", "Ks"));
    assert!(beats("4d", "3s"));
    assert!(beats("9s", "9h") && beats("9h", "9c") && beats("9c", "9d") && beats("9d", "8s"));
    assert!(!beats("9d", "9s"));
}

#[test]
fn rule_suit_order_is_diamonds_clubs_hearts_spades() {
    let order = ["5d", "5c", "5h", "5s"];
    for (i, lo) in order.iter().enumerate() {
        for hi in &order[i + 1..] {
            assert!(beats(hi, lo), "{hi} beats {lo}");
            assert!(!beats(lo, hi), "{lo} does not beat {hi}");
        }
    }
}

#[test]
fn rule_pair_and_triple_compare_their_highest_card() {
    assert!(beats("9d 9s", "9c 9h"));
    assert!(beats("Td Tc", "9h 9s"));
    assert!(!beats("9d 9h", "9c 9s"));
    assert!(beats("Kd Kc Kh", "Qd Qc Qs"));
    assert_eq!(play("9c 9h").top, "9h".parse::<Card>().unwrap());
}

#[test]
fn rule_every_straight_window_is_a_straight_with_its_top_card() {
    let windows = [
        ("Ac 2d 3h 4s 5d", "5d"),
        ("2c 3d 4h 5s 6d", "6d"),
        ("3c 4d 5h 6s 7d", "7d"),
        ("4c 5d 6h 7s 8d", "8d"),
        ("5c 6d 7h 8s 9d", "9d"),
        ("6c 7d 8h 9s Td", "Td"),
        ("7c 8d 9h Ts Jd", "Jd"),
        ("8c 9d Th Js Qd", "Qd"),
        ("9c Td Jh Qs Kd", "Kd"),
        ("Tc Jd Qh Ks Ad", "Ad"),
    ];
    assert_eq!(STRAIGHTS.len(), windows.len());
    for (i, (cards, top)) in windows.iter().enumerate() {
        let p = play(cards);
        assert_eq!(p.kind, Kind::Straight, "{cards}");
        assert_eq!(p.top.to_string(), *top, "{cards}");
        if i > 0 {
            assert!(
                p.beats(&play(windows[i - 1].0)),
                "{cards} beats the window below"
            );
        }
    }
}

#[test]
fn rule_jqka2_qka23_ka234_are_not_straights() {
    for cards in ["Jc Qd Kh As 2d", "Qc Kd Ah 2s 3d", "Kc Ad 2h 3s 4d"] {
        assert_eq!(Combo::classify(set(cards)), None, "{cards}");
    }
    // Of one suit they are merely flushes.
    assert_eq!(play("Jh Qh Kh Ah 2h").kind, Kind::Flush);
}

#[test]
fn rule_straights_compare_top_card_with_a_and_2_low_at_the_bottom() {
    assert!(beats("2c 3d 4h 5s 6d", "Ac 2s 3h 4s 5s"));
    assert!(beats("3c 4d 5h 6s 7d", "2s 3d 4h 5s 6s"));
    assert!(beats("Tc Jd Qh Ks Ad", "9c Td Jh Qs Ks"));
    // Equal top ranks: the top card's suit decides.
    assert!(beats("3c 4d 5h 6s 7s", "3d 4c 5d 6h 7h"));
}

#[test]
fn rule_five_card_kinds_rank_straight_flush_full_house_four_straight_flush() {
    let ladder = [
        "Tc Jd Qh Ks As", // straight, the highest
        "3d 5d 7d 9d Jd", // flush, the lowest
        "3d 3c 3h 4s 4d", // full house, the lowest
        "3d 3c 3h 3s 4d", // four of a kind, the lowest
        "Ad 2d 3d 4d 5d", // straight flush, the lowest
    ];
    let kinds = [
        Kind::Straight,
        Kind::Flush,
        Kind::FullHouse,
        Kind::FourOfAKind,
        Kind::StraightFlush,
    ];
    for (i, cards) in ladder.iter().enumerate() {
        assert_eq!(play(cards).kind, kinds[i]);
        for lower in &ladder[..i] {
            assert!(beats(cards, lower), "{cards} beats {lower}");
            assert!(!beats(lower, cards), "{lower} does not beat {cards}");
        }
    }
}

#[test]
fn rule_inside_a_five_card_kind_the_deciding_card_compares() {
    // Flush by its highest card, rank then suit.
    assert!(beats("3s 5s 7s 9s Ks", "4d 6d 8d Td Kd"));
    assert!(beats("3d 5d 7d 9d 2d", "4s 6s 8s Ts As"));
    assert!(!beats("3h 4h 5h 6h 8h", "3c 5c 7c 9c Jc"));
    // Full house by its triple, four of a kind by its four, whatever comes with them.
    assert!(beats("5d 5c 5h 3s 3d", "4c 4h 4s 2d 2s"));
    assert!(!beats("4d 4c 4h 2h 2c", "5c 5h 5s 3c 3h"));
    assert!(beats("6d 6c 6h 6s 3d", "5c 5h 5s 5d 2s"));
    // Straight flush like a straight.
    assert!(beats("4h 5h 6h 7h 8h", "3s 4s 5s 6s 7s"));
}

#[test]
fn rule_only_plays_with_the_same_number_of_cards_compare() {
    assert!(!beats("2s 2h", "3d"));
    assert!(!beats("2s", "3d 3c"));
    assert!(!beats("3d 4d 5d 6d 7d", "2s 2h 2c"));
    let mut s = deal(["3d 4d", "9c 9h Kd", "5s", "6s"], Opening::ThreeOfDiamonds);
    act(&mut s, 0, "3d").unwrap();
    let before = s.clone();
    let err = act(&mut s, 1, "9c 9h").unwrap_err();
    assert!(
        err.to_string()
            .contains("a single is on the table: follow with one card or pass"),
        "{err}"
    );
    assert_eq!(s, before);
}

#[test]
fn rule_the_holder_of_3d_opens_the_first_deal_and_must_play_it() {
    let mut s = deal(["4d 5d", "6d 3d", "7d", "8d"], Opening::ThreeOfDiamonds);
    assert_eq!(BigTwo::to_act(&s), ToAct::Seat(1));
    let before = s.clone();
    let err = act(&mut s, 1, "6d").unwrap_err();
    assert_eq!(
        err.to_string(),
        "the first play of the match must include 3d"
    );
    assert_eq!(s, before);
    assert_eq!(act(&mut s, 0, "4d").unwrap_err(), RuleError::NotYourTurn(0));
    act(&mut s, 1, "3d").unwrap();
    // After the first play the requirement is gone.
    assert_eq!(s.must_include(), None);
    let legal = BigTwo::legal(
        &deal(["4d 5d", "6d 3d", "7d", "8d"], Opening::ThreeOfDiamonds),
        1,
    );
    assert!(legal
        .iter()
        .all(|a| matches!(a, Action::Play(c) if c.contains("3d".parse().unwrap()))));
}

#[test]
fn rule_later_deals_are_led_by_the_last_winner_without_3d() {
    let mut s = deal(["4d 5d", "6d 3d", "7d", "8d"], Opening::Seat(2));
    assert_eq!(BigTwo::to_act(&s), ToAct::Seat(2));
    assert_eq!(s.must_include(), None);
    act(&mut s, 2, "7d").unwrap();
    // The table carries the winner into the next deal's configuration.
    let mut done = deal(["3d", "5d 6d", "7d", "8d"], Opening::ThreeOfDiamonds);
    act(&mut done, 0, "3d").unwrap();
    let next = Config::next_deal(&BigTwo::outcome(&done).unwrap()).unwrap();
    assert_eq!(next.opening, Opening::Seat(0));
    let start = BigTwo::start(
        &Config {
            opening: Opening::Seat(3),
        },
        4,
        &Seed::from_u64(1),
    )
    .unwrap();
    assert_eq!(BigTwo::to_act(&start), ToAct::Seat(3));
    assert!(BigTwo::start(
        &Config {
            opening: Opening::Seat(4)
        },
        4,
        &Seed::from_u64(1)
    )
    .is_err());
}

#[test]
fn rule_the_leader_may_not_pass() {
    let mut s = deal(["3d 4d", "5d", "6d", "7d"], Opening::ThreeOfDiamonds);
    let before = s.clone();
    let err = act(&mut s, 0, "pass").unwrap_err();
    assert!(err.to_string().contains("cannot pass"), "{err}");
    assert_eq!(s, before);
    assert!(!BigTwo::legal(&s, 0).contains(&Action::Pass));
}

#[test]
fn rule_three_passes_give_the_last_player_a_free_lead() {
    let mut s = deal(
        ["3d 4d", "5d 9s", "6d 9h", "7d 9c"],
        Opening::ThreeOfDiamonds,
    );
    act(&mut s, 0, "3d").unwrap();
    act(&mut s, 1, "9s").unwrap();
    act(&mut s, 2, "pass").unwrap();
    act(&mut s, 3, "pass").unwrap();
    let events = act(&mut s, 0, "pass").unwrap();
    assert_eq!(events.last(), Some(&Event::NewLead { seat: 1 }));
    assert_eq!(BigTwo::to_act(&s), ToAct::Seat(1));
    assert_eq!(s.last(), None);
    // Seat 1 now leads anything, even a card lower than what stood.
    act(&mut s, 1, "5d").unwrap();
}

#[test]
fn rule_a_follower_must_beat_the_play_on_the_table_or_pass() {
    let mut s = deal(["3d 4d", "3s 9s", "6d", "7d"], Opening::ThreeOfDiamonds);
    act(&mut s, 0, "3d").unwrap();
    act(&mut s, 1, "pass").unwrap();
    let mut s2 = deal(
        ["3c 4d", "3d 9s", "6d 8d", "7d 8c"],
        Opening::ThreeOfDiamonds,
    );
    act(&mut s2, 1, "3d").unwrap();
    act(&mut s2, 2, "6d").unwrap();
    act(&mut s2, 3, "7d").unwrap();
    let before = s2.clone();
    assert_eq!(
        act(&mut s2, 0, "4d").unwrap_err().to_string(),
        "4d does not beat 7d"
    );
    assert_eq!(s2, before);
}

#[test]
fn rule_unheld_cards_and_non_plays_are_refused() {
    let mut s = deal(["3d 4d 4c 5h", "5d", "6d", "7d"], Opening::ThreeOfDiamonds);
    let before = s.clone();
    assert_eq!(
        act(&mut s, 0, "3d 2s").unwrap_err().to_string(),
        "you do not hold 2s"
    );
    assert!(act(&mut s, 0, "3d 4d")
        .unwrap_err()
        .to_string()
        .contains("not a pair"));
    assert!(act(&mut s, 0, "3d 4d 4c 5h")
        .unwrap_err()
        .to_string()
        .contains("play 1, 2, 3 or 5"));
    assert_eq!(s, before);
}

#[test]
fn rule_the_deal_ends_when_a_player_goes_out() {
    let mut s = deal(
        ["3d", "5d 6d", "7d 8d 9d", "Td Jd Qd Kd Ad Ac 2c 2s"],
        Opening::ThreeOfDiamonds,
    );
    let events = act(&mut s, 0, "3d").unwrap();
    assert!(matches!(events.last(), Some(Event::DealOver(r)) if r.winner == 0));
    assert_eq!(BigTwo::to_act(&s), ToAct::Finished);
    let o = BigTwo::outcome(&s).unwrap();
    assert_eq!(o.won, vec![true, false, false, false]);
    // Card scores 0, 2, 3 and 8 cards with 2s: 2 × 8 × 2 = 32.
    assert_eq!(s.result().unwrap().card_scores, vec![0, 2, 3, 32]);
    assert_eq!(o.scores, results(&[0, 2, 3, 32]));
    assert_eq!(act(&mut s, 1, "5d").unwrap_err(), RuleError::GameOver);
}

#[test]
fn rule_seed_scoring_example_5_8_0_12_cards_left() {
    let a = set("3d 4d 5d 6d 7d");
    let b = set("3c 4c 5c 6c 7c 8c 9c Tc");
    let d = set("3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah");
    let scores: Vec<i64> = [a, CardSet::EMPTY, b, d].map(card_score).to_vec();
    let (a_s, c_s, b_s, d_s) = (scores[0], scores[1], scores[2], scores[3]);
    assert_eq!([a_s, b_s, c_s, d_s], [5, 16, 0, 36]);
    assert_eq!(results(&[a_s, b_s, c_s, d_s]), vec![37, -7, 57, -87]);
}

#[test]
fn rule_card_score_steps_at_8_10_and_13_cards() {
    let deck: Vec<Card> = "3d 3c 3h 3s 4d 4c 4h 4s 5d 5c 5h 5s 6d"
        .split(' ')
        .map(|c| c.parse().unwrap())
        .collect();
    let score = |n: usize| card_score(deck[..n].iter().copied().collect());
    let expected = [0, 1, 2, 3, 4, 5, 6, 7, 16, 18, 30, 33, 36, 52];
    for (n, want) in expected.iter().enumerate() {
        assert_eq!(score(n), *want, "{n} cards");
    }
}

#[test]
fn rule_two_of_spades_doubles_the_card_score_from_eight_cards() {
    assert_eq!(card_score(set("3d 4d 5d 6d 7d 8d 2s")), 7);
    assert_eq!(card_score(set("3d 4d 5d 6d 7d 8d 9d 2s")), 32);
    assert_eq!(card_score(set("3d 4d 5d 6d 7d 8d 9d Td Jd 2s")), 60);
    assert_eq!(
        card_score(set("3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad 2s")),
        104
    );
    assert_eq!(
        card_score(set("3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad 2h")),
        52
    );
}

#[test]
fn rule_actions_and_config_have_their_json_forms() {
    let a: Action = serde_json::from_str(r#"{"play":"3s 3d"}"#).unwrap();
    assert_eq!(a, Action::Play(set("3d 3s")));
    assert_eq!(serde_json::to_string(&a).unwrap(), r#"{"play":"3d 3s"}"#);
    assert_eq!(serde_json::to_string(&Action::Pass).unwrap(), r#""pass""#);
    assert!(serde_json::from_str::<Action>(r#"{"play":"3d 3d"}"#).is_err());
    let c: Config = serde_json::from_str(r#"{"opening":{"seat":2}}"#).unwrap();
    assert_eq!(c.opening, Opening::Seat(2));
    let c: Config = serde_json::from_str(r#"{}"#).unwrap();
    assert_eq!(c.opening, Opening::ThreeOfDiamonds);
    assert_eq!(
        serde_json::to_string(&c).unwrap(),
        r#"{"opening":"three_of_diamonds"}"#
    );
}

#[test]
fn rule_timeout_passes_when_following_and_leads_the_lowest_card() {
    let mut s = deal(["4d 3d", "5d", "6d", "7d"], Opening::ThreeOfDiamonds);
    assert_eq!(BigTwo::default_action(&s, 0), Action::Play(set("3d")));
    act(&mut s, 0, "3d").unwrap();
    assert_eq!(BigTwo::default_action(&s, 1), Action::Pass);
}

#[test]
fn rule_a_deal_holds_each_card_once_and_no_jokers() {
    let hands = |t: [&str; 4]| t.map(|h| h.parse::<CardSet>().unwrap());
    let bad = |t: [&str; 4]| State::from_hands(hands(t), Opening::ThreeOfDiamonds).unwrap_err();
    assert!(bad(["3d 4d", "4d", "5d", "6d"])
        .to_string()
        .contains("4d is dealt twice"));
    assert!(bad(["3d BJ", "4c", "5d", "6d"])
        .to_string()
        .contains("without jokers"));
    assert!(bad(["3d", "", "5d", "6d"])
        .to_string()
        .contains("at least one card"));
    assert!(bad(["3c", "4c", "5d", "6d"])
        .to_string()
        .contains("nobody holds 3d"));
}

#[test]
fn rule_refusals_explain_the_rule() {
    let mut s = deal(
        ["3d 4d 4c 5h 6s 7d 8c", "5d", "6d", "7c"],
        Opening::ThreeOfDiamonds,
    );
    let msg = |s: &mut State, a: &str| act(s, 0, a).unwrap_err().to_string();
    assert_eq!(
        msg(&mut s, "3d 4d"),
        "3d 4d is not a pair: it needs two cards of one rank"
    );
    assert!(msg(&mut s, "3d 4d 5h 6s 8c").starts_with("3d 4d 5h 6s 8c is no five-card hand"));
    assert_eq!(
        msg(&mut s, "4d 4c"),
        "the first play of the match must include 3d"
    );
    let empty = Action::Play(CardSet::EMPTY);
    let err = BigTwo::apply(&mut s, 0, empty, &mut Vec::new()).unwrap_err();
    assert_eq!(err.to_string(), "play at least one card, or pass");
}
