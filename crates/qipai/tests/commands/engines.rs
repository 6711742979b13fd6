//! Your own program in a qipai seat: `qipai sim --engine` and `qipai play --engine` with
//! qipai's JSON-lines engine protocol, and `qipai bot`, a qipai bot behind that protocol.
//! Every engine here is a real process: the `qipai` binary itself, or a shell script.

use crate::common::{qipai, said};
use serde_json::{json, Value};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

const QIPAI: &str = env!("CARGO_BIN_EXE_qipai");

/// A fresh directory for one test's files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qipai-engines-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Writes an executable shell script and returns its path.
fn script(dir: &Path, name: &str, body: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("a script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path.to_string_lossy().into_owned()
}

/// Writes an engine (the script `name`) that keeps every line it is sent in `log` and lets
/// `qipai bot GAME heuristic` answer the turns, leaving out the results it is told (lines
/// with `"over":`, which `qipai bot` would answer), as an engine that learns skips them
/// at its turns; returns its path.
fn logged_heuristic(dir: &Path, name: &str, log: &Path, game: &str) -> String {
    script(
        dir,
        name,
        &format!(
            r#"tee {} | grep --line-buffered -v '"over":' | {QIPAI} bot {game} heuristic"#,
            log.display()
        ),
    )
}

/// Runs `qipai sim` with `args` and the per-game file `games`; returns the games by index.
fn sim(args: &[&str], games: &Path) -> Vec<Value> {
    let mut all: Vec<&str> = vec!["sim"];
    all.extend_from_slice(args);
    let file = games.to_string_lossy();
    all.extend_from_slice(&["--per-game", &file]);
    let out = qipai(&all, b"");
    assert!(out.status.success(), "qipai {all:?}: {}", said(&out));
    let mut games: Vec<Value> = std::fs::read_to_string(games)
        .expect("the per-game file")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a game is JSON"))
        .collect();
    games.sort_by_key(|g| g["game"].as_u64());
    games
}

/// Runs `qipai sim ARGS`, which must fail saying every one of `expected` (each one, or one
/// of its `|`-separated alternatives), and never panic.
fn sim_fails(args: &[&str], expected: &[&str]) {
    let mut all = vec!["sim"];
    all.extend_from_slice(args);
    let out = qipai(&all, b"");
    let text = said(&out);
    assert!(!out.status.success(), "{args:?}: {text}");
    for wanted in expected {
        assert!(
            wanted.split('|').any(|e| text.contains(e)),
            "{args:?}: {text}"
        );
    }
    assert!(!text.contains("panicked"), "{args:?}: {text}");
}

/// `qipai sim` arguments for Dou Dizhu with `engine` (the bot `external`) and two random
/// players, and `extra` options.
fn against_random<'a>(engine: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "doudizhu",
        "--bots",
        "external,random,random",
        "--engine",
        engine,
    ];
    args.extend_from_slice(extra);
    args
}

/// Plays `games` games of `game` with `qipai bot GAME heuristic` as the engine of the
/// seat named `external` in `bots`, and returns every request it was sent.
fn requests(dir: &Path, game: &str, bots: &str, extra: &[&str]) -> Vec<Value> {
    let log = dir.join(format!("{game}-requests.jsonl"));
    let engine = script(
        dir,
        &format!("{game}-tee"),
        &format!(
            r#"tee {} | grep --line-buffered -v '"over":' | {QIPAI} bot {game} heuristic"#,
            log.display()
        ),
    );
    let mut args = vec![game, "--bots", bots, "--engine", &engine];
    args.extend_from_slice(extra);
    sim(&args, &dir.join(format!("{game}-games.jsonl")));
    std::fs::read_to_string(&log)
        .expect("the requests")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a request is JSON"))
        .collect()
}

/// What a game's result is, whoever played it.
fn results(games: &[Value]) -> Vec<(Value, Value, Value)> {
    games
        .iter()
        .map(|g| {
            (
                g["roles"].clone(),
                g["scores"].clone(),
                g["actions"].clone(),
            )
        })
        .collect()
}

