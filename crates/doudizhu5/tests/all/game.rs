//! The game as a whole: the grab, the kitty and instant wins, the declarations, the
//! partner's reveal, play and scoring (the original rules' §5–7 and the decisions of
//! docs/rules/doudizhu5.md).

use crate::common;

use cards::{parse_cards, RankCounts};
use common::{act, deal, decline_all, partner_deal, start};
use doudizhu5::declare::{InstantWin, Mode};
use doudizhu5::{Action, Config, DouDizhu5, Event, Phase, State, HAND, KITTY, SEATS};
use game::{GameSpec, Rules, Seed, ToAct, Viewer};

fn grab(card: &str) -> Action {
    Action::Grab(card.parse().unwrap())
}

fn play(cards: &str) -> Action {
    Action::Play(cards.parse().unwrap())
}

/// The original rules' example: 甲 BJ BJ RJ, 乙 9h 9h 9h 9c, 丙 9s 9c BJ, 丁 9s 9s 9d 9c, 戊 RJ RJ 9d 9d.
fn seed_example() -> Config {
    deal(
        [
            "BJ BJ RJ",
            "9h 9h 9h 9c",
            "9s 9c BJ",
            "9s 9s 9d 9c",
            "RJ RJ 9d 9d",
        ],
        "",
        ("9c", 1),
    )
}

#[test]
fn rule_5_2_seed_grab_example_gives_multiplier_6_and_yi_the_landlord() {
    let mut s = start(&seed_example());
    assert_eq!(
        DouDizhu5::to_act(&s).seats().iter().collect::<Vec<_>>(),
        vec![0, 1, 3, 4],
        "丙 has nothing to grab"
    );
    act(&mut s, 0, grab("BJ"));
    act(&mut s, 1, grab("9h"));
    act(&mut s, 1, grab("9h"));
    act(&mut s, 3, grab("9s"));
    act(&mut s, 4, grab("RJ"));
    let events = act(&mut s, 4, grab("9d"));
    assert!(
        events.contains(&Event::Landlord { seat: 1, grabs: 6 }),
        "{events:?}"
    );
    assert_eq!(s.landlord(), Some(1));
    assert_eq!(DouDizhu5::view(&s, Viewer::Spectator).grabs, 6);
    assert_eq!(
        s.hand(1).unwrap().len(),
        HAND + KITTY,
        "the kitty joins the landlord"
    );
}

#[test]
fn rule_5_2_a_seat_may_decline_and_a_triple_needs_the_pair_first() {
    let mut s = start(&seed_example());
    let legal = DouDizhu5::legal(&s, 1);
    assert_eq!(legal, vec![grab("9h"), Action::Decline]);
    act(&mut s, 1, grab("9h"));
    assert_eq!(DouDizhu5::legal(&s, 1), vec![grab("9h"), Action::Decline]);
    assert!(DouDizhu5::apply(&mut s, 1, grab("9c"), &mut Vec::new()).is_err());
    assert!(
        DouDizhu5::apply(&mut s, 2, grab("BJ"), &mut Vec::new()).is_err(),
        "丙 may not grab"
    );
    assert_eq!(
        DouDizhu5::default_action(&s, 0),
        Action::Decline,
        "timeout declines"
    );
}

#[test]
fn rule_5_3_no_grab_makes_the_face_up_holder_landlord_at_multiplier_1() {
    let mut s = start(&seed_example());
    let events = decline_all(&mut s);
    assert!(events.contains(&Event::Landlord { seat: 1, grabs: 0 }));
    assert_eq!(DouDizhu5::view(&s, Viewer::Spectator).multiplier, 1);
}

#[test]
fn rule_5_3_the_strongest_set_wins_the_landlord_even_if_shown_last() {
    let mut s = start(&seed_example());
    act(&mut s, 4, grab("RJ"));
    act(&mut s, 4, Action::Decline);
    act(&mut s, 0, grab("BJ"));
    assert!(
        !DouDizhu5::to_act(&s).includes(0),
        "nothing left to grab: done"
    );
    act(&mut s, 1, Action::Decline);
    let events = act(&mut s, 3, grab("9s"));
    assert!(
        events.contains(&Event::Landlord { seat: 4, grabs: 3 }),
        "RJ pair is the strongest pair"
    );
}

