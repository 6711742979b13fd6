//! The contracts of table leases and their fencing: one node holds a table at a time, each
//! claim makes a new epoch, and a write that carries an epoch no longer current is refused
//! whole, alone, with nothing of it stored.

use super::fixture::{self, bot_seat, computer, deal, member, person, sitting, Db, Dealt, TTL};
use serde_json::json;
use server::store::{unix_millis, Claim, Fence, Lease, StoreError};

/// The lease's length in the contracts, in milliseconds.
const TTL_MS: i64 = TTL.as_millis() as i64;

fn held_by(result: Result<Lease, StoreError>) -> Lease {
    result.expect("the table is claimed")
}

pub fn is_fenced<T: std::fmt::Debug>(result: Result<T, StoreError>, epoch: u64, current: u64) {
    match result {
        Err(StoreError::Fenced {
            epoch: e,
            current: c,
            ..
        }) => assert_eq!((e, c), (epoch, Some(current))),
        other => panic!("not fenced at epoch {epoch} (now {current}): {other:?}"),
    }
}

/// A fresh table's first claim is epoch 1; another node's claim is refused while that
/// lease is live and gets the next epoch once it has run out; the node whose lease was
/// taken can neither renew nor release it; renewing keeps the epoch and moves the expiry;
/// a node that claims again what it holds (a process restarted under the same node id)
/// gets a new epoch; a takeover claims a live lease; a released lease is free at once and
/// its epoch goes on from where it was.
pub async fn a_table_is_held_by_one_node_and_each_claim_is_a_new_epoch(db: &Db) {
    let now = unix_millis();
    let a = held_by(
        db.claim_table("lease-t", "node-a", TTL, now, Claim::IfFree)
            .await,
    );
    assert_eq!((a.epoch, a.node.as_str()), (1, "node-a"));
    assert_eq!(a.expires_at, now + TTL_MS);

    let refused = db
        .claim_table("lease-t", "node-b", TTL, now + TTL_MS - 1, Claim::IfFree)
        .await;
    match refused {
        Err(StoreError::LeaseHeld {
            node, expires_at, ..
        }) => assert_eq!((node.as_str(), expires_at), ("node-a", a.expires_at)),
        other => panic!("a live lease was claimed: {other:?}"),
    }

    let later = now + TTL_MS;
    let b = held_by(
        db.claim_table("lease-t", "node-b", TTL, later, Claim::IfFree)
            .await,
    );
    assert_eq!((b.epoch, b.node.as_str()), (2, "node-b"));
    is_fenced(db.renew_lease(&a, TTL, later).await, 1, 2);
    is_fenced(db.release_table(&a).await, 1, 2);
    let error = db.renew_lease(&a, TTL, later).await.expect_err("fenced");
    assert_eq!(
        error.to_string(),
        "table lease-t: fenced: epoch 1 is no longer current (now 2)"
    );

    let renewed = db
        .renew_lease(&b, TTL, later + 5)
        .await
        .expect("the holder renews");
    assert_eq!((renewed.epoch, renewed.expires_at), (2, later + 5 + TTL_MS));
    // Renewed, the lease is live past its first expiry.
    assert!(matches!(
        db.claim_table("lease-t", "node-a", TTL, b.expires_at, Claim::IfFree)
            .await,
        Err(StoreError::LeaseHeld { .. })
    ));

    let again = held_by(
        db.claim_table("lease-t", "node-b", TTL, later + 10, Claim::IfFree)
            .await,
    );
    assert_eq!(again.epoch, 3, "a claim again by its holder is a new epoch");
    is_fenced(db.renew_lease(&renewed, TTL, later + 10).await, 2, 3);

    let taken = held_by(
        db.claim_table("lease-t", "node-a", TTL, later + 10, Claim::Takeover)
            .await,
    );
    assert_eq!(taken.epoch, 4);
    db.release_table(&taken).await.expect("released");
    let next = held_by(
        db.claim_table("lease-t", "node-b", TTL, later + 11, Claim::IfFree)
            .await,
    );
    assert_eq!(next.epoch, 5, "epochs go on after a release");

    let other = held_by(
        db.claim_table("lease-u", "node-b", TTL, later, Claim::IfFree)
            .await,
    );
    assert_eq!(other.epoch, 1, "each table has its own epochs");
}

