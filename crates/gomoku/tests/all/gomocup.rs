//! The Gomocup brain protocol state machine and its client side.

use gomoku::gomocup::client::{parse_reply, Command, Reply};
use gomoku::gomocup::{Brain, FAST_TURN_MS};
use gomoku::Point;
use std::time::Duration;

fn feed(b: &mut Brain, lines: &[&str]) -> Vec<String> {
    lines.iter().flat_map(|l| b.handle_line(l)).collect()
}

fn last_move(out: &[String]) -> Point {
    match parse_reply(out.last().unwrap()) {
        Reply::Move(p) => p,
        r => panic!("no move: {r:?} in {out:?}"),
    }
}

#[test]
fn gomocup_start_begin_turn_end() {
    let mut b = Brain::new();
    assert_eq!(b.handle_line("START 15"), vec!["OK"]);
    assert!(feed(
        &mut b,
        &[
            "INFO timeout_turn 300",
            "INFO timeout_match 100000",
            "INFO time_left 100000",
            "INFO max_memory 83886080",
            "INFO rule 0",
            "INFO game_type 1"
        ]
    )
    .is_empty());
    let out = b.handle_line("BEGIN");
    assert_eq!(last_move(&out), Point::new(7, 7));
    let out = b.handle_line("TURN 8,8");
    let p = last_move(&out);
    assert!(p.x < 15 && p.y < 15 && p != Point::new(7, 7) && p != Point::new(8, 8));
    assert!(b.handle_line("END").is_empty());
    assert!(b.finished());
}

#[test]
fn gomocup_board_blocks_an_open_four_threat() {
    let mut b = Brain::new();
    b.handle_line("START 20");
    b.handle_line("INFO timeout_turn 300");
    // Opponent (2) has 5,5 6,5 7,5 8,5: we must block at 4,5 or 9,5.
    let out = feed(
        &mut b,
        &[
            "BOARD", "5,5,2", "0,0,1", "6,5,2", "0,2,1", "7,5,2", "0,4,1", "8,5,2", "DONE",
        ],
    );
    let p = last_move(&out);
    assert!(p == Point::new(4, 5) || p == Point::new(9, 5), "{p:?}");
}

#[test]
fn gomocup_completes_its_own_five_from_board() {
    let mut b = Brain::new();
    b.handle_line("START 15");
    let out = feed(
        &mut b,
        &[
            "BOARD", "1,1,1", "10,10,2", "2,1,1", "10,11,2", "3,1,1", "10,12,2", "4,1,1",
            "10,13,2", "DONE",
        ],
    );
    let p = last_move(&out);
    assert!(p == Point::new(0, 1) || p == Point::new(5, 1), "{p:?}");
}

#[test]
fn gomocup_renju_rule_bitmask_and_takeback_restart_about() {
    let mut b = Brain::new();
    assert_eq!(b.handle_line("RECTSTART 15,15"), vec!["OK"]);
    assert!(b.handle_line("RECTSTART 20,15")[0].starts_with("ERROR"));
    b.handle_line("START 15");
    // Caro is refused out loud; the other bits still choose the rule played.
    let caro = b.handle_line("INFO rule 9");
    assert_eq!(caro.len(), 1, "{caro:?}");
    assert!(caro[0].starts_with("ERROR the caro rule"), "{caro:?}");
    assert!(caro[0].ends_with("standard"), "{caro:?}");
    assert!(b.handle_line("INFO rule 2").is_empty());
    assert!(b.handle_line("INFO rule 4").is_empty());
    b.handle_line("INFO timeout_turn 200");
    let out = b.handle_line("BEGIN");
    let p = last_move(&out);
    assert_eq!(
        b.handle_line(&format!("TAKEBACK {},{}", p.x, p.y)),
        vec!["OK"]
    );
    assert!(b.handle_line("TAKEBACK 3,3")[0].starts_with("ERROR"));
    assert_eq!(b.handle_line("RESTART"), vec!["OK"]);
    assert!(b.handle_line("ABOUT")[0].starts_with("name=\"qipai\""));
    assert!(b.handle_line("FROBNICATE")[0].starts_with("UNKNOWN"));
    assert!(b.handle_line("TURN x")[0].starts_with("ERROR"));
    assert!(b.handle_line("START 99")[0].starts_with("ERROR"));
}

