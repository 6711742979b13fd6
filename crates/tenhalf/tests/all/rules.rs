//! One test per rule of the original rules (rules 1–16) and per decision of
//! docs/rules/tenhalf.md.

use crate::common;

use common::{act, game, showdown};
use game::{Bot, Decision, RuleError, Rules, Seed, ToAct, Viewer};
use tenhalf::bots::SeedBot;
use tenhalf::hand::{halves, strength, Standing};
use tenhalf::{Action, Config, Event, Hand, State, Status, TenHalf, View, WinKind};

fn card(text: &str) -> cards::Card {
    text.parse().expect("test card parses")
}

fn hand(text: &str) -> Hand {
    Hand::of(&cards::parse_cards(text).expect("test hand parses")).expect("at most five cards")
}

fn legal(state: &State, seat: usize) -> Vec<Action> {
    let mut out = Vec::new();
    state.legal_into(seat, &mut out);
    out
}

#[test]
fn rule_01_one_shuffle_then_cards_dealt_in_order_from_the_top() {
    let a = State::new(&Config::default(), 3, &Seed::from_u64(5)).unwrap();
    let b = State::new(&Config::default(), 3, &Seed::from_u64(5)).unwrap();
    let c = State::new(&Config::default(), 3, &Seed::from_u64(6)).unwrap();
    assert_eq!(a.deck(), b.deck());
    assert_ne!(a.deck(), c.deck());

    let mut s = game(3, 0, "4d 5d 6d 2c 3c");
    assert_eq!(s.hand(1).unwrap().cards(), [card("4d")]);
    assert_eq!(s.hand(2).unwrap().cards(), [card("5d")]);
    assert_eq!(s.hand(0).unwrap().cards(), [card("6d")]);
    assert_eq!(s.deck()[0], card("2c"));
    act(&mut s, 1, Action::Hit);
    act(&mut s, 1, Action::Hit);
    assert_eq!(
        s.hand(1).unwrap().cards(),
        cards::parse_cards("4d 2c 3c").unwrap()
    );
}

#[test]
fn rule_02_each_player_gets_one_face_down_base_card() {
    let s = game(3, 0, "4d 5d 6d");
    for seat in 0..3 {
        assert_eq!(s.hand(seat).unwrap().len(), 1);
        assert!(s.base_hidden(seat));
    }
    let own = View::of(&s, Viewer::Seat(1));
    assert_eq!(own.players[1].base, Some(card("4d")));
    assert_eq!(own.players[2].base, None);
    assert!(own.players[2].has_base);
    let watcher = View::of(&s, Viewer::Spectator);
    assert!(watcher
        .players
        .iter()
        .all(|p| p.base.is_none() && p.has_base));
}

#[test]
fn rule_03_ace_is_one_two_to_ten_face_value_faces_and_jokers_a_half() {
    for (text, want) in [
        ("Ah", 2),
        ("2c", 4),
        ("7d", 14),
        ("Ts", 20),
        ("Jh", 1),
        ("Qd", 1),
        ("Kc", 1),
        ("BJ", 1),
        ("RJ", 1),
    ] {
        assert_eq!(halves(card(text)), want, "{text}");
    }
    assert_eq!(hand("Ah Ks BJ").total(), 4);
}

#[test]
fn rule_04_exactly_ten_and_a_half_wins() {
    let mut s = game(2, 0, "Ts 5h Kd");
    let events = act(&mut s, 1, Action::Hit);
    assert!(events.contains(&Event::Won {
        seat: 1,
        cards: cards::parse_cards("Ts Kd").unwrap(),
        kind: WinKind::TenAndAHalf,
    }));
    assert_eq!(s.status(1), Some(Status::Won(WinKind::TenAndAHalf)));
}

