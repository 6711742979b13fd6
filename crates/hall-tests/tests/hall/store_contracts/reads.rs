//! The contracts of what is read of finished games: a player's history and record at
//! each game, ratings and the leaderboard.

use super::fixture::{self, computer, deal, finish, member, outcome, person, rated, sitting, Db};
use server::rating::Rating;
use server::store::{GameStats, GameSummary, HistoryCursor, SeatPlayer};

/// A history lists a player's games newest first (ties by id), at most `limit`; games at
/// private tables only when asked; and pages on exactly from a cursor, even with games
/// started between the pages. Each game says the seat, the score once finished, and who
/// played each seat.
pub async fn history_pages_newest_first_with_private_on_request(db: &Db) {
    let (hana, ivan) = (member(db, "hana").await, member(db, "ivan").await);
    let (h, i, c) = (person(&hana), person(&ivan), computer());
    // (id, seats, started, private, the scores once finished)
    let games = [
        ("h-a", [h.clone(), i.clone()], 1000, false, Some([1, -1])),
        ("h-b", [c.clone(), h.clone()], 2000, false, None),
        ("h-c", [h.clone(), c.clone()], 2000, true, Some([-1, 1])),
        ("h-d", [i.clone(), h.clone()], 2000, false, Some([1, -1])),
        ("h-e", [i.clone(), c.clone()], 3000, false, None),
        ("h-f", [h, i], 1500, true, None),
    ];
    for (n, (id, seats, started, private, scores)) in games.into_iter().enumerate() {
        let mut dealt = deal("gomoku", id, "hist-t", seats.to_vec(), 20 + n as u64);
        dealt.stored.private = private;
        db.start_game(&fixture::held(db, &dealt.stored.table).await, &dealt.stored)
            .await
            .expect("dealt");
        if let Some(scores) = scores {
            let won = [scores[0] > 0, scores[1] > 0];
            finish(db, &dealt, &hana, outcome(&scores, &won)).await;
        }
        // The store sets when a game starts; the contract is about their order.
        db.sql(&format!(
            "UPDATE games SET started_at = {started} WHERE id = '{id}'"
        ))
        .await;
    }
    let ids = |page: &[GameSummary]| -> Vec<String> { page.iter().map(|g| g.id.clone()).collect() };
    let public = db
        .history(hana.id, 10, false, None)
        .await
        .expect("a history");
    assert_eq!(ids(&public), ["h-d", "h-b", "h-a"]);
    let own = db
        .history(hana.id, 10, true, None)
        .await
        .expect("a history");
    assert_eq!(ids(&own), ["h-d", "h-c", "h-b", "h-f", "h-a"]);
    let theirs = db
        .history(ivan.id, 10, false, None)
        .await
        .expect("a history");
    assert_eq!(ids(&theirs), ["h-e", "h-d", "h-a"]);

    let a = &own[4];
    assert_eq!((a.game.as_str(), a.seat, a.score), ("gomoku", 0, Some(1)));
    assert_eq!((a.started_at, a.private), (1000, false));
    assert!(a.finished_at.is_some());
    let b = &own[2];
    assert_eq!((b.seat, b.score, b.finished_at), (1, None, None));
    let me = |seat| SeatPlayer {
        seat,
        user: Some(hana.clone()),
        bot: None,
    };
    let bot = SeatPlayer {
        seat: 0,
        user: None,
        bot: Some("random".into()),
    };
    assert_eq!(b.players, [bot, me(1)]);
    assert!(own[1].private && own[1].score == Some(-1));
    assert_eq!(own[0].players[0].user, Some(ivan.clone()));

    let first = db.history(hana.id, 2, true, None).await.expect("a page");
    assert_eq!(ids(&first), ["h-d", "h-c"]);
    let cursor = HistoryCursor::after(&first[1]);
    assert_eq!(
        HistoryCursor::parse(&cursor.to_string()),
        Some(cursor.clone())
    );
    let newer = deal(
        "gomoku",
        "h-new",
        "hist-t",
        vec![person(&hana), computer()],
        30,
    );
    db.start_game(&fixture::held(db, &newer.stored.table).await, &newer.stored)
        .await
        .expect("dealt");
    let second = db
        .history(hana.id, 2, true, Some(&cursor))
        .await
        .expect("a page");
    assert_eq!(ids(&second), ["h-b", "h-f"]);
    let cursor = HistoryCursor::after(&second[1]);
    let third = db
        .history(hana.id, 2, true, Some(&cursor))
        .await
        .expect("a page");
    assert_eq!(ids(&third), ["h-a"]);
    let cursor = HistoryCursor::after(&third[0]);
    assert!(db
        .history(hana.id, 2, true, Some(&cursor))
        .await
        .expect("a page")
        .is_empty());
    let public = db
        .history(hana.id, 1, false, Some(&cursor))
        .await
        .expect("a page");
    assert!(public.is_empty());
    let latest = db.history(hana.id, 1, false, None).await.expect("a page");
    assert_eq!(ids(&latest), ["h-new"]);
}

