//! Changing an account through the real server: a new password ends every other session,
//! a deleted account releases its name while its games stay, and a guest who registers is
//! named anew where it sits.

use crate::common::Connection;
use crate::common::{
    create_table, enter, get, guest, quick_game, refused, send, until, TestServer, WAIT,
};
use server::protocol::request;
use server::protocol::{ClientMessage, ServerMessage, TableOptions};
use std::time::Duration;

/// Sends a password change and returns the server's answer: the count of sessions ended,
/// or the refusal's code.
async fn change_password(c: &mut Connection, password: &str, new: &str) -> Result<u64, String> {
    c.send(&ClientMessage::ChangePassword {
        password: password.into(),
        new_password: new.into(),
    })
    .await
    .expect("sent");
    loop {
        match c.recv_within(WAIT).await.expect("an answer") {
            ServerMessage::PasswordChanged { sessions_ended } => return Ok(sessions_ended),
            ServerMessage::Error { code, .. } => return Err(code.to_string()),
            _ => continue,
        }
    }
}

/// A password change needs the current password, ends every other session of the account
/// (the one that asked goes on), makes the old password useless and the new one work; a
/// guest has none to change, and wrong guesses are limited as failed logins are.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_password_change_ends_every_other_session() {
    let server = TestServer::fresh("password").await;
    let open = |token: Option<String>| {
        let addr = server.addr.clone();
        async move {
            Connection::open(&addr, token.as_deref())
                .await
                .expect("connects")
        }
    };
    let (mut c, _, _) = open(None).await;
    let (first, _) = c
        .session(ClientMessage::Register {
            name: "erin".into(),
            password: "first password".into(),
        })
        .await
        .expect("registered");
    c.close().await;
    let login = |password: &str| ClientMessage::Login {
        name: "erin".into(),
        password: password.into(),
    };
    let (mut c, _, _) = open(None).await;
    let (second, _) = c.session(login("first password")).await.expect("logged in");
    c.close().await;
    let (mut c, _, _) = open(None).await;
    let (third, _) = c.session(login("first password")).await.expect("logged in");
    assert_eq!(
        change_password(&mut c, "not my password", "second password").await,
        Err("wrong_password".into())
    );
    assert_eq!(
        change_password(&mut c, "first password", "short").await,
        Err("bad_password".into())
    );
    assert_eq!(
        change_password(&mut c, "first password", "second password").await,
        Ok(2),
        "the two other sessions end"
    );
    // The asking connection goes on.
    c.send(&ClientMessage::Ping).await.expect("sent");
    while !matches!(
        c.recv_within(WAIT).await.expect("an answer"),
        ServerMessage::Pong
    ) {}
    c.close().await;
    for (token, live) in [(first, false), (second, false), (third, true)] {
        let (c, user, _) = open(Some(token)).await;
        assert_eq!(user.is_some(), live, "a session is live only if it asked");
        c.close().await;
    }
    let (mut d, _, _) = open(None).await;
    assert_eq!(
        refused(d.session(login("first password")).await),
        "wrong_password"
    );
    let (_, erin) = d
        .session(login("second password"))
        .await
        .expect("logged in");
    assert_eq!(erin.name, "erin");
    // Wrong current passwords count as failed logins: after the fifth failure of the
    // name from this address (none since the login), even the right one is refused for
    // a while.
    for _ in 0..5 {
        assert_eq!(
            change_password(&mut d, "a guess", "third password").await,
            Err("wrong_password".into())
        );
    }
    assert_eq!(
        change_password(&mut d, "second password", "third password").await,
        Err("rate_limited".into())
    );
    let (mut g, _) = guest(&server.addr).await;
    assert_eq!(
        change_password(&mut g, "anything", "a new password").await,
        Err("guest".into())
    );
    let (mut nobody, _, _) = open(None).await;
    assert_eq!(
        change_password(&mut nobody, "anything", "a new password").await,
        Err("not_logged_in".into())
    );
    server.stop().await;
}

