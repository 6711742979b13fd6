//! Terminal play and self-play through the registry, as `qipai play tenhalf` and `qipai sim`
//! reach the game.

use game::sim::SimOptions;
use game::{registry, GameError, Seed, ToAct, Viewer};
use serde_json::{json, Value};
use tenhalf::TenHalf;

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
        assert!(screen.contains("seat 0 (you)"), "{screen}");
        assert!(screen.contains("seat 2 (dealer)"), "{screen}");
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
    assert!(screen.contains("Seat 1 to play") || screen.contains("You have"));
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
            .sim(&SimOptions {
                config: Value::Null,
                bots,
                games: 30,
                seed: 1,
                threads: 1,
                rotate: true,
            })
            .unwrap();
        assert_eq!(report.games, 30);
        let seat_games: u64 = report.bots.iter().map(|b| b.overall.games).sum();
        assert_eq!(seat_games, 30 * players as u64);
        assert!(report.bots.iter().all(|b| b.overall.avg_score <= 0.0));
    }
}