#[test]
fn rule_04_five_cards_within_ten_and_a_half_win_as_five_dragons() {
    let mut s = game(2, 0, "Ad 5h 2d 3d Ac Js");
    for _ in 0..4 {
        act(&mut s, 1, Action::Hit);
    }
    assert_eq!(s.status(1), Some(Status::Won(WinKind::FiveDragon)));
    // Five cards over 10½ are a bust, not 五龙.
    assert_eq!(hand("Ad 2d 3d Ac 5c").standing(), Standing::Bust);
    assert_eq!(
        hand("Ad 2d 3d Ac 3c").standing(),
        Standing::Won(WinKind::FiveDragon)
    );
}

#[test]
fn rule_05_at_seven_or_less_a_player_must_hit() {
    let mut s = game(2, 0, "7d 5h");
    assert_eq!(legal(&s, 1), [Action::Hit]);
    let before = format!("{s:?}");
    let mut events = Vec::new();
    let err = s.apply(1, Action::Stand, &mut events).unwrap_err();
    assert_eq!(err.to_string(), "at 7 or less you must hit (you have 7)");
    assert!(events.is_empty());
    assert_eq!(format!("{s:?}"), before);
}

#[test]
fn rule_06_from_seven_and_a_half_to_ten_the_player_chooses() {
    let mut s = game(2, 0, "7d 5h Kd");
    act(&mut s, 1, Action::Hit);
    assert_eq!(s.hand(1).unwrap().total(), 15);
    assert_eq!(legal(&s, 1), [Action::Hit, Action::Stand]);
    let s = game(2, 0, "Ts 5h");
    assert_eq!(legal(&s, 1), [Action::Hit, Action::Stand]);
}

#[test]
fn rule_07_fixed_policy_hits_at_7_5_8_8_5_and_stands_at_9_9_5_10() {
    for (text, want) in [
        ("7d Kd", Action::Hit),
        ("8d", Action::Hit),
        ("8d Kd", Action::Hit),
        ("9d", Action::Stand),
        ("9d Kd", Action::Stand),
        ("Td", Action::Stand),
    ] {
        assert_eq!(SeedBot::choose(&hand(text)), want, "{text}");
    }
    // The same through the Bot interface, from the seat's view only.
    let s = game(2, 0, "8d 5h");
    let legal = legal(&s, 1);
    let choice = SeedBot.act(&Decision::<TenHalf>::from_state(&s, 1, &legal));
    assert_eq!(choice, Action::Hit);
}

#[test]
fn rule_08_after_a_hit_play_goes_on_or_stands_busts_or_wins() {
    // Goes on: 4 + 4 = 8, the player chooses again.
    let mut s = game(2, 0, "4d 5h 4c 9s");
    act(&mut s, 1, Action::Hit);
    assert_eq!(s.turn(), Some(1));
    assert_eq!(legal(&s, 1), [Action::Hit, Action::Stand]);
    // Stands: the turn passes.
    act(&mut s, 1, Action::Stand);
    assert_eq!(s.turn(), Some(0));
    // Busts: 8 + 9.
    let mut s = game(2, 0, "4d 5h 4c 9s 2d");
    act(&mut s, 1, Action::Hit);
    let events = act(&mut s, 1, Action::Hit);
    assert!(matches!(events[1], Event::Busted { seat: 1, .. }));
    // Wins: 10 + ½.
    let mut s = game(2, 0, "Ts 5h Kd");
    act(&mut s, 1, Action::Hit);
    assert_eq!(s.status(1), Some(Status::Won(WinKind::TenAndAHalf)));
}

#[test]
fn rule_09_a_bust_is_shown_costs_two_and_play_goes_on_with_a_new_base_card() {
    let mut s = game(2, 0, "Ts 5h 9s 4h");
    let events = act(&mut s, 1, Action::Hit);
    assert_eq!(
        events,
        vec![
            Event::Hit {
                seat: 1,
                card: card("9s")
            },
            Event::Busted {
                seat: 1,
                cards: cards::parse_cards("Ts 9s").unwrap(),
                penalty: 2
            },
            Event::NewBase { seat: 1 },
        ]
    );
    assert_eq!(s.penalties(), [0, 2]);
    assert_eq!(s.hand(1).unwrap().cards(), [card("4h")]);
    assert_eq!(s.turn(), Some(1));
    let other = View::of(&s, Viewer::Seat(0));
    assert_eq!(other.players[1].base, None);
    assert!(other.discards.contains(card("Ts")) && other.discards.contains(card("9s")));
}

