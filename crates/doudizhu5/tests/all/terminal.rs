//! What a person at `qipai play doudizhu5` reads: the log of every event in words, suited
//! cards with suit symbols, the kitty for the landlord alone, and a hidden solo that reads
//! exactly like a partner call.

use crate::common;

use cards::{Card, RankCounts};
use common::{act, deal, decline_all, partner_deal, start};
use doudizhu5::declare::{InstantWin, Mode};
use doudizhu5::{Action, DouDizhu5, Event, Kind, Phase, SEATS};
use game::{GameSpec, Rules, Seed, ToAct, Viewer};

fn line(event: Event, viewer: Viewer) -> String {
    DouDizhu5::event_text(&event, viewer).expect("every event has a line")
}

fn card(text: &str) -> Card {
    text.parse().expect("test card")
}

/// Whether `text` writes a suited card with a suit letter (`9h`) instead of a symbol.
fn has_letter_suit(text: &str) -> bool {
    text.split(|c: char| c.is_whitespace() || ",;:()|.`".contains(c))
        .any(|w| {
            w.len() >= 2
                && w.ends_with(['d', 'c', 'h', 's'])
                && w[..w.len() - 1]
                    .parse::<RankCounts>()
                    .is_ok_and(|r| r.len() == 1)
        })
}

#[test]
fn log_names_plays_in_words_never_internal_names() {
    let me = Viewer::Seat(0);
    let played = Event::Played {
        seat: 3,
        cards: "5 5 5 7 7".parse().unwrap(),
        suited: None,
        kind: Kind::TrioPair,
    };
    assert_eq!(
        line(played, me),
        "seat 4 plays 5 5 5 7 7 (a trio with a pair)"
    );
    let plane = Event::Played {
        seat: 0,
        cards: "5 5 5 6 6 6 Q Q K K".parse().unwrap(),
        suited: None,
        kind: Kind::Plane,
    };
    assert_eq!(
        line(plane, me),
        "you play 5 5 5 6 6 6 Q Q K K (a plane with wings)"
    );
    assert_eq!(line(Event::Passed { seat: 2 }, me), "seat 3 passes");
    assert_eq!(
        line(
            Event::Grabbed {
                seat: 1,
                shown: doudizhu5::grab::Shown {
                    card: card("9h"),
                    count: 3
                }
            },
            me
        ),
        "seat 2 grabs with the triple 9♥ 9♥ 9♥"
    );
    assert_eq!(
        line(Event::Landlord { seat: 1, grabs: 6 }, me),
        "The grab is over after 6 grabs, multiplier ×6: seat 2 is the landlord (正地主) and \
         takes the seven kitty cards."
    );
    assert_eq!(
        line(
            Event::InstantWin {
                seat: 1,
                reason: InstantWin::NoBomb
            },
            me
        ),
        "seat 2 wins at once (不打自胜): the landlord holds no bomb at all."
    );
    assert_eq!(
        line(
            Event::Declared {
                seat: 0,
                open_solo: true,
                marked: None
            },
            me
        ),
        "you declare an open solo (明独打): alone against four, ×2."
    );
}

#[test]
fn log_says_which_side_won() {
    let end = |landlord_won| Event::Finished {
        winner: 3,
        landlord_won,
        scores: vec![2, -1, -1, 1, -1],
    };
    assert_eq!(
        line(end(true), Viewer::Seat(0)),
        "seat 4 is out of cards: the landlord's side wins."
    );
    assert_eq!(
        line(end(false), Viewer::Seat(3)),
        "you are out of cards: the opponents win."
    );
    let mine = Event::Declared {
        seat: 0,
        open_solo: false,
        marked: Some(card("4h")),
    };
    assert_eq!(
        line(mine, Viewer::Seat(0)),
        "you mark 4♥ (找4♥); the others cannot tell a partner call from a hidden solo."
    );
}

