//! The contract of a player's record against computers, and of the rated mark of the games
//! in a history.

use super::fixture::{self, deal, finish, member, outcome, person, Db};
use server::store::ComputerRecord;

/// A player's record against computers counts their finished games with a computer at the
/// table, by game and by the computer's bot: won (the player's seat on the winning side),
/// lost (another side won) or drawn (nobody won). A game with two computers of one bot
/// counts once; games without computers, unfinished games and (unless asked) games at
/// private tables do not count. Each game of a history says whether it was rated.
pub async fn computer_record_counts_games_by_bot_and_histories_say_rated(db: &Db) {
    let (mia, ned) = (member(db, "mia").await, member(db, "ned").await);
    let bot = |name: &str| (None, Some(name.to_string()));
    let end = |scores: &[i64], winners: &[usize]| {
        let won: Vec<bool> = (0..scores.len()).map(|s| winners.contains(&s)).collect();
        Some(outcome(scores, &won))
    };
    // (id, game, seats, the outcome once finished, private, rated)
    let games = [
        (
            "c-1",
            "gomoku",
            vec![person(&mia), bot("engine:L1")],
            end(&[1, -1], &[0]),
            false,
            false,
        ),
        (
            "c-2",
            "gomoku",
            vec![bot("engine:L1"), person(&mia)],
            end(&[1, -1], &[0]),
            false,
            false,
        ),
        (
            "c-3",
            "gomoku",
            vec![person(&mia), bot("engine:L1")],
            end(&[0, 0], &[]),
            false,
            false,
        ),
        (
            "c-4",
            "gomoku",
            vec![person(&mia), bot("engine:L5")],
            end(&[1, -1], &[0]),
            false,
            false,
        ),
        (
            "c-5",
            "gomoku",
            vec![person(&mia), bot("engine:L5")],
            None,
            false,
            false,
        ),
        (
            "c-6",
            "gomoku",
            vec![person(&mia), bot("engine:L5")],
            end(&[1, -1], &[0]),
            true,
            false,
        ),
        (
            "c-7",
            "gomoku",
            vec![person(&mia), person(&ned)],
            end(&[1, -1], &[0]),
            false,
            true,
        ),
        (
            "c-8",
            "doudizhu",
            vec![person(&mia), bot("search:strong"), bot("search:strong")],
            end(&[-4, 2, 2], &[1, 2]),
            false,
            false,
        ),
    ];
    for (n, (id, game, seats, end, private, rated)) in games.into_iter().enumerate() {
        let mut dealt = deal(game, id, "c-t", seats, 70 + n as u64);
        dealt.stored.private = private;
        dealt.stored.rated = rated;
        db.start_game(&fixture::held(db, &dealt.stored.table).await, &dealt.stored)
            .await
            .expect("dealt");
        if let Some(end) = end {
            finish(db, &dealt, &mia, end).await;
        }
    }
    let row = |game: &str, bot: &str, played, won, lost, drawn| ComputerRecord {
        game: game.into(),
        bot: bot.into(),
        played,
        won,
        lost,
        drawn,
    };
    let public = db.computer_record(mia.id, false).await.expect("the record");
    assert_eq!(
        public,
        [
            row("doudizhu", "search:strong", 1, 0, 1, 0),
            row("gomoku", "engine:L1", 3, 1, 1, 1),
            row("gomoku", "engine:L5", 1, 1, 0, 0),
        ]
    );
    let own = db.computer_record(mia.id, true).await.expect("the record");
    assert_eq!(own[2], row("gomoku", "engine:L5", 2, 2, 0, 0));
    assert!(db
        .computer_record(ned.id, true)
        .await
        .expect("the record")
        .is_empty());
    let history = db.history(mia.id, 20, true, None).await.expect("a history");
    let rated: Vec<(&str, bool)> = history.iter().map(|g| (g.id.as_str(), g.rated)).collect();
    assert!(rated.contains(&("c-7", true)), "{rated:?}");
    assert!(rated.contains(&("c-1", false)), "{rated:?}");
}
