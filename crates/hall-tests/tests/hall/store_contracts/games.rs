//! The contracts of tables and games: tables saved and closed; games dealt, played,
//! resumed and finished, with their records and players; how refused and repeated writes
//! come back; and a store closed for the next one.

use super::fixture::{
    self, bot_seat, computer, deal, member, person, rated, sitting, Db, Dealt, DAY,
};
use game::{VerifyOptions, Viewer};
use serde_json::json;
use server::rating::Rating;
use server::store::{unix_now, LastGame, SeatPlayer, StoreError, StoredTable, Unfinished};
use std::time::{Duration, Instant};

/// A saved table is open until closed: saved again, it keeps one row, its latest state.
pub async fn tables_are_saved_closed_and_listed_while_open(db: &Db) {
    let host = member(db, "host").await;
    let mut first = fixture::table("tbl-1", "doudizhu", &host, vec![sitting(&host), bot_seat()]);
    first.invite = Some("c0de".into());
    first.options.private = true;
    let second = fixture::table("tbl-2", "gomoku", &host, vec![sitting(&host), bot_seat()]);
    db.save_table(&fixture::held(db, &first.id).await, &first)
        .await
        .expect("saved");
    db.save_table(&fixture::held(db, &second.id).await, &second)
        .await
        .expect("saved");
    let listed = |mut tables: Vec<StoredTable>| {
        tables.sort_by(|a, b| a.id.cmp(&b.id));
        tables
    };
    let tables = db.open_tables().await.expect("the open tables");
    assert_eq!(listed(tables), [first.clone(), second.clone()]);

    first.seats[1] = sitting(&member(db, "newcomer").await);
    first.games = 2;
    first.totals = vec![3, -3];
    first.next_config = json!({"rule": "renju"});
    first.quick = true;
    first.epoch = 3;
    first.last_game = Some(LastGame {
        id: "g-9".into(),
        seq: (3 << 32) + 17,
    });
    db.save_table(&fixture::held(db, &first.id).await, &first)
        .await
        .expect("saved again");
    let tables = db.open_tables().await.expect("the open tables");
    assert_eq!(listed(tables), [first, second.clone()]);

    db.close_table(&fixture::held(db, "tbl-1").await)
        .await
        .expect("closed");
    assert_eq!(db.open_tables().await.expect("the open tables"), [second]);
    db.close_table(&fixture::held(db, "never-opened").await)
        .await
        .expect("nothing to close");
}

/// A dealt game and each action appended are stored when their futures resolve: the
/// table's unfinished game reads back as its journal (sealed private forms, no seed) and
/// its seed, and the game resumes from them where it was. A running game has no finished
/// record; its players are listed in seat order.
pub async fn dealt_games_are_durable_and_resume(db: &Db) {
    let (amy, bo) = (member(db, "amy").await, fixture::guest(db, "guest-8").await);
    let seats = vec![
        person(&amy),
        computer(),
        person(&bo),
        computer(),
        computer(),
    ];
    let mut dealt = deal("doudizhu5", "dur-1", "dur-t", seats, 11);
    db.start_game(&fixture::held(db, &dealt.stored.table).await, &dealt.stored)
        .await
        .expect("dealt");
    let read = resumes_as_played(db, "dur-t", &dealt).await;
    assert_eq!(read.seed, dealt.stored.seed);

    dealt.play(&**db, 30).await;
    assert!(dealt.table.outcome().is_none(), "still running");
    let read = resumes_as_played(db, "dur-t", &dealt).await;
    assert!(read.journal.seed.is_none() && read.journal.outcome.is_none());
    let sealed = read.journal.actions.iter().filter(|a| a.sealed.is_some());
    assert_eq!(sealed.count(), 1, "the landlord's secret, sealed");
    let games = games::registry();
    let rules = games.get("doudizhu5").expect("the game");
    let resumed = rules.resume(&read.journal, read.seed).expect("resumed");
    assert_eq!(resumed.actions(), dealt.table.actions());
    assert_eq!(resumed.to_act(), dealt.table.to_act());
    for seat in 0..5 {
        let (a, b) = (
            resumed.view(Viewer::Seat(seat)),
            dealt.table.view(Viewer::Seat(seat)),
        );
        assert_eq!(a.expect("a view"), b.expect("a view"), "seat {seat}");
    }

    assert!(db.finished_record("dur-1").await.expect("a read").is_none());
    assert!(db
        .finished_record("no-such-game")
        .await
        .expect("a read")
        .is_none());
    assert!(db
        .unfinished_game("other-table")
        .await
        .expect("a read")
        .is_none());
    let players = db.game_players("dur-1").await.expect("the players");
    let bot = |seat| SeatPlayer {
        seat,
        user: None,
        bot: Some("random".into()),
    };
    let seated = |seat, user: &server::protocol::UserInfo| SeatPlayer {
        seat,
        user: Some(user.clone()),
        bot: None,
    };
    assert_eq!(
        players,
        [seated(0, &amy), bot(1), seated(2, &bo), bot(3), bot(4)]
    );
    assert!(db
        .game_players("no-such-game")
        .await
        .expect("a read")
        .is_empty());
}