#[test]
fn open_solo_is_typed_as_open_and_never_shown_as_open_solo() {
    assert_eq!(
        DouDizhu5::action_text(&Action::Declare(Mode::OpenSolo)),
        "open"
    );
    let mut s = start(&deal(
        [
            "BJ BJ RJ",
            "9h 9h 9h 9c",
            "9s 9c BJ",
            "9s 9s 9d 9c",
            "RJ RJ 9d 9d",
        ],
        "",
        ("9c", 1),
    ));
    decline_all(&mut s);
    let landlord = s.landlord().expect("a landlord");
    assert_eq!(s.phase(), Phase::Declare, "this deal has no instant win");
    {
        let screen = DouDizhu5::render(
            &DouDizhu5::view(&s, Viewer::Seat(landlord)),
            Viewer::Seat(landlord),
        );
        assert!(screen.contains("`open` an open solo"), "{screen}");
        assert!(
            !screen.contains("open_solo") && !screen.contains("hidden_solo"),
            "{screen}"
        );
    }
}

#[test]
fn log_reads_a_hidden_solo_and_a_partner_call_alike() {
    let hidden = DouDizhu5::public_action(&Action::Declare(Mode::HiddenSolo));
    let partner = DouDizhu5::public_action(&Action::Declare(Mode::Partner));
    assert_eq!(hidden, partner);
    assert_eq!(
        serde_json::to_value(hidden).unwrap(),
        serde_json::json!({"declare":"marked"})
    );
    let view = DouDizhu5::view(&start(&doudizhu5::Config::default()), Viewer::Spectator);
    assert_eq!(
        DouDizhu5::public_action_text(&view, &hidden),
        "marks a card (a partner call or a hidden solo)"
    );
    let declared = Event::Declared {
        seat: 2,
        open_solo: false,
        marked: Some(card("6d")),
    };
    assert_eq!(
        line(declared, Viewer::Seat(0)),
        "seat 3 marks 6♦ (找6♦): a partner call or a hidden solo — whoever holds another 6♦ \
         is the secret partner, unless the landlord holds them all."
    );
}

#[test]
fn partner_reveal_is_announced() {
    let partner = Event::Revealed {
        partner: 3,
        hidden_solo: false,
    };
    assert_eq!(
        line(partner.clone(), Viewer::Seat(0)),
        "The marked card is played: seat 4 is the landlord's partner (副地主)."
    );
    assert_eq!(
        line(partner, Viewer::Seat(3)),
        "The marked card is played: you are the landlord's partner (副地主)."
    );
    let alone = Event::Revealed {
        partner: 1,
        hidden_solo: true,
    };
    assert_eq!(
        line(alone, Viewer::Seat(0)),
        "The marked card is played: it was a hidden solo (暗独打) — seat 2 plays alone against four."
    );
}

#[test]
fn the_landlord_sees_the_kitty_and_no_one_else_does() {
    let kitty = "3d 4c 5h 6s 7d 8c Kh";
    let config = deal(["9h 9h", "", "", "", ""], kitty, ("9c", 1));
    let mut s = start(&config);
    act(&mut s, 0, Action::Grab(card("9h")));
    decline_all(&mut s);
    assert_eq!(s.landlord(), Some(0));
    let own = DouDizhu5::view(&s, Viewer::Seat(0));
    let mut taken = own.kitty.clone().expect("the landlord sees the kitty");
    taken.sort();
    assert_eq!(cards::format_cards(&taken), kitty);
    let screen = DouDizhu5::render(&own, Viewer::Seat(0));
    assert!(
        screen.contains("the kitty you took (only you see it): 3♦ 4♣ 5♥ 6♠ 7♦ 8♣ K♥"),
        "{screen}"
    );
    for viewer in (1..SEATS).map(Viewer::Seat).chain([Viewer::Spectator]) {
        let view = DouDizhu5::view(&s, viewer);
        assert_eq!(view.kitty, None, "{viewer:?}");
        let json = serde_json::to_value(&view).unwrap();
        assert!(json["kitty"].is_null(), "{viewer:?}: {json}");
        let screen = DouDizhu5::render(&view, viewer);
        assert!(!screen.contains("kitty"), "{viewer:?}: {screen}");
    }
}

