//! Limits, mutes and bans hold across the nodes of one hall: three real `qipai serve`
//! processes on one PostgreSQL database and the machine's Redis (a key prefix of each
//! test's own), real WebSocket clients, each client address one of this machine's
//! (127.0.0.x), so that the tests' addresses do not share their shares. A stranger who
//! spreads connections, new accounts, failed logins, API requests or invite-code guesses
//! over the nodes gets no more than from one; a ban blocks its player's address on every node; a mute
//! holds for chat at a table served by another node and in the lobby; and a late notice of
//! an older login closes nothing.

use crate::cluster::{
    ban_and_see_closed, closed_with, create, guest, moderate, redis, until, Nodes, WAIT,
};
use crate::common::get;
use server::client::{ClientError, Connection};
use server::protocol::request;
use server::protocol::{ClientMessage, ErrorCode, ServerMessage, TableOptions};
use std::net::IpAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// This test's directory.
fn root(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("qipai-{name}-{}", std::process::id()))
}

/// One of this machine's addresses, 127.0.0.`n`: a client address of the test's own.
fn local(n: u8) -> IpAddr {
    IpAddr::from([127, 0, 0, n])
}

/// A connection to `addr` from `from`, hello said.
async fn open_from(addr: &str, from: IpAddr) -> Result<Connection, ClientError> {
    Connection::open_from(addr, None, Some(from))
        .await
        .map(|(conn, _, _)| conn)
}

/// Whether `result` is a refusal with `code`.
fn refused<T>(result: &Result<T, ClientError>, code: ErrorCode) -> bool {
    matches!(result, Err(ClientError::Refused { code: c, .. }) if *c == code)
}

/// The table's answer to a request of `conn` to `table`: its snapshot, or the error that
/// names it.
async fn answer(conn: &mut Connection, table: &str) -> Result<(), ErrorCode> {
    loop {
        match conn.recv_within(WAIT).await.expect("an answer") {
            ServerMessage::Table { table: t, .. } if t == table => return Ok(()),
            ServerMessage::Error {
                code,
                table: Some(t),
                ..
            } if t == table => return Err(code),
            _ => {}
        }
    }
}

