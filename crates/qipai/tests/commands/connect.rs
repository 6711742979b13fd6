//! `qipai connect` drives whole games: two terminal clients, each a real `qipai connect`
//! process reading typed lines from a pipe, meet on a real `qipai serve` and play Gomoku
//! against each other — a table opened by one and joined by the other, chat, an undo asked
//! for and granted, moves typed from the clients' own hints — and a person plays Dou
//! Dizhu against computers through quick play; two registered players read the rankings
//! and their histories after a rated game; a moderator bans a player; a player changes
//! the password and deletes the account.

use crate::common::{serve, serve_at};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How long any one expected line may take to come.
const WAIT: Duration = Duration::from_secs(60);

/// A `qipai connect` process, its input and its output lines.
struct Terminal {
    name: &'static str,
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    /// Every line it printed so far.
    transcript: Vec<String>,
}

impl Terminal {
    fn connect(name: &'static str, addr: &str) -> Terminal {
        Terminal::start(name, &["connect", addr], None)
    }

    /// A terminal that registers the account `name` first (password `secret-of-NAME`).
    fn register(name: &'static str, addr: &str) -> Terminal {
        let password = format!("secret-of-{name}");
        Terminal::start(
            name,
            &["connect", addr, "--name", name, "--register"],
            Some(&password),
        )
    }

    fn start(name: &'static str, args: &[&str], password: Option<&str>) -> Terminal {
        let mut command = Command::new(env!("CARGO_BIN_EXE_qipai"));
        if let Some(password) = password {
            command.env("QIPAI_PASSWORD", password);
        }
        let mut child = command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("qipai connect starts");
        let input = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut t = Terminal {
            name,
            child,
            input,
            lines,
            transcript: Vec::new(),
        };
        t.expect("Connected to");
        t
    }

    fn type_line(&mut self, line: &str) {
        writeln!(self.input, "{line}").expect("the client reads its input");
    }

    /// The next line printed, if one comes within `wait`.
    fn next_line(&mut self, wait: Duration) -> Option<String> {
        match self.lines.recv_timeout(wait) {
            Ok(line) => {
                self.transcript.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Timeout) => None,
            Err(RecvTimeoutError::Disconnected) => panic!(
                "{} exited; it said:\n{}",
                self.name,
                self.transcript.join("\n")
            ),
        }
    }