/// A player's record at each game counts their finished games (private ones only when
/// asked), those on the winning side (none where no game had a winning side), and the
/// points, in the games' order of id.
pub async fn stats_count_finished_games_by_game(db: &Db) {
    let (kim, lee) = (member(db, "kim").await, member(db, "lee").await);
    let nobody = member(db, "nobody").await;
    // Each seat's score, and the seats on the winning side (none: a draw).
    let end = |scores: &[i64], winners: &[usize]| {
        let won: Vec<bool> = (0..scores.len()).map(|s| winners.contains(&s)).collect();
        Some(outcome(scores, &won))
    };
    // (id, game, who sat where: a letter a seat, Kim, Lee or a computer; the outcome once
    // finished; at a private table)
    let games = [
        ("s-1", "gomoku", "kl", end(&[1, -1], &[0]), false),
        ("s-2", "gomoku", "kl", end(&[-1, 1], &[1]), false),
        ("s-3", "gomoku", "lk", end(&[-1, 1], &[1]), true),
        ("s-4", "gomoku", "kl", None, false),
        ("s-5", "tenhalf", "kl", end(&[0, 0], &[]), false),
        ("s-6", "tenhalf", "lk", end(&[2, -2], &[]), false),
        ("s-7", "doudizhu", "lck", end(&[4, -2, -2], &[0]), false),
    ];
    for (n, (id, game, seats, end, private)) in games.into_iter().enumerate() {
        let seats = seats
            .chars()
            .map(|who| match who {
                'k' => person(&kim),
                'l' => person(&lee),
                _ => computer(),
            })
            .collect();
        let mut dealt = deal(game, id, "stats-t", seats, 40 + n as u64);
        dealt.stored.private = private;
        db.start_game(&fixture::held(db, &dealt.stored.table).await, &dealt.stored)
            .await
            .expect("dealt");
        if let Some(end) = end {
            finish(db, &dealt, &kim, end).await;
        }
    }
    let stats = |game: &str, played, won, net| GameStats {
        game: game.into(),
        played,
        won,
        net,
    };
    let public = db.stats(kim.id, false).await.expect("the stats");
    let expected = [
        stats("doudizhu", 1, Some(0), -2),
        stats("gomoku", 2, Some(1), 0),
        stats("tenhalf", 2, None, -2),
    ];
    assert_eq!(public, expected);
    let own = db.stats(kim.id, true).await.expect("the stats");
    assert_eq!(own[1], stats("gomoku", 3, Some(2), 1));
    let theirs = db.stats(lee.id, false).await.expect("the stats");
    let expected = [
        stats("doudizhu", 1, Some(1), 4),
        stats("gomoku", 2, Some(1), 0),
        stats("tenhalf", 2, None, 2),
    ];
    assert_eq!(theirs, expected);
    assert!(db
        .stats(nobody.id, true)
        .await
        .expect("the stats")
        .is_empty());
}

