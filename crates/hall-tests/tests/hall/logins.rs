//! Guessing passwords through the real server: tries sent all at once are held to the
//! limit as tries one after another are; wrong passwords sent from one address lock that
//! address out of the name, never the owner at another; one address guessing at many names
//! is held too; and the time a login takes does not tell whether a name has a password.
//! Clients are told apart as a reverse proxy tells them (`X-Forwarded-For`).

use crate::common::Connection;
use crate::common::{data_dir, fast_config, TestServer, WAIT};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use server::protocol::ClientMessage;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A hall behind a (pretend) proxy, where each test names its clients' addresses.
async fn hall(name: &str, configure: impl FnOnce(&mut server::ServerConfig)) -> TestServer {
    let mut config = fast_config(data_dir(name));
    config.behind_proxy = true;
    configure(&mut config);
    TestServer::start(config).await
}

/// A WebSocket from `client` (an address, as the proxy passes it on) that said hello.
async fn from(addr: &str, client: &str) -> Socket {
    let mut request = format!("ws://{addr}/ws")
        .into_client_request()
        .expect("a request");
    request
        .headers_mut()
        .insert("X-Forwarded-For", client.parse().expect("a header value"));
    let (mut ws, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("connects");
    let hello = json!({"type": "hello", "version": server::protocol::VERSION});
    ws.send(Message::Text(hello.to_string().into()))
        .await
        .expect("sent");
    answer(&mut ws, "welcome").await;
    ws
}

/// The next message of type `kind` or an error: the type, or the error's code.
async fn answer(ws: &mut Socket, kind: &str) -> String {
    loop {
        let frame = tokio::time::timeout(WAIT, ws.next()).await;
        let Ok(Some(Ok(Message::Text(text)))) = frame else {
            panic!("no answer: {frame:?}");
        };
        let m: Value = serde_json::from_str(&text).expect("json");
        match m["type"].as_str() {
            Some("error") => return m["code"].as_str().unwrap_or("?").to_string(),
            Some(t) if t == kind => return t.to_string(),
            _ => continue,
        }
    }
}

/// Logs in as `name` from `client`: `session`, or the refusal's code.
async fn login(addr: &str, client: &str, name: &str, password: &str) -> String {
    let mut ws = from(addr, client).await;
    let m = json!({"type": "login", "name": name, "password": password});
    ws.send(Message::Text(m.to_string().into()))
        .await
        .expect("sent");
    answer(&mut ws, "session").await
}

/// Registers `name` (from this machine).
async fn register(addr: &str, name: &str, password: &str) {
    let (mut c, _, _) = Connection::open(addr, None).await.expect("connects");
    c.session(ClientMessage::Register {
        name: name.into(),
        password: password.into(),
    })
    .await
    .expect("registered");
    c.close().await;
}

/// Twenty wrong passwords sent at once used to be twenty guesses: each was let through
/// before any had failed. Each try is counted before its password is checked, so only as
/// many as the limit (5) are checked and the rest are refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_wrong_passwords_are_held_to_the_limit_of_failed_logins() {
    let server = hall("parallel-logins", |_| {}).await;
    register(&server.addr, "alice", "correct horse").await;
    let mut sockets = Vec::new();
    for _ in 0..20 {
        sockets.push(from(&server.addr, "203.0.113.5").await);
    }
    // Every try sent before any answer comes.
    for (i, ws) in sockets.iter_mut().enumerate() {
        let m = json!({"type": "login", "name": "alice", "password": format!("guess {i}")});
        ws.send(Message::Text(m.to_string().into()))
            .await
            .expect("sent");
    }
    let mut answers = Vec::new();
    for ws in &mut sockets {
        answers.push(answer(ws, "session").await);
    }
    let wrong = answers.iter().filter(|a| *a == "wrong_password").count();
    let limited = answers.iter().filter(|a| *a == "rate_limited").count();
    assert_eq!((wrong, limited), (5, 15), "{answers:?}");
    server.stop().await;
}

/// Five wrong passwords for alice, from anywhere, used to shut alice out of her account
/// from everywhere for five minutes. They shut out the address that sent them, from her
/// name; alice, from her own address, logs in. One address guessing at many names is held
/// to 20 failures whatever the names.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_passwords_from_elsewhere_do_not_lock_the_owner_out() {
    let server = hall("no-lockout", |_| {}).await;
    register(&server.addr, "alice", "correct horse").await;
    let mallory = "198.51.100.66";
    for _ in 0..5 {
        assert_eq!(
            login(&server.addr, mallory, "alice", "password1").await,
            "wrong_password"
        );
    }
    assert_eq!(
        login(&server.addr, mallory, "ALICE", "correct horse").await,
        "rate_limited",
        "the guesser's address is held back from alice, even with her password"
    );
    assert_eq!(
        login(&server.addr, "203.0.113.7", "alice", "correct horse").await,
        "session",
        "alice, at her own address, logs in"
    );
    // Guessing at other names from the same address: 15 more failures make its 20.
    for i in 0..15 {
        assert_eq!(
            login(&server.addr, mallory, &format!("name{i}"), "password1").await,
            "wrong_password"
        );
    }
    assert_eq!(
        login(&server.addr, mallory, "someone", "password1").await,
        "rate_limited"
    );
    // Its /64 network is one address for IPv6; others are not held back.
    assert_eq!(
        login(&server.addr, "2001:db8::1", "alice", "correct horse").await,
        "session"
    );
    server.stop().await;
}

/// A login of a name without a password (a guest's, a deleted account's) used to be
/// answered at once, and a wrong password of a registered name after a password hash:
/// the time told which names have a password. Both are checked against a hash now.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_login_takes_as_long_whether_or_not_the_name_has_a_password() {
    let server = hall("login-timing", |c| c.limits.failed_logins = 100).await;
    register(&server.addr, "alice", "correct horse").await;
    let (_, token) = crate::common::guest(&server.addr).await;
    let guest = server.hall.accounts.resume(&token).await.expect("a guest");
    let mut times = [Vec::new(), Vec::new()];
    for round in 0..7 {
        for (which, name) in [guest.name.as_str(), "alice"].into_iter().enumerate() {
            let client = format!("192.0.2.{}", round * 2 + which + 1);
            let mut ws = from(&server.addr, &client).await;
            let m = json!({"type": "login", "name": name, "password": "not the password"});
            let start = Instant::now();
            ws.send(Message::Text(m.to_string().into()))
                .await
                .expect("sent");
            assert_eq!(answer(&mut ws, "session").await, "wrong_password");
            times[which].push(start.elapsed());
        }
    }
    let median = |t: &mut Vec<Duration>| {
        t.sort();
        t[t.len() / 2]
    };
    let (no_password, password) = (median(&mut times[0]), median(&mut times[1]));
    assert!(
        no_password * 3 >= password,
        "a name without a password answers in {no_password:?}, a name with one in {password:?}"
    );
    server.stop().await;
}