/// The chat lines `conn` hears (at `table`, or in the lobby for `None`) until `last` is
/// said, `last` among them.
async fn heard_until(
    conn: &mut Connection,
    table: Option<&str>,
    last: &str,
) -> Vec<(String, String)> {
    let mut heard = Vec::new();
    loop {
        let line = until(conn, last, |m| match m {
            ServerMessage::Chat {
                table: t,
                from,
                text,
                ..
            } if t.as_deref() == table => Some((from.clone(), text.clone())),
            _ => None,
        })
        .await;
        let done = line.1 == last;
        heard.push(line);
        if done {
            return heard;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_new_accounts_logins_and_api_requests_count_over_every_node() {
    let root = root("limits");
    let nodes = Nodes::start(
        &root,
        3,
        &[
            "--connections-per-address",
            "3",
            "--new-accounts-per-hour",
            "4",
            // One request of the API, then one a hundred seconds.
            "--api-requests-per-second",
            "0.01",
        ],
    );
    // The API: this address's one request, on node 0, is its share on every node.
    let (status, body) = get(&nodes.addrs[0], "/api/games").await;
    assert!(status.contains("200"), "{status}: {body}");
    for addr in &nodes.addrs[1..] {
        let (status, body) = get(addr, "/api/games").await;
        assert!(status.contains("429"), "a second request: {status}: {body}");
    }

    // Connections: one on each node is this address's share of the hall; a fourth is
    // refused on every node, while another address is let in.
    let crowd = local(2);
    let mut open = Vec::new();
    for addr in &nodes.addrs {
        open.push(open_from(addr, crowd).await.expect("within the share"));
    }
    for addr in &nodes.addrs {
        let fourth = open_from(addr, crowd).await;
        assert!(
            refused(&fourth, ErrorCode::TooManyConnections),
            "a fourth connection over three nodes: {:?}\n{}",
            fourth.err(),
            nodes.logs()
        );
    }
    let _other = open_from(&nodes.addrs[0], local(3))
        .await
        .expect("another address has its own share");
    // One closed on node 1 leaves room for one, on node 0, once node 1 has counted it out.
    open.remove(1).close().await;
    let deadline = Instant::now() + WAIT;
    loop {
        let again = open_from(&nodes.addrs[0], crowd).await;
        if again.is_ok() {
            break;
        }
        assert!(
            refused(&again, ErrorCode::TooManyConnections) && Instant::now() < deadline,
            "a connection once one closed: {:?}",
            again.err()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }

    // New accounts: four guests spread over the nodes are the address's share of the hour.
    let newcomer = local(4);
    let mut conns = Vec::new();
    for addr in &nodes.addrs {
        conns.push(open_from(addr, newcomer).await.expect("connects"));
    }
    for i in 0..4 {
        conns[i % 3]
            .session(ClientMessage::Guest)
            .await
            .expect("a guest within the share");
    }
    for conn in &mut conns {
        let fifth = conn.session(ClientMessage::Guest).await;
        assert!(
            refused(&fifth, ErrorCode::TooManyAccounts),
            "a fifth new account over three nodes: {:?}",
            fifth.err()
        );
    }

    // Failed logins: five wrong passwords for one name, spread over the nodes, and the
    // right one is refused too until the window passes.
    let password = "a long enough password";
    let mut owner = open_from(&nodes.addrs[0], local(5))
        .await
        .expect("connects");
    owner
        .session(ClientMessage::Register {
            name: "zhaoliu".into(),
            password: password.into(),
        })
        .await
        .expect("registered");
    let mut guessers = Vec::new();
    for addr in &nodes.addrs {
        guessers.push(open_from(addr, local(6)).await.expect("connects"));
    }
    let login = |password: &str| ClientMessage::Login {
        name: "zhaoliu".into(),
        password: password.into(),
    };
    for i in 0..5 {
        let wrong = guessers[i % 3]
            .session(login(&format!("guess number {i}")))
            .await;
        assert!(
            refused(&wrong, ErrorCode::WrongPassword),
            "{:?}",
            wrong.err()
        );
    }
    for guesser in &mut guessers {
        let right = guesser.session(login(password)).await;
        assert!(
            refused(&right, ErrorCode::RateLimited),
            "a sixth try over three nodes: {:?}",
            right.err()
        );
    }
    drop(nodes);
    let _ = std::fs::remove_dir_all(&root);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ban_blocks_its_players_address_on_every_node() {
    let root = root("blocked");
    let nodes = Nodes::start(&root, 3, &["--moderator", "warden"]);
    let password = "a long enough password";
    let register = |name: &str| ClientMessage::Register {
        name: name.into(),
        password: password.into(),
    };
    let mut warden = open_from(&nodes.addrs[0], local(7))
        .await
        .expect("connects");
    warden
        .session(register("warden"))
        .await
        .expect("registered");
    let banned = local(8);
    let mut player = open_from(&nodes.addrs[1], banned).await.expect("connects");
    player
        .session(register("qianqi"))
        .await
        .expect("registered");
    ban_and_see_closed(&mut warden, &mut player, "qianqi", &nodes).await;
    // The player's node blocks the address as the connection closes: every node refuses
    // a new account from it (waiting for that node's word, not for a time).
    for addr in &nodes.addrs {
        let mut conn = open_from(addr, banned).await.expect("connects");
        let deadline = Instant::now() + WAIT;
        loop {
            let guest = conn.session(ClientMessage::Guest).await;
            if refused(&guest, ErrorCode::AddressBlocked) {
                break;
            }
            assert!(
                guest.is_ok() && Instant::now() < deadline,
                "a guest from the banned player's address on {addr}: {:?}\n{}",
                guest.err(),
                nodes.logs()
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }
    // Lifted on every node by an unban on one.
    moderate(
        &mut warden,
        ClientMessage::Unban {
            user: "qianqi".into(),
        },
    )
    .await;
    let mut again = open_from(&nodes.addrs[2], banned).await.expect("connects");
    again
        .session(ClientMessage::Guest)
        .await
        .expect("a guest once the ban is lifted");
    drop(nodes);
    let _ = std::fs::remove_dir_all(&root);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mute_holds_at_a_table_served_elsewhere_and_in_the_lobby() {
    let root = root("mute");
    let nodes = Nodes::start(&root, 3, &[]);
    let (mut host, _) = guest(&nodes.addrs[1]).await;
    let table = create(&mut host, "doudizhu").await;
    // The listener is on node 0, the table on node 1, the two who talk on node 2.
    let (mut listener, _) = guest(&nodes.addrs[0]).await;
    let (mut loud, loud_name) = guest(&nodes.addrs[2]).await;
    let (mut other, other_name) = guest(&nodes.addrs[2]).await;
    for conn in [&mut listener, &mut loud, &mut other] {
        conn.send(&ClientMessage::Watch(request::Watch {
            table: table.clone(),
            invite: None,
        }))
        .await
        .expect("sent");
        assert_eq!(answer(conn, &table).await, Ok(()), "watching");
    }
    listener
        .send(&ClientMessage::Mute {
            user: loud_name.clone(),
            mute: true,
        })
        .await
        .expect("sent");
    listener.send(&ClientMessage::Ping).await.expect("sent");
    until(&mut listener, "the mute done", |m| {
        matches!(m, ServerMessage::Pong).then_some(())
    })
    .await;

    // At the table: the muted line reaches the table (its speaker hears it back) before
    // the other line is said, so the listener would hear it first.
    let say = |table: Option<&str>, text: &str| ClientMessage::Chat {
        table: table.map(str::to_string),
        text: text.into(),
    };
    loud.send(&say(Some(&table), "muted at the table"))
        .await
        .expect("sent");
    heard_until(&mut loud, Some(&table), "muted at the table").await;
    other
        .send(&say(Some(&table), "heard at the table"))
        .await
        .expect("sent");
    let heard = heard_until(&mut listener, Some(&table), "heard at the table").await;
    assert_eq!(
        heard,
        [(other_name.clone(), "heard at the table".to_string())],
        "the listener hears no line of the name it muted\n{}",
        nodes.logs()
    );

    // In the lobby, said on node 2, one line after the other.
    listener
        .send(&ClientMessage::Lobby { game: None })
        .await
        .expect("sent");
    until(&mut listener, "the lobby", |m| {
        matches!(m, ServerMessage::Lobby { .. }).then_some(())
    })
    .await;
    loud.send(&say(None, "muted in the lobby"))
        .await
        .expect("sent");
    other
        .send(&say(None, "heard in the lobby"))
        .await
        .expect("sent");
    let heard = heard_until(&mut listener, None, "heard in the lobby").await;
    assert_eq!(
        heard,
        [(other_name, "heard in the lobby".to_string())],
        "the listener hears no lobby line of the name it muted"
    );
    drop(nodes);
    let _ = std::fs::remove_dir_all(&root);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_invites_spread_over_nodes_are_counted_together() {
    let root = root("invites");
    let nodes = Nodes::start(&root, 3, &[]);
    let mut host = open_from(&nodes.addrs[0], local(9))
        .await
        .expect("connects");
    host.session(ClientMessage::Guest).await.expect("a guest");
    host.send(&ClientMessage::CreateTable {
        game: "doudizhu".into(),
        options: TableOptions {
            private: true,
            spectators: true,
            ..TableOptions::default()
        },
    })
    .await
    .expect("sent");
    let (table, invite) = until(&mut host, "a private table", |m| match m {
        ServerMessage::Created {
            table,
            invite: Some(invite),
            ..
        } => Some((table.clone(), invite.clone())),
        _ => None,
    })
    .await;
    // Ten wrong codes from one address, over the two nodes that do not serve the table.
    let guesser = local(10);
    let mut guessers = Vec::new();
    for addr in &nodes.addrs[1..] {
        let mut conn = open_from(addr, guesser).await.expect("connects");
        conn.session(ClientMessage::Guest).await.expect("a guest");
        guessers.push(conn);
    }
    let watch = |code: &str| {
        ClientMessage::Watch(request::Watch {
            table: table.clone(),
            invite: Some(code.to_string()),
        })
    };
    for i in 0..10 {
        let conn = &mut guessers[i % 2];
        conn.send(&watch(&format!("wrongcode{i:07}")))
            .await
            .expect("sent");
        assert_eq!(answer(conn, &table).await, Err(ErrorCode::Private));
    }
    // The eleventh, even the right one, is refused on either node.
    for conn in &mut guessers {
        conn.send(&watch(&invite)).await.expect("sent");
        assert_eq!(
            answer(conn, &table).await,
            Err(ErrorCode::RateLimited),
            "the eleventh code over two nodes\n{}",
            nodes.logs()
        );
    }
    // Another address with the code is let in, on a node that does not serve the table.
    let mut friend = open_from(&nodes.addrs[2], local(11))
        .await
        .expect("connects");
    friend.session(ClientMessage::Guest).await.expect("a guest");
    friend.send(&watch(&invite)).await.expect("sent");
    assert_eq!(answer(&mut friend, &table).await, Ok(()));
    drop(nodes);
    let _ = std::fs::remove_dir_all(&root);
}

/// Publishes `message` on Redis channel `channel`, as a node would (RESP over a plain
/// socket: the tests need no Redis client of their own).
fn publish(channel: &str, message: &str) {
    use std::io::{BufRead, BufReader, Write};
    let url = redis();
    let rest = url.strip_prefix("redis://").unwrap_or(&url);
    let rest = rest.split('/').next().unwrap_or(rest);
    let (password, host) = match rest.rsplit_once('@') {
        Some((credentials, host)) => (
            credentials.rsplit(':').next().filter(|p| !p.is_empty()),
            host,
        ),
        None => (None, rest),
    };
    let mut stream = std::net::TcpStream::connect(host).expect("Redis is reachable");
    let command = |args: &[&str]| {
        let mut text = format!("*{}\r\n", args.len());
        for a in args {
            text.push_str(&format!("${}\r\n{a}\r\n", a.len()));
        }
        text
    };
    let mut reader = BufReader::new(stream.try_clone().expect("a socket"));
    let mut reply = String::new();
    if let Some(password) = password {
        stream
            .write_all(command(&["AUTH", password]).as_bytes())
            .expect("sent");
        reader.read_line(&mut reply).expect("a reply");
        assert!(reply.starts_with('+'), "AUTH: {reply}");
        reply.clear();
    }
    stream
        .write_all(command(&["PUBLISH", channel, message]).as_bytes())
        .expect("sent");
    reader.read_line(&mut reply).expect("a reply");
    assert!(reply.starts_with(':'), "PUBLISH: {reply}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_late_notice_of_an_older_login_closes_nothing() {
    let root = root("late-login");
    let nodes = Nodes::start(&root, 1, &[]);
    let (mut first, _, _) = Connection::open(&nodes.addrs[0], None)
        .await
        .expect("connects");
    let (_, a) = first.session(ClientMessage::Guest).await.expect("a guest");
    let (mut second, _, _) = Connection::open(&nodes.addrs[0], None)
        .await
        .expect("connects");
    let (_, b) = second.session(ClientMessage::Guest).await.expect("a guest");
    let notice = |user: i64, login: u64| {
        serde_json::json!({
            "kind": "online",
            "node": "elsewhere",
            "user": user,
            "conn": 1,
            "login": login,
        })
        .to_string()
    };
    let channel = format!("{}:all", nodes.prefix);
    // Another node's word that `a` logged in there, numbered before `a`'s connection here
    // (it arrives late): nothing closes. Then word of a login of `b` newer than its
    // connection here, which closes it; the notices are read in order, so `a`'s was read
    // by then.
    publish(&channel, &notice(a.id, 1));
    publish(&channel, &notice(b.id, 9_000_000_000_000_000));
    closed_with(
        &mut second,
        ErrorCode::TakenOver,
        "the connection a newer login took over",
        &nodes,
    )
    .await;
    first.send(&ClientMessage::Ping).await.expect("sent");
    until(&mut first, "the newer connection still open", |m| {
        matches!(m, ServerMessage::Pong).then_some(())
    })
    .await;
    drop(nodes);
    let _ = std::fs::remove_dir_all(&root);
}