/// Every game whose quick bot decides by the view alone, its seed unused (played twice
/// on one deal with bots seeded apart, it plays the same), with that bot and the seats to
/// fill. A bot that draws from its seed (Gomoku's `classic` breaks ties at random) cannot
/// be matched move for move by a process that only sees views.
fn deterministic() -> Vec<(&'static str, &'static str, usize)> {
    use game::{Seed, TableSetup, ToAct};
    let registry = games::registry();
    let plays = |game: &dyn game::ErasedGame, bot: &str, seats: usize, bot_seed: u64| {
        let setup = TableSetup::new("t", Value::Null, seats, Seed::from_u64(5));
        let mut table = game.new_table(&setup).expect("a table");
        for s in 0..seats {
            table
                .set_bot(s, bot, &Seed::from_u64(bot_seed + s as u64))
                .expect("a bot");
        }
        while table.to_act() != ToAct::Finished {
            let seat = table.to_act().seats().iter().next().expect("someone acts");
            table.bot_move(seat).expect("a legal move");
        }
        table.record().actions
    };
    let chosen: Vec<_> = registry
        .games()
        .filter_map(|g| {
            let seats = *g.seats(&Value::Null).expect("a default").start();
            let bot = g.quick_bot();
            (plays(g, bot, seats, 1) == plays(g, bot, seats, 100)).then_some((g.id(), bot, seats))
        })
        .collect();
    assert!(chosen.len() >= 4, "{chosen:?}");
    chosen
}

