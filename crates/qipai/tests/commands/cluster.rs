//! Several nodes, one hall: three real `qipai serve` processes on one PostgreSQL database
//! and the machine's Redis (a key prefix of this test's own), and real WebSocket clients
//! each connected to a node of its own. The host of a table on the first node, a player
//! on the second and a spectator on the third play a whole game of every game (computers
//! in the other seats); the spectator sees every move, in order, numbered one after the
//! other; chat crosses nodes; the record verifies. An account is one account across
//! nodes: logging in on one closes its connection on another, and a moderator's ban on
//! one closes its connection on another and is refused on a third. Every node's lobby
//! lists every node's tables, a node started later too, and lobby chat crosses nodes.

use crate::common::{postgres_database, serve};
use game::{ErasedGame, Record, Seed, VerifyOptions};
use serde_json::Value;
use server::client::Connection;
use server::protocol::request;
use server::protocol::{ClientMessage, GameState, ServerMessage, TableOptions};
use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::Duration;

pub(crate) const WAIT: Duration = Duration::from_secs(30);

/// The machine's Redis, or the one `QIPAI_TEST_REDIS` names.
pub(crate) fn redis() -> String {
    std::env::var("QIPAI_TEST_REDIS")
        .ok()
        .filter(|url| !url.is_empty())
        .unwrap_or_else(|| "redis://127.0.0.1:6379".into())
}

/// Nodes of one hall, killed when dropped.
pub(crate) struct Nodes {
    root: PathBuf,
    /// The Redis prefix of their keys and channels.
    pub(crate) prefix: String,
    flags: Vec<String>,
    pub(crate) children: Vec<Child>,
    pub(crate) addrs: Vec<String>,
    dirs: Vec<PathBuf>,
}