/// Asks to delete the session's account: `Ok` once deleted, or the refusal's code.
async fn delete_account(c: &mut Connection, password: &str) -> Result<(), String> {
    c.send(&ClientMessage::DeleteAccount {
        password: password.into(),
    })
    .await
    .expect("sent");
    loop {
        match c.recv_within(WAIT).await.expect("an answer") {
            ServerMessage::AccountDeleted => return Ok(()),
            ServerMessage::Error { code, .. } => return Err(code.to_string()),
            _ => continue,
        }
    }
}

/// A player deletes their account: refused while seated and with a wrong password; then
/// the name is free, the password and the session dead, the ratings gone, and the games
/// stay under `deleted-<id>`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_deletes_their_account_and_their_games_stay_under_another_name() {
    let server = TestServer::fresh("delete-account").await;
    let (mut c, _, _) = Connection::open(&server.addr, None)
        .await
        .expect("connects");
    let fay = ClientMessage::Register {
        name: "fay".into(),
        password: "fay's password".into(),
    };
    let (token, user) = c.session(fay.clone()).await.expect("registered");
    let record = quick_game(&mut c, "gomoku", "random").await;
    // A settled rating, as many rated games would have left it.
    let rating = format!(
        "INSERT INTO ratings (user_id, game, rating, deviation, volatility, games) \
         VALUES ({}, 'gomoku', 1600, 80, 0.06, 20)",
        user.id
    );
    crate::common::execute_sql(&server, &[&rating]).await;
    let (_, board) = get(&server.addr, "/api/leaderboard/gomoku").await;
    assert!(board.contains("\"fay\""), "{board}");
    assert_eq!(
        delete_account(&mut c, "fay's password").await,
        Err("seated".into())
    );
    let (table, _) = record
        .id
        .rsplit_once('-')
        .expect("a game id names its table");
    send(
        &mut c,
        ClientMessage::Leave(request::Leave {
            table: table.into(),
        }),
    )
    .await;
    // Once the table has let her go, a wrong password is what is refused.
    loop {
        match delete_account(&mut c, "not her password").await {
            Err(code) if code == "seated" => tokio::time::sleep(Duration::from_millis(50)).await,
            other => {
                assert_eq!(other, Err("wrong_password".into()));
                break;
            }
        }
    }
    assert_eq!(delete_account(&mut c, "fay's password").await, Ok(()));
    // The connection has no session now.
    assert_eq!(
        delete_account(&mut c, "fay's password").await,
        Err("not_logged_in".into())
    );
    let (_, resumed, _) = Connection::open(&server.addr, Some(&token))
        .await
        .expect("connects");
    assert_eq!(resumed, None, "the session ended");
    let (status, _) = get(&server.addr, "/api/users/fay/games").await;
    assert_eq!(status, 404, "the name is gone");
    let (status, body) = get(
        &server.addr,
        &format!("/api/users/deleted-{}/games", user.id),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(&record.id), "the game stays: {body}");
    let (_, board) = get(&server.addr, "/api/leaderboard/gomoku").await;
    assert_eq!(board, "[]", "her rating went with her");
    // The name is anyone's again; nobody can take a deleted account's.
    let (mut d, _, _) = Connection::open(&server.addr, None)
        .await
        .expect("connects");
    let (_, new_fay) = d.session(fay).await.expect("the name is free");
    assert_ne!(new_fay.id, user.id);
    let taken = ClientMessage::Register {
        name: format!("deleted-{}", user.id),
        password: "a password".into(),
    };
    assert_eq!(refused(d.session(taken).await), "bad_name");
    let (mut g, _) = guest(&server.addr).await;
    assert_eq!(
        delete_account(&mut g, "anything").await,
        Err("guest".into())
    );
    server.stop().await;
}

/// The table's description in a `table` or `seats` message about `table`.
fn info_of<'a>(m: &'a ServerMessage, table: &str) -> Option<&'a server::protocol::TableInfo> {
    match m {
        ServerMessage::Table { table: t, info, .. }
        | ServerMessage::Seats { table: t, info, .. }
            if t == table =>
        {
            Some(info)
        }
        _ => None,
    }
}