#[test]
fn rule_5_4_declarations_and_their_marked_cards() {
    let mut s = start(&partner_deal());
    decline_all(&mut s);
    assert_eq!(s.phase(), Phase::Declare);
    let legal = DouDizhu5::legal(&s, 0);
    assert!(legal.contains(&Action::Declare(Mode::OpenSolo)));
    assert!(legal.contains(&Action::Declare(Mode::HiddenSolo)));
    assert!(legal.contains(&Action::Declare(Mode::Partner)));
    assert_eq!(
        DouDizhu5::default_action(&s, 0),
        Action::Declare(Mode::Partner),
        "timeout calls a partner"
    );
    let events = act(&mut s, 0, Action::Declare(Mode::Partner));
    assert!(events.contains(&Event::Declared {
        seat: 0,
        open_solo: false,
        marked: Some("3d".parse().unwrap())
    }));
    assert_eq!(s.partner(), Some(3));
}

#[test]
fn rule_5_4_open_solo_doubles_the_multiplier() {
    let mut s = start(&partner_deal());
    decline_all(&mut s);
    act(&mut s, 0, Action::Declare(Mode::OpenSolo));
    let v = DouDizhu5::view(&s, Viewer::Spectator);
    assert_eq!(v.multiplier, 2);
    assert!(v.declaration.unwrap().open_solo);
}

#[test]
fn rule_5_4_partner_revealed_only_when_the_marked_card_is_played() {
    let mut s = start(&partner_deal());
    decline_all(&mut s);
    act(&mut s, 0, Action::Declare(Mode::Partner));
    for v in [1, 2, 4] {
        assert_eq!(DouDizhu5::view(&s, Viewer::Seat(v)).partner, None);
    }
    assert_eq!(
        DouDizhu5::view(&s, Viewer::Seat(0)).partner,
        None,
        "the landlord does not know either"
    );
    assert_eq!(
        DouDizhu5::view(&s, Viewer::Seat(3)).partner,
        Some(3),
        "the partner knows"
    );
    act(&mut s, 0, play("A 2 3 4 5"));
    act(&mut s, 1, Action::Pass);
    act(&mut s, 2, Action::Pass);
    let events = act(&mut s, 3, play("3 4 5 6 7"));
    assert!(
        events.contains(&Event::Revealed {
            partner: 3,
            hidden_solo: false
        }),
        "{events:?}"
    );
    for v in 0..SEATS {
        assert_eq!(DouDizhu5::view(&s, Viewer::Seat(v)).partner, Some(3));
    }
}

#[test]
fn rule_5_4_hidden_solo_looks_like_a_partner_call_to_the_others() {
    let strip = |mut s: State, mode: Mode| {
        decline_all(&mut s);
        let events = act(&mut s, 0, Action::Declare(mode));
        let mut views: Vec<serde_json::Value> = (1..SEATS)
            .map(|v| serde_json::to_value(DouDizhu5::view(&s, Viewer::Seat(v))).unwrap())
            .collect();
        views.push(serde_json::to_value(&events).unwrap());
        for v in &mut views {
            // The marked card itself differs (4h vs 3d); everything else must not.
            let text = v
                .to_string()
                .replace("\"4h\"", "\"M\"")
                .replace("\"3d\"", "\"M\"");
            *v = serde_json::from_str(&text).unwrap();
        }
        views
    };
    let config = partner_deal();
    let mut hidden = strip(start(&config), Mode::HiddenSolo);
    let mut partner = strip(start(&config), Mode::Partner);
    // Seat 3 holds the 3d in both games and knows it is the partner only in the second;
    // compare the three seats that hold no marked card, and the public events.
    hidden.remove(2);
    partner.remove(2);
    assert_eq!(hidden, partner);
}