/// A rating starts at the default and is what the last finished game stored. The
/// leaderboard lists settled ratings first, best first, then provisional ones (a
/// deviation above 110), best first, `limit` at most, for one game.
pub async fn ratings_default_update_and_rank_settled_first(db: &Db) {
    let mut players = Vec::new();
    for name in ["ada", "bob", "cy", "di", "ed"] {
        players.push(member(db, name).await);
    }
    let [ada, bob, cy, di, ed] = &players[..] else {
        unreachable!("five players")
    };
    assert_eq!(
        db.rating(ada.id, "gomoku").await.expect("a rating"),
        Rating::default()
    );
    assert!(db
        .leaderboard("gomoku", 10)
        .await
        .expect("a board")
        .is_empty());
    let dealt = deal("gomoku", "r-1", "r-t", vec![person(ada), person(bob)], 50);
    db.start_game(&fixture::held(db, &dealt.stored.table).await, &dealt.stored)
        .await
        .expect("dealt");
    let ratings = [
        rated(ada, "gomoku", 1700.0, 100.0),
        rated(bob, "gomoku", 1600.0, 110.0),
        rated(cy, "gomoku", 1900.0, 200.0),
        rated(di, "gomoku", 1550.0, 110.5),
        rated(ed, "tenhalf", 2000.0, 50.0),
    ];
    let end = dealt.ended_as(outcome(&[1, -1], &[true, false]));
    let at = fixture::table("r-t", "gomoku", ada, vec![sitting(ada), sitting(bob)]);
    db.finish_game(&fixture::held(db, &at.id).await, &end, &at, &ratings)
        .await
        .expect("the end");
    assert_eq!(
        db.rating(ada.id, "gomoku").await.expect("a rating"),
        ratings[0].rating
    );
    assert_eq!(
        db.rating(ed.id, "gomoku").await.expect("a rating"),
        Rating::default()
    );
    assert_eq!(
        db.rating(ed.id, "tenhalf").await.expect("a rating"),
        ratings[4].rating
    );
    let board = db.leaderboard("gomoku", 10).await.expect("a board");
    let expected: Vec<_> = ratings[..4]
        .iter()
        .zip(["ada", "bob", "cy", "di"])
        .map(|(r, name)| (name.to_string(), r.rating))
        .collect();
    assert_eq!(board, expected);
    let top = db.leaderboard("gomoku", 3).await.expect("a board");
    assert_eq!(top, expected[..3]);

    let dealt = deal("gomoku", "r-2", "r-t", vec![person(ada), person(bob)], 51);
    db.start_game(&fixture::held(db, &dealt.stored.table).await, &dealt.stored)
        .await
        .expect("dealt");
    let end = dealt.ended_as(outcome(&[-1, 1], &[false, true]));
    let fall = [rated(ada, "gomoku", 1400.0, 90.0)];
    db.finish_game(&fixture::held(db, &at.id).await, &end, &at, &fall)
        .await
        .expect("the end");
    assert_eq!(
        db.rating(ada.id, "gomoku").await.expect("a rating"),
        fall[0].rating
    );
    let board = db.leaderboard("gomoku", 10).await.expect("a board");
    let names: Vec<&str> = board.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["bob", "ada", "cy", "di"]);
}

/// A history and a leaderboard hold at most `limit` entries, whatever its size: a limit
/// beyond every count (`usize::MAX`) lists them all.
pub async fn a_limit_beyond_every_count_lists_them_all(db: &Db) {
    let (una, vic) = (member(db, "una").await, member(db, "vic").await);
    let dealt = deal("gomoku", "l-1", "l-t", vec![person(&una), person(&vic)], 60);
    db.start_game(&fixture::held(db, &dealt.stored.table).await, &dealt.stored)
        .await
        .expect("dealt");
    let end = dealt.ended_as(outcome(&[1, -1], &[true, false]));
    let at = fixture::table("l-t", "gomoku", &una, Vec::new());
    let ratings = [rated(&una, "gomoku", 1520.0, 300.0)];
    db.finish_game(&fixture::held(db, &at.id).await, &end, &at, &ratings)
        .await
        .expect("the end");
    let history = db.history(una.id, usize::MAX, true, None).await;
    assert_eq!(history.expect("a history").len(), 1);
    let board = db.leaderboard("gomoku", usize::MAX).await;
    assert_eq!(board.expect("a board").len(), 1);
}