#[test]
fn gomocup_refuses_moves_before_start_and_on_occupied_points() {
    let mut b = Brain::new();
    assert!(b.handle_line("TURN 1,1")[0].starts_with("ERROR"));
    assert!(b.handle_line("BEGIN")[0].starts_with("ERROR"));
    b.handle_line("START 15");
    b.handle_line("INFO timeout_turn 100");
    let out = b.handle_line("BEGIN");
    let p = last_move(&out);
    assert!(b.handle_line(&format!("TURN {},{}", p.x, p.y))[0].starts_with("ERROR"));
    assert!(feed(&mut b, &["BOARD", "1,1", "DONE"])[0].starts_with("ERROR"));
}

#[test]
fn gomocup_client_encodes_commands_and_reads_replies() {
    assert_eq!(Command::Start(15).encode(), vec!["START 15"]);
    assert_eq!(Command::Turn(Point::new(3, 4)).encode(), vec!["TURN 3,4"]);
    assert_eq!(
        Command::Board(vec![(Point::new(1, 2), 1), (Point::new(3, 4), 2)]).encode(),
        vec!["BOARD", "1,2,1", "3,4,2", "DONE"]
    );
    assert_eq!(
        Command::Info("timeout_turn".into(), "1000".into()).encode(),
        vec!["INFO timeout_turn 1000"]
    );
    assert_eq!(parse_reply("OK"), Reply::Ok);
    assert_eq!(parse_reply(" 7,8 "), Reply::Move(Point::new(7, 8)));
    assert_eq!(
        parse_reply("MESSAGE hi there"),
        Reply::Message("hi there".into())
    );
    assert_eq!(parse_reply("ERROR bad"), Reply::Error("bad".into()));
    assert_eq!(parse_reply("UNKNOWN x"), Reply::Unknown("x".into()));
    assert_eq!(parse_reply("DEBUG d"), Reply::Debug("d".into()));
    assert!(matches!(parse_reply("name=\"x\""), Reply::Other(_)));
    // A brain driven by the client encoder answers in kind.
    let mut brain = Brain::new();
    let mut replies = Vec::new();
    for cmd in [
        Command::Start(15),
        Command::Info("timeout_turn".into(), "100".into()),
        Command::Begin,
    ] {
        for line in cmd.encode() {
            replies.extend(brain.handle_line(&line).iter().map(|l| parse_reply(l)));
        }
    }
    assert_eq!(replies.first(), Some(&Reply::Ok));
    assert_eq!(replies.last(), Some(&Reply::Move(Point::new(7, 7))));
}

#[test]
fn gomocup_thinking_budget_fits_the_turn_and_the_match_clock() {
    let mut b = Brain::new();
    b.handle_line("START 15");
    b.handle_line("INFO timeout_turn 300");
    b.handle_line("INFO timeout_match 60000");
    b.handle_line("INFO time_left 60000");
    // 300 ms less the margin (a tenth and 30 ms).
    assert_eq!(b.turn_budget(), Duration::from_millis(240));
    // Late in the match a tenth of the time left is less than the turn limit.
    b.handle_line("INFO time_left 1500");
    assert_eq!(b.turn_budget(), Duration::from_millis(105));
    // Never nothing at all.
    b.handle_line("INFO time_left 0");
    assert_eq!(b.turn_budget(), Duration::from_millis(10));
}

