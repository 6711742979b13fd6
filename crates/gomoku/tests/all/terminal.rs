//! The terminal face: a person reads every point as the board prints it (`h8`), is told
//! which colour they play, and sees the winning five marked. The JSON forms are the
//! protocol and stay `[x, y]`.

use game::{registry, GameSpec, Seed, Table, Viewer};
use gomoku::Gomoku;
use serde_json::json;

fn table(config: serde_json::Value) -> Box<dyn Table> {
    registry::entry::<Gomoku>()
        .new_table(&game::TableSetup::new("t", config, 2, Seed::from_u64(1)))
        .unwrap()
}

/// An action as the table's log writes it.
fn text(t: &dyn Table, action: serde_json::Value) -> String {
    let view = t.view(Viewer::Spectator).unwrap();
    registry::entry::<Gomoku>().action_text(&view, &action)
}

/// Plays the typed points in turn, black first.
fn play(t: &mut Box<dyn Table>, points: &str) {
    for (i, p) in points.split_whitespace().enumerate() {
        t.apply_text(i % 2, p)
            .unwrap_or_else(|e| panic!("{p}: {e}"));
    }
}

/// Whether `text` is a point in board notation (`h8`).
fn board_notation(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && !chars.as_str().is_empty()
        && chars.as_str().chars().all(|c| c.is_ascii_digit())
}

#[test]
fn terminal_move_log_names_points_as_the_board_does() {
    let t = table(json!({}));
    assert_eq!(text(t.as_ref(), json!({"place": [7, 7]})), "h8");
    assert_eq!(text(t.as_ref(), json!({"place": [0, 14]})), "a1");
    // The row number depends on the board's size.
    let big = table(json!({"size": 19}));
    assert_eq!(text(big.as_ref(), json!({"place": [0, 0]})), "a19");
    assert_eq!(text(t.as_ref(), json!("request_undo")), "undo");
}

#[test]
fn terminal_hints_name_points_as_the_board_does() {
    let mut t = table(json!({}));
    play(&mut t, "h8 i9");
    let hints = t.hints(0);
    assert!(!hints.is_empty());
    assert!(hints.iter().all(|h| board_notation(h)), "{hints:?}");
}

#[test]
fn terminal_errors_name_points_as_the_board_does() {
    let mut t = table(json!({}));
    play(&mut t, "h8");
    let taken = t.apply_text(1, "h8").unwrap_err().to_string();
    assert!(taken.contains("h8 is already taken"), "{taken}");
    let bad = t.apply_text(1, "z99").unwrap_err().to_string();
    assert!(bad.contains("h8") && !bad.contains("7,7"), "{bad}");
    // Renju: the forbidden point is named too.
    let mut r = table(json!({"rule": "renju"}));
    play(&mut r, "g8 a1 i8 a3 h7 a5 h9 o1");
    let forbidden = r.apply_text(0, "h8").unwrap_err().to_string();
    assert!(
        forbidden.contains("h8 is forbidden for black: double-three"),
        "{forbidden}"
    );
}

#[test]
fn terminal_render_says_which_colour_the_viewer_plays() {
    let mut t = table(json!({}));
    play(&mut t, "h8");
    let black = t.render(Viewer::Seat(0));
    assert!(black.contains("you play black (X)"), "{black}");
    assert!(black.contains("White (O) to move."), "{black}");
    let white = t.render(Viewer::Seat(1));
    assert!(white.contains("you play white (O)"), "{white}");
    assert!(white.contains("Your move."), "{white}");
    assert!(!black.contains("Your move"), "{black}");
    assert!(white.contains("Move 1: black (X) at h8."), "{white}");
    let watcher = t.render(Viewer::Spectator);
    assert!(!watcher.to_lowercase().contains("you"), "{watcher}");
}

#[test]
fn terminal_render_marks_the_winning_five() {
    let mut t = table(json!({}));
    // Black d8 e8 f8 g8 h8 (h8 last); white on row 1.
    play(&mut t, "d8 a1 e8 b1 f8 c1 g8 d1 h8");
    let text = t.render(Viewer::Seat(1));
    let row8 = text.lines().find(|l| l.starts_with(" 8 ")).unwrap();
    assert_eq!(row8, " 8  . . . # # # #[#]. . . . . . .  8", "{text}");
    // White's stones keep their mark.
    let row1 = text.lines().find(|l| l.starts_with(" 1 ")).unwrap();
    assert!(row1.starts_with(" 1  O O O O ."), "{text}");
    assert!(
        text.contains("Black (X) wins with five in a row, d8–h8 (marked #). You lose."),
        "{text}"
    );
    // A five finished at its top end still reads from the bottom up.
    let mut t = table(json!({}));
    play(&mut t, "h8 a1 h9 b1 h10 c1 h11 d1 h12");
    let text = t.render(Viewer::Seat(0));
    assert!(
        text.contains("wins with five in a row, h8–h12 (marked #). You win."),
        "{text}"
    );
}

#[test]
fn terminal_help_speaks_the_board_notation() {
    let help = Gomoku::help();
    assert!(help.contains("h8") && help.contains('#'), "{help}");
    assert!(!help.contains("7,7") && !help.contains("x,y"), "{help}");
}

#[test]
fn terminal_json_forms_are_unchanged() {
    let mut t = table(json!({}));
    play(&mut t, "h8");
    // Legal actions lead with the hints; a stone is a `place` of 0-based [column, row].
    let legal = t.legal(1).unwrap();
    assert!(legal.contains(&json!({"place": [0, 0]})), "{legal:?}");
    assert!(legal.contains(&json!({"place": [14, 14]})), "{legal:?}");
    assert_eq!(t.view(Viewer::Spectator).unwrap()["moves"], json!([[7, 7]]));
    t.apply(1, &json!({"place": [8, 6]})).unwrap();
    assert_eq!(
        t.record().actions.last().unwrap().action,
        json!({"place": [8, 6]})
    );
}
