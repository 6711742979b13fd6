//! The contracts of accounts and sessions: names, guests, sessions, bans, deletion,
//! passwords, and the guests the housekeeping forgets.

use super::fixture::{self, bot_seat, computer, deal, guest, member, person, sitting, Db, DAY};
use server::protocol::UserInfo;
use server::rating::Rating;
use server::store::{unix_now, StoreError, StoreResult};

/// Whether a write was refused because the name is another account's.
fn taken<T>(result: &StoreResult<T>) -> bool {
    matches!(result, Err(StoreError::NameTaken { .. }))
}

/// A name is one name whatever its case or width, for guests and members alike, and a
/// typed name finds its account in any of those forms.
pub async fn names_are_unique_by_key(db: &Db) {
    let mia = db
        .create_user("Mia", Some("hash"), false)
        .await
        .expect("made");
    assert_eq!((mia.name.as_str(), mia.guest), ("Mia", false));
    for other in ["mia", "MIA", "ｍｉａ", "Ｍｉａ"] {
        assert!(
            taken(&db.create_user(other, Some("h"), false).await),
            "{other}"
        );
        assert!(
            taken(&db.create_user(other, None, true).await),
            "guest {other}"
        );
    }
    member(db, "Élise").await;
    assert!(taken(&db.create_user("ÉLISE", None, false).await));
    // "e" is not "é": another name.
    member(db, "Elise").await;
    for typed in ["Mia", "mia", "ＭＩＡ"] {
        let found = db.user_by_name(typed).await.expect("a lookup");
        let found = found.expect("the account of a typed name");
        assert_eq!(found.info, mia, "{typed}");
        assert_eq!(found.password_hash.as_deref(), Some("hash"));
        assert_eq!(found.banned, None);
    }
    assert!(db.user_by_name("nobody").await.expect("a lookup").is_none());
}

/// Registering a guest names it and gives it a password; it keeps its id, its games and
/// its sessions, and its old name is free. A taken name is refused and changes nothing;
/// an account that is no guest is not registered again.
pub async fn registered_guests_keep_their_history(db: &Db) {
    let g = guest(db, "guest-17").await;
    let host = member(db, "host").await;
    db.create_session(g.id, "guest-token", unix_now() + DAY)
        .await
        .expect("a session");
    let dealt = deal("gomoku", "reg-1", "reg-t", vec![person(&g), computer()], 1);
    db.start_game(&fixture::held(db, &dealt.stored.table).await, &dealt.stored)
        .await
        .expect("dealt");

    assert!(taken(&db.register_guest(g.id, "HOST", "h").await));
    let still = db.user_by_name("guest-17").await.expect("a lookup");
    assert_eq!(still.map(|u| u.info), Some(g.clone()));

    let nora = db
        .register_guest(g.id, "Nora", "secret")
        .await
        .expect("registered");
    let expected = UserInfo {
        id: g.id,
        name: "Nora".into(),
        guest: false,
    };
    assert_eq!(nora, expected);
    let found = db
        .user_by_name("NORA")
        .await
        .expect("a lookup")
        .expect("Nora");
    assert_eq!(found.info, nora);
    assert_eq!(found.password_hash.as_deref(), Some("secret"));
    assert!(db
        .user_by_name("guest-17")
        .await
        .expect("a lookup")
        .is_none());
    guest(db, "guest-17").await;
    let session = db.session_user("guest-token", unix_now()).await;
    assert_eq!(session.expect("a lookup"), Some(nora.clone()));
    let history = db
        .history(nora.id, 10, true, None)
        .await
        .expect("a history");
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].id, "reg-1");
    assert_eq!(history[0].players[0].user, Some(nora.clone()));
    let players = db.game_players("reg-1").await.expect("the players");
    assert_eq!(players[0].user, Some(nora.clone()));

    assert!(db.register_guest(nora.id, "Nina", "h").await.is_err());
    assert!(db.register_guest(host.id, "Nina", "h").await.is_err());
    assert!(db.user_by_name("Nina").await.expect("a lookup").is_none());
}

/// A session lives until its expiry (not at it), ends when revoked, and a token is
/// stored once: a second session with its hash is `Exists` and changes nothing.
pub async fn sessions_expire_and_are_revoked(db: &Db) {
    let sam = member(db, "sam").await;
    let now = unix_now();
    for token in ["live", "other"] {
        db.create_session(sam.id, token, now + 60)
            .await
            .expect("a session");
    }
    let user = |token: &'static str, at: i64| async move {
        db.session_user(token, at).await.expect("a lookup")
    };
    assert_eq!(user("live", now).await, Some(sam.clone()));
    assert_eq!(user("live", now + 59).await, Some(sam.clone()));
    assert_eq!(user("live", now + 60).await, None, "expired at its time");
    assert_eq!(user("unknown", now).await, None);

    db.revoke_session("live").await.expect("revoked");
    assert_eq!(user("live", now).await, None);
    assert_eq!(user("other", now).await, Some(sam.clone()));
    db.revoke_session("never-made")
        .await
        .expect("nothing to end");

    let again = db.create_session(sam.id, "other", now + 600).await;
    assert!(matches!(again, Err(StoreError::Exists { .. })), "{again:?}");
    assert_eq!(user("other", now + 100).await, None, "the first stays");
}