/// An engine sees each seat's view and legal actions and nothing else; if that is all a
/// bot needs, `qipai bot` behind the protocol plays every game exactly as the bot does in
/// the process. Its answers as typed text (`{"text":…}`) are read back to the same action.
#[test]
fn an_engine_plays_each_game_exactly_as_the_bot_behind_it() {
    let dir = scratch("exact");
    for (game, bot, seats) in deterministic() {
        let engine = format!("{QIPAI} bot {game} {bot}");
        let mut mixed = vec!["external".to_string()];
        mixed.extend(std::iter::repeat_n(bot.to_string(), seats - 1));
        let mixed = mixed.join(",");
        let every = vec!["external"; seats].join(",");
        let base = ["--games", "12", "--seed", "3", "--engine", &engine];
        let one = sim(
            &[&[game, "--bots", &mixed][..], &base[..]].concat(),
            &dir.join("one.jsonl"),
        );
        let all = sim(
            &[&[game, "--bots", &every][..], &base[..]].concat(),
            &dir.join("all.jsonl"),
        );
        assert_eq!(one.len(), 12, "{game}");
        assert_eq!(
            results(&one),
            results(&all),
            "{game}: one engine seat, or all"
        );
        assert!(
            one.iter()
                .enumerate()
                .all(|(i, g)| g["bots"][(seats - i % seats) % seats] == "external"),
            "{game}: the engine's seat rotates as a bot's does"
        );

        // The same engine answering in words, as a player types them.
        let words = script(
            &dir,
            &format!("{game}-words"),
            &format!(
                "{QIPAI} bot {game} {bot} | sed -u 's/^{{\"action\":.*,\"text\":/{{\"text\":/'"
            ),
        );
        let typed = sim(
            &[
                game, "--bots", &every, "--games", "12", "--seed", "3", "--engine", &words,
            ],
            &dir.join("typed.jsonl"),
        );
        assert_eq!(results(&typed), results(&all), "{game}: typed answers");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Gomoku's engines speak Gomocup by default; `--engine-protocol json` seats a JSON engine
/// instead, and every game is played to its end. A card game has no Gomocup brains.
#[test]
fn gomoku_takes_a_json_engine_when_asked_and_a_card_game_refuses_gomocup() {
    let dir = scratch("gomoku");
    let engine = format!("{QIPAI} bot gomoku engine:L1");
    let games = sim(
        &[
            "gomoku",
            "--a",
            "external",
            "--b",
            "classic",
            "--games",
            "4",
            "--engine",
            &engine,
            "--engine-protocol",
            "json",
        ],
        &dir.join("g.jsonl"),
    );
    assert_eq!(games.len(), 4);
    assert!(games.iter().all(|g| g["actions"].as_u64() > Some(8)));

    sim_fails(
        &against_random(
            &format!("{QIPAI} bot doudizhu random"),
            &["--engine-protocol", "gomocup"],
        ),
        &["doudizhu has no Gomocup brains"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// What an engine is sent: the game, the seat, that seat's view (its own hand and no
/// other), every legal action, and the time it may take.
#[test]
fn an_engine_is_sent_its_seat_view_and_legal_actions() {
    let dir = scratch("requests");
    let requests = requests(
        &dir,
        "doudizhu",
        "external,random,random",
        &["--games", "3", "--engine-ms", "250"],
    );
    assert!(requests.len() > 10, "{} requests", requests.len());
    for r in &requests {
        assert_eq!(r["game"], "doudizhu");
        assert_eq!(r["ms"], 250);
        assert_eq!(r["view"]["seat"], r["seat"], "the seat's own view");
        assert!(r["view"]["hand"].is_string(), "with its hand");
        assert!(r["view"]["revealed"].is_null() || r["view"]["phase"] == "over");
        assert!(!r["legal"].as_array().expect("legal").is_empty());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Engines are other people's programs: one that writes no JSON, plays what is not legal,
/// gives up, dies, or says nothing ends the run with an error that says which and where.
/// Nothing panics, and a command that does not start fails before any game.
#[test]
fn a_wrong_engine_ends_the_run_saying_what_it_did() {
    let dir = scratch("wrong");
    let cases = [
        (
            "chatty",
            "while read l; do echo thinking; done",
            "the engine answered 'thinking', which is not a JSON object",
        ),
        (
            "cheat",
            r#"while read l; do echo '{"action":{"play":"BJ RJ"}}'; done"#,
            r#"the engine played {"play":"BJ RJ"}, which is not legal here"#,
        ),
        (
            "nonsense",
            r#"while read l; do echo '{"text":"banana"}'; done"#,
            "the engine played 'banana'",
        ),
        (
            "quitter",
            r#"while read l; do echo '{"error":"out of ideas"}'; done"#,
            "the engine gave up: out of ideas",
        ),
        (
            "dies",
            "exit 3",
            "the engine exited|the engine closed its input",
        ),
        (
            "silent",
            "exec sleep 30",
            "the engine did not answer within 3100 ms",
        ),
    ];
    for (name, body, expected) in cases {
        let engine = script(&dir, name, body);
        sim_fails(
            &against_random(&engine, &["--games", "2", "--engine-ms", "100"]),
            &["game 0, seat 0 (external)", expected],
        );
    }
    sim_fails(
        &against_random("/nonexistent/engine", &[]),
        &["cannot start the engine '/nonexistent/engine'"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine command is split into words as a shell splits it, so a path or an argument
/// with a space in it can be quoted; a quote left open is refused before any game.
#[test]
fn an_engine_command_is_read_as_a_shell_reads_it() {
    let dir = scratch("quoted");
    let spaced = dir.join("my bots");
    std::fs::create_dir_all(&spaced).expect("a directory with a space");
    let engine = script(
        &spaced,
        "first bot",
        &format!(
            r#"[ "$1" = "two words" ] || {{ echo "the argument was '$1'" >&2; exit 9; }}
exec {QIPAI} bot doudizhu heuristic"#
        ),
    );
    let command = format!("'{engine}' \"two words\"");
    let games = sim(
        &against_random(&command, &["--games", "2"]),
        &dir.join("games.jsonl"),
    );
    assert_eq!(games.len(), 2);
    sim_fails(
        &against_random("python3 'my bot.py", &[]),
        &["cannot read the engine command 'python3 'my bot.py': a quote is not closed"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Against a person (`qipai play`), an engine that fails does not end the person's game:
/// the terminal says what it did, the computer takes its seats, and the game is played
/// to its end.
#[test]
fn a_wrong_engine_against_a_person_hands_its_seats_to_the_computer() {
    let dir = scratch("play");
    let engine = script(
        &dir,
        "cheat",
        r#"while read l; do echo '{"action":{"play":"BJ RJ"}}'; done"#,
    );
    let out = qipai(
        &[
            "play",
            "doudizhu",
            "--seed",
            "5",
            "--bot",
            "heuristic",
            "--engine",
            &engine,
        ],
        b"auto\nquit\n",
    );
    let text = said(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains(&format!("The engine `{engine}` failed at seat "))
            && text.contains(
                r#": the engine played {"play":"BJ RJ"}, which is not legal here. The computer (heuristic) plays its seats from here on."#
            ),
        "{text}"
    );
    assert!(text.contains("Totals after 1 game"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--engine-results`: after each game the engine is told, in a line it does not answer,
/// its seat's last view and the result, the same result the run records. Without the
/// flag no such line is sent (the other tests' engines would answer it and fail).
#[test]
fn an_engine_that_asks_is_told_each_result() {
    let dir = scratch("results");
    let log = dir.join("lines.jsonl");
    let engine = logged_heuristic(&dir, "learner", &log, "doudizhu");
    let games = sim(
        &against_random(
            &engine,
            &["--games", "3", "--threads", "1", "--engine-results"],
        ),
        &dir.join("games.jsonl"),
    );
    let lines: Vec<Value> = std::fs::read_to_string(&log)
        .expect("the engine's input")
        .lines()
        .map(|l| serde_json::from_str(l).expect("a line is JSON"))
        .collect();
    let notices: Vec<&Value> = lines.iter().filter(|l| l.get("over").is_some()).collect();
    assert_eq!(notices.len(), 3, "one notice a game");
    for (notice, game) in notices.iter().zip(&games) {
        assert_eq!(notice["game"], "doudizhu");
        assert_eq!(notice["view"]["phase"], "finished");
        assert_eq!(
            notice["view"]["seat"], notice["seat"],
            "the seat's own view"
        );
        assert_eq!(notice["over"]["scores"], game["scores"], "{notice}");
        assert!(notice.get("legal").is_none(), "nothing to answer");
    }
    // Each notice follows its game's last request and comes before the next game's first.
    assert!(lines.last().is_some_and(|l| l.get("over").is_some()));

    sim_fails(
        &[
            "gomoku",
            "--a",
            "external",
            "--b",
            "classic",
            "--engine",
            &format!("{QIPAI} gomocup"),
            "--engine-results",
        ],
        &["--engine-results is for engines of qipai's JSON lines"],
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `qipai bot` answers every line, in order, and never exits on bad input.
#[test]
fn qipai_bot_answers_every_request_and_bad_ones_with_an_error() {
    let dir = scratch("bot");
    let request = requests(
        &dir,
        "bigtwo",
        "external,random,random,random",
        &["--games", "1"],
    )
    .remove(0);
    let mut no_legal = request.clone();
    no_legal["legal"] = json!([]);
    let mut other_game = request.clone();
    other_game["game"] = json!("doudizhu");
    let mut bad_view = request.clone();
    bad_view["view"] = json!({"hand": 17});
    let lines = [
        "not json".to_string(),
        "[1,2]".to_string(),
        String::new(),
        no_legal.to_string(),
        other_game.to_string(),
        bad_view.to_string(),
        "x".repeat((1 << 20) + 5),
        request.to_string(),
    ];
    let out = qipai(
        &["bot", "bigtwo", "heuristic"],
        (lines.join("\n") + "\n").as_bytes(),
    );
    assert!(out.status.success(), "{}", said(&out));
    let answers: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("an answer is JSON"))
        .collect();
    assert_eq!(answers.len(), 7, "one answer a non-blank line: {answers:?}");
    for (i, a) in answers[..6].iter().enumerate() {
        assert!(a["error"].is_string(), "line {i}: {a}");
    }
    assert!(answers[3]["error"]
        .as_str()
        .is_some_and(|e| e.contains("plays bigtwo")));
    assert!(answers[5]["error"]
        .as_str()
        .is_some_and(|e| e.contains("longer")));
    let legal = request["legal"].as_array().expect("legal");
    assert!(legal.contains(&answers[6]["action"]), "{}", answers[6]);
    assert!(answers[6]["text"].is_string());

    let out = qipai(&["bot", "bigtwo", "grandmaster"], b"");
    assert!(!out.status.success());
    assert!(said(&out).contains("grandmaster"), "{}", said(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Kills a process when dropped, so a failing test leaves no server behind.
struct Reaped(std::process::Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Runs `qipai connect` with `engine` (its `--engine…` options) at a real `qipai serve`,
/// types `quick GAME` and nothing else, and waits for `games` games to end; returns what
/// the terminal printed. `engine` may name `ENGINE`, a script that sends the requests to
/// `qipai bot GAME heuristic` through a `tee`, leaving out the results it is told (lines
/// with `"over":`, which `qipai bot` would answer); every line it was sent is returned too,
/// once `notices` results are among them (they may reach the `tee` after the terminal
/// printed the game's end).
fn engine_at_a_hall(
    game: &str,
    engine: &[&str],
    games: usize,
    notices: usize,
) -> (String, Vec<Value>) {
    use std::io::{BufRead, BufReader, Write};
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    let dir = scratch(&format!("hall-{game}"));
    let (server, addr) = crate::common::serve(&dir.join("data"), &[]);
    let _server = Reaped(server);
    let log = dir.join("requests.jsonl");
    let tee = logged_heuristic(&dir, "tee", &log, game);
    let engine: Vec<&str> = engine
        .iter()
        .map(|a| if *a == "ENGINE" { tee.as_str() } else { a })
        .collect();
    let mut terminal = Reaped(
        Command::new(QIPAI)
            .args(["connect", &addr])
            .args(&engine)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("qipai connect starts"),
    );
    let mut input = terminal.0.stdin.take().expect("stdin");
    let (tx, lines) = std::sync::mpsc::channel();
    let stdout = terminal.0.stdout.take().expect("stdout");
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    writeln!(input, "quick {game}").expect("the terminal reads");
    let mut transcript: Vec<String> = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(300);
    while transcript
        .iter()
        .filter(|l| l.starts_with("Match totals"))
        .count()
        < games
    {
        assert!(
            Instant::now() < deadline,
            "{games} games of {game} did not end:\n{}",
            transcript.join("\n")
        );
        if let Ok(line) = lines.recv_timeout(Duration::from_millis(100)) {
            transcript.push(line);
        }
    }
    let sent = || -> Vec<Value> {
        std::fs::read_to_string(&log)
            .unwrap_or_default()
            .lines()
            .map(|l| serde_json::from_str(l).expect("a line sent to the engine is JSON"))
            .collect()
    };
    let told = |lines: &[Value]| lines.iter().filter(|l| l.get("over").is_some()).count();
    let mut requests = sent();
    while told(&requests) < notices && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
        requests = sent();
    }
    drop(terminal);
    let _ = std::fs::remove_dir_all(&dir);
    (transcript.join("\n"), requests)
}

/// A bot author's program at a hall: `qipai connect --engine` with a real `qipai serve`.
/// After `quick GAME` is typed, nothing else is: the engine plays every turn of the
/// terminal's seat, the terminal says `ready` after each game, and games follow one
/// another. No move is refused, not even in 五人斗地主's grab, where seats act at once and
/// another seat's move can come back before the engine's. Each request is the seat's own
/// view, and the terminal says the engine plays the seat's turns, not "type it". With
/// `--engine-results` (asked for in Dou Dizhu, not in 五人斗地主) the engine is told each
/// game's end: its seat's last view and the result the hall recorded.
#[test]
fn an_engine_plays_at_a_hall_game_after_game_from_the_terminal() {
    for (game, games, results) in [("doudizhu", 2, true), ("doudizhu5", 3, false)] {
        let mut options = vec!["--engine", "ENGINE"];
        if results {
            options.push("--engine-results");
        }
        let notices = if results { games } else { 0 };
        let (said, requests) = engine_at_a_hall(game, &options, games, notices);
        assert!(!said.contains("refused"), "{game}: {said}");
        assert!(!said.contains("could not play"), "{game}: {said}");
        // The line under the table says who moves: the engine, not the person.
        assert!(said.contains(": the engine plays it."), "{game}: {said}");
        assert!(!said.contains("type it, or"), "{game}: {said}");
        assert!(requests.len() > 10, "{game}: {} requests", requests.len());
        for r in &requests {
            assert_eq!(r["game"], game);
            // Dou Dizhu's view names its seat, 五人斗地主's its viewer.
            let seat = match game {
                "doudizhu" => &r["view"]["seat"],
                _ => &r["view"]["viewer"]["seat"],
            };
            assert_eq!(seat, &r["seat"], "{game}: the seat's own view");
        }
        let told: Vec<&Value> = requests
            .iter()
            .filter(|r| r.get("over").is_some())
            .collect();
        assert_eq!(told.len(), notices, "{game}: one result a game, if asked");
        for notice in told {
            assert_eq!(notice["view"]["phase"], "finished", "{notice}");
            assert!(notice.get("legal").is_none(), "nothing to answer");
            let scores = notice["over"]["scores"].as_array().expect("scores");
            assert_eq!(scores.len(), 3, "{notice}");
            assert_eq!(
                scores.iter().filter_map(Value::as_i64).sum::<i64>(),
                0,
                "Dou Dizhu's scores balance: {notice}"
            );
            // The view comes from replaying the hall's record, the result from the record:
            // they must agree.
            assert_eq!(
                notice["view"]["scores"], notice["over"]["scores"],
                "{notice}"
            );
        }
    }
}

/// A Gomoku brain of the Gomocup protocol at a hall (`--engine-protocol gomocup`): qipai's
/// own brain plays the terminal's games against the hall's engine, a fresh brain each game.
#[test]
fn a_gomocup_brain_plays_gomoku_at_a_hall() {
    let brain = format!("{QIPAI} gomocup");
    let (said, _) = engine_at_a_hall(
        "gomoku",
        &[
            "--engine",
            &brain,
            "--engine-protocol",
            "gomocup",
            "--engine-ms",
            "100",
        ],
        2,
        0,
    );
    assert!(!said.contains("refused"), "{said}");
    assert!(!said.contains("could not play"), "{said}");
    assert!(said.lines().any(|l| l.starts_with("you: ")), "{said}");
    assert!(said.contains(": the engine plays it."), "{said}");
}
