//! Several nodes, one hall: real `qipai serve` processes on one PostgreSQL database, each
//! table served by the node holding its lease. A node paused past its lease (SIGSTOP)
//! loses its table to another node, and when it wakes (SIGCONT) stores and publishes
//! nothing more for it; the game goes on on the other node with every acknowledged
//! action exactly once, and its stored record verifies.

use crate::common::{get, postgres_database, qipai, said, serve};
use crate::crash::{as_seen, closed_for_restart, Player, Stop};
use game::{ErasedGame, Record, Seed, VerifyOptions};
use serde_json::Value;
use server::client::Connection;
use server::protocol::request;
use server::protocol::{ClientMessage, ServerMessage};
use std::path::{Path, PathBuf};
use std::process::Child;
use std::time::{Duration, Instant};

/// A deadlock guard for every wait, not a timing claim.
const WAIT: Duration = Duration::from_secs(30);

/// The leases of these nodes: short, so a paused node loses its tables within seconds.
const LEASE_TTL_MS: &str = "1500";

/// One `qipai serve` process of the hall.
struct Node {
    child: Child,
    addr: String,
    dir: PathBuf,
}

impl Node {
    /// Starts node `id` on `database` with `extra` options, its log in `dir/server.log`.
    fn start(dir: &Path, database: &str, id: &str, extra: &[&str]) -> Node {
        let mut options = vec![
            "--database",
            database,
            "--node-id",
            id,
            "--lease-ttl-ms",
            LEASE_TTL_MS,
            "--grace-seconds",
            "300",
        ];
        options.extend(extra);
        let (child, addr) = serve(dir, &options);
        Node {
            child,
            addr,
            dir: dir.to_path_buf(),
        }
    }

    /// What the node has logged so far.
    fn log(&self) -> String {
        std::fs::read_to_string(self.dir.join("server.log")).unwrap_or_default()
    }

