//! The contracts of group commit: writes that arrive together share a commit, and one
//! refused among them fails alone. Both stores group-commit (SQLite with one writer,
//! PostgreSQL with a few, each taking the writes of its tables); `tokio::join!` and
//! `join_all` queue their writes before any writer takes one, on the tests' one thread.

use super::fixture::{self, computer, deal, member, person, sitting, Db, TTL};
use super::leases::{append_next, is_fenced};
use futures_util::future::join_all;
use server::store::{unix_millis, Claim};

/// The tables and the rounds of moves of [`writes_that_arrive_together_commit_together`].
const TABLES: usize = 24;
const ROUNDS: usize = 3;

/// Many tables that each make a move at once (as tables under load do) share commits:
/// at most half as many commits as writes, the store's `commit_batch` metric says; and
/// every move is stored, in its game, in order.
pub async fn writes_that_arrive_together_commit_together(db: &Db) {
    let ivy = member(db, "ivy").await;
    let mut games = Vec::new();
    let mut fences = Vec::new();
    for i in 0..TABLES {
        let table = format!("together-{i}");
        let fence = fixture::held(db, &table).await;
        let dealt = deal(
            "gomoku",
            &format!("{table}-1"),
            &table,
            vec![person(&ivy), computer()],
            i as u64,
        );
        db.start_game(&fence, &dealt.stored).await.expect("dealt");
        games.push(dealt);
        fences.push(fence);
    }
    let (commits, writes) = db.commits();
    for _ in 0..ROUNDS {
        let moves = games
            .iter_mut()
            .zip(&fences)
            .map(|(dealt, fence)| append_next(db, dealt, fence));
        for stored in join_all(moves).await {
            stored.expect("a move stored");
        }
    }
    let (commits, writes) = (db.commits().0 - commits, db.commits().1 - writes);
    assert_eq!(writes, (TABLES * ROUNDS) as u64, "every move counted once");
    assert!(
        commits * 2 <= writes,
        "{writes} writes took {commits} commits: they did not share them"
    );
    for dealt in &games {
        let stored = db
            .unfinished_game(&dealt.stored.table)
            .await
            .expect("a read")
            .expect("the game");
        assert_eq!(stored.journal.actions, dealt.table.journal().actions);
    }
}

/// A write refused for its fence, in a commit shared with writes that pass, fails alone:
/// the stale node's moves and table state are refused and store nothing, the new
/// holder's made beside them in the same commit are stored. One commit takes all four
/// (they are of one table, so one writer's).
pub async fn a_fenced_write_fails_alone_in_a_shared_commit(db: &Db) {
    let ivy = member(db, "ivy").await;
    let now = unix_millis();
    let claim = |node: &'static str, at: i64| async move {
        db.claim_table("shared-t", node, TTL, at, Claim::IfFree)
            .await
            .expect("the table is claimed")
            .fence()
    };
    let stale = claim("node-a", now).await;
    // The same game twice: the stale node's idea of it and the new holder's.
    let game = || {
        deal(
            "gomoku",
            "shared-1",
            "shared-t",
            vec![person(&ivy), computer()],
            5,
        )
    };
    let (mut theirs, mut ours) = (game(), game());
    db.start_game(&stale, &theirs.stored).await.expect("dealt");
    let current = claim("node-b", now + TTL.as_millis() as i64).await;
    let table = fixture::table("shared-t", "gomoku", &ivy, vec![sitting(&ivy)]);
    let mut moved = table.clone();
    moved.games = 7;

    let (commits, writes) = db.commits();
    let (stale_move, stale_table, first, saved) = tokio::join!(
        append_next(db, &mut theirs, &stale),
        db.save_table(&stale, &moved),
        append_next(db, &mut ours, &current),
        db.save_table(&current, &table),
    );
    is_fenced(stale_move, 1, 2);
    is_fenced(stale_table, 1, 2);
    first.expect("the holder's move, in the same commit");
    saved.expect("the holder's table, in the same commit");
    assert_eq!(
        (db.commits().0 - commits, db.commits().1 - writes),
        (1, 4),
        "the four writes shared one commit"
    );
    let stored = db
        .unfinished_game("shared-t")
        .await
        .expect("a read")
        .expect("the game");
    assert_eq!(stored.journal.actions, ours.table.journal().actions);
    assert_eq!(
        db.open_tables().await.expect("the open tables"),
        vec![table],
        "the holder's table, not the stale node's"
    );
}
