//! Bans through the real server: a moderator the host named bans a player, who is told
//! why and disconnected, whose sessions end, who cannot log in or come back as a guest
//! from the same address, and whom an unban lets back; the moderators review the bans;
//! nobody else may ban or see them, and a moderator cannot be banned.

use crate::common::Connection;
use crate::common::{data_dir, fast_config, http_get, refused, TestServer};
use server::client::ClientError;
use server::protocol::{ClientMessage, ServerMessage};
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(20);

/// Sends `m` and returns the answer: the `moderated` message, or the refusal's code.
async fn ask(c: &mut Connection, m: ClientMessage) -> Result<(String, bool, u64), String> {
    c.send(&m).await.expect("sent");
    loop {
        match c.recv_within(WAIT).await.expect("an answer") {
            ServerMessage::Moderated {
                user,
                banned,
                sessions_ended,
            } => return Ok((user, banned, sessions_ended)),
            ServerMessage::Error { code, .. } => return Err(code.to_string()),
            _ => continue,
        }
    }
}

/// Asks for the bans: the list, or the refusal's code.
async fn bans(c: &mut Connection) -> Result<Vec<(String, String)>, String> {
    c.send(&ClientMessage::Bans).await.expect("sent");
    loop {
        match c.recv_within(WAIT).await.expect("an answer") {
            ServerMessage::Bans { bans } => {
                assert!(bans.iter().all(|b| b.since > 1_700_000_000), "{bans:?}");
                return Ok(bans.into_iter().map(|b| (b.user, b.reason)).collect());
            }
            ServerMessage::Error { code, .. } => return Err(code.to_string()),
            _ => continue,
        }
    }
}

fn ban(user: &str, reason: &str) -> ClientMessage {
    ClientMessage::Ban {
        user: user.into(),
        reason: reason.into(),
    }
}

fn carl_login() -> ClientMessage {
    ClientMessage::Login {
        name: "carl".into(),
        password: "carl's password".into(),
    }
}