#[test]
fn rule_5_5_instant_win_with_no_bomb() {
    // At most three of any rank, and no joker, even with the kitty.
    let landlord = "3d 3d 4d 4d 5d 5d 6d 6d 7d 7d 8d 8d 9d 9d Td Td Jd Jd Jd Qd Qd Qd Kd Kd Kd Ad Ad Ad 2d 2d 2d";
    let config = deal(
        [landlord, "", "", "", ""],
        "3c 4c 5c 6c 7c 8c 9c",
        ("3d", 0),
    );
    let mut s = start(&config);
    let events = decline_all(&mut s);
    assert!(events.contains(&Event::InstantWin {
        seat: 0,
        reason: InstantWin::NoBomb
    }));
    assert_eq!(DouDizhu5::to_act(&s), ToAct::Finished);
    let o = DouDizhu5::outcome(&s).unwrap();
    assert_eq!(o.scores, vec![4, -1, -1, -1, -1]);
}

#[test]
fn rule_5_5_instant_win_with_a_ten_card_bomb() {
    let config = deal(
        ["7d 7d 7d 7c 7c 7c 7h 7h 7h 7s", "", "", "", ""],
        "",
        ("7s", 0),
    );
    let mut s = start(&config);
    let mut events = act(&mut s, 0, Action::Decline);
    events.extend(decline_all(&mut s));
    assert!(events.contains(&Event::InstantWin {
        seat: 0,
        reason: InstantWin::BigBomb
    }));
}

#[test]
fn rule_5_5_instant_win_without_two_identical_cards() {
    use doudizhu5::declare::instant_win;
    use doudizhu5::hand::Hand;
    let suits = ["d", "c", "h", "s"];
    let mut cards = Vec::new();
    for r in ["3", "4", "5", "6", "7", "8", "9", "T", "J", "Q"] {
        for s in suits {
            cards.push(format!("{r}{s}"));
        }
    }
    let hand = Hand::of(&parse_cards(&cards[..38].join(" ")).unwrap());
    assert_eq!(instant_win(&hand), Some(InstantWin::NoPartnerCard));
}

#[test]
fn rule_6_first_out_wins_for_the_side_and_rule_7_scores() {
    let mut s = start(&partner_deal());
    decline_all(&mut s);
    act(&mut s, 0, Action::Declare(Mode::Partner));
    // Play on with the default actions until someone goes out.
    let mut guard = 0;
    while let ToAct::Seat(seat) = DouDizhu5::to_act(&s) {
        let a = DouDizhu5::default_action(&s, seat);
        act(&mut s, seat, a);
        guard += 1;
        assert!(guard < 2000);
    }
    let o = DouDizhu5::outcome(&s).unwrap();
    assert_eq!(o.scores.iter().sum::<i64>(), 0);
    let w = (0..SEATS).find(|&x| s.hand(x).unwrap().is_empty()).unwrap();
    assert!(o.won[w]);
    assert_eq!(o.won[0], o.won[3], "landlord and partner share the result");
    assert_eq!(o.scores[0].abs(), 2 * o.scores[3].abs());
}

#[test]
fn rule_play_illegal_actions_are_refused_with_the_state_untouched() {
    let mut s = start(&partner_deal());
    decline_all(&mut s);
    act(&mut s, 0, Action::Declare(Mode::Partner));
    let before = format!("{:?}", s);
    let mut ev = Vec::new();
    for (seat, a) in [
        (1, play("3")),
        (0, Action::Pass),
        (0, play("3 3 3 3 3 3 3 3 3")),
        (0, play("3 4")),
        (0, Action::Decline),
    ] {
        let e = DouDizhu5::apply(&mut s, seat, a, &mut ev).unwrap_err();
        assert!(!e.to_string().is_empty());
    }
    assert!(ev.is_empty());
    assert_eq!(format!("{:?}", s), before);
    act(&mut s, 0, play("5 5 5 5"));
    let e = DouDizhu5::apply(&mut s, 1, play("3 3 3"), &mut ev).unwrap_err();
    assert!(e.to_string().contains("does not beat"), "{e}");
}

#[test]
fn rule_play_four_passes_give_the_lead_back() {
    let mut s = start(&partner_deal());
    decline_all(&mut s);
    act(&mut s, 0, Action::Declare(Mode::Partner));
    act(&mut s, 0, play("5 5 5 5 5"));
    for seat in 1..SEATS {
        act(&mut s, seat, Action::Pass);
    }
    assert_eq!(DouDizhu5::to_act(&s), ToAct::Seat(0));
    assert!(
        !DouDizhu5::legal(&s, 0).contains(&Action::Pass),
        "a lead cannot pass"
    );
    let rest: RankCounts = s.hand(0).unwrap().ranks();
    assert!(!rest.is_empty());
}

