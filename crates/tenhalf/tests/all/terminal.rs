//! Terminal play and self-play through the registry, as `qipai play tenhalf` and `qipai sim`
//! reach the game.

use crate::common;

use common::{act, game};
use game::sim::SimOptions;
use game::{registry, GameError, Seed, ToAct, Viewer};
use game::{GameSpec, Outcome};
use serde_json::{json, Value};
use tenhalf::TenHalf;
use tenhalf::{Action, Event};

#[test]
fn the_registry_describes_the_game() {
    let entry = registry::entry::<TenHalf>();
    assert_eq!(entry.id(), "tenhalf");
    assert_eq!(entry.name(), "十点半 Ten and a half");
    assert_eq!(entry.bot_names(), ["random", "seed", "counting"]);
    assert_eq!(entry.seats(&Value::Null).unwrap(), 2..=8);
    assert_eq!(entry.default_config(), json!({"dealer":0}));
    assert!(entry.help().contains("hit") && entry.help().contains("stand"));
    assert!(matches!(
        entry.seats(&json!({"dealr":1})),
        Err(GameError::BadConfig(_))
    ));
}

#[test]
fn a_person_plays_against_bots_by_typing() {
    let entry = registry::entry::<TenHalf>();
    let mut table = entry
        .new_table(&game::TableSetup::new(
            "t",
            json!({"dealer":2}),
            3,
            Seed::from_u64(4),
        ))
        .unwrap();
    table.set_bot(1, "seed", &Seed::from_u64(1)).unwrap();
    table.set_bot(2, "counting", &Seed::from_u64(2)).unwrap();
    assert!(table.set_bot(1, "nobody", &Seed::from_u64(1)).is_err());
    let mut turns = 0;
    while let ToAct::Seat(seat) = table.to_act() {
        if table.has_bot(seat) {
            table.bot_move(seat).unwrap();
            continue;
        }
        turns += 1;
        let screen = table.render(Viewer::Seat(0));
        assert!(screen.contains("seat 1 (you)"), "{screen}");
        assert!(
            screen
                .lines()
                .any(|l| l.contains("seat 3 ") && l.contains(" dealer ")),
            "{screen}"
        );
        assert!(
            screen.contains('['),
            "own base card shown in brackets: {screen}"
        );
        assert!(screen.contains("You have"), "{screen}");
        let view = table.view(Viewer::Seat(0)).unwrap();
        let points = view["players"][0]["points"].as_f64().unwrap();
        let mut hints = table.hints(0);
        hints.sort();
        let mut legal: Vec<String> = table
            .legal(0)
            .unwrap()
            .iter()
            .map(|a| entry.action_text(&view, a))
            .collect();
        legal.sort();
        assert_eq!(hints, legal, "hints are the legal moves, best first");
        if points <= 7.0 {
            assert_eq!(hints, ["hit"]);
        }
        assert!(matches!(
            table.apply_text(0, "fold"),
            Err(GameError::BadAction(_))
        ));
        let typed = if points < 9.0 { "hit" } else { "不要" };
        table.apply_text(0, typed).unwrap();
    }
    assert!(turns > 0);
    let screen = table.render(Viewer::Seat(0));
    assert!(screen.contains("Game over"), "{screen}");
    let record = table.record();
    let verdict = entry
        .verify(&record, &game::VerifyOptions::default())
        .unwrap();
    assert_eq!(verdict.outcome, table.outcome().unwrap());
}

#[test]
fn others_face_down_cards_show_as_backs() {
    let entry = registry::entry::<TenHalf>();
    let table = entry
        .new_table(&game::TableSetup::new(
            "t",
            Value::Null,
            4,
            Seed::from_u64(8),
        ))
        .unwrap();
    let screen = table.render(Viewer::Seat(1));
    assert_eq!(screen.matches("▒▒").count(), 3, "{screen}");
    assert!(screen.contains("Seat 2 to play") || screen.contains("You have"));
    let watcher = table.render(Viewer::Spectator);
    assert_eq!(watcher.matches("▒▒").count(), 4, "{watcher}");
}

#[test]
fn self_play_runs_every_bot_at_every_table_size() {
    let entry = registry::entry::<TenHalf>();
    for players in 2..=8 {
        let bots: Vec<String> = ["random", "seed", "counting"]
            .iter()
            .cycle()
            .take(players)
            .map(|s| s.to_string())
            .collect();
        let report = entry
            .sim(
                &SimOptions {
                    config: Value::Null,
                    bots,
                    games: 30,
                    first: 0,
                    seed: 1,
                    threads: 1,
                    rotate: true,
                    duplicate: false,
                },
                None,
            )
            .unwrap();
        assert_eq!(report.games, 30);
        let seat_games: u64 = report.bots.iter().map(|b| b.overall.games).sum();
        assert_eq!(seat_games, 30 * players as u64);
        assert!(report.bots.iter().all(|b| b.overall.avg_score <= 0.0));
    }
}

fn lines(events: &[Event], viewer: Viewer) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| TenHalf::event_text(e, viewer))
        .collect()
}