/// A guest who registers keeps its account under the new name, but the seat it held, the
/// table it hosted and the lobby's line of that table kept "guest-…": a table stores each
/// seat's person as it was when they sat down. They take the new name at once, and keep
/// it when the player comes back on a new connection.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guest_who_registers_is_named_anew_at_its_seats_and_in_the_lobby() {
    let server = TestServer::fresh("renamed").await;
    let (mut a, _) = guest(&server.addr).await;
    let (table, mut seen) = create_table(&mut a, "gomoku", TableOptions::default()).await;
    let (mut lobby, _) = guest(&server.addr).await;
    send(&mut lobby, ClientMessage::Lobby { game: None }).await;
    while !matches!(
        lobby.recv_within(WAIT).await.expect("the lobby"),
        ServerMessage::Lobby { .. }
    ) {}
    let (token, user) = a
        .session(ClientMessage::Register {
            name: "nina".into(),
            password: "nina's password".into(),
        })
        .await
        .expect("registered");
    assert_eq!(user.name, "nina");
    let named = |info: &server::protocol::TableInfo| {
        info.host == "nina" && info.seats[0].user.as_ref() == Some(&user)
    };
    // The player's own table says so, and so does the lobby.
    until(&mut a, &table, &mut seen, |m| {
        info_of(m, &table).is_some_and(named)
    })
    .await;
    loop {
        if let ServerMessage::LobbyTable { table: t } =
            lobby.recv_within(WAIT).await.expect("the lobby's news")
        {
            if t.id == table && named(&t) {
                break;
            }
        }
    }
    // Back on a new connection: the same table, under the same name.
    a.close().await;
    let (mut back, _, seated) = Connection::open(&server.addr, Some(&token))
        .await
        .expect("back");
    assert_eq!(seated, vec![table.clone()]);
    let resume = ClientMessage::Resume(request::Resume {
        table: table.clone(),
        last_seq: u64::MAX,
        invite: None,
    });
    let (snapshot, _) = enter(&mut back, &table, resume).await;
    let info = info_of(&snapshot, &table).expect("the table");
    assert!(named(info), "{info:?}");
    server.stop().await;
}

/// A player who logs in to another account follows the tables as that account from then
/// on: the table where the page sat as a guest sends it afresh, seen as the account logged
/// in sees it (here a spectator's), not from the guest's seat; and the table where the
/// account sits follows the connection at once, seat and all, without a reconnect.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_follows_the_tables_as_the_account_logged_in() {
    let server = TestServer::fresh("login-follows").await;
    let (mut other, _) = guest(&server.addr).await;
    other
        .session(ClientMessage::Register {
            name: "olga".into(),
            password: "olga's password".into(),
        })
        .await
        .expect("registered");
    let (olgas, _) = create_table(&mut other, "gomoku", TableOptions::default()).await;
    other.close().await;
    let (mut a, _) = guest(&server.addr).await;
    let (table, _) = create_table(&mut a, "gomoku", TableOptions::default()).await;
    let (_, olga) = a
        .session(ClientMessage::Login {
            name: "olga".into(),
            password: "olga's password".into(),
        })
        .await
        .expect("logged in");
    let (mut here, mut hers) = (None, None);
    while here.is_none() || hers.is_none() {
        if let ServerMessage::Table {
            table: t,
            you,
            info,
            ..
        } = a.recv_within(WAIT).await.expect("the tables afresh")
        {
            if t == table {
                here = Some((you, info));
            } else if t == olgas {
                hers = Some(you);
            }
        }
    }
    let (you, info) = here.expect("the guest's table");
    assert_eq!(you, None, "olga holds no seat here");
    let guest_seat = info.seats[0]
        .user
        .as_ref()
        .expect("the guest's seat is kept");
    assert_ne!(guest_seat.id, olga.id);
    assert!(
        !info.seats[0].connected,
        "nobody follows the guest's seat now"
    );
    assert_eq!(hers, Some(Some(0)), "olga's own table, from her seat");
    server.stop().await;
}
