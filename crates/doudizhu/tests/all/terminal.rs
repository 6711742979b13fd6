//! What a person at `qipai play doudizhu` reads: the log lines of every event, in words,
//! and the table in the vocabulary every card game shares.

use cards::RankCounts;
use doudizhu::{Action, DouDizhu, Event, Play};
use game::{Bot, GameSpec, Seed, ToAct, Viewer};

fn play(s: &str) -> Play {
    s.parse().expect("test play")
}

fn line(event: Event, viewer: Viewer) -> String {
    DouDizhu::event_text(&event, viewer).expect("every event has a line")
}

#[test]
fn log_tells_each_seat_what_happened_in_words() {
    let me = Viewer::Seat(0);
    let kitty: RankCounts = "5 9 RJ".parse().expect("kitty");
    assert_eq!(
        line(
            Event::Landlord {
                seat: 0,
                bid: 2,
                kitty
            },
            Viewer::Seat(1)
        ),
        "seat 1 is the landlord for 2; the kitty is 5 9 RJ"
    );
    assert_eq!(
        line(
            Event::Landlord {
                seat: 0,
                bid: 2,
                kitty
            },
            me
        ),
        "you are the landlord for 2; the kitty is 5 9 RJ"
    );
    assert_eq!(
        line(
            Event::Played {
                seat: 2,
                play: play("3 3 3 4"),
                multiplier: 1
            },
            me
        ),
        "seat 3 plays 3 3 3 4 (a trio with a single)"
    );
    assert_eq!(
        line(
            Event::Played {
                seat: 0,
                play: play("3 3 3 4 4 4 7 9"),
                multiplier: 1
            },
            me
        ),
        "you play 3 3 3 4 4 4 7 9 (a plane with singles)"
    );
    assert_eq!(
        line(
            Event::Played {
                seat: 1,
                play: play("9 9 9 9"),
                multiplier: 4
            },
            me
        ),
        "seat 2 plays 9 9 9 9 (a bomb); the multiplier is ×4"
    );
    assert_eq!(line(Event::Passed { seat: 1 }, me), "seat 2 passes");
    assert_eq!(line(Event::Passed { seat: 0 }, me), "you pass");
    assert_eq!(
        line(Event::Bid { seat: 1, bid: 0 }, me),
        "seat 2 does not bid"
    );
    assert_eq!(line(Event::Bid { seat: 0, bid: 3 }, me), "you bid 3");
    assert_eq!(
        line(Event::RoundWon { seat: 2 }, me),
        "Nobody beats it: seat 3 leads a new round."
    );
    assert_eq!(
        line(
            Event::Finished {
                winner: 1,
                landlord_won: false,
                scores: [-4, 2, 2],
                spring: false,
                anti_spring: true,
                doubles: [0; 3],
                shown: false,
            },
            me
        ),
        "seat 2 is out of cards: the peasants win, an anti-spring (反春) doubles the score."
    );
}

/// A whole game through the registry, as the terminal plays it: every accepted action
/// gives at least one log line, and no line shows an internal name or JSON.
#[test]
fn every_action_of_a_game_reads_as_words() {
    let entry = game::registry::entry::<DouDizhu>();
    for seed in 0..5 {
        let mut table = entry
            .new_table(&game::TableSetup::new(
                "t",
                serde_json::Value::Null,
                3,
                Seed::from_u64(seed),
            ))
            .expect("a table");
        for s in 0..3 {
            table
                .set_bot(s, "heuristic", &Seed::from_u64(s as u64))
                .expect("bot");
        }
        while let ToAct::Seat(s) = table.to_act() {
            let applied = table.bot_move(s).expect("a bot move");
            let lines: Vec<String> = applied
                .events
                .iter()
                .filter_map(|e| entry.event_text(e, Viewer::Seat(0)))
                .collect();
            assert!(!lines.is_empty(), "no line for {:?}", applied.events);
            for l in &lines {
                assert!(!l.contains('_') && !l.contains('{'), "{l}");
            }
        }
        let end = table.render(Viewer::Seat(0));
        assert!(end.contains("seat 1 (you)"), "{end}");
    }
}