/// Appends `dealt`'s next move with `fence`, as a table does.
pub async fn append_next(db: &Db, dealt: &mut Dealt, fence: &Fence) -> Result<(), StoreError> {
    let seat = match dealt.table.to_act() {
        game::ToAct::Seat(seat) => seat,
        other => panic!("one seat to act, not {other:?}"),
    };
    let applied = dealt.table.bot_move(seat).expect("a move");
    db.append_action(
        fence,
        &dealt.stored.id,
        dealt.table.actions() - 1,
        applied.seat,
        &applied.public,
        None,
    )
    .await
}

/// Once another node has claimed a table, every write for it that carries the old epoch
/// — a move, a game's end, a deal, the table's state, its close — is refused as fenced and
/// stores nothing; the new holder's writes pass.
pub async fn a_stale_epoch_writes_nothing_and_the_holders_writes_pass(db: &Db) {
    let ivy = member(db, "ivy").await;
    let now = unix_millis();
    let a = held_by(
        db.claim_table("fence-t", "node-a", TTL, now, Claim::IfFree)
            .await,
    )
    .fence();
    let table = fixture::table("fence-t", "gomoku", &ivy, vec![sitting(&ivy)]);
    db.save_table(&a, &table).await.expect("the holder saves");
    let mut dealt = deal(
        "gomoku",
        "fence-1",
        "fence-t",
        vec![person(&ivy), computer()],
        3,
    );
    db.start_game(&a, &dealt.stored)
        .await
        .expect("the holder deals");
    for _ in 0..2 {
        append_next(db, &mut dealt, &a)
            .await
            .expect("the holder's move");
    }

    let b = held_by(
        db.claim_table("fence-t", "node-b", TTL, now + TTL_MS, Claim::IfFree)
            .await,
    )
    .fence();
    assert_eq!(b.epoch, 2);
    // Any move: the store refuses it for its epoch before it reads it.
    let stale = json!({"at": [7, 7]});
    is_fenced(
        db.append_action(&a, "fence-1", 2, 0, &stale, None).await,
        1,
        2,
    );
    let mut moved = table.clone();
    moved.games = 7;
    is_fenced(db.save_table(&a, &moved).await, 1, 2);
    is_fenced(db.close_table(&a).await, 1, 2);
    let next = deal(
        "gomoku",
        "fence-2",
        "fence-t",
        vec![person(&ivy), computer()],
        4,
    );
    is_fenced(db.start_game(&a, &next.stored).await, 1, 2);
    let end = dealt.ended_as(fixture::outcome(&[1, -1], &[true, false]));
    is_fenced(db.finish_game(&a, &end, &moved, &[]).await, 1, 2);

    let read = db
        .unfinished_game("fence-t")
        .await
        .expect("a read")
        .expect("the game runs on");
    assert_eq!(read.journal.id, "fence-1");
    assert_eq!(read.journal.actions.len(), 2, "no stale move stored");
    assert_eq!(
        db.open_tables().await.expect("the open tables"),
        vec![table.clone()],
        "neither the stale state nor the close stored"
    );
    assert!(db
        .finished_record("fence-1")
        .await
        .expect("a read")
        .is_none());

    append_next(db, &mut dealt, &b)
        .await
        .expect("the new holder's move");
    db.save_table(&b, &moved)
        .await
        .expect("the new holder saves");
    let read = db
        .unfinished_game("fence-t")
        .await
        .expect("a read")
        .expect("the game");
    assert_eq!(read.journal.actions.len(), 3);
}

