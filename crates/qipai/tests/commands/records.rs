//! Records travel between qipai and other programs: `qipai import` reads a Gomoku game in
//! PSQ or SGF, checks every move by the rules and writes a qipai record that `verify`
//! accepts; `qipai export` writes it back, and importing the export gives the same game.

use crate::common::{qipai, said};
use serde_json::Value;

/// Black makes five on column h after a few white replies (1-based PSQ points).
const PSQ: &str = "Piskvorky 15x15, 11:11, 0\n8,8,0\n9,9,0\n8,9,0\n9,8,0\n8,10,0\n10,10,0\n\
                   8,11,0\n11,11,0\n8,7,0\n-1\n";

fn file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("qipai-records-{}-{name}", std::process::id()));
    std::fs::write(&path, text).expect("written");
    path.display().to_string()
}

fn actions(record: &str) -> Value {
    let v: Value = serde_json::from_str(record.trim()).expect("a JSON record");
    v["actions"].clone()
}

#[test]
fn a_psq_game_imports_verifies_exports_as_sgf_and_imports_again_the_same() {
    let psq = file("game.psq", PSQ);
    let imported = qipai(&["import", &psq], b"");
    assert!(imported.status.success(), "{}", said(&imported));
    let record = String::from_utf8_lossy(&imported.stdout).to_string();
    let json = file("game.json", &record);
    let verified = qipai(&["verify", &json], b"");
    assert!(verified.status.success(), "{}", said(&verified));
    assert!(said(&verified).contains("9 actions replay to the recorded result"));

    let sgf = qipai(&["export", &json, "--format", "sgf"], b"");
    assert!(sgf.status.success(), "{}", said(&sgf));
    let sgf_text = String::from_utf8_lossy(&sgf.stdout).to_string();
    assert!(sgf_text.starts_with("(;GM[4]") && sgf_text.contains("RE[B+]"));
    let again = qipai(&["import", &file("game.sgf", &sgf_text)], b"");
    assert!(again.status.success(), "{}", said(&again));
    assert_eq!(
        actions(&String::from_utf8_lossy(&again.stdout)),
        actions(&record)
    );

    let psq_again = qipai(&["export", &json, "--format", "psq"], b"");
    assert_eq!(String::from_utf8_lossy(&psq_again.stdout), PSQ);
}

#[test]
fn an_illegal_game_or_an_unknown_format_is_refused_with_the_reason() {
    // White plays on black's stone.
    let occupied = file("bad.psq", "Piskvorky 15x15, 11:11, 0\n8,8,0\n8,8,0\n-1\n");
    let out = qipai(&["import", &occupied], b"");
    assert!(!out.status.success());
    assert!(said(&out).contains("cannot import"), "{}", said(&out));
    // A move after the five.
    let late = PSQ.replace("-1\n", "1,1,0\n-1\n");
    let out = qipai(&["import", &file("late.psq", &late)], b"");
    assert!(!out.status.success(), "{}", said(&out));

    let out = qipai(&["import", &file("game.txt", PSQ)], b"");
    assert!(said(&out).contains("cannot be read from txt (formats: sgf, psq)"));
    let out = qipai(&["import", &file("g.psq", PSQ), "--game", "doudizhu"], b"");
    assert!(said(&out).contains("doudizhu records cannot be read from psq"));
    let record =
        String::from_utf8_lossy(&qipai(&["import", &file("ok.psq", PSQ)], b"").stdout).to_string();
    let out = qipai(
        &["export", &file("ok.json", &record), "--format", "pdf"],
        b"",
    );
    assert!(said(&out).contains("cannot be written as pdf (formats: sgf, psq)"));
}