    /// Reads lines until one contains `text`; returns it.
    fn expect(&mut self, text: &str) -> String {
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            if let Some(line) = self.next_line(Duration::from_millis(100)) {
                if line.contains(text) {
                    return line;
                }
            }
        }
        panic!(
            "{} never said {text:?}; it said:\n{}",
            self.name,
            self.transcript.join("\n")
        )
    }

    /// Plays its move, just asked for: `yes` to a pending undo request (the screen above
    /// the turn line says so), or else the first hint.
    fn play_turn(&mut self) {
        let asked = self
            .transcript
            .iter()
            .rev()
            .take(3)
            .any(|l| l.contains("asks to undo"));
        if asked {
            self.type_line("yes");
            return;
        }
        let hint = self.hint().expect("a Gomoku hint");
        self.type_line(&hint);
    }

    /// Asks for a hint: the suggested move, or `None` when there is none.
    fn hint(&mut self) -> Option<String> {
        self.type_line("hint");
        loop {
            let line = self.expect("");
            if let Some(play) = line.strip_prefix("hint: ") {
                return Some(play.trim().to_string());
            }
            if line.starts_with("No suggestion") {
                return None;
            }
        }
    }

    /// Plays the hint, or passes when there is none.
    fn play_hint_or_pass(&mut self) {
        match self.hint() {
            Some(play) => self.type_line(&play),
            None => self.type_line("pass"),
        }
    }

    /// Types `create …` and returns the id of the table it opened.
    fn create(&mut self, line: &str) -> String {
        self.type_line(line);
        let opened = self.expect("Opened table ");
        opened
            .split_whitespace()
            .nth(2)
            .expect("a table id")
            .to_string()
    }

    /// Waits for the process to end; fails with `otherwise` if it goes on.
    fn ends(&mut self, otherwise: &str) {
        let deadline = Instant::now() + WAIT;
        while self.child.try_wait().expect("a status").is_none() {
            assert!(Instant::now() < deadline, "{otherwise}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn said(&self, text: &str) -> bool {
        self.transcript.iter().any(|l| l.contains(text))
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn two_terminals_play_gomoku_against_each_other_with_chat_and_an_undo() {
    let dir = tempfile_dir("connect-gomoku");
    let (mut server, addr) = serve(&dir, &[]);
    let mut black = Terminal::connect("black", &addr);
    let mut white = Terminal::connect("white", &addr);

    let table = black.create("create gomoku people");
    // The lobby is live: the new table shows up in white's listing.
    let listed = format!("table {table} (gomoku, waiting)");
    let deadline = Instant::now() + WAIT;
    while !white.said(&listed) {
        assert!(Instant::now() < deadline, "{table} never listed");
        white.type_line("tables");
        std::thread::sleep(Duration::from_millis(100));
        while white.next_line(Duration::from_millis(10)).is_some() {}
    }
    black.type_line("chat anyone for gomoku?");
    white.expect("[lobby] ");
    white.type_line(&format!("join {table}"));
    white.expect(&format!("table {table}"));
    black.type_line("say 你好, good luck");
    black.expect(": 你好, good luck");
    white.expect(": 你好, good luck");
    black.type_line("ready");
    white.type_line("ready");

    // Both play their hints; at its third turn black asks to take back its last move
    // instead, and white grants it; a few moves later white resigns.
    let (mut black_turns, mut white_turns) = (0, 0);
    let deadline = Instant::now() + Duration::from_secs(600);
    while !(black.said("Match totals") && white.said("Match totals")) {
        assert!(Instant::now() < deadline, "the game did not end");
        if let Some(line) = black.next_line(Duration::from_millis(20)) {
            if line.contains("» your move") {
                black_turns += 1;
                if black_turns == 3 {
                    black.type_line("undo");
                } else {
                    black.play_turn();
                }
            }
        }
        if let Some(line) = white.next_line(Duration::from_millis(20)) {
            if line.contains("» your move") {
                white_turns += 1;
                if white_turns == 8 {
                    white.type_line("resign");
                } else {
                    white.play_turn();
                }
            }
        }
    }
    let record = format!("/api/games/{table}-1 ");
    for t in [&mut black, &mut white] {
        if !t.said(&record) {
            t.expect(&record);
        }
    }
    for t in [&black, &white] {
        assert!(
            t.said("asks to take back") && t.said("Undo granted: 2 stones taken back"),
            "{} saw the undo:\n{}",
            t.name,
            t.transcript.join("\n")
        );
        assert!(
            t.said("White (O) resigns."),
            "{} saw the end:\n{}",
            t.name,
            t.transcript.join("\n")
        );
    }
    assert!(!black.said("refused") && !white.said("refused"));
    let _ = server.kill();
    let _ = server.wait();
}

#[test]
fn a_gomoku_player_whose_time_runs_out_loses_on_time_and_both_terminals_say_so() {
    let dir = tempfile_dir("connect-timeout");
    let (mut server, addr) = serve(&dir, &[]);
    let mut black = Terminal::connect("black", &addr);
    let mut white = Terminal::connect("white", &addr);
    // `time=2`: two seconds for every turn, whatever the game's phases are called.
    let table = black.create("create gomoku people time=2");
    white.type_line(&format!("join {table}"));
    white.expect(&format!("table {table}"));
    black.type_line("ready");
    white.type_line("ready");
    // Black never moves: the rules' default move (a resignation) is made for it, and the
    // end is told as a loss on time, not as a resignation alone.
    black.expect("Your time ran out; the rules' default move was made for you:");
    black.expect("Your time ran out: the rules' default move for you ended the game.");
    black.expect("Match totals");
    white.expect("Time ran out for ");
    white.expect("The game ended on time: ");
    white.expect("Match totals");
    let _ = server.kill();
    let _ = server.wait();
}

/// Between games a terminal player reads what the page's Rankings and Profile show: after
/// a rated game between two registered players, `ranks` lists both (provisional, the
/// winner first) and `history` the game, whom it was with, the score and its replay's
/// address; another player's history is asked for by name.
#[test]
fn after_a_rated_game_the_terminal_shows_the_rankings_and_both_histories() {
    let dir = tempfile_dir("connect-standings");
    let (mut server, addr) = serve(&dir, &[]);
    let mut ann = Terminal::register("ann", &addr);
    let mut ben = Terminal::register("ben", &addr);
    ann.type_line("ranks gomoku");
    ann.expect("No rated games of");
    // Ann opens a rated table; she never moves, so her time runs out and ben wins.
    let table = ann.create("create gomoku people rated time=2");
    ben.type_line(&format!("join {table}"));
    ben.expect(&format!("table {table}"));
    ann.type_line("ready");
    ben.type_line("ready");
    ann.expect("Match totals");
    ben.expect("Match totals");
    // At the table, `ranks` means the table's game.
    ben.type_line("ranks");
    ben.expect("Rankings of");
    ben.expect("not ranked yet");
    let first = ben.expect("?");
    let second = ben.expect("?");
    assert!(
        first.contains("ben") && second.contains("ann"),
        "the winner first:\n{}",
        ben.transcript.join("\n")
    );
    ben.type_line("history");
    ben.expect("Ratings: ");
    ben.expect("Record: 五子棋 Gomoku 1 game, 1 won, +1");
    let game = ben.expect("/#/replay/");
    assert!(
        game.contains("with ann") && game.contains(&format!("/#/replay/{table}-1")),
        "{game}"
    );
    ben.type_line("history ann");
    ben.expect("ann");
    let lost = ben.expect("/#/replay/");
    assert!(lost.contains("with ben") && lost.contains(", -"), "{lost}");
    ben.type_line("history nobody");
    ben.expect("no player nobody");
    let _ = server.kill();
    let _ = server.wait();
}

/// A moderator bans a player from the terminal: the moderator hears it done, the player
/// is told why and the client ends; a player who is not a moderator is refused. The
/// moderator reviews the bans before and after lifting one.
#[test]
fn a_moderator_bans_a_player_from_the_terminal() {
    let dir = tempfile_dir("connect-ban");
    let (mut server, addr) = serve(&dir, &["--moderator", "mona"]);
    let mut mona = Terminal::register("mona", &addr);
    let mut carl = Terminal::register("carl", &addr);
    carl.type_line("ban mona because");
    carl.expect("refused (not_moderator)");
    mona.type_line("ban carl");
    mona.expect("`ban` takes a name and the reason");
    mona.type_line("ban carl abuse in chat");
    mona.expect("carl is banned; sessions ended: 1.");
    carl.expect("You are banned by a moderator: abuse in chat.");
    carl.ends("the banned client goes on");
    mona.type_line("bans");
    mona.expect("1 account banned, the latest first:");
    mona.expect("carl — abuse in chat (just now)");
    mona.type_line("unban carl");
    mona.expect("carl is no longer banned.");
    mona.type_line("bans");
    mona.expect("Nobody is banned.");
    let _ = server.kill();
    let _ = server.wait();
}

/// A registered player changes the password from the terminal: the passwords are asked
/// for on lines of their own and never echoed, a mistyped repeat changes nothing, and the
/// player's other sessions end. The old password stops working. Then the player deletes
/// the account, which takes the new password only: the terminal goes on as a guest, and
/// the name can be registered again.
#[test]
fn a_player_changes_the_password_then_deletes_the_account_from_the_terminal() {
    let dir = tempfile_dir("connect-account");
    let (mut server, addr) = serve(&dir, &[]);
    drop(Terminal::register("pat", &addr));
    // Two sessions elsewhere (the registration and a login), not connected now: a
    // connected one would take this terminal over.
    assert!(logs_in(&addr, "pat", "secret-of-pat"));
    let mut pat = Terminal::start(
        "pat",
        &["connect", &addr, "--name", "pat"],
        Some("secret-of-pat"),
    );
    for (typed, answer) in [
        (
            ["secret-of-pat", "short", "short"],
            "refused (bad_password)",
        ),
        (
            ["secret-of-pat", "the new one", "the new one?"],
            "the two new passwords differ; nothing changed",
        ),
        (
            ["secret-of-pat", "the new one", "the new one"],
            "Your password is changed; 2 other sessions of the account ended.",
        ),
    ] {
        pat.type_line("password");
        for line in typed {
            pat.type_line(line);
        }
        pat.expect(answer);
    }
    assert!(
        !pat.transcript
            .iter()
            .any(|l| l.contains("secret-of") || l.contains("new one") || l.contains("short")),
        "a password was shown: {:#?}",
        pat.transcript
    );
    assert!(!logs_in(&addr, "pat", "secret-of-pat"), "the old password");

    // The new password is the one that deletes the account.
    pat.type_line("delete-account");
    pat.type_line("secret-of-pat");
    pat.expect("refused (wrong_password)");
    pat.type_line("delete-account");
    pat.type_line("the new one");
    pat.expect("The account pat is deleted");
    pat.expect("You are guest-");
    assert!(!logs_in(&addr, "pat", "the new one"), "the account is gone");
    let again = Terminal::register("pat", &addr);
    assert!(again.said("as pat"), "{:#?}", again.transcript);
    let _ = server.kill();
    let _ = server.wait();
}

/// A guest at the terminal registers without leaving it, the password asked for twice
/// and never shown; logs out, going on as a guest; and logs in again. The session file
/// follows each change, so the next `qipai connect` is whoever the last one was.
#[test]
fn a_guest_registers_logs_out_and_logs_in_again_from_the_terminal() {
    let dir = tempfile_dir("connect-register");
    let (mut server, addr) = serve(&dir, &[]);
    let session = dir.join("session");
    let session_arg = session.to_str().expect("a path");
    let mut ruth = Terminal::start("ruth", &["connect", &addr, "--session", session_arg], None);
    assert!(ruth.said("(a guest)"), "{:#?}", ruth.transcript);
    for (typed, answer) in [
        (
            &["a long secret", "a long secrets"][..],
            "the two passwords differ",
        ),
        (&["short", "short"][..], "refused (bad_password)"),
        (&["a long secret", "a long secret"][..], "You are ruth."),
    ] {
        ruth.type_line("register ruth");
        for line in typed {
            ruth.type_line(line);
        }
        ruth.expect(answer);
    }
    ruth.type_line("logout now");
    ruth.expect("`logout` takes nothing after it");
    ruth.type_line("logout");
    ruth.expect("Logged out. You go on as a guest.");
    ruth.expect("You are guest-");
    ruth.type_line("login ruth");
    ruth.type_line("a wrong secret");
    ruth.expect("refused (wrong_password)");
    ruth.type_line("login ruth");
    ruth.type_line("a long secret");
    ruth.expect("You are ruth.");
    assert!(
        !ruth
            .transcript
            .iter()
            .any(|l| l.contains("secret") || l.contains("short")),
        "a password was shown: {:#?}",
        ruth.transcript
    );
    ruth.type_line("quit");
    ruth.ends("quit ends it");
    let again = Terminal::start(
        "ruth again",
        &["connect", &addr, "--session", session_arg],
        None,
    );
    assert!(again.said("as ruth"), "{:#?}", again.transcript);
    let _ = server.kill();
    let _ = server.wait();
}

/// One account, one live connection: a second terminal logging in to it takes the
/// account over, and the first says so and stops, rather than connecting again and
/// taking it back, which the second would then do in turn.
#[test]
fn a_terminal_whose_account_connects_elsewhere_stops() {
    let dir = tempfile_dir("connect-taken-over");
    let (mut server, addr) = serve(&dir, &[]);
    let mut first = Terminal::register("tess", &addr);
    let mut second = Terminal::start(
        "tess again",
        &["connect", &addr, "--name", "tess"],
        Some("secret-of-tess"),
    );
    first.expect("This account connected again elsewhere, which plays on; this terminal stops.");
    first.ends("the first terminal goes on");
    second.type_line("games");
    second.expect("doudizhu");
    std::thread::sleep(Duration::from_secs(2));
    while second.next_line(Duration::from_millis(100)).is_some() {}
    assert!(
        !second.said("Connection lost") && !second.said("taken_over"),
        "the second keeps the account: {:#?}",
        second.transcript
    );
    let _ = server.kill();
    let _ = server.wait();
}

/// Whether `qipai connect --name NAME` logs in with `password`, and leaves.
fn logs_in(addr: &str, name: &str, password: &str) -> bool {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qipai"))
        .args(["connect", addr, "--name", name])
        .env("QIPAI_PASSWORD", password)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("qipai connect starts");
    let _ = child.stdin.take().expect("stdin").write_all(b"quit\n");
    let out = child.wait_with_output().expect("it ends");
    out.status.success() && String::from_utf8_lossy(&out.stdout).contains(&format!("as {name}"))
}

#[test]
fn a_person_plays_dou_dizhu_against_computers_through_quick_play() {
    let dir = tempfile_dir("connect-quick");
    let (mut server, addr) = serve(&dir, &[]);
    let mut me = Terminal::connect("player", &addr);
    me.type_line("quick doudizhu");
    // A move typed wrongly is refused with the reason; the game goes on.
    me.expect("» your move");
    me.type_line("7 7 7 7 7");
    me.expect("Try again");
    let deadline = Instant::now() + Duration::from_secs(600);
    while !me.said("Match totals") {
        assert!(Instant::now() < deadline, "the game did not end");
        if let Some(line) = me.next_line(Duration::from_millis(50)) {
            if line.contains("» your move") {
                me.play_hint_or_pass();
            }
        }
    }
    assert_eq!(
        me.transcript
            .iter()
            .filter(|l| l.contains("Try again"))
            .count(),
        1,
        "only the wrong move was refused:\n{}",
        me.transcript.join("\n")
    );
    assert!(!me.said("refused"));
    assert!(me.said("Dealing ") && me.said("your random nonce"));
    assert!(me.said("landlord"));
    let _ = server.kill();
    let _ = server.wait();
}

/// "stand" is both the table's "get up" and Ten and a half's move: on the person's turn
/// it is the move (it used to be sent as "get up", refused until the game's end, so a
/// terminal player could never stand).
#[test]
fn stand_on_your_turn_in_ten_and_a_half_is_the_move() {
    let dir = tempfile_dir("connect-stand");
    let (mut server, addr) = serve(&dir, &[]);
    let mut me = Terminal::connect("player", &addr);
    me.type_line("quick tenhalf");
    let deadline = Instant::now() + Duration::from_secs(300);
    let mut may_stand = false;
    while !me.said("you stand") {
        assert!(
            Instant::now() < deadline,
            "never stood:\n{}",
            me.transcript.join("\n")
        );
        let Some(line) = me.next_line(Duration::from_millis(50)) else {
            continue;
        };
        if line.starts_with("You have ") {
            may_stand = line.contains("hit or stand");
        }
        if line.contains("» your move") {
            me.type_line(if may_stand { "stand" } else { "hit" });
        }
        // A game can end before we may stand (forced hits, then the deck runs out): the
        // next one gives another chance.
        if line.contains("Type `ready` for the next game") {
            me.type_line("ready");
        }
    }
    assert!(!me.said("refused"), "{}", me.transcript.join("\n"));
    let _ = server.kill();
    let _ = server.wait();
}

#[test]
fn the_client_reconnects_by_itself_when_the_server_restarts_and_the_game_goes_on() {
    let dir = tempfile_dir("connect-restart");
    // A fixed port, so the restarted server is where the client looks for it.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("a free port")
        .port();
    let addr = format!("127.0.0.1:{port}");
    let (mut server, _) = serve_at(&dir, &addr, &[]);
    let mut me = Terminal::connect("player", &addr);
    me.type_line("quick bigtwo");
    let mut turns = 0;
    let mut restarted = false;
    let deadline = Instant::now() + Duration::from_secs(600);
    while !me.said("Match totals") {
        assert!(Instant::now() < deadline, "the game did not end");
        let Some(line) = me.next_line(Duration::from_millis(50)) else {
            continue;
        };
        if !line.contains("» your move") {
            continue;
        }
        turns += 1;
        if turns == 3 && !restarted {
            // The server dies between two of our moves, and comes back on the same data.
            server.kill().expect("killed");
            let _ = server.wait();
            me.expect("reconnecting");
            server = serve_at(&dir, &addr, &[]).0;
            me.expect("Reconnected.");
            restarted = true;
            continue;
        }
        me.play_hint_or_pass();
    }
    assert!(
        restarted && !me.said("refused") && !me.said("Try again"),
        "{}",
        me.transcript.join("\n")
    );
    let _ = server.kill();
    let _ = server.wait();
}

/// A fresh directory for one test's server data.
fn tempfile_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("qipai-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}