impl Drop for Nodes {
    fn drop(&mut self) {
        for c in &mut self.children {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Nodes {
    /// `n` nodes on one fresh database named after `root`, under a Redis prefix of
    /// their own, started one after the other (the first makes the database), each with
    /// `extra` flags too.
    pub(crate) fn start(root: &Path, n: usize, extra: &[&str]) -> Nodes {
        let _ = std::fs::remove_dir_all(root);
        let prefix = format!(
            "qipai-test-{}-{}",
            std::process::id(),
            root.file_name().unwrap_or_default().to_string_lossy()
        );
        let mut flags: Vec<String> = [
            "--database",
            &postgres_database(root),
            "--redis",
            &redis(),
            "--redis-prefix",
            &prefix,
        ]
        .iter()
        .map(|f| f.to_string())
        .collect();
        flags.extend(extra.iter().map(|f| f.to_string()));
        let mut nodes = Nodes {
            root: root.to_path_buf(),
            prefix,
            flags,
            children: Vec::new(),
            addrs: Vec::new(),
            dirs: Vec::new(),
        };
        for _ in 0..n {
            nodes.add();
        }
        nodes
    }

    /// One more node.
    fn add(&mut self) {
        let dir = self.root.join(format!("node{}", self.dirs.len()));
        let flags: Vec<&str> = self.flags.iter().map(String::as_str).collect();
        let (child, addr) = serve(&dir, &flags);
        self.children.push(child);
        self.addrs.push(addr);
        self.dirs.push(dir);
    }

    /// Every node's log, for a failure's message.
    pub(crate) fn logs(&self) -> String {
        self.dirs
            .iter()
            .enumerate()
            .map(|(i, d)| {
                format!(
                    "--- node {i} ---\n{}",
                    std::fs::read_to_string(d.join("server.log")).unwrap_or_default()
                )
            })
            .collect()
    }
}

/// A guest connected to `addr`.
pub(crate) async fn guest(addr: &str) -> (Connection, String) {
    let (mut conn, _, _) = Connection::open(addr, None).await.expect("connects");
    let (_, user) = conn.session(ClientMessage::Guest).await.expect("a guest");
    (conn, user.name)
}

/// The next message for which `pick` says something.
pub(crate) async fn until<T>(
    conn: &mut Connection,
    what: &str,
    mut pick: impl FnMut(&ServerMessage) -> Option<T>,
) -> T {
    loop {
        let m = conn
            .recv_within(WAIT)
            .await
            .unwrap_or_else(|e| panic!("waiting for {what}: {e}"));
        if let ServerMessage::Error { code, message, .. } = &m {
            panic!("waiting for {what}: {code}: {message}");
        }
        if let Some(t) = pick(&m) {
            return t;
        }
    }
}

/// A public table of `game` that `host` creates (and sits at).
pub(crate) async fn create(host: &mut Connection, game: &str) -> String {
    host.send(&ClientMessage::CreateTable {
        game: game.into(),
        options: TableOptions::default(),
    })
    .await
    .expect("sent");
    until(host, "created", |m| match m {
        ServerMessage::Created { table, .. } => Some(table.clone()),
        _ => None,
    })
    .await
}

/// What one client saw of one game: every numbered message's sequence number, the
/// actions in order, the chat, and the record at the end.
#[derive(Default, Debug)]
struct Seen {
    seqs: Vec<u64>,
    actions: Vec<(usize, Value)>,
    chat: Vec<(String, String)>,
    record: Option<Value>,
}

/// Plays (if seated) and watches `table` on `conn` until its game ends; `chat` is said
/// at the first deal.
async fn follow(
    mut conn: Connection,
    table: String,
    game: &dyn ErasedGame,
    chat: Option<String>,
) -> Seen {
    let mut seen = Seen::default();
    let (mut you, mut state, mut seq): (Option<usize>, Option<GameState>, u64) = (None, None, 0);
    let mut acted_at = None;
    let mut chat = chat;
    loop {
        if let (Some(seat), Some(s)) = (you, &state) {
            if s.to_act.contains(&seat) && !s.legal.is_empty() && acted_at != Some(seq) {
                let action = game
                    .bot_act("random", &Seed::from_u64(seq), seat, &s.view, &s.legal)
                    .expect("a move");
                acted_at = Some(seq);
                conn.send(&ClientMessage::Act(request::Act {
                    table: table.clone(),
                    action,
                    seq: Some(seq),
                }))
                .await
                .expect("sent");
            }
        }
        let m = conn.recv_within(WAIT).await.expect("the game goes on");
        match &m {
            ServerMessage::Table {
                seq: s,
                you: y,
                game,
                ..
            } => {
                // A deal's snapshot carries the deal's number.
                if *s > seq {
                    seen.seqs.push(*s);
                }
                seq = *s;
                you = *y;
                state = game.clone();
            }
            ServerMessage::Seats { seq: s, .. } => {
                seen.seqs.push(*s);
                seq = *s;
            }
            ServerMessage::Commitment {
                seq: s, game_id, ..
            } => {
                seen.seqs.push(*s);
                seq = *s;
                if you.is_some() {
                    conn.send(&ClientMessage::Nonce(request::Nonce {
                        table: table.clone(),
                        game_id: game_id.clone(),
                        nonce: format!("{:x}", seq + 7),
                    }))
                    .await
                    .expect("sent");
                }
                if let Some(text) = chat.take() {
                    conn.send(&ClientMessage::Chat {
                        table: Some(table.clone()),
                        text,
                    })
                    .await
                    .expect("sent");
                }
            }
            ServerMessage::Action {
                seq: s,
                seat,
                action,
                game,
                ..
            } => {
                seen.seqs.push(*s);
                seq = *s;
                seen.actions.push((*seat, action.clone()));
                if game.is_some() {
                    state = game.clone();
                }
            }
            ServerMessage::Chat {
                seq: Some(s),
                from,
                text,
                ..
            } => {
                seen.seqs.push(*s);
                seen.chat.push((from.clone(), text.clone()));
            }
            ServerMessage::GameOver { seq: s, record, .. } => {
                seen.seqs.push(*s);
                seen.record = Some(record.clone());
                return seen;
            }
            // A move sent while a computer's was on its way: chosen again from the state
            // that follows (a new sequence number), as any client does.
            ServerMessage::Error {
                code: server::protocol::ErrorCode::Stale,
                ..
            } => {}
            ServerMessage::Error { code, message, .. } => {
                panic!("{}: {code}: {message}", game.id())
            }
            _ => {}
        }
    }
}

/// One game of `game` across three nodes: its host on node 0, a second player on node
/// 1, a spectator on node 2, computers in the other seats.
async fn one_game_across_nodes(nodes: &Nodes, game: &str) {
    let games = games::registry();
    let erased = games.get(game).expect("a game");
    let (mut host, host_name) = guest(&nodes.addrs[0]).await;
    let (mut player, player_name) = guest(&nodes.addrs[1]).await;
    let (mut watcher, _) = guest(&nodes.addrs[2]).await;
    let table = create(&mut host, game).await;
    let seats = until(&mut host, "the host's seat", |m| match m {
        ServerMessage::Table {
            you: Some(0), info, ..
        } => Some(info.seats.len()),
        _ => None,
    })
    .await;
    player
        .send(&ClientMessage::Join(request::Join {
            table: table.clone(),
            seat: Some(1),
            invite: None,
        }))
        .await
        .expect("sent");
    until(&mut player, "a seat on another node", |m| match m {
        ServerMessage::Table { you: Some(1), .. } => Some(()),
        _ => None,
    })
    .await;
    watcher
        .send(&ClientMessage::Watch(request::Watch {
            table: table.clone(),
            invite: None,
        }))
        .await
        .expect("sent");
    let first = until(&mut watcher, "watching from a third node", |m| match m {
        ServerMessage::Table { seq, you: None, .. } => Some(*seq),
        _ => None,
    })
    .await;
    for seat in 2..seats {
        host.send(&ClientMessage::AddBot(request::AddBot {
            table: table.clone(),
            seat,
            bot: erased.quick_bot().into(),
        }))
        .await
        .expect("sent");
    }
    for (conn, t) in [(&mut host, &table), (&mut player, &table)] {
        conn.send(&ClientMessage::Ready(request::Ready {
            table: t.clone(),
            ready: true,
        }))
        .await
        .expect("sent");
    }
    let hello_a = format!("{game}: 你好 from node 0");
    let hello_b = format!("{game}: hello from node 1");
    let (host_seen, player_seen, watcher_seen) = tokio::join!(
        follow(host, table.clone(), erased, Some(hello_a.clone())),
        follow(player, table.clone(), erased, Some(hello_b.clone())),
        follow(watcher, table.clone(), erased, None),
    );
    let record: Record = serde_json::from_value(
        watcher_seen
            .record
            .clone()
            .unwrap_or_else(|| panic!("{game}: no record\n{}", nodes.logs())),
    )
    .expect("a record");
    erased
        .verify(&record, &VerifyOptions::default())
        .unwrap_or_else(|e| panic!("{game}: {e}"));
    assert_eq!(
        host_seen.record, player_seen.record,
        "{game}: both players have the one record"
    );
    // The spectator saw every move, in the record's order, in public form.
    let public: Vec<(usize, Value)> = record
        .actions
        .iter()
        .map(|a| (a.seat, a.action.clone()))
        .collect();
    assert_eq!(watcher_seen.actions, public, "{game}: every move, in order");
    // Numbered as on one node: one after the other, nothing missing, from where the
    // snapshot left off.
    let expected: Vec<u64> = (first + 1..=first + watcher_seen.seqs.len() as u64).collect();
    assert_eq!(
        watcher_seen.seqs, expected,
        "{game}: the spectator's messages are numbered one after the other"
    );
    // Chat said on one node is heard on the other two.
    for (seen, who) in [
        (&host_seen, "host"),
        (&player_seen, "player"),
        (&watcher_seen, "spectator"),
    ] {
        for (from, text) in [(&host_name, &hello_a), (&player_name, &hello_b)] {
            assert!(
                seen.chat.contains(&(from.clone(), text.clone())),
                "{game}: the {who} heard {from}: {text}; heard {:?}",
                seen.chat
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_game_is_played_across_three_nodes() {
    let root = std::env::temp_dir().join(format!("qipai-nodes-{}", std::process::id()));
    // Two people moving as fast as the server answers (Gomoku) are over a person's pace.
    let flat_out = ["--messages-per-second", "1000", "--message-burst", "1000"];
    let nodes = Nodes::start(&root, 3, &flat_out);
    for game in games::registry().ids() {
        one_game_across_nodes(&nodes, game).await;
    }
    drop(nodes);
    let _ = std::fs::remove_dir_all(&root);
}

/// Bans `name` from `warden`'s connection and waits for `player`'s connection (on any
/// node) to be closed as banned.
pub(crate) async fn ban_and_see_closed(
    warden: &mut Connection,
    player: &mut Connection,
    name: &str,
    nodes: &Nodes,
) {
    moderate(
        warden,
        ClientMessage::Ban {
            user: name.into(),
            reason: "cheating".into(),
        },
    )
    .await;
    closed_with(
        player,
        server::protocol::ErrorCode::Banned,
        "the banned connection",
        nodes,
    )
    .await;
}

/// Sends a moderator's `ban` or `unban` on `warden` and waits for it to be done.
pub(crate) async fn moderate(warden: &mut Connection, message: ClientMessage) {
    let banning = matches!(message, ClientMessage::Ban { .. });
    warden.send(&message).await.expect("sent");
    until(warden, "the ban or unban", |m| match m {
        ServerMessage::Moderated { banned, .. } if *banned == banning => Some(()),
        _ => None,
    })
    .await;
}

/// Reads `what`, connection `conn`, until the server closes it, and checks that it was
/// told `code` before.
pub(crate) async fn closed_with(
    conn: &mut Connection,
    code: server::protocol::ErrorCode,
    what: &str,
    nodes: &Nodes,
) {
    let mut codes = Vec::new();
    loop {
        match conn.recv_within(WAIT).await {
            Ok(ServerMessage::Error { code, .. }) => codes.push(code),
            Ok(_) => {}
            Err(server::client::ClientError::Closed { .. }) => break,
            Err(e) => panic!("{what}: {e}\n{}", nodes.logs()),
        }
    }
    assert!(
        codes.contains(&code),
        "{what} is told {code} before it closes, not {codes:?}\n{}",
        nodes.logs()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_account_is_one_account_across_nodes() {
    use server::client::ClientError;
    use server::protocol::ErrorCode;
    let root = std::env::temp_dir().join(format!("qipai-accounts-{}", std::process::id()));
    let nodes = Nodes::start(&root, 3, &["--moderator", "warden"]);
    let password = "a long enough password";
    let register = |name: &str| ClientMessage::Register {
        name: name.into(),
        password: password.into(),
    };
    // Logging in on the second node closes the account's connection on the first.
    let (mut first, _, _) = Connection::open(&nodes.addrs[0], None)
        .await
        .expect("connects");
    let (token, _) = first.session(register("lihua")).await.expect("registered");
    let (_second, user, _) = Connection::open(&nodes.addrs[1], Some(&token))
        .await
        .expect("connects");
    assert!(user.is_some(), "the session holds on another node");
    closed_with(
        &mut first,
        ErrorCode::TakenOver,
        "the older connection",
        &nodes,
    )
    .await;
    // A ban on the first node closes the player's connection on the second and is
    // refused on the third.
    let registered = |node: usize, name: &'static str| {
        let addr = nodes.addrs[node].clone();
        let message = register(name);
        async move {
            let (mut conn, _, _) = Connection::open(&addr, None).await.expect("connects");
            conn.session(message).await.expect("registered");
            conn
        }
    };
    let mut warden = registered(0, "warden").await;
    let mut player = registered(1, "wangwu").await;
    ban_and_see_closed(&mut warden, &mut player, "wangwu", &nodes).await;
    let (mut third, _, _) = Connection::open(&nodes.addrs[2], None)
        .await
        .expect("connects");
    let refused = third
        .session(ClientMessage::Login {
            name: "wangwu".into(),
            password: password.into(),
        })
        .await;
    assert!(
        matches!(
            refused,
            Err(ClientError::Refused {
                code: ErrorCode::Banned,
                ..
            })
        ),
        "a banned account cannot log in on a third node: {refused:?}"
    );
    drop(nodes);
    let _ = std::fs::remove_dir_all(&root);
}

/// Whether `m` lists `table` in the lobby.
fn lists(m: &ServerMessage, table: &str) -> bool {
    match m {
        ServerMessage::Lobby { tables } => tables.iter().any(|t| t.id == table),
        ServerMessage::LobbyTable { table: t } => t.id == table,
        _ => false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_every_nodes_tables() {
    let root = std::env::temp_dir().join(format!("qipai-lobby-{}", std::process::id()));
    let mut nodes = Nodes::start(&root, 2, &[]);
    let (mut host, _) = guest(&nodes.addrs[0]).await;
    let table = create(&mut host, "doudizhu").await;
    // A node running when the table opened lists it.
    let (mut looker, _) = guest(&nodes.addrs[1]).await;
    looker
        .send(&ClientMessage::Lobby { game: None })
        .await
        .expect("sent");
    until(&mut looker, "the table in the second node's lobby", |m| {
        lists(m, &table).then_some(())
    })
    .await;
    // A node started after it lists it too.
    nodes.add();
    let (mut late, late_name) = guest(&nodes.addrs[2]).await;
    late.send(&ClientMessage::Lobby { game: None })
        .await
        .expect("sent");
    until(&mut late, "the table in a new node's lobby", |m| {
        lists(m, &table).then_some(())
    })
    .await;
    // Lobby chat crosses nodes.
    late.send(&ClientMessage::Chat {
        table: None,
        text: "anyone for a game?".into(),
    })
    .await
    .expect("sent");
    until(&mut looker, "lobby chat from another node", |m| match m {
        ServerMessage::Chat {
            table: None,
            from,
            text,
            ..
        } if *from == late_name && text == "anyone for a game?" => Some(()),
        _ => None,
    })
    .await;
    // A node that dies takes its tables out of the others' lobbies.
    let _ = nodes.children[0].kill();
    until(
        &mut looker,
        "the dead node's table gone from the lobby",
        |m| match m {
            ServerMessage::LobbyClosed { table: t } if *t == table => Some(()),
            _ => None,
        },
    )
    .await;
    drop(nodes);
    let _ = std::fs::remove_dir_all(&root);
}
