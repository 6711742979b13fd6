//! The terminal as a new user meets it: every command explains itself, refuses bad input
//! early and plainly, and a person at the table always gets to play.

use crate::common::{qipai, said};

#[test]
fn sim_caps_threads_at_the_work_and_the_machine() {
    let out = qipai(
        &[
            "sim",
            "doudizhu",
            "--bots",
            "heuristic,random,random",
            "--games",
            "10",
            "--threads",
            "100000",
            "--json",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", said(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let report: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let threads = report["threads"].as_u64().unwrap();
    assert!((1..=10).contains(&threads), "{threads} threads");
}

#[test]
fn a_person_at_a_full_ten_and_a_half_table_gets_to_play() {
    // With eight players the deck can run out before the dealer's first turn: the person
    // sits left of the dealer and so plays first.
    for seed in ["2", "4", "6"] {
        let out = qipai(
            &["play", "tenhalf", "--players", "8", "--seed", seed],
            b"quit\n",
        );
        assert!(out.status.success(), "{}", said(&out));
        assert!(
            said(&out).contains("your move>"),
            "seed {seed}: {}",
            said(&out)
        );
    }
}

#[test]
fn the_printed_seed_replays_the_deal() {
    let first = qipai(&["play", "bigtwo", "--seed", "17"], b"auto\nquit\n");
    let text = said(&first);
    let seed = text
        .split("Seed: ")
        .nth(1)
        .and_then(|rest| rest.get(..64))
        .unwrap_or_else(|| panic!("a finished game prints its seed: {text}"));
    let again = qipai(&["play", "bigtwo", "--seed", seed], b"quit\n");
    assert!(again.status.success(), "{}", said(&again));
    let hand = |t: &str| {
        t.lines()
            .find(|l| l.contains("your hand"))
            .map(str::to_string)
            .unwrap_or_default()
    };
    assert!(!hand(&said(&again)).is_empty(), "{}", said(&again));
    assert_eq!(hand(&text), hand(&said(&again)));
}

#[test]
fn a_random_gomoku_opening_prints_its_seed_and_the_empty_board_does_not() {
    let play = |config: &str, seed: &str| {
        let out = qipai(
            &[
                "play",
                "gomoku",
                "--bot",
                "engine:L3",
                "--seed",
                seed,
                "--config",
                config,
            ],
            b"auto\nquit\n",
        );
        assert!(out.status.success(), "{}", said(&out));
        said(&out)
    };
    let text = play(r#"{"opening":3}"#, "17");
    let seed = text
        .split("Seed: ")
        .nth(1)
        .and_then(|rest| rest.get(..64))
        .unwrap_or_else(|| panic!("a game from a random opening prints its seed: {text}"));
    assert!(
        text.contains(&format!(
            "Replay this deal: qipai play gomoku --seed {seed} --config '{{\"opening\":3}}'"
        )),
        "{text}"
    );
    // The printed seed lays the same opening: the first board shown is the same.
    let board = |t: &str| t.split("your move>").next().unwrap_or_default().to_string();
    assert_eq!(board(&text), board(&play(r#"{"opening":3}"#, seed)));
    let empty = play("{}", "17");
    assert!(
        !empty.contains("Seed: "),
        "nothing is drawn from the seed: {empty}"
    );
}

#[test]
fn a_bad_record_path_is_refused_before_the_deal() {
    let out = qipai(
        &["play", "doudizhu", "--record", "/no/such/dir/game.json"],
        b"pass\n",
    );
    assert!(!out.status.success());
    let text = said(&out);
    assert!(
        text.contains("cannot write /no/such/dir/game.json"),
        "{text}"
    );
    assert!(!text.contains("your move"), "no game was dealt: {text}");
}

#[test]
fn a_record_of_several_games_verifies_line_by_line() {
    let dir = std::env::temp_dir().join(format!("qipai-match-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("match.jsonl");
    let path = path.to_str().unwrap();
    let out = qipai(
        &["play", "doudizhu", "--seed", "3", "--record", path],
        b"auto\n\nauto\nquit\n",
    );
    assert!(out.status.success(), "{}", said(&out));
    assert!(
        said(&out).contains("Totals after 2 games"),
        "{}",
        said(&out)
    );
    let ok = qipai(&["verify", path], b"");
    assert!(ok.status.success(), "{}", said(&ok));
    assert_eq!(
        said(&ok).matches("ok: doudizhu").count(),
        2,
        "{}",
        said(&ok)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn messages_say_what_is_wrong_in_words() {
    let cases: [(&[&str], &str); 8] = [
        (
            &["sim", "doudizhu", "--bots", "random"],
            "doudizhu takes 3 players; 1 bot named",
        ),
        (
            &["sim", "tenhalf", "--bots", "random"],
            "tenhalf takes 2 to 8 players; 1 bot named",
        ),
        (
            &[
                "sim",
                "doudizhu",
                "--bots",
                "random,random,random",
                "--games",
                "0",
            ],
            "--games",
        ),
        (&["play", "chess"], "unknown game 'chess' (games: doudizhu,"),
        (
            &[
                "sim",
                "doudizhu",
                "--bots",
                "random,random,random",
                "--set",
                "landlord=7",
            ],
            "there is no seat 7",
        ),
        (
            &["play", "doudizhu", "--seed", "seven"],
            "a seed is a number or 64 hex digits",
        ),
        (
            &["play", "doudizhu", "--seat", "0"],
            "there is no seat 0 at a table of 3 (seats 1 to 3)",
        ),
        (
            &["play", "doudizhu", "--seat", "4"],
            "there is no seat 4 at a table of 3 (seats 1 to 3)",
        ),
    ];
    for (args, expected) in cases {
        let out = qipai(args, b"");
        let text = said(&out);
        assert!(!out.status.success(), "{args:?}");
        assert!(text.contains(expected), "{args:?}: {text}");
        assert!(!text.contains("stuck"), "{args:?}: {text}");
        assert!(
            !text.contains("bad configuration: bad configuration"),
            "{text}"
        );
    }
}

#[test]
fn the_landlord_option_goes_through_the_configuration() {
    let out = qipai(
        &[
            "sim",
            "doudizhu",
            "--bots",
            "heuristic,random,random",
            "--set",
            "landlord=0",
            "--no-rotate",
            "--games",
            "20",
            "--json",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", said(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    let report: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    assert_eq!(report["bots"][0]["roles"]["landlord"]["games"], 20);
}

/// Seats are numbered from 1 at the terminal, as in the browser: `--seat 2` is the second
/// seat, and the table and its log call it so.
#[test]
fn play_numbers_seats_from_one() {
    let out = qipai(
        &[
            "play",
            "doudizhu",
            "--seat",
            "2",
            "--seed",
            "5",
            "--bot",
            "heuristic",
        ],
        b"auto\nquit\n",
    );
    let text = said(&out);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("you are seat 2. The computer (heuristic) plays seats 1, 3."),
        "{text}"
    );
    assert!(text.contains("seat 2 (you)"), "{text}");
    assert!(!text.contains("seat 0"), "{text}");
    assert!(text.contains("Totals after 1 game: you "), "{text}");
}