/// A ban ends every live session of the account (and says how many), not another's; the
/// bans list the latest first; lifting one lets the account in again (its ended sessions
/// stay ended).
pub async fn bans_end_sessions_and_list_latest_first(db: &Db) {
    let (ann, ben) = (member(db, "ann").await, member(db, "ben").await);
    let far = unix_now() + DAY;
    for (user, token) in [
        (&ann, "ann-1"),
        (&ann, "ann-2"),
        (&ann, "ann-0"),
        (&ben, "ben-1"),
    ] {
        db.create_session(user.id, token, far)
            .await
            .expect("a session");
    }
    db.revoke_session("ann-0").await.expect("revoked");
    assert_eq!(
        db.set_banned(ann.id, Some("spam")).await.expect("banned"),
        2
    );
    let now = unix_now();
    for token in ["ann-1", "ann-2"] {
        assert_eq!(db.session_user(token, now).await.expect("a lookup"), None);
    }
    let ben_in = db.session_user("ben-1", now).await.expect("a lookup");
    assert_eq!(ben_in, Some(ben.clone()));
    let stored = db
        .user_by_name("ANN")
        .await
        .expect("a lookup")
        .expect("ann");
    assert_eq!(stored.banned.as_deref(), Some("spam"));

    // Ann's ban an hour older than Ben's, made now.
    db.sql("UPDATE users SET banned_at = banned_at - 3600 WHERE name = 'ann'")
        .await;
    let before = unix_now();
    assert_eq!(
        db.set_banned(ben.id, Some("abuse")).await.expect("banned"),
        1
    );
    let bans = db.bans().await.expect("the bans");
    let listed: Vec<(&str, &str)> = bans
        .iter()
        .map(|b| (b.user.as_str(), b.reason.as_str()))
        .collect();
    assert_eq!(listed, [("ben", "abuse"), ("ann", "spam")]);
    assert!((before..=unix_now()).contains(&bans[0].since), "{bans:?}");
    assert!(bans[1].since < bans[0].since, "{bans:?}");

    assert_eq!(db.set_banned(ann.id, None).await.expect("lifted"), 0);
    let bans = db.bans().await.expect("the bans");
    assert_eq!(
        bans.iter().map(|b| b.user.as_str()).collect::<Vec<_>>(),
        ["ben"]
    );
    let stored = db
        .user_by_name("ann")
        .await
        .expect("a lookup")
        .expect("ann");
    assert_eq!(stored.banned, None);
    db.create_session(ann.id, "ann-3", far)
        .await
        .expect("a session");
    let now = unix_now();
    assert_eq!(
        db.session_user("ann-3", now).await.expect("a lookup"),
        Some(ann)
    );
    assert_eq!(db.session_user("ann-1", now).await.expect("a lookup"), None);
    assert!(db.set_banned(i64::MAX, Some("nobody")).await.is_err());
}

/// Deleting an account renames it `deleted-<id>`, frees its name, drops its password and
/// ratings and ends its sessions; its games and seats stay, under the new name. Only a
/// registered account is deleted.
pub async fn delete_account_frees_the_name_and_ends_sessions(db: &Db) {
    let dora = member(db, "Dora").await;
    let g = guest(db, "guest-3").await;
    for token in ["dora-1", "dora-2"] {
        db.create_session(dora.id, token, unix_now() + DAY)
            .await
            .expect("a session");
    }
    let dealt = deal(
        "gomoku",
        "del-1",
        "del-t",
        vec![person(&dora), person(&g)],
        2,
    );
    db.start_game(&fixture::held(db, &dealt.stored.table).await, &dealt.stored)
        .await
        .expect("dealt");
    let end = dealt.ended_as(fixture::outcome(&[1, -1], &[true, false]));
    let at = fixture::table("del-t", "gomoku", &dora, vec![sitting(&dora), sitting(&g)]);
    let rating = fixture::rated(&dora, "gomoku", 1620.0, 90.0);
    db.finish_game(&fixture::held(db, &at.id).await, &end, &at, &[rating])
        .await
        .expect("the end");
    assert_eq!(
        db.leaderboard("gomoku", 10).await.expect("a board").len(),
        1
    );

    let gone = db.delete_account(dora.id).await.expect("deleted");
    let expected = UserInfo {
        id: dora.id,
        name: format!("deleted-{}", dora.id),
        guest: false,
    };
    assert_eq!(gone, expected);
    let now = unix_now();
    for token in ["dora-1", "dora-2"] {
        assert_eq!(db.session_user(token, now).await.expect("a lookup"), None);
    }
    assert!(db.user_by_name("dora").await.expect("a lookup").is_none());
    let renamed = db.user_by_name(&gone.name).await.expect("a lookup");
    let renamed = renamed.expect("the deleted account");
    assert_eq!(renamed.info, gone);
    assert_eq!(renamed.password_hash, None);
    assert_eq!(
        db.rating(dora.id, "gomoku").await.expect("a rating"),
        Rating::default()
    );
    assert!(db
        .leaderboard("gomoku", 10)
        .await
        .expect("a board")
        .is_empty());
    let history = db
        .history(dora.id, 10, true, None)
        .await
        .expect("a history");
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].players[0].user, Some(gone.clone()));
    let players = db.game_players("del-1").await.expect("the players");
    assert_eq!(players[0].user, Some(gone.clone()));
    assert!(db.finished_record("del-1").await.expect("a read").is_some());
    let again = member(db, "DORA").await;
    assert_ne!(again.id, dora.id);

    assert!(db.delete_account(g.id).await.is_err(), "a guest");
    assert!(db
        .user_by_name("guest-3")
        .await
        .expect("a lookup")
        .is_some());
    assert!(db.delete_account(i64::MAX).await.is_err(), "no account");
}