#[test]
fn table_marks_the_turn_and_names_plays_in_words() {
    let entry = game::registry::entry::<DouDizhu>();
    let config = serde_json::json!({"landlord": 0});
    let mut table = entry
        .new_table(&game::TableSetup::new("t", config, 3, Seed::from_u64(3)))
        .expect("a table");
    let screen = table.render(Viewer::Seat(0));
    assert!(screen.contains("▶ seat 1 (you)"), "{screen}");
    assert!(screen.contains("you lead: play anything"), "{screen}");
    assert!(screen.contains("your hand: "), "{screen}");
    let hint = table.hints(0).into_iter().next().expect("a lead");
    table.apply_text(0, &hint).expect("the hint is legal");
    let screen = table.render(Viewer::Seat(1));
    assert!(screen.contains("▶ seat 2 (you)"), "{screen}");
    assert!(
        screen.contains("to beat: ") && screen.contains("from seat 1"),
        "{screen}"
    );
    // The lead named with its kind in words, as `3 3 (a pair)`.
    assert!(screen.contains(&format!("to beat: {hint} (a")), "{screen}");
}

#[test]
fn hint_offers_the_computers_play_first_and_breaks_up_a_bomb_last() {
    // Seat 1, a peasant holding 4 4 4 4, follows the landlord's single 3: smallest first
    // alone would offer a single 4 out of the bomb before anything else.
    let Ok(state) = <DouDizhu as game::Rules>::start(
        &doudizhu::Config {
            landlord: Some(0),
            ..Default::default()
        },
        3,
        &Seed::from_u64(1),
    ) else {
        panic!("a deal starts");
    };
    let mut view = <DouDizhu as game::Rules>::view(&state, Viewer::Seat(1));
    let hand: RankCounts = "4 4 4 4 5 6 7 8 9 9 T J Q K A 2 2".parse().expect("hand");
    view.hand = Some(hand);
    view.kitty = Some("3 3 RJ".parse().expect("kitty"));
    view.history = vec![(0, Some(play("3")))];
    view.last = Some((0, play("3")));
    view.to_act = Some(1);
    view.hand_sizes = [19, 17, 17];
    let legal = game::search::legal_in_view::<DouDizhu>(&view, 1);
    assert!(legal.len() > 10, "{legal:?}");
    let hints = DouDizhu::hints(&view, &legal);
    let mut plays: Vec<_> = legal.iter().filter(|a| **a != Action::Pass).collect();
    let mut offered: Vec<_> = hints.iter().collect();
    plays.sort_by_key(|a| format!("{a:?}"));
    offered.sort_by_key(|a| format!("{a:?}"));
    assert_eq!(offered, plays, "every play is offered once, and only plays");
    let suggested = doudizhu::bots::HeuristicBot::new(&Seed::from_u64(0))
        .act(&game::Decision::from_view(&view, 1, &legal));
    if suggested != Action::Pass {
        assert_eq!(hints[0], suggested);
    }
    let at = |p: &str| hints.iter().position(|h| *h == Action::Play(play(p)));
    let (four, five) = (at("4"), at("5"));
    assert!(four.is_some() && five.is_some());
    assert!(
        four > five,
        "a single 4 from the bomb comes last: {hints:?}"
    );
    assert_eq!(four, Some(hints.len() - 1), "{hints:?}");
}

#[test]
fn the_tables_legal_actions_lead_with_the_hints() {
    // The browser's Hint button cycles through the legal actions from the first: they come
    // in the order `hint` offers them, so both clients suggest the same plays.
    let entry = game::registry::entry::<DouDizhu>();
    let mut table = entry
        .new_table(&game::TableSetup::new(
            "t",
            serde_json::json!({"landlord": 0}),
            3,
            Seed::from_u64(5),
        ))
        .expect("a table");
    let mut checked = 0;
    while let ToAct::Seat(seat) = table.to_act() {
        let legal = table.legal(seat).expect("legal actions");
        let hints = table.hints(seat);
        let view = table.view(Viewer::Seat(seat)).expect("a view");
        let texts: Vec<String> = legal.iter().map(|a| entry.action_text(&view, a)).collect();
        assert_eq!(texts[..hints.len()], hints[..], "seat {seat}");
        let mut sorted = texts.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), texts.len(), "each legal action once");
        checked += usize::from(hints.len() > 1);
        table
            .apply_text(seat, &texts[0])
            .expect("the first is legal");
    }
    assert!(checked > 5, "{checked} turns with hints to choose from");
}
