//! The `qipai` binary, driven as a user or a tool would: real processes, real pipes.

use crate::common::qipai;
use std::io::Write;
use std::process::{Command, Stdio};

fn judge(lines: &[&str]) -> Vec<serde_json::Value> {
    let input = lines.join("\n") + "\n";
    let out = qipai(&["judge", "doudizhu"], input.as_bytes());
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("each answer is JSON"))
        .collect()
}

#[test]
fn judge_answers_all_six_ops_in_order() {
    let answers = judge(&[
        r#"{"op":"classify","cards":"3 3 3 4"}"#,
        r#"{"op":"classify","cards":"BJ RJ"}"#,
        r#"{"op":"classify","cards":"3 4"}"#,
        r#"{"op":"classify","cards":"8 9 T J Q K"}"#,
        r#"{"op":"legal","hand":"3 3 4","last":""}"#,
        r#"{"op":"legal","hand":"5 5 7 7 BJ RJ","last":"6 6"}"#,
        r#"{"op":"beats","play":"2 2 2 2","last":"3 4 5 6 7"}"#,
        r#"{"op":"beats","play":"3 3 3 3","last":"BJ RJ"}"#,
        r#"{"op":"score","bid":2,"landlord_won":true,"bombs":1,"spring":false,"anti_spring":false}"#,
        r#"{"op":"game","hands":["3 3 4","5 6","7 8"],"kitty":"","first_bidder":0,"actions":[{"seat":0,"bid":3},{"seat":0,"play":"3 3"},{"seat":1,"play":"pass"},{"seat":2,"play":"pass"},{"seat":0,"play":"4"}]}"#,
        r#"{"op":"game","hands":["3 3 4","5 6","7 8"],"kitty":"","first_bidder":0,"actions":[{"seat":0,"bid":3},{"seat":1,"play":"5"}]}"#,
        r#"{"op":"act","bot":"heuristic","seat":1,"landlord":0,"hand":"3 4 5 6 7 8 9 T J Q K A 2 2 BJ 3 4","kitty":"RJ 3 5","history":[[0,"6 6"]],"seed":7}"#,
    ]);
    assert_eq!(answers.len(), 12);
    assert_eq!(
        answers[0],
        serde_json::json!({"ok":true,"kind":"trio_solo","rank":"3","len":1})
    );
    assert_eq!(
        answers[1],
        serde_json::json!({"ok":true,"kind":"rocket","rank":"RJ","len":1})
    );
    assert_eq!(answers[2], serde_json::json!({"ok":true,"kind":null}));
    assert_eq!(
        answers[3],
        serde_json::json!({"ok":true,"kind":"solo_chain","rank":"8","len":6})
    );
    assert_eq!(
        answers[4],
        serde_json::json!({"ok":true,"plays":["3","3 3","4"]})
    );
    assert_eq!(
        answers[5],
        serde_json::json!({"ok":true,"plays":["7 7","BJ RJ","pass"]})
    );
    assert_eq!(answers[6], serde_json::json!({"ok":true,"beats":true}));
    assert_eq!(answers[7], serde_json::json!({"ok":true,"beats":false}));
    assert_eq!(
        answers[8],
        serde_json::json!({"ok":true,"landlord":8,"peasant":-4})
    );
    assert_eq!(
        answers[9],
        serde_json::json!({"ok":true,"finished":true,"scores":[12,-6,-6],"landlord":0,"multiplier":2})
    );
    assert_eq!(answers[10]["ok"], false);
    assert_eq!(answers[10]["at"], 1);
    assert!(answers[10]["error"]
        .as_str()
        .unwrap()
        .contains("not your turn"));
    assert_eq!(answers[11]["ok"], true);
    let play = answers[11]["play"].as_str().unwrap();
    assert!(
        play == "pass" || play.parse::<doudizhu_play::Play>().is_ok(),
        "{play}"
    );
}

/// The judge's play notation, parsed here without linking the game crate.
mod doudizhu_play {
    pub struct Play;
    impl std::str::FromStr for Play {
        type Err = ();
        fn from_str(s: &str) -> Result<Self, ()> {
            let ok = s.split(' ').all(|t| {
                [
                    "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A", "2", "BJ", "RJ",
                ]
                .contains(&t)
            });
            if ok {
                Ok(Play)
            } else {
                Err(())
            }
        }
    }
}