/// A new password ends every live session of the account but the one kept (`""` keeps
/// none), and says how many; a guest has no password to set.
pub async fn set_password_ends_other_sessions(db: &Db) {
    let (pat, quinn) = (member(db, "pat").await, member(db, "quinn").await);
    let far = unix_now() + DAY;
    for (user, token) in [
        (&pat, "keep"),
        (&pat, "a"),
        (&pat, "b"),
        (&pat, "r"),
        (&quinn, "q"),
    ] {
        db.create_session(user.id, token, far)
            .await
            .expect("a session");
    }
    db.revoke_session("r").await.expect("revoked");
    assert_eq!(
        db.set_password(pat.id, "new", "keep").await.expect("set"),
        2
    );
    let now = unix_now();
    let live = |token: &'static str| async move {
        db.session_user(token, now)
            .await
            .expect("a lookup")
            .is_some()
    };
    assert!(live("keep").await && live("q").await);
    assert!(!live("a").await && !live("b").await);
    let stored = db
        .user_by_name("pat")
        .await
        .expect("a lookup")
        .expect("pat");
    assert_eq!(stored.password_hash.as_deref(), Some("new"));
    assert_eq!(db.set_password(pat.id, "newer", "").await.expect("set"), 1);
    assert!(!live("keep").await);

    let g = guest(db, "guest-5").await;
    assert!(db.set_password(g.id, "h", "").await.is_err(), "a guest");
    assert!(
        db.set_password(i64::MAX, "h", "").await.is_err(),
        "no account"
    );
}

/// The housekeeping forgets exactly the guests made a day or more before `now` with no
/// game played, no session live at `now` and no seat at an open table; members, and
/// guests that fail any one of those, stay. It says how many went.
pub async fn forget_idle_guests_exactly_per_its_doc(db: &Db) {
    let made = unix_now();
    let mut guests = Vec::new();
    for name in [
        "idle", "ended", "revoked", "live", "played", "seated", "left",
    ] {
        guests.push(guest(db, &format!("g-{name}")).await);
    }
    member(db, "member").await;
    let now = unix_now() + DAY;
    let [_, ended, revoked, live, played, seated, left] = &guests[..] else {
        unreachable!("seven guests")
    };
    db.create_session(ended.id, "ended", now)
        .await
        .expect("a session");
    db.create_session(revoked.id, "revoked", now + DAY)
        .await
        .expect("a session");
    db.revoke_session("revoked").await.expect("revoked");
    db.create_session(live.id, "live", now + 1)
        .await
        .expect("a session");
    assert!(db
        .session_user("ended", now)
        .await
        .expect("a lookup")
        .is_none());
    assert!(db
        .session_user("live", now)
        .await
        .expect("a lookup")
        .is_some());
    let dealt = deal(
        "gomoku",
        "fg-1",
        "fg-t",
        vec![person(played), computer()],
        3,
    );
    db.start_game(&fixture::held(db, &dealt.stored.table).await, &dealt.stored)
        .await
        .expect("dealt");
    let open = fixture::table(
        "fg-open",
        "gomoku",
        seated,
        vec![sitting(seated), bot_seat()],
    );
    db.save_table(&fixture::held(db, &open.id).await, &open)
        .await
        .expect("saved");
    let closed = fixture::table("fg-closed", "gomoku", left, vec![sitting(left)]);
    db.save_table(&fixture::held(db, &closed.id).await, &closed)
        .await
        .expect("saved");
    db.close_table(&fixture::held(db, "fg-closed").await)
        .await
        .expect("closed");

    assert_eq!(
        db.forget_idle_guests(made + DAY - 1).await.expect("forgot"),
        0,
        "none is a day old yet"
    );
    assert_eq!(db.forget_idle_guests(now).await.expect("forgot"), 4);
    for (g, stays) in guests
        .iter()
        .zip([false, false, false, true, true, true, false])
    {
        let found = db.user_by_name(&g.name).await.expect("a lookup");
        assert_eq!(
            found.map(|u| u.info.id),
            stays.then_some(g.id),
            "{}",
            g.name
        );
    }
    assert!(db.user_by_name("member").await.expect("a lookup").is_some());
    assert!(db
        .session_user("live", now)
        .await
        .expect("a lookup")
        .is_some());
    assert_eq!(db.forget_idle_guests(now).await.expect("forgot"), 0);
}