/// A row stored already is `Exists`, and the first stands: an append or a deal made again
/// meets its first attempt. The PostgreSQL store tries a write again after `Unavailable`,
/// not knowing whether the first attempt committed, and counts an `Exists` then as done:
/// so the variant, not just an error, is the contract.
pub async fn a_repeated_insert_is_exists_and_the_first_stands(db: &Db) {
    let ivy = member(db, "ivy").await;
    let mut dealt = deal(
        "gomoku",
        "rep-1",
        "rep-t",
        vec![person(&ivy), computer()],
        4,
    );
    db.start_game(&fixture::held(db, &dealt.stored.table).await, &dealt.stored)
        .await
        .expect("dealt");
    dealt.play(&**db, 2).await;
    let again = db
        .start_game(&fixture::held(db, &dealt.stored.table).await, &dealt.stored)
        .await;
    assert!(matches!(again, Err(StoreError::Exists { .. })), "{again:?}");
    let first = dealt.table.journal().actions[1].clone();
    let fence = fixture::held(db, "rep-t").await;
    let again = db
        .append_action(&fence, "rep-1", 1, first.seat, &first.action, None)
        .await;
    assert!(matches!(again, Err(StoreError::Exists { .. })), "{again:?}");
    let other = db
        .append_action(&fence, "rep-1", 1, 0, &json!({"at": [7, 7]}), None)
        .await;
    assert!(matches!(other, Err(StoreError::Exists { .. })), "{other:?}");

    resumes_as_played(db, "rep-t", &dealt).await;
}

/// A write refused for its own rows fails alone, with its own error, and the writes made
/// beside it are stored: the SQLite store commits the writes waiting together, one
/// transaction for many callers, which must not make one caller's refusal another's
/// (`tokio::join!` queues these before its writer takes any, so they share a commit).
/// The refusals are a name taken, a row stored already, and a session of an account or
/// an action of a game that does not exist.
pub async fn a_refused_write_fails_alone(db: &Db) {
    let ivy = member(db, "ivy").await;
    let mut dealt = deal(
        "gomoku",
        "alone-1",
        "alone-t",
        vec![person(&ivy), computer()],
        8,
    );
    db.start_game(&fixture::held(db, &dealt.stored.table).await, &dealt.stored)
        .await
        .expect("dealt");
    dealt.play(&**db, 1).await;
    let first = dealt.table.journal().actions[0].clone();
    let next = dealt.table.bot_move(1).expect("a move");
    let fence = fixture::held(db, "alone-t").await;
    let (taken, exists, made, appended) = tokio::join!(
        db.create_user("IVY", None, false),
        db.append_action(&fence, "alone-1", 0, first.seat, &first.action, None),
        db.create_user("beside-1", None, true),
        db.append_action(&fence, "alone-1", 1, next.seat, &next.public, None),
    );
    assert!(
        matches!(taken, Err(StoreError::NameTaken { .. })),
        "{taken:?}"
    );
    assert!(
        matches!(exists, Err(StoreError::Exists { .. })),
        "{exists:?}"
    );
    made.expect("a guest made beside them");
    appended.expect("an action stored beside them");

    let one = json!(1);
    let (no_account, no_game, made) = tokio::join!(
        db.create_session(i64::MAX, "nobody's", unix_now() + DAY),
        db.append_action(&fence, "no-such-game", 0, 0, &one, None),
        db.create_user("beside-2", None, true),
    );
    assert!(no_account.is_err(), "a session of no account");
    assert!(no_game.is_err(), "an action of no game");
    made.expect("a guest made beside writes of no account and no game");
    resumes_as_played(db, "alone-t", &dealt).await;
}