#[test]
fn rule_09_a_winner_leaves_the_round() {
    let mut s = game(2, 0, "Ts 5h Kd");
    act(&mut s, 1, Action::Hit);
    assert_eq!(s.turn(), Some(0));
    assert!(legal(&s, 1).is_empty());
    let mut events = Vec::new();
    assert_eq!(
        s.apply(1, Action::Hit, &mut events),
        Err(RuleError::NotYourTurn(1))
    );
    // The win is shown: the base card is no longer hidden.
    assert_eq!(
        View::of(&s, Viewer::Seat(0)).players[1].base,
        Some(card("Ts"))
    );
}

#[test]
fn rule_10_the_showdown_comes_when_every_player_not_won_has_stood() {
    let mut s = game(3, 0, "Ts 9h 8c");
    assert!(showdown(&act(&mut s, 1, Action::Stand)).is_none());
    assert!(showdown(&act(&mut s, 2, Action::Stand)).is_none());
    let events = act(&mut s, 0, Action::Stand);
    let sd = showdown(&events).expect("showdown after the dealer stands");
    let seats: Vec<usize> = sd.hands.iter().map(|h| h.seat).collect();
    assert_eq!(seats, [0, 2, 1]);
    assert_eq!(sd.round, 1);
    assert_eq!(s.round(), 2);
}

#[test]
fn rule_11_the_single_loser_takes_two_plus_two_per_winner() {
    let mut s = game(3, 0, "Ts 9h 8c Kd");
    act(&mut s, 1, Action::Hit);
    act(&mut s, 2, Action::Stand);
    let events = act(&mut s, 0, Action::Stand);
    let sd = showdown(&events).unwrap();
    assert_eq!((sd.loser, sd.pot), (Some(0), 4));
    assert_eq!(s.penalties(), [4, 0, 0]);

    let mut s = game(4, 0, "Ts Th 9h 8c Kd Qd");
    act(&mut s, 1, Action::Hit);
    act(&mut s, 2, Action::Hit);
    act(&mut s, 3, Action::Stand);
    let events = act(&mut s, 0, Action::Stand);
    assert_eq!(showdown(&events).unwrap().pot, 6);
    assert_eq!(s.penalties(), [6, 0, 0, 0]);
}

#[test]
fn rule_12_the_showdown_compares_points_before_cards_and_suits() {
    // Seat 1: RJ 4d 4c = 8½ with three cards and the best card of all; seat 0: 9d alone.
    let mut s = game(2, 0, "RJ 9d 4d 4c");
    act(&mut s, 1, Action::Hit);
    act(&mut s, 1, Action::Hit);
    act(&mut s, 1, Action::Stand);
    let events = act(&mut s, 0, Action::Stand);
    assert_eq!(showdown(&events).unwrap().loser, Some(1));
}

#[test]
fn rule_13_on_equal_points_fewer_cards_lose() {
    let mut s = game(2, 0, "9h 5c 4d");
    act(&mut s, 1, Action::Stand);
    act(&mut s, 0, Action::Hit);
    let events = act(&mut s, 0, Action::Stand);
    assert_eq!(showdown(&events).unwrap().loser, Some(1));
}

#[test]
fn rule_14_on_equal_points_and_cards_the_lower_best_card_loses() {
    let mut s = game(2, 0, "9h 9s");
    act(&mut s, 1, Action::Stand);
    let events = act(&mut s, 0, Action::Stand);
    assert_eq!(showdown(&events).unwrap().loser, Some(1));
}