#[test]
fn judge_answers_bad_input_and_keeps_going() {
    let long = format!(r#"{{"op":"classify","cards":"{}"}}"#, "3 ".repeat(600_000));
    let answers = judge(&[
        "not json",
        "",
        "[1,2]",
        r#"{"op":"fly"}"#,
        r#"{"cards":"3"}"#,
        r#"{"op":"classify"}"#,
        r#"{"op":"classify","cards":"Xz"}"#,
        r#"{"op":"classify","cards":"RJ RJ RJ"}"#,
        r#"{"op":"legal","hand":"3 3","last":"3 4"}"#,
        r#"{"op":"score","bid":7,"landlord_won":true,"bombs":0,"spring":false,"anti_spring":false}"#,
        r#"{"op":"score","bid":1,"landlord_won":"yes","bombs":0,"spring":false,"anti_spring":false}"#,
        r#"{"op":"game","hands":["3"],"kitty":"","first_bidder":0,"actions":[]}"#,
        r#"{"op":"game","hands":["3","4","5"],"kitty":"","first_bidder":5,"actions":[]}"#,
        r#"{"op":"act","bot":"nobody","seat":0,"landlord":0,"hand":"3","history":[]}"#,
        r#"{"op":"act","bot":"random","seat":1,"landlord":0,"hand":"3","history":[]}"#,
        &long,
        r#"{"op":"classify","cards":"3"}"#,
    ]);
    assert_eq!(answers.len(), 16, "one answer per non-blank line");
    for a in &answers[..15] {
        assert_eq!(a["ok"], false, "{a}");
        assert!(a["error"].as_str().is_some_and(|e| !e.is_empty()), "{a}");
    }
    assert_eq!(answers[5]["error"], "\"cards\": unknown card 'Xz'");
    assert_eq!(
        answers[6]["error"],
        "\"cards\": three RJ in a one-deck game"
    );
    assert!(answers[14]["error"]
        .as_str()
        .unwrap()
        .contains("longer than"));
    assert_eq!(
        answers[15],
        serde_json::json!({"ok":true,"kind":"solo","rank":"3","len":1})
    );
}

/// Runs `qipai sim ARGS --json`, which must succeed, and reads the report on its last line.
fn sim_json(args: &[&str]) -> serde_json::Value {
    let out = qipai(&[&["sim"], args, &["--json"]].concat(), b"");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    serde_json::from_str(text.lines().last().unwrap()).unwrap()
}

/// Runs `qipai sim ARGS --per-game FILE`: its report and its games, in game order.
fn sim_games(args: &[&str], tag: &str) -> (serde_json::Value, Vec<serde_json::Value>) {
    let path = std::env::temp_dir().join(format!("qipai-{tag}-{}.jsonl", std::process::id()));
    let report = sim_json(&[args, &["--per-game", path.to_str().unwrap()]].concat());
    let lines = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    let mut games: Vec<serde_json::Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    games.sort_by_key(|g| g["game"].as_u64());
    (report, games)
}

/// `--per-game`: every game one JSON line with its deal and each seat's bot, role, result
/// and score, agreeing with the report; in a duplicate run each deal is played once per
/// seat, the bots rotated over it.
#[test]
fn sim_writes_each_game_as_a_json_line_that_agrees_with_the_report() {
    let (report, games) = sim_games(
        &[
            "doudizhu",
            "--bots",
            "heuristic,random,random",
            "--games",
            "12",
            "--seed",
            "4",
            "--duplicate",
            "--threads",
            "2",
        ],
        "per-game",
    );
    assert_eq!(games.len(), 12, "one line a game");
    let mut heuristic_wins = 0;
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["game"], i as u64);
        assert_eq!(g["deal"], (i / 3) as u64, "deal k is games 3k, 3k+1, 3k+2");
        let bots: Vec<&str> = g["bots"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b.as_str().unwrap())
            .collect();
        assert_eq!(
            bots.iter().position(|&b| b == "heuristic"),
            Some((3 - i % 3) % 3),
            "rotated"
        );
        let roles = g["roles"].as_array().unwrap();
        assert_eq!(roles.iter().filter(|r| *r == "landlord").count(), 1);
        let won = g["won"].as_array().unwrap();
        let scores = g["scores"].as_array().unwrap();
        assert_eq!(
            scores.iter().map(|s| s.as_i64().unwrap()).sum::<i64>(),
            0,
            "zero-sum"
        );
        for s in 0..3 {
            assert_eq!(won[s].as_bool().unwrap(), scores[s].as_i64().unwrap() > 0);
            if bots[s] == "heuristic" && won[s].as_bool().unwrap() {
                heuristic_wins += 1;
            }
        }
        assert!(g["actions"].as_u64().unwrap() > 0);
    }
    assert_eq!(report["bots"][0]["bot"], "heuristic");
    assert_eq!(report["bots"][0]["overall"]["wins"], heuristic_wins);

    let unwritable = qipai(
        &[
            "sim",
            "doudizhu",
            "--bots",
            "random,random,random",
            "--games",
            "1",
            "--per-game",
            "/nonexistent/dir/games.jsonl",
        ],
        b"",
    );
    assert!(!unwritable.status.success());
    assert!(String::from_utf8_lossy(&unwritable.stderr)
        .contains("cannot create /nonexistent/dir/games.jsonl"));

    // A disk that fills up: the games and the report go on, the run ends in the error.
    let full = qipai(
        &[
            "sim",
            "doudizhu",
            "--bots",
            "random,random,random",
            "--games",
            "3",
            "--per-game",
            "/dev/full",
        ],
        b"",
    );
    assert!(!full.status.success());
    assert!(
        String::from_utf8_lossy(&full.stdout).contains("doudizhu: 3 games"),
        "the report is printed"
    );
    assert!(String::from_utf8_lossy(&full.stderr).contains("writing /dev/full"));
}