#[test]
fn gomocup_timeout_turn_zero_thinks_for_the_documented_fast_turn() {
    // The protocol's 0 means "play as fast as possible": the brain takes FAST_TURN_MS
    // (100 ms), margin included — the same as being given 100 ms per turn.
    let mut fast = Brain::new();
    fast.handle_line("START 15");
    fast.handle_line("INFO timeout_turn 0");
    let mut hundred = Brain::new();
    hundred.handle_line("START 15");
    hundred.handle_line(&format!("INFO timeout_turn {FAST_TURN_MS}"));
    assert_eq!(FAST_TURN_MS, 100);
    assert_eq!(fast.turn_budget(), hundred.turn_budget());
    assert!(fast.turn_budget() <= Duration::from_millis(FAST_TURN_MS));
    // And it still answers with a move.
    assert_eq!(last_move(&fast.handle_line("BEGIN")), Point::new(7, 7));
}

/// A brain that has started on 15×15 and thinks briefly.
fn started() -> Brain {
    let mut b = Brain::new();
    b.handle_line("START 15");
    b.handle_line("INFO timeout_turn 100");
    b
}

#[test]
fn gomocup_board_refuses_a_field_other_than_1_or_2() {
    let mut b = started();
    let out = feed(&mut b, &["BOARD", "7,7,9", "DONE"]);
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("ERROR") && out[0].contains("field 9"),
        "{out:?}"
    );
    // The board was discarded: the brain is on an empty board and opens at the centre.
    assert_eq!(last_move(&b.handle_line("BEGIN")), Point::new(7, 7));
}

#[test]
fn gomocup_board_refuses_field_3_which_only_continuous_games_use() {
    let mut b = started();
    let out = feed(&mut b, &["BOARD", "7,7,2", "8,8,3", "DONE"]);
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("ERROR") && out[0].contains("continuous"),
        "{out:?}"
    );
}

#[test]
fn gomocup_bad_board_line_is_answered_once_at_done_and_the_brain_stays_usable() {
    let mut b = started();
    // The second line is not a stone. BOARD … DONE is one command: one answer, at DONE.
    let mut out = Vec::new();
    for line in ["BOARD", "7,7,2", "1,1", "8,8,1"] {
        out.extend(b.handle_line(line));
    }
    assert!(out.is_empty(), "answered before DONE: {out:?}");
    let out = b.handle_line("DONE");
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0].starts_with("ERROR") && out[0].contains("line 2") && out[0].contains("'1,1'"),
        "{out:?}"
    );
    // Every later command is answered: the brain is on an empty board, as after RESTART.
    let p = last_move(&b.handle_line("TURN 3,3"));
    assert_ne!(p, Point::new(3, 3));
    assert_eq!(b.handle_line("RESTART"), vec!["OK"]);
    let p = last_move(&feed(&mut b, &["BOARD", "7,7,2", "DONE"]));
    assert_ne!(p, Point::new(7, 7));
}

#[test]
fn gomocup_board_refuses_off_board_and_repeated_points() {
    let mut b = started();
    let out = feed(&mut b, &["BOARD", "20,20,1", "DONE"]);
    assert!(out.len() == 1 && out[0].contains("off the"), "{out:?}");
    let out = feed(&mut b, &["BOARD", "7,7,1", "7,7,2", "DONE"]);
    assert!(out.len() == 1 && out[0].contains("twice"), "{out:?}");
}

#[test]
fn gomocup_command_before_done_discards_the_board_and_is_handled() {
    let mut b = started();
    let out = feed(&mut b, &["BOARD", "7,7,2", "ABOUT"]);
    assert_eq!(out.len(), 2, "{out:?}");
    assert!(
        out[0].starts_with("ERROR") && out[0].contains("DONE"),
        "{out:?}"
    );
    assert!(out[1].starts_with("name="), "{out:?}");
    // Not left waiting for a DONE: END ends it.
    feed(&mut b, &["BOARD", "7,7,2", "END"]);
    assert!(b.finished());
}

#[test]
fn gomocup_about_gives_no_made_up_web_address() {
    let about = Brain::new().handle_line("ABOUT");
    assert_eq!(about.len(), 1);
    assert!(about[0].starts_with("name=\"qipai\""), "{about:?}");
    assert!(
        !about[0].contains("www") && !about[0].contains("invalid"),
        "{about:?}"
    );
}