#[test]
fn rule_15_big_joker_small_joker_spades_hearts_clubs_diamonds_ten_high() {
    let mut all: Vec<cards::Card> = cards::Card::all().collect();
    all.sort_by_key(|&c| strength(c));
    let suit = |s: char| {
        [
            "J", "Q", "K", "A", "2", "3", "4", "5", "6", "7", "8", "9", "T",
        ]
        .map(|r| format!("{r}{s}"))
        .join(" ")
    };
    let want = format!(
        "{} {} {} {} BJ RJ",
        suit('d'),
        suit('c'),
        suit('h'),
        suit('s')
    );
    assert_eq!(cards::format_cards(&all), want);
    let answer = common::judge(r#"{"op":"showdown","hands":["9c BJ","9d RJ"]}"#);
    assert_eq!(answer["loser"], 0);
}

#[test]
fn rule_16_new_rounds_from_the_same_deck_until_it_cannot_serve_every_player() {
    let mut s = State::new(&Config::default(), 4, &Seed::from_u64(16)).unwrap();
    let mut all = Vec::new();
    while let Some(seat) = s.turn().filter(|_| !s.is_finished()) {
        let hand = *s.hand(seat).unwrap();
        let mut events = Vec::new();
        let action = if hand.must_hit() {
            Action::Hit
        } else {
            SeedBot::choose(&hand)
        };
        s.apply(seat, action, &mut events).unwrap();
        all.extend(events);
    }
    let dealt = all
        .iter()
        .filter(|e| matches!(e, Event::Dealt { .. }))
        .count();
    // Round 1 is dealt when the game starts; every later round shows in the events.
    assert!(dealt >= 1, "one deck serves several rounds");
    assert_eq!(dealt as u32 + 1, s.round());
    assert!(s.deck_left() < 4);
    assert!(matches!(all.last(), Some(Event::GameOver { .. })));
    assert_eq!(TenHalf::to_act(&s), ToAct::Finished);
}

#[test]
fn decision_two_to_eight_players() {
    for n in 2..=8 {
        assert!(State::new(&Config::default(), n, &Seed::from_u64(1)).is_ok());
    }
    for n in [0, 1, 9] {
        assert!(matches!(
            State::new(&Config::default(), n, &Seed::from_u64(1)),
            Err(RuleError::BadConfig(_))
        ));
    }
}

#[test]
fn decision_play_starts_at_the_dealers_left_and_the_dealer_plays_last() {
    let mut s = game(3, 1, "Ts 9h 8c");
    assert_eq!(s.order().collect::<Vec<_>>(), [2, 0, 1]);
    assert_eq!(s.hand(2).unwrap().cards(), [card("Ts")]);
    assert_eq!(s.turn(), Some(2));
    act(&mut s, 2, Action::Stand);
    assert_eq!(s.turn(), Some(0));
    act(&mut s, 0, Action::Stand);
    assert_eq!(s.turn(), Some(1));
}

#[test]
fn decision_the_dealer_seat_moves_one_seat_per_game() {
    let c = Config { dealer: 2 };
    assert_eq!(c.next_game(4), Config { dealer: 3 });
    assert_eq!(c.next_game(3), Config { dealer: 0 });
    let s = State::new(&Config { dealer: 2 }, 3, &Seed::from_u64(3)).unwrap();
    let mut s = s;
    let mut events = Vec::new();
    while !s.is_finished() {
        let seat = s.turn().unwrap();
        s.apply(seat, Action::Hit, &mut events).unwrap();
    }
    let roles = TenHalf::outcome(&s).unwrap().roles;
    assert_eq!(roles, ["player", "player", "dealer"]);
    assert!(State::new(&Config { dealer: 3 }, 3, &Seed::from_u64(3)).is_err());
}

/// Plays always-hit games until a turn meets an empty deck; returns the events of that game.
fn game_with(found: impl Fn(&Event) -> bool) -> (State, Vec<Event>) {
    for n in 0..500 {
        let mut s = State::new(&Config::default(), 2, &Seed::from_u64(n)).unwrap();
        let mut all = Vec::new();
        while !s.is_finished() {
            let seat = s.turn().unwrap();
            s.apply(seat, Action::Hit, &mut all).unwrap();
        }
        if all.iter().any(&found) {
            return (s, all);
        }
    }
    panic!("no game of 500 had the event");
}

#[test]
fn decision_when_the_deck_runs_out_the_player_stands_where_they_are() {
    let (_, events) = game_with(|e| matches!(e, Event::DeckEmpty { .. }));
    let at = events
        .iter()
        .position(|e| matches!(e, Event::DeckEmpty { .. }))
        .unwrap();
    let Event::DeckEmpty { seat } = events[at] else {
        unreachable!()
    };
    let sd = events[at..]
        .iter()
        .find_map(|e| match e {
            Event::Showdown(s) => Some(s),
            _ => None,
        })
        .expect("a showdown follows");
    assert!(sd.hands.iter().any(|h| h.seat == seat));
}

#[test]
fn decision_a_bust_with_no_card_left_for_a_new_base_leaves_the_round() {
    let (_, events) = game_with(|e| matches!(e, Event::Out { .. }));
    let at = events
        .iter()
        .position(|e| matches!(e, Event::Out { .. }))
        .unwrap();
    let Event::Out { seat } = events[at] else {
        unreachable!()
    };
    assert!(matches!(events[at - 1], Event::Busted { seat: s, .. } if s == seat));
    let sd = events[at..]
        .iter()
        .find_map(|e| match e {
            Event::Showdown(s) => Some(s),
            _ => None,
        })
        .expect("a showdown follows");
    assert!(sd.hands.iter().all(|h| h.seat != seat));
}

#[test]
fn decision_k_beats_q_beats_j_inside_a_suit() {
    assert!(strength(card("Ks")) > strength(card("Qs")));
    assert!(strength(card("Qs")) > strength(card("Js")));
    let answer = common::judge(r#"{"op":"showdown","hands":["Ks 9d","Qs 9c"]}"#);
    assert_eq!(answer["loser"], 1);
}

#[test]
fn decision_a_single_player_who_stood_takes_the_pot() {
    let mut s = game(2, 0, "Ts 8h Kd");
    act(&mut s, 1, Action::Hit);
    let events = act(&mut s, 0, Action::Stand);
    let sd = showdown(&events).unwrap();
    assert_eq!((sd.loser, sd.pot), (Some(0), 4));
}

#[test]
fn decision_if_nobody_stood_nobody_takes_the_pot() {
    let mut s = game(2, 0, "Ts Th Kd Qd");
    act(&mut s, 1, Action::Hit);
    let events = act(&mut s, 0, Action::Hit);
    let sd = showdown(&events).unwrap();
    assert_eq!((sd.loser, sd.pot), (None, 6));
    assert_eq!(s.penalties(), [0, 0]);
}

#[test]
fn decision_outcome_scores_are_minus_penalties_and_the_fewest_penalties_win() {
    let mut s = State::new(&Config::default(), 3, &Seed::from_u64(9)).unwrap();
    let mut events = Vec::new();
    while !s.is_finished() {
        let seat = s.turn().unwrap();
        let hand = *s.hand(seat).unwrap();
        s.apply(seat, SeedBot::choose(&hand), &mut events).unwrap();
    }
    let outcome = TenHalf::outcome(&s).unwrap();
    let penalties = s.penalties();
    let fewest = *penalties.iter().min().unwrap();
    for (seat, &p) in penalties.iter().enumerate() {
        assert_eq!(outcome.scores[seat], -i64::from(p));
        assert_eq!(outcome.won[seat], p == fewest);
    }
    assert!(outcome.won.iter().any(|&w| w) && !outcome.won.iter().all(|&w| w));
}