#[test]
fn sim_prints_a_json_report_on_the_last_line() {
    let args = [
        "doudizhu",
        "--bots",
        "heuristic,random,random",
        "--games",
        "60",
        "--seed",
        "4",
    ];
    let last = sim_json(&args);
    assert_eq!(last["games"], 60);
    assert!(last["games_per_s"].as_f64().unwrap() > 0.0);
    let bots = last["bots"].as_array().unwrap();
    assert_eq!(bots[0]["bot"], "heuristic");
    assert_eq!(bots[0]["overall"]["games"], 60);
    assert_eq!(bots[1]["overall"]["games"], 120);

    let again = sim_json(&[&args[..], &["--threads", "2"]].concat());
    assert_eq!(
        again["bots"], last["bots"],
        "results do not depend on threads"
    );

    let bad = qipai(
        &[
            "sim",
            "doudizhu",
            "--bots",
            "random,wizard,random",
            "--games",
            "1",
        ],
        b"",
    );
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("no bot 'wizard'"));
}

#[test]
fn a_played_game_is_refused_politely_then_recorded_and_verified() {
    let dir = std::env::temp_dir().join(format!("qipai-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.json");
    let record = record.to_str().unwrap();
    let out = qipai(
        &[
            "play", "doudizhu", "--seed", "11", "--bot", "random", "--record", record,
        ],
        "3 4 Xz\nhint\nauto\n".as_bytes(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("refused:"), "{text}");
    assert!(text.contains("hint:"), "{text}");
    assert!(text.contains("your hand:"), "{text}");
    assert!(text.contains("Record added to"), "{text}");

    let ok = qipai(&["verify", record], b"");
    assert!(
        ok.status.success(),
        "{}",
        String::from_utf8_lossy(&ok.stderr)
    );
    assert!(String::from_utf8_lossy(&ok.stdout).starts_with("ok:"));

    let mut json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(record).unwrap()).unwrap();
    json["commitment"] = serde_json::json!("00".repeat(32));
    std::fs::write(record, json.to_string()).unwrap();
    let bad = qipai(&["verify", record], b"");
    assert!(!bad.status.success());
    let said = String::from_utf8_lossy(&bad.stdout);
    assert!(
        said.contains("NOT OK") && said.contains("commitment"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn gomocup_brain_speaks_the_protocol() {
    let out = qipai(
        &["gomocup"],
        b"START 15\nINFO timeout_turn 100\nINFO rule 0\nBEGIN\nTURN 8,8\nABOUT\nFLY\nSTART 99\nEND\nBEGIN\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> = text.lines().filter(|l| !l.starts_with("MESSAGE")).collect();
    assert_eq!(answers[0], "OK");
    assert_eq!(answers[1], "7,7", "the brain opens at the centre");
    let (x, y) = answers[2].split_once(',').expect("a move");
    let (x, y): (u8, u8) = (x.parse().unwrap(), y.parse().unwrap());
    assert!(x < 15 && y < 15 && (x, y) != (7, 7) && (x, y) != (8, 8));
    assert!(answers[3].starts_with("name=\"qipai\""));
    assert!(answers[4].starts_with("UNKNOWN"));
    assert!(answers[5].starts_with("ERROR"), "START 99 is refused");
    assert_eq!(answers.len(), 6, "nothing is read after END: {answers:?}");
}

#[test]
fn a_binary_named_pbrain_is_a_brain() {
    let dir = std::env::temp_dir().join(format!("qipai-pbrain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let link = dir.join("pbrain-qipai");
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_qipai"), &link).unwrap();
    let out = Command::new(&link)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut c| {
            c.stdin.take().unwrap().write_all(b"START 20\nEND\n")?;
            c.wait_with_output()
        })
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "OK");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--first K`: the games K, K + 1, … of a run, played exactly as the whole run plays
/// them (same deals, same seats, same bots' seeds), so a stopped run can be finished.
#[test]
fn sim_first_plays_the_later_games_of_a_run_exactly() {
    let run = [
        "doudizhu",
        "--bots",
        "search:fast,heuristic,random",
        "--seed",
        "5",
        "--duplicate",
        "--threads",
        "2",
    ];
    let (_, whole) = sim_games(&[&run[..], &["--games", "6"]].concat(), "whole");
    let (_, tail) = sim_games(
        &[&run[..], &["--games", "3", "--first", "3"]].concat(),
        "tail",
    );
    assert_eq!(whole.len(), 6);
    assert_eq!(
        tail,
        whole[3..],
        "games 3 to 5, as the whole run played them"
    );
    assert_eq!(tail[0]["game"], 3);
    assert_eq!(
        tail[0]["deal"], 1,
        "a duplicate run's deal follows the game index"
    );
}

/// `engine:Nms`: the engine thinking by the clock, as the Gomocup brain does, in the
/// process; `--first` reaches the external-engine path too.
#[test]
fn sim_times_the_engine_and_resumes_an_engine_match() {
    let report = sim_json(&[
        "gomoku",
        "--a",
        "engine:30ms",
        "--b",
        "random",
        "--games",
        "2",
        "--threads",
        "1",
    ]);
    assert_eq!(report["bots"][0]["bot"], "engine:30ms");
    assert_eq!(
        report["bots"][0]["overall"]["wins"], 2,
        "it beats a random player"
    );
    let engine = format!("{} gomocup", env!("CARGO_BIN_EXE_qipai"));
    let (_, games) = sim_games(
        &[
            "gomoku",
            "--a",
            "random",
            "--b",
            "external",
            "--engine",
            &engine,
            "--engine-ms",
            "50",
            "--games",
            "1",
            "--first",
            "1",
        ],
        "engine-first",
    );
    assert_eq!(games.len(), 1);
    assert_eq!(games[0]["game"], 1);
    assert_eq!(games[0]["bots"][0], "external", "game 1 rotates the seats");
    assert_eq!(games[0]["won"][0], true);
    let unknown = qipai(
        &[
            "sim",
            "gomoku",
            "--a",
            "engine:0ms",
            "--b",
            "random",
            "--games",
            "1",
        ],
        b"",
    );
    assert!(!unknown.status.success(), "0 ms is no setting");
}

#[test]
fn sim_drives_an_external_brain_our_own() {
    let engine = format!("{} gomocup", env!("CARGO_BIN_EXE_qipai"));
    let per_game =
        std::env::temp_dir().join(format!("qipai-engine-games-{}.jsonl", std::process::id()));
    let out = qipai(
        &[
            "sim",
            "gomoku",
            "--a",
            "external",
            "--b",
            "random",
            "--engine",
            &engine,
            "--engine-ms",
            "50",
            "--games",
            "2",
            "--json",
            "--per-game",
            per_game.to_str().unwrap(),
        ],
        b"",
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(report["games"], 2);
    assert_eq!(report["bots"][0]["bot"], "external");
    assert_eq!(
        report["bots"][0]["overall"]["wins"], 2,
        "the brain beats a random player"
    );
    let games = std::fs::read_to_string(&per_game).unwrap();
    std::fs::remove_file(&per_game).unwrap();
    let games: Vec<serde_json::Value> = games
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(games.len(), 2, "the engine's games are written too");
    for (i, g) in games.iter().enumerate() {
        assert_eq!(g["game"], i as u64);
        let engine_seat = g["bots"]
            .as_array()
            .unwrap()
            .iter()
            .position(|b| b == "external")
            .unwrap();
        assert_eq!(engine_seat, i % 2, "colours alternate");
        assert_eq!(g["won"][engine_seat], true);
    }

    let missing = qipai(
        &[
            "sim", "gomoku", "--a", "external", "--b", "random", "--games", "1",
        ],
        b"",
    );
    assert!(!missing.status.success());
    let dead = qipai(
        &[
            "sim",
            "gomoku",
            "--a",
            "external",
            "--b",
            "random",
            "--engine",
            "/nonexistent/brain",
            "--games",
            "1",
        ],
        b"",
    );
    assert!(!dead.status.success());
    assert!(String::from_utf8_lossy(&dead.stderr).contains("cannot start the engine"));
}