/// A connection with a session: `name` registered (or logged in, if `login`).
async fn account(addr: &str, name: &str, login: bool) -> (Connection, String) {
    let (mut c, _, _) = Connection::open(addr, None).await.expect("connects");
    let password = format!("{name}'s password");
    let m = if login {
        ClientMessage::Login {
            name: name.into(),
            password,
        }
    } else {
        ClientMessage::Register {
            name: name.into(),
            password,
        }
    };
    let (token, _) = c.session(m).await.expect("a session");
    (c, token)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_moderator_bans_a_player_who_is_shut_out_until_the_ban_is_lifted() {
    let mut config = fast_config(data_dir("moderation"));
    config.moderators = vec!["Mona".into()];
    let server = TestServer::start(config).await;
    let (mut mona, mona_token) = account(&server.addr, "mona", false).await;
    let (mut carl, carl_token) = account(&server.addr, "carl", false).await;

    // Nobody but a moderator bans, and a moderator is not banned.
    assert_eq!(
        ask(&mut carl, ban("mona", "I do not like her")).await,
        Err("not_moderator".into())
    );
    for (user, reason, code) in [
        ("mona", "testing", "not_allowed"),
        ("nobody", "who?", "no_user"),
        ("carl", " \n ", "bad_reason"),
    ] {
        assert_eq!(ask(&mut mona, ban(user, reason)).await, Err(code.into()));
    }

    assert_eq!(
        ask(&mut mona, ban("carl", "abuse in chat")).await,
        Ok(("carl".into(), true, 1))
    );
    // Carl hears why, then his connection closes.
    let told = loop {
        match carl.recv_within(WAIT).await {
            Ok(ServerMessage::Error { code, message, .. }) if code == "banned" => break message,
            Ok(_) => continue,
            Err(e) => panic!("closed before being told: {e}"),
        }
    };
    assert!(told.contains("abuse in chat"), "{told}");
    loop {
        match carl.recv_within(WAIT).await {
            Ok(_) => continue,
            Err(ClientError::Timeout(_)) => panic!("the banned connection stays open"),
            Err(_) => break,
        }
    }
    // His profile says so; a moderator's request is told it may moderate him, and
    // nobody else's is.
    let profile = |token: Option<String>| {
        let addr = server.addr.clone();
        async move {
            let auth = token.map(|t| format!("Bearer {t}"));
            let headers: Vec<(&str, &str)> =
                auth.iter().map(|a| ("Authorization", a.as_str())).collect();
            let (status, _, body) = http_get(&addr, "/api/users/carl/games", &headers).await;
            assert_eq!(status, 200, "{body}");
            let v: serde_json::Value = serde_json::from_str(&body).expect("json");
            (v["banned"].as_bool(), v["can_moderate"].as_bool())
        }
    };
    assert_eq!(profile(None).await, (Some(true), Some(false)));
    assert_eq!(
        profile(Some(mona_token.clone())).await,
        (Some(true), Some(true))
    );
    // A moderator's own profile says so (the page lists the bans there); nobody else's.
    let moderator = |token: Option<&str>| {
        let addr = server.addr.clone();
        let auth = token.map(|t| format!("Bearer {t}"));
        async move {
            let headers: Vec<(&str, &str)> =
                auth.iter().map(|a| ("Authorization", a.as_str())).collect();
            let (_, _, body) = http_get(&addr, "/api/users/mona/games", &headers).await;
            let v: serde_json::Value = serde_json::from_str(&body).expect("json");
            v["moderator"].as_bool()
        }
    };
    assert_eq!(moderator(Some(&mona_token)).await, Some(true));
    assert_eq!(moderator(None).await, Some(false));
    // His token opens nothing; his password is refused with the reason; his address
    // makes no guest and no new account, which is said as the address's block, not as a
    // ban of whoever asks.
    let (mut c, user, _) = Connection::open(&server.addr, Some(&carl_token))
        .await
        .expect("connects");
    assert_eq!(user, None, "the banned player's session still works");
    assert_eq!(refused(c.session(carl_login()).await), "banned");
    let register = ClientMessage::Register {
        name: "carl2".into(),
        password: "another password".into(),
    };
    for m in [ClientMessage::Guest, register] {
        assert_eq!(refused(c.session(m).await), "address_blocked");
    }
    // Others at the address still log in to the accounts they have.
    let (_mona_again, _) = account(&server.addr, "mona", true).await;

    // The ban survives a restart.
    let dir = server.dir.clone();
    server.stop().await;
    let mut config = fast_config(dir);
    config.moderators = vec!["mona".into()];
    let server = TestServer::start(config).await;
    let (mut c, _, _) = Connection::open(&server.addr, None)
        .await
        .expect("connects");
    assert_eq!(refused(c.session(carl_login()).await), "banned");
    let (mut mona, _) = account(&server.addr, "mona", true).await;
    // The moderators can review the bans; nobody else can.
    assert_eq!(
        bans(&mut mona).await,
        Ok(vec![("carl".into(), "abuse in chat".into())])
    );
    let (mut dora, _) = account(&server.addr, "dora", false).await;
    assert_eq!(bans(&mut dora).await, Err("not_moderator".into()));
    assert_eq!(
        ask(
            &mut mona,
            ClientMessage::Unban {
                user: "carl".into()
            }
        )
        .await,
        Ok(("carl".into(), false, 0))
    );
    assert_eq!(bans(&mut mona).await, Ok(vec![]));
    let (_carl, _) = account(&server.addr, "carl", true).await;
    server.stop().await;
}

/// Deletes the account of the connection's player (`password` theirs).
async fn delete_account(c: &mut Connection, password: &str) {
    c.send(&ClientMessage::DeleteAccount {
        password: password.into(),
    })
    .await
    .expect("sent");
    loop {
        match c.recv_within(WAIT).await.expect("an answer") {
            ServerMessage::AccountDeleted => return,
            ServerMessage::Error { code, message, .. } => panic!("{code}: {message}"),
            _ => continue,
        }
    }
}

/// The host names moderators by name, but the role used to follow the name: whoever
/// registered a moderator's name after the moderator deleted their account could ban. The
/// role is the account's: bound when the hall starts to the account that holds the name
/// (otto), or to the first account seen under a name nobody held (mona); a new account
/// under the freed name, in any case, is nobody special.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_moderators_name_taken_again_after_the_account_is_deleted_grants_nothing() {
    let mut config = fast_config(data_dir("moderator-accounts"));
    config.moderators = vec!["mona".into(), "otto".into()];
    let server = TestServer::start(config.clone()).await;
    let (mut mona, _) = account(&server.addr, "mona", false).await;
    assert_eq!(bans(&mut mona).await, Ok(vec![]), "mona moderates");
    let (otto, _) = account(&server.addr, "otto", false).await;
    otto.close().await;
    delete_account(&mut mona, "mona's password").await;
    let (mut impostor, _) = account(&server.addr, "Mona", false).await;
    assert_eq!(
        bans(&mut impostor).await.err().as_deref(),
        Some("not_moderator")
    );
    let (_victim, _) = account(&server.addr, "carl", false).await;
    assert_eq!(
        ask(&mut impostor, ban("carl", "I can"))
            .await
            .err()
            .as_deref(),
        Some("not_moderator")
    );
    server.stop().await;

    // Otto held his name when the hall started again: the name is his account's, though he
    // never moderated before deleting it.
    let server = TestServer::start(config).await;
    let (mut otto, _) = account(&server.addr, "otto", true).await;
    delete_account(&mut otto, "otto's password").await;
    let (mut impostor, _) = account(&server.addr, "OTTO", false).await;
    assert_eq!(
        bans(&mut impostor).await.err().as_deref(),
        Some("not_moderator")
    );
    server.stop().await;
}