/// A game's end stores its outcome, the table's new state and the ratings in one
/// transaction: the finished record (seed revealed, sealed forms included) verifies
/// against its commitment, the table has no unfinished game, the ratings and the history
/// show it. An end that cannot be stored whole is not stored at all.
pub async fn finish_game_stores_record_table_and_ratings_together(db: &Db) {
    let (al, bea) = (member(db, "al").await, member(db, "bea").await);
    let seats = vec![sitting(&al), sitting(&bea)];
    let before = fixture::table("fin-t", "tenhalf", &al, seats);
    db.save_table(&fixture::held(db, &before.id).await, &before)
        .await
        .expect("saved");
    let mut dealt = deal(
        "tenhalf",
        "fin-1",
        "fin-t",
        vec![person(&al), person(&bea)],
        5,
    );
    db.start_game(&fixture::held(db, &dealt.stored.table).await, &dealt.stored)
        .await
        .expect("dealt");
    dealt.play_out(&**db).await;
    let record = dealt.table.record();
    assert!(db.finished_record("fin-1").await.expect("a read").is_none());
    let result = record.outcome.clone().expect("an outcome");

    // A rating for an account that does not exist: the whole end is refused.
    let mut after = before.clone();
    after.games = 1;
    after.totals = result.scores.clone();
    after.last_game = Some(LastGame {
        id: "fin-1".into(),
        seq: 42,
    });
    let ghost = server::protocol::UserInfo {
        id: i64::MAX,
        name: "ghost".into(),
        guest: false,
    };
    let ratings = [
        rated(&al, "tenhalf", 1510.0, 340.0),
        rated(&ghost, "tenhalf", 1490.0, 340.0),
    ];
    assert!(db
        .finish_game(
            &fixture::held(db, &after.id).await,
            &record,
            &after,
            &ratings
        )
        .await
        .is_err());
    assert!(db.finished_record("fin-1").await.expect("a read").is_none());
    let unfinished = db.unfinished_game("fin-t").await.expect("a read");
    assert_eq!(unfinished.map(|u| u.journal.id).as_deref(), Some("fin-1"));
    assert_eq!(db.open_tables().await.expect("the tables"), [before]);
    assert_eq!(
        db.rating(al.id, "tenhalf").await.expect("a rating"),
        Rating::default()
    );

    let ratings = [
        rated(&al, "tenhalf", 1510.0, 340.0),
        rated(&bea, "tenhalf", 1490.0, 340.0),
    ];
    db.finish_game(
        &fixture::held(db, &after.id).await,
        &record,
        &after,
        &ratings,
    )
    .await
    .expect("the end");
    let stored = db
        .finished_record("fin-1")
        .await
        .expect("a read")
        .expect("finished");
    assert_eq!(stored, record);
    assert_eq!(stored.seed, Some(dealt.stored.seed), "the seed revealed");
    let games = games::registry();
    let rules = games.get("tenhalf").expect("the game");
    let verdict = rules.verify(&stored, &VerifyOptions::default());
    assert_eq!(verdict.expect("the record verifies").outcome, result);
    assert!(db.unfinished_game("fin-t").await.expect("a read").is_none());
    assert_eq!(db.open_tables().await.expect("the tables"), [after]);
    assert_eq!(
        db.rating(al.id, "tenhalf").await.expect("a rating"),
        ratings[0].rating
    );
    assert_eq!(
        db.rating(bea.id, "tenhalf").await.expect("a rating"),
        ratings[1].rating
    );
    let history = db
        .history(bea.id, 10, false, None)
        .await
        .expect("a history");
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].score, Some(result.scores[1]));
    let finished_at = history[0].finished_at.expect("finished");
    assert!(finished_at >= history[0].started_at);
}

/// Closing a store lets the next one (a hall restarted in the same process) open the
/// same data at once, and finds there everything written before: the accounts, the
/// unfinished game to resume, which goes on in the new store.
pub async fn close_lets_the_next_store_open_at_once(db: &Db) {
    let wes = member(db, "wes").await;
    let mut dealt = deal(
        "doudizhu",
        "cl-1",
        "cl-t",
        vec![person(&wes), computer(), computer()],
        70,
    );
    db.start_game(&fixture::held(db, &dealt.stored.table).await, &dealt.stored)
        .await
        .expect("dealt");
    dealt.play(&**db, 3).await;
    db.close().await;
    let reopening = Instant::now();
    let again = db.open_again().await;
    assert!(
        reopening.elapsed() < Duration::from_secs(5),
        "{:?}",
        reopening.elapsed()
    );
    let found = again.user_by_name("WES").await.expect("a lookup");
    assert_eq!(found.map(|u| u.info), Some(wes));
    let read = again
        .unfinished_game("cl-t")
        .await
        .expect("a read")
        .expect("a game");
    assert_eq!(read.journal, dealt.table.journal());
    dealt.play(&*again, 2).await;
    let read = again
        .unfinished_game("cl-t")
        .await
        .expect("a read")
        .expect("a game");
    assert_eq!(read.journal.actions.len(), 5);
    again.close().await;
}

/// The unfinished game stored for `table` reads back as `dealt` has played it; returns it.
async fn resumes_as_played(db: &Db, table: &str, dealt: &Dealt) -> Unfinished {
    let read = db
        .unfinished_game(table)
        .await
        .expect("a read")
        .expect("a game");
    assert_eq!(read.journal, dealt.table.journal());
    read
}
