//! What every game on the list must do through the registry: refuse bad input without a
//! panic, play out with its bots to a record that verifies, and resume from its journal
//! with only its own seed.

use game::{ErasedGame, Seed, Table, TableSetup, ToAct, VerifyOptions, Viewer};
use games::registry;
use serde_json::{json, Value};

fn setup(config: Value, seats: usize, seed: u64) -> TableSetup {
    TableSetup::new("t", config, seats, Seed::from_u64(seed))
}

/// A table of the game's default configuration with its fewest seats, dealt from `seed`.
fn default_table(g: &dyn ErasedGame, seed: u64) -> (usize, Box<dyn Table>) {
    let seats = *g.seats(&Value::Null).expect("default config").start();
    let table = g
        .new_table(&setup(Value::Null, seats, seed))
        .expect("default table");
    (seats, table)
}

/// Bad input is expected: for every game, garbage actions, seats that do not exist and
/// wrong turns are refused with an error and leave the table as it was — never a panic.
#[test]
fn every_game_refuses_bad_input_without_panicking() {
    let garbage = [
        json!(null),
        json!(17),
        json!("fold"),
        json!({"play": "Xz Xz"}),
        json!({"play": 3}),
        json!({"bid": 99}),
        json!([1, 2, 3]),
        json!({"place": [99, 99]}),
        json!({"grab": "RJ RJ RJ RJ"}),
    ];
    for g in registry().games() {
        let (seats, mut table) = default_table(g, 1);
        let before = table.view(Viewer::Spectator).expect("view");
        for seat in [0, 1, seats, 99, usize::MAX] {
            for a in &garbage {
                let _ = table.apply(seat, a);
            }
            let _ = table.apply_text(seat, "Xz Xz Xz");
            let _ = table.apply_text(seat, "");
            let _ = table.view(Viewer::Seat(seat));
            let _ = table.render(Viewer::Seat(seat));
            let _ = table.legal(seat);
            let _ = table.hints(seat);
            assert!(table
                .set_bot(seat, "no such bot", &Seed::from_u64(2))
                .is_err());
            assert!(table.bot_move(seat).is_err() || table.to_act().includes(seat));
        }
        // Only legal actions (if any of the garbage happened to be one) may have landed.
        if table.record().actions.is_empty() {
            assert_eq!(
                table.view(Viewer::Spectator).ok(),
                Some(before),
                "{}",
                g.id()
            );
        }
        for seat in [seats, 99] {
            assert!(
                table.apply_default(seat).is_err(),
                "{}: seat {seat}",
                g.id()
            );
        }
        assert!(g
            .new_table(&setup(json!({"no_such_option": true}), seats, 1))
            .is_err());
        assert!(g.new_table(&setup(Value::Null, 99, 1)).is_err());
        assert_ne!(table.to_act(), ToAct::Seats(game::SeatSet::EMPTY));
    }
}

/// Every game plays to the end through the registry with its default bot (the one a
/// table seats) in the first seat and its quick bot in the others, and its record
/// verifies. The bots' strength has tests of its own in each game's crate.
#[test]
fn every_game_plays_out_with_its_bots_and_verifies() {
    for g in registry().games() {
        let (seats, mut table) = default_table(g, 3);
        for s in 0..seats {
            let bot = if s == 0 {
                g.default_bot()
            } else {
                g.quick_bot()
            };
            table
                .set_bot(s, bot, &Seed::from_u64(s as u64))
                .expect("bot");
        }
        let mut moves = 0;
        while table.to_act() != ToAct::Finished {
            let seat = table.to_act().seats().iter().next().expect("someone acts");
            table.bot_move(seat).expect("bots play legal moves");
            moves += 1;
            assert!(moves < 100_000, "{} does not end", g.id());
        }
        let record = table.record();
        let verdict = g.verify(&record, &VerifyOptions::default());
        assert_eq!(
            verdict.ok().map(|v| v.outcome),
            table.outcome(),
            "{}",
            g.id()
        );
    }
}

/// A server rebuilds any game mid-way from its journal and secret seed — every seat's
/// hidden cards and private choices included — and refuses a seed that is not the one
/// committed to instead of dealing other cards.
#[test]
fn every_game_resumes_from_its_journal_and_only_with_its_seed() {
    for g in registry().games() {
        let seats = *g.seats(&Value::Null).expect("default config").start();
        let viewers: Vec<Viewer> = (0..seats)
            .map(Viewer::Seat)
            .chain([Viewer::Spectator])
            .collect();
        for seed in 0..4 {
            let setup = setup(Value::Null, seats, seed);
            let mut table = g.new_table(&setup).expect("default table");
            for s in 0..seats {
                table
                    .set_bot(s, "random", &Seed::from_u64(s as u64))
                    .expect("bot");
            }
            while let Some(seat) = table.to_act().seats().iter().next() {
                table.bot_move(seat).expect("a legal move");
                if table.actions() % 7 != 3 || table.outcome().is_some() {
                    continue;
                }
                let journal = table.journal();
                assert!(journal.seed.is_none(), "{}", g.id());
                assert!(
                    g.resume(&journal, Seed::from_u64(seed + 100)).is_err(),
                    "{}: a wrong seed is refused",
                    g.id()
                );
                let resumed = g.resume(&journal, setup.seed).expect("resumes");
                assert_eq!(resumed.to_act(), table.to_act(), "{}", g.id());
                for &v in &viewers {
                    assert_eq!(resumed.view(v).ok(), table.view(v).ok(), "{} {v:?}", g.id());
                }
            }
        }
    }
}

/// Every game offers people at least two strengths of computer, each level named once and
/// played by one of the game's own bots, and the bot a table seats when nobody chooses
/// is one of them, so that games against it count at a level.
#[test]
fn every_game_offers_levels_of_its_own_bots() {
    for g in registry().games() {
        let levels = g.levels();
        assert!(levels.len() >= 2, "{}: {levels:?}", g.id());
        for (i, (name, bot)) in levels.iter().enumerate() {
            assert!(g.bot_names().contains(bot), "{}: {bot}", g.id());
            assert!(
                levels[..i].iter().all(|(n, b)| n != name && b != bot),
                "{}: {name} {bot} twice",
                g.id()
            );
        }
        assert!(
            levels.iter().any(|(_, b)| *b == g.default_bot()),
            "{}: the default bot {} has no level",
            g.id(),
            g.default_bot()
        );
    }
}