#[test]
fn rule_5_4_hidden_solo_reveals_the_landlord_with_the_last_marked_copy() {
    let mut s = start(&partner_deal());
    decline_all(&mut s);
    let events = act(&mut s, 0, Action::Declare(Mode::HiddenSolo));
    let Some(Event::Declared {
        marked: Some(m), ..
    }) = events.last().cloned()
    else {
        panic!("{events:?}")
    };
    assert_eq!(s.hand(0).unwrap().copies(m), 3);
    let n = s.hand(0).unwrap().ranks().count(m.rank());
    let first = act(&mut s, 0, Action::Play(RankCounts::of(m.rank(), 1)));
    assert!(
        !first.iter().any(|e| matches!(e, Event::Revealed { .. })),
        "one copy is not the marked one"
    );
    for seat in 1..SEATS {
        act(&mut s, seat, Action::Pass);
    }
    let rest = act(&mut s, 0, Action::Play(RankCounts::of(m.rank(), n - 1)));
    assert!(
        rest.contains(&Event::Revealed {
            partner: 0,
            hidden_solo: true
        }),
        "{rest:?}"
    );
    assert_eq!(DouDizhu5::view(&s, Viewer::Seat(2)).partner, Some(0));
}

#[test]
fn terminal_text_round_trips_through_the_registry() {
    let game = game::registry::entry::<DouDizhu5>();
    let config = serde_json::to_value(seed_example()).unwrap();
    let mut t = game
        .new_table(&game::TableSetup::new(
            "t",
            (config).clone(),
            SEATS,
            Seed::from_u64(3),
        ))
        .unwrap();
    assert!(t.render(Viewer::Seat(1)).contains("You can grab with: 9♥"));
    t.apply_text(1, "grab 9h").unwrap();
    t.apply_text(1, "grab").unwrap();
    assert!(t.apply_text(0, "grab 9h").is_err());
    t.apply_text(0, "decline").unwrap();
    t.apply_text(3, "decline").unwrap();
    t.apply_text(4, "decline").unwrap();
    assert_eq!(t.to_act(), ToAct::Seat(1));
    let hints = t.hints(1);
    assert!(!hints.is_empty());
    if t.apply_text(1, "partner").is_err() {
        t.apply_text(1, "hidden").unwrap();
    }
    let hints = t.hints(1);
    assert!(!hints.iter().any(|h| h == "pass"), "a lead cannot pass");
    t.apply_text(1, &hints[0]).unwrap();
    assert!(t.render(Viewer::Seat(2)).contains("from seat 2"));
    t.apply_text(2, "pass").unwrap();
    let err = t.apply_text(3, "3 4").unwrap_err().to_string();
    assert!(!err.is_empty());
    assert!(!DouDizhu5::help().is_empty());
}

#[test]
fn rule_play_the_landlord_leads_and_turns_pass_to_the_next_seat() {
    let mut s = start(&seed_example());
    decline_all(&mut s);
    let landlord = s.landlord().unwrap();
    assert_eq!(s.phase(), Phase::Declare);
    let a = DouDizhu5::default_action(&s, landlord);
    act(&mut s, landlord, a);
    assert_eq!(DouDizhu5::to_act(&s), ToAct::Seat(landlord));
    let lead = DouDizhu5::default_action(&s, landlord);
    act(&mut s, landlord, lead);
    assert_eq!(DouDizhu5::to_act(&s), ToAct::Seat((landlord + 1) % SEATS));
}

#[test]
fn rule_config_needs_five_seats_and_a_positive_base() {
    let zero = Config {
        base: 0,
        ..Config::default()
    };
    assert!(DouDizhu5::start(&zero, SEATS, &Seed::from_u64(1)).is_err());
    assert!(DouDizhu5::start(&Config::default(), 4, &Seed::from_u64(1)).is_err());
    let mut bad = seed_example();
    if let Some(d) = bad.deal.as_mut() {
        d.face_up.1 = 0;
    }
    assert!(
        DouDizhu5::start(&bad, SEATS, &Seed::from_u64(1)).is_err(),
        "holder must hold the face-up card"
    );
}