#[test]
fn every_hit_shows_its_card_and_every_bust_is_announced() {
    // Seat index 1, "seat 2" to people (first to play), holds T♠ face down and busts on
    // 3♣; its new base card K♦ stays hidden.
    let mut s = game(2, 0, "Ts 5h 3c Kd Qd");
    let events = act(&mut s, 1, Action::Hit);
    assert_eq!(
        lines(&events, Viewer::Seat(0)),
        [
            "seat 2 hits: 3♣",
            "seat 2 busts with T♠ 3♣ = 13 and takes 2 penalty points.",
            "seat 2 gets a new face-down base card and goes on.",
        ]
    );
    assert_eq!(
        lines(&events, Viewer::Seat(1)),
        [
            "you hit: 3♣",
            "you bust with T♠ 3♣ = 13 and take 2 penalty points.",
            "you get a new face-down base card and go on.",
        ]
    );
    let events = act(&mut s, 1, Action::Hit);
    let seen = lines(&events, Viewer::Seat(0));
    assert_eq!(seen, ["seat 2 hits: Q♦"]);
    assert!(
        !seen.concat().contains("K♦"),
        "the new base card stays hidden"
    );
}

#[test]
fn an_instant_win_and_the_pot_are_announced() {
    // Seat index 1 ("seat 2") makes 10½ with T♠ K♦; the dealer stands alone on 9♥ and
    // takes 2 + 2.
    let mut s = game(2, 0, "Ts 9h Kd");
    let events = act(&mut s, 1, Action::Hit);
    assert_eq!(
        lines(&events, Viewer::Seat(0)),
        [
            "seat 2 hits: K♦",
            "seat 2 wins at once with 10½ (T♠ K♦) and leaves the round; the pot grows by 2.",
        ]
    );
    let events = act(&mut s, 0, Action::Stand);
    let seen = lines(&events, Viewer::Seat(0));
    assert_eq!(seen[0], "you stand");
    assert_eq!(
        seen[1],
        "Round 1: you take the pot of 4 (2, plus 2 for 1 player who won at once): alone in \
         the showdown with 9♥ = 9."
    );
    assert!(
        seen[2].starts_with("Round 2: a face-down base card to each seat"),
        "{seen:?}"
    );
}

#[test]
fn the_showdown_says_who_stood_at_what() {
    // Seat indices: 1 stands on T♠, 2 on 8♦, the dealer (0) on 9♥: 2 pays 2. People read
    // them as seats 2, 3 and 1.
    let mut s = game(3, 0, "Ts 8d 9h");
    act(&mut s, 1, Action::Stand);
    act(&mut s, 2, Action::Stand);
    let events = act(&mut s, 0, Action::Stand);
    let seen = lines(&events, Viewer::Seat(1));
    assert_eq!(
        seen[1],
        "Round 1: seat 3 takes the pot of 2 with the lowest hand. Stood: seat 3 8♦ = 8; \
         seat 1 9♥ = 9; you T♠ = 10."
    );
}

#[test]
fn outcome_speaks_of_penalty_points() {
    let o = Outcome {
        scores: vec![-6, -8, -4],
        won: vec![false, false, true],
        roles: vec!["dealer".into(), "player".into(), "player".into()],
    };
    assert_eq!(
        TenHalf::outcome_text(&o, Viewer::Seat(0)),
        "You took 6 penalty points; seat 3 took the fewest, 4."
    );
    assert_eq!(
        TenHalf::outcome_text(&o, Viewer::Seat(2)),
        "You took 4 penalty points, the fewest at the table: you win."
    );
    let tie = Outcome {
        scores: vec![-2, -2, -6],
        won: vec![true, true, false],
        roles: o.roles.clone(),
    };
    assert_eq!(
        TenHalf::outcome_text(&tie, Viewer::Seat(1)),
        "You took 2 penalty points, the fewest at the table, shared with seat 1."
    );
    let even = Outcome {
        scores: vec![0, 0],
        won: vec![false, false],
        roles: vec!["dealer".into(), "player".into()],
    };
    assert_eq!(
        TenHalf::outcome_text(&even, Viewer::Seat(1)),
        "Everyone took 0 penalty points: nobody did better."
    );
}

/// A whole game through the registry, as the terminal plays it: every accepted action
/// gives at least one log line, and no line shows an internal name or JSON.
#[test]
fn every_action_of_a_game_reads_as_words() {
    let entry = registry::entry::<TenHalf>();
    for players in [2, 5, 8] {
        let mut table = entry
            .new_table(&game::TableSetup::new(
                "t",
                Value::Null,
                players,
                Seed::from_u64(players as u64),
            ))
            .unwrap();
        for s in 0..players {
            table
                .set_bot(s, "counting", &Seed::from_u64(s as u64))
                .unwrap();
        }
        while let ToAct::Seat(s) = table.to_act() {
            let applied = table.bot_move(s).unwrap();
            let seen: Vec<String> = applied
                .events
                .iter()
                .filter_map(|e| entry.event_text(e, Viewer::Seat(0)))
                .collect();
            assert!(!seen.is_empty(), "no line for {:?}", applied.events);
            for l in &seen {
                assert!(!l.contains('_') && !l.contains('{'), "{l}");
            }
        }
    }
}