    /// Waits for a line of the node's log containing `text`, and returns it.
    async fn logged(&self, text: &str) -> String {
        let deadline = Instant::now() + WAIT;
        loop {
            if let Some(line) = self.log().lines().find(|l| l.contains(text)) {
                return line.to_string();
            }
            assert!(
                Instant::now() < deadline,
                "no {text:?} in the log of {}:\n{}",
                self.dir.display(),
                self.log()
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Sends the process `signal` (`STOP`, `CONT`).
    fn signal(&self, signal: &str) {
        let sent = std::process::Command::new("kill")
            .args([format!("-{signal}"), self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(sent.success(), "SIG{signal} sent");
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Two data directories (for the nodes' logs) of a fresh run, and the database they
/// share, made afresh.
fn two_nodes(name: &str) -> (PathBuf, PathBuf, String) {
    let dir = |node: &str| {
        let dir =
            std::env::temp_dir().join(format!("qipai-nodes-{name}-{}-{node}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    };
    let (a, b) = (dir("a"), dir("b"));
    let database = postgres_database(&a);
    (a, b, database)
}

/// A player's side of the game: what it saw, and its own moves so far.
struct AtTable<'g> {
    game: &'g dyn ErasedGame,
    seen: Player,
    moves: u64,
    acted_at: Option<u64>,
}

impl AtTable<'_> {
    /// How many actions of its own the player has seen in the current segment.
    fn own_moves(&self) -> usize {
        let you = self.seen.you;
        self.seen.segments.last().map_or(0, |s| {
            s.iter().filter(|(seat, _)| Some(*seat) == you).count()
        })
    }

    /// Plays on `conn` (its own moves at random, nonces when asked) until `done` says so
    /// before a move, or the game ends: then its record.
    async fn play(
        &mut self,
        conn: &mut Connection,
        done: impl Fn(&AtTable) -> bool,
        log: &Node,
    ) -> Option<Record> {
        loop {
            if done(self) {
                return None;
            }
            if self.acted_at != Some(self.seen.seq) {
                if let Some(action) = self.seen.my_move(self.game, self.moves) {
                    self.moves += 1;
                    self.acted_at = Some(self.seen.seq);
                    conn.send(&ClientMessage::Act(request::Act {
                        table: self.seen.table.clone(),
                        action,
                        seq: Some(self.seen.seq),
                    }))
                    .await
                    .expect("sent");
                }
            }
            let m = conn
                .recv_within(WAIT)
                .await
                .unwrap_or_else(|e| panic!("{e}; the node's log:\n{}", log.log()));
            if let Some(record) = self.seen.answer(conn, &m).await {
                return Some(serde_json::from_value(record).expect("a record"));
            }
        }
    }
}

/// Checks the game's record as the store holds it (read from `node`) with `qipai
/// verify`, and that it is the record the player got.
async fn verify_stored(node: &Node, record: &Record) {
    let (status, body) = get(&node.addr, &format!("/api/games/{}", record.id)).await;
    assert!(status.contains("200"), "{status}: {body}");
    let stored: Record = serde_json::from_str(&body).expect("a stored record");
    assert_eq!(
        stored.actions, record.actions,
        "the stored record's actions"
    );
    let file = node.dir.join("record.json");
    std::fs::write(&file, &body).expect("written");
    let verified = qipai(&["verify", &file.display().to_string()], b"");
    assert!(verified.status.success(), "{}", said(&verified));
}

/// The fencing test. Node A serves a Gomoku game against a computer; it is paused
/// (SIGSTOP) past its lease at the player's turn; node B takes the table over from the
/// stored record, and the player resumes on B into the same seat and plays on. Then A
/// wakes (SIGCONT) and the player's connection to A, which never closed, sends a move
/// from the view it had: A finds its lease taken, stores and publishes nothing, and says
/// so in its log. The game finishes on B; the record holds every acknowledged action
/// exactly once, in order, and the stored record verifies.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_paused_past_its_lease_writes_nothing_for_the_table_taken_over() {
    let (dir_a, dir_b, database) = two_nodes("fence");
    let a = Node::start(&dir_a, &database, "node-a", &[]);
    let b = Node::start(&dir_b, &database, "node-b", &[]);
    let games = games::registry();
    let gomoku = games.get("gomoku").expect("gomoku");

    let (mut on_a, token, mut seat) = two_moves_in(&a, gomoku).await;
    let table = seat.seen.table.clone();
    let (stale_view, stale_seq) = (seat.seen.state.clone(), seat.seen.seq);

    a.signal("STOP");
    let took = b
        .logged(&format!("took over table {table} from node node-a"))
        .await;
    eprintln!("{took}");

    let mut on_b = resume_on(&b, &token, &mut seat).await;
    let ended = seat.play(&mut on_b, |s| s.own_moves() >= 1, &b).await;

    a.signal("CONT");
    let state = stale_view.expect("the view at the pause");
    let you = seat.seen.you.expect("a seat");
    let rogue = gomoku
        .bot_act("random", &Seed::from_u64(7), you, &state.view, &state.legal)
        .expect("a move");
    on_a.send(&ClientMessage::Act(request::Act {
        table: table.clone(),
        action: rogue,
        seq: Some(stale_seq),
    }))
    .await
    .expect("sent to A");
    loop {
        match on_a.recv_within(WAIT).await {
            Ok(ServerMessage::Action { .. }) => panic!("A published a move after losing the table"),
            Ok(ServerMessage::Error { code, message, .. }) => {
                assert_eq!(code.as_str(), "storage", "{message}");
                break;
            }
            Ok(_) => continue,
            Err(_) => break,
        }
    }
    let fenced = a.logged(&format!("table {table}: fenced")).await;
    assert!(fenced.contains("stops serving it"), "{fenced}");

    finish_on(&b, on_b, seat, ended).await;
}

/// A player's connection to node `a`, its session's token and its side of a quick-play
/// game of `game` against a computer, played until the player has made two moves and it
/// is their turn again (every action so far seen).
async fn two_moves_in<'g>(a: &Node, game: &'g dyn ErasedGame) -> (Connection, String, AtTable<'g>) {
    let (mut on_a, _, _) = Connection::open(&a.addr, None).await.expect("connects");
    let (token, _) = on_a.session(ClientMessage::Guest).await.expect("a guest");
    on_a.send(&ClientMessage::QuickPlay {
        game: game.id().into(),
        level: None,
    })
    .await
    .expect("sent");
    let mut seat = AtTable {
        game,
        seen: Player {
            segments: vec![Vec::new()],
            ..Player::default()
        },
        moves: 0,
        acted_at: None,
    };
    let two_in = |s: &AtTable| s.own_moves() >= 2 && s.seen.my_move(s.game, 0).is_some();
    let ended = seat.play(&mut on_a, two_in, a).await;
    assert!(ended.is_none(), "the game ended too soon");
    (on_a, token, seat)
}

/// The player reconnects to node `b` with its session and resumes its table there, in
/// the same seat: a new segment of what it sees.
async fn resume_on(b: &Node, token: &str, seat: &mut AtTable<'_>) -> Connection {
    let (mut on_b, user, seated) = Connection::open(&b.addr, Some(token))
        .await
        .expect("connects to B");
    assert!(user.is_some(), "the session is the hall's, not a node's");
    assert_eq!(
        seated,
        vec![seat.seen.table.clone()],
        "still seated, now on B"
    );
    on_b.send(&ClientMessage::Resume(request::Resume {
        table: seat.seen.table.clone(),
        last_seq: seat.seen.seq,
        invite: None,
    }))
    .await
    .expect("sent");
    seat.seen.segments.push(Vec::new());
    seat.acted_at = None;
    on_b
}

/// Plays the game to its end on node `b` (unless it `ended` already) and checks its
/// record: it verifies, it holds every action the player saw acknowledged exactly once,
/// in order, and nothing else, and the store's copy is the same and verifies.
async fn finish_on(b: &Node, mut on_b: Connection, mut seat: AtTable<'_>, ended: Option<Record>) {
    let record = match ended {
        Some(record) => record,
        None => seat
            .play(&mut on_b, |_| false, b)
            .await
            .expect("the game ends on B"),
    };
    seat.game
        .verify(&record, &VerifyOptions::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let acknowledged: Vec<(usize, Value)> = seat.seen.segments.concat();
    assert_eq!(
        as_seen(&record, seat.seen.you.expect("a seat")),
        acknowledged,
        "every acknowledged action exactly once, in order, and nothing else"
    );
    verify_stored(b, &record).await;
}

/// Drain: node A, started with `--drain`, gets SIGTERM in the middle of a game. It
/// closes the player's connection with 1012 ("service restart": reconnect), lets go of
/// the table's lease and exits cleanly; node B takes the table over at its next look,
/// without waiting for the lease to run out, and the player finishes the game on B with
/// every acknowledged action exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draining_node_hands_its_table_over_and_the_game_finishes_on_another() {
    let (dir_a, dir_b, database) = two_nodes("drain");
    let mut a = Node::start(&dir_a, &database, "node-a", &["--drain"]);
    let b = Node::start(&dir_b, &database, "node-b", &[]);
    let games = games::registry();
    let gomoku = games.get("gomoku").expect("gomoku");
    let (mut on_a, token, mut seat) = two_moves_in(&a, gomoku).await;
    let table = seat.seen.table.clone();

    // SIGTERM, and A exits by itself, cleanly.
    Stop::Term.apply(&mut a.child, &a.dir);
    closed_for_restart(&mut on_a, "gomoku").await;
    assert!(
        a.log().contains("drained: let go of every table's lease"),
        "{}",
        a.log()
    );
    let took = b
        .logged(&format!(
            "took over table {table} from node node-a, which let it go"
        ))
        .await;
    eprintln!("{took}");

    let on_b = resume_on(&b, &token, &mut seat).await;
    finish_on(&b, on_b, seat, None).await;
}

/// Chaos: node A serves several games with people and computers (Gomoku and Big Two,
/// each player's connection waiting at their turn) and is killed with SIGKILL. Every one
/// of its tables resumes on node B once its lease has run out; each player reconnects to
/// B into the same seat and finishes the game there; every game verifies, with every
/// acknowledged action exactly once. The time from the kill to each table resumed is
/// printed (a lease's life and one look at most, by design; not asserted).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_table_of_a_killed_node_resumes_on_another_and_finishes() {
    let (dir_a, dir_b, database) = two_nodes("chaos");
    let mut a = Node::start(&dir_a, &database, "node-a", &[]);
    let b = Node::start(&dir_b, &database, "node-b", &[]);
    let games = games::registry();
    let mut players = Vec::new();
    for game in ["gomoku", "bigtwo", "gomoku", "bigtwo"] {
        players.push(two_moves_in(&a, games.get(game).expect("a game")).await);
    }

    let _ = a.child.kill();
    let killed = Instant::now();
    let _ = a.child.wait();
    let mut resumed = Vec::new();
    for (on_a, token, mut seat) in players {
        drop(on_a);
        let table = seat.seen.table.clone();
        let took = b
            .logged(&format!("took over table {table} from node node-a"))
            .await;
        let on_b = resume_on(&b, &token, &mut seat).await;
        eprintln!(
            "table {table} ({}) resumed on node B {} ms after node A was killed ({})",
            seat.game.id(),
            killed.elapsed().as_millis(),
            took.split("took over").nth(1).unwrap_or_default().trim()
        );
        resumed.push((on_b, seat));
    }
    for (on_b, seat) in resumed {
        finish_on(&b, on_b, seat, None).await;
    }
}