/// A whole game through the registry, as the terminal plays it: every accepted action
/// gives at least one log line; no line and no screen shows an internal name or a suit
/// letter.
#[test]
fn every_action_of_a_game_reads_as_words_with_suit_symbols() {
    assert!(has_letter_suit("grab 9h") && !has_letter_suit("grab 9♥ cards"));
    let entry = game::registry::entry::<DouDizhu5>();
    for seed in 0..3 {
        let mut table = entry
            .new_table(&game::TableSetup::new(
                "t",
                serde_json::Value::Null,
                SEATS,
                Seed::from_u64(seed),
            ))
            .expect("a table");
        for s in 0..SEATS {
            table
                .set_bot(s, "heuristic", &Seed::from_u64(s as u64))
                .expect("bot");
        }
        loop {
            let seat = match table.to_act() {
                ToAct::Finished => break,
                ToAct::Seat(s) => s,
                ToAct::Seats(set) => set.iter().next().expect("a seat"),
            };
            let screen = table.render(Viewer::Seat(seat));
            assert!(!has_letter_suit(&screen), "{screen}");
            assert!(!screen.contains('_'), "{screen}");
            let applied = table.bot_move(seat).expect("a bot move");
            let lines: Vec<String> = applied
                .events
                .iter()
                .filter_map(|e| entry.event_text(e, Viewer::Seat(0)))
                .collect();
            assert!(!lines.is_empty(), "no line for {:?}", applied.events);
            for l in &lines {
                assert!(!l.contains('_') && !l.contains('{'), "{l}");
                assert!(!has_letter_suit(l), "{l}");
            }
        }
        let end = table.render(Viewer::Seat(0));
        assert!(
            end.contains("kitty"),
            "everyone sees the kitty at the end: {end}"
        );
    }
}

#[test]
fn suited_plays_are_typed_with_letters_or_symbols_and_shown_with_symbols() {
    let mut s = start(&partner_deal());
    decline_all(&mut s);
    act(&mut s, 0, Action::Declare(Mode::Partner));
    let me = Viewer::Seat(0);
    let view = DouDizhu5::view(&s, me);
    let typed = |text: &str| DouDizhu5::parse_action(&view, text);
    let straight = Action::PlaySuited("As 2s 3d 4h 5c".parse().unwrap());
    assert_eq!(typed("As 2s 3d 4h 5c"), Ok(straight));
    assert_eq!(typed("A♠ 2♠ 3♦ 4♥ 5♣"), Ok(straight));
    assert_eq!(
        typed("A 2 3 4 5"),
        Ok(Action::Play("A 2 3 4 5".parse().unwrap()))
    );
    let mixed = typed("As 2 3 4 5").unwrap_err().to_string();
    assert!(
        mixed.contains("needs a suit") && mixed.contains("6♦ 6♣"),
        "{mixed}"
    );
    assert_eq!(DouDizhu5::action_text(&straight), "3♦ 4♥ 5♣ A♠ 2♠");
    let events = act(&mut s, 0, straight);
    let said: Vec<String> = events
        .into_iter()
        .filter_map(|e| DouDizhu5::event_text(&e, Viewer::Seat(1)))
        .collect();
    assert_eq!(said, ["seat 1 plays 3♦ 4♥ 5♣ A♠ 2♠ (a straight)"]);
    let screen = DouDizhu5::render(&DouDizhu5::view(&s, Viewer::Seat(1)), Viewer::Seat(1));
    assert!(screen.contains("3♦ 4♥ 5♣ A♠ 2♠ (a straight)"), "{screen}");
    // By rank, the table shows ranks.
    act(&mut s, 1, Action::Pass);
    act(&mut s, 2, Action::Pass);
    act(&mut s, 3, Action::Play("3 4 5 6 7".parse().unwrap()));
    let screen = DouDizhu5::render(&DouDizhu5::view(&s, Viewer::Seat(1)), Viewer::Seat(1));
    assert!(screen.contains("3 4 5 6 7 (a straight)"), "{screen}");
}