/// A brain on 15×15 with a short turn, Swap2's exactly-five rule.
fn swap2_brain() -> Brain {
    let mut b = Brain::new();
    b.handle_line("START 15");
    feed(&mut b, &["INFO timeout_turn 300", "INFO rule 1"]);
    b
}

/// The points of an answer like `7,7 8,7 9,9`.
fn points(answer: &str) -> Vec<Point> {
    answer
        .split_whitespace()
        .map(|xy| match parse_reply(xy) {
            Reply::Move(p) => p,
            r => panic!("not a point: {r:?} in {answer}"),
        })
        .collect()
}

#[test]
fn swap2_first_player_lays_three_distinct_stones_near_the_centre() {
    let mut b = swap2_brain();
    let out = feed(&mut b, &["SWAP2BOARD", "DONE"]);
    assert_eq!(out.len(), 1, "{out:?}");
    let ps = points(&out[0]);
    assert_eq!(ps.len(), 3, "{out:?}");
    assert!(ps[0] != ps[1] && ps[1] != ps[2] && ps[0] != ps[2]);
    assert!(ps
        .iter()
        .all(|p| (4..=10).contains(&p.x) && (4..=10).contains(&p.y)));
}

#[test]
fn swap2_second_player_swaps_to_the_better_colour_or_stays_with_a_fourth_stone() {
    // Black's two stones side by side in the centre, white's in a corner: black is better.
    let mut b = swap2_brain();
    let out = feed(&mut b, &["SWAP2BOARD", "7,7", "0,0", "8,8", "DONE"]);
    assert_eq!(out, vec!["SWAP"]);
    // Black's stones in two corners, white's in the centre: white is better and stays.
    let out = feed(&mut b, &["SWAP2BOARD", "0,0", "7,7", "14,14", "DONE"]);
    let ps = points(&out[0]);
    assert_eq!(ps.len(), 1, "{out:?}");
    assert!(![(0, 0), (7, 7), (14, 14)].contains(&(ps[0].x, ps[0].y)));
    // An even opening: an answer of one of the three kinds, on empty points.
    let out = feed(&mut b, &["SWAP2BOARD", "7,7", "8,7", "9,9", "DONE"]);
    if out[0] != "SWAP" {
        let ps = points(&out[0]);
        assert!((1..=2).contains(&ps.len()), "{out:?}");
        assert!(ps
            .iter()
            .all(|p| ![(7, 7), (8, 7), (9, 9)].contains(&(p.x, p.y))));
    }
}

#[test]
fn swap2_first_player_takes_black_after_an_open_three_and_white_otherwise() {
    let mut b = swap2_brain();
    // Black has an open three (h8 h9 h10 in the middle), white two far stones.
    let out = feed(
        &mut b,
        &["SWAP2BOARD", "7,6", "0,0", "7,7", "14,14", "7,8", "DONE"],
    );
    assert_eq!(out, vec!["SWAP"]);
    // White has two central stones against black's scattered ones: stay white, play six.
    let out = feed(
        &mut b,
        &["SWAP2BOARD", "0,0", "7,7", "14,0", "7,8", "0,14", "DONE"],
    );
    assert_eq!(points(&out[0]).len(), 1, "{out:?}");
}

#[test]
fn swap2_refuses_other_stone_counts_and_bad_lines_and_stays_usable() {
    let mut b = swap2_brain();
    let out = feed(&mut b, &["SWAP2BOARD", "7,7", "8,8", "DONE"]);
    assert!(
        out[0].starts_with("ERROR") && out[0].contains("0, 3 or 5"),
        "{out:?}"
    );
    let out = feed(&mut b, &["SWAP2BOARD", "7,7,1", "DONE"]);
    assert!(
        out[0].starts_with("ERROR") && out[0].contains("x,y"),
        "{out:?}"
    );
    let out = feed(&mut b, &["SWAP2BOARD", "7,7", "7,7", "8,8", "DONE"]);
    assert!(
        out[0].starts_with("ERROR") && out[0].contains("twice"),
        "{out:?}"
    );
    let out = b.handle_line("BEGIN");
    assert_eq!(last_move(&out), Point::new(7, 7));
}