/// A fenced write fails alone: the writes made beside it (the SQLite store commits the
/// writes waiting together) are stored.
pub async fn a_fenced_write_fails_alone(db: &Db) {
    let ivy = member(db, "ivy").await;
    let now = unix_millis();
    let mut games = Vec::new();
    let mut fences = Vec::new();
    for (i, table) in ["alone-a", "alone-b"].into_iter().enumerate() {
        let fence = held_by(
            db.claim_table(table, "node-a", TTL, now, Claim::IfFree)
                .await,
        )
        .fence();
        let dealt = deal(
            "gomoku",
            &format!("{table}-1"),
            table,
            vec![person(&ivy), computer()],
            i as u64,
        );
        db.start_game(&fence, &dealt.stored).await.expect("dealt");
        games.push(dealt);
        fences.push(fence);
    }
    let b = held_by(
        db.claim_table("alone-a", "node-b", TTL, now + TTL_MS, Claim::IfFree)
            .await,
    );
    let (first, second) = games.split_at_mut(1);
    let (fenced, beside, made) = tokio::join!(
        append_next(db, &mut first[0], &fences[0]),
        append_next(db, &mut second[0], &fences[1]),
        db.create_user("beside", None, true),
    );
    is_fenced(fenced, 1, b.epoch);
    beside.expect("the other table's move, stored beside it");
    made.expect("an account made beside it");
    let read = |id: &'static str| async move {
        db.unfinished_game(id)
            .await
            .expect("a read")
            .expect("a game")
            .journal
            .actions
            .len()
    };
    assert_eq!(read("alone-a").await, 0);
    assert_eq!(read("alone-b").await, 1);
}

/// The tables a node may claim ([`server::store::Store::free_tables`]), what a starting
/// node restores and every node's takeover looks for: the open ones whose lease ran out,
/// was let go, or is the node's own, each with its last holder; not another node's live
/// lease, not a closed table. Claiming one of them takes it: it is no longer free to
/// another node.
pub async fn free_tables_are_the_open_ones_a_node_may_claim(db: &Db) {
    let host = member(db, "freddie").await;
    let now = unix_millis();
    let before = now - TTL_MS - 1;
    let claim = |table: &'static str, node: &'static str, at: i64| async move {
        held_by(db.claim_table(table, node, TTL, at, Claim::IfFree).await)
    };
    let mut leases = Vec::new();
    for (table, node, at) in [
        ("free-ran-out", "node-a", before),
        ("free-live", "node-b", now),
        ("free-own", "node-c", now),
        ("free-let-go", "node-b", now),
        ("free-closed", "node-a", before),
    ] {
        let lease = claim(table, node, at).await;
        let stored = fixture::table(table, "gomoku", &host, vec![sitting(&host), bot_seat()]);
        db.save_table(&lease.fence(), &stored).await.expect("saved");
        leases.push((lease, stored));
    }
    db.release_table(&leases[3].0).await.expect("let go");
    db.close_table(&leases[4].0.fence()).await.expect("closed");

    let mut free = db
        .free_tables("node-c", now)
        .await
        .expect("the free tables");
    free.sort_by(|a, b| a.table.id.cmp(&b.table.id));
    let seen: Vec<(&str, Option<(&str, i64)>)> = free
        .iter()
        .map(|f| {
            let holder = f.holder.as_ref().map(|(n, at)| (n.as_str(), *at));
            (f.table.id.as_str(), holder)
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("free-let-go", Some(("node-b", 0))),
            ("free-own", Some(("node-c", now + TTL_MS))),
            ("free-ran-out", Some(("node-a", before + TTL_MS))),
        ]
    );
    assert_eq!(free[2].table, leases[0].1, "the table as stored");

    let taken = claim("free-ran-out", "node-d", now).await;
    assert_eq!(taken.epoch, 2);
    let left: Vec<String> = db
        .free_tables("node-e", now)
        .await
        .expect("the free tables")
        .into_iter()
        .map(|f| f.table.id)
        .collect();
    assert_eq!(
        left,
        ["free-let-go"],
        "a table taken over is no longer free"
    );
}
