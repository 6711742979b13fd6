//! Fairness anyone can check: `qipai verify` (the real binary) accepts an honest record and
//! catches every way a server could rig or doctor one — a seed changed after the
//! commitment, a nonce ignored or left out, a hand-picked deal passed off as random, an
//! edited id, a missing outcome.

use crate::common::said;
use game::registry::play_with_bots;
use game::{Nonce, Record, Seed, TableSetup};
use serde_json::{json, Value};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Writes `record` to a file of its own and runs `qipai verify` on it.
fn verify(record: &Record, args: &[&str]) -> Output {
    static FILES: AtomicUsize = AtomicUsize::new(0);
    let n = FILES.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("qipai-fair-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("record.json");
    std::fs::write(&path, serde_json::to_string(record).unwrap()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_qipai"))
        .arg("verify")
        .arg(&path)
        .args(args)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    out
}

fn nonce(hex: &str) -> Nonce {
    Nonce::from_hex(hex).unwrap()
}

/// An honest Dou Dizhu game: the server's seed, nonces from seats 0 and 1 (seat 2 sent
/// none), played to the end.
fn game_with(seed: Seed, nonces: Vec<Option<Nonce>>, config: Value) -> Record {
    let games = games::registry();
    let game = games.get("doudizhu").expect("Dou Dizhu");
    let setup = TableSetup {
        id: "hall-42".into(),
        config,
        seats: 3,
        seed,
        nonces,
    };
    let mut table = game.new_table(&setup).unwrap();
    play_with_bots(table.as_mut(), "heuristic", &Seed::from_u64(9)).unwrap();
    table.record()
}

fn honest() -> Record {
    game_with(
        Seed::from_u64(1),
        vec![Some(nonce("aa11")), Some(nonce("bb22")), None],
        Value::Null,
    )
}

#[test]
fn an_honest_record_verifies_against_the_commitment_shown_and_the_players_nonce() {
    let record = honest();
    let out = verify(&record, &[]);
    assert!(out.status.success(), "{}", said(&out));
    assert!(
        said(&out).contains("the record's own commitment"),
        "{}",
        said(&out)
    );
    let out = verify(
        &record,
        &["--commitment", &record.commitment, "--nonce", "bb22"],
    );
    assert!(out.status.success(), "{}", said(&out));
    let text = said(&out);
    assert!(text.contains("matches the commitment you gave"), "{text}");
    // Seats are numbered from 1, as a person reads them.
    assert!(text.contains("your nonce: in the record, seat 2"), "{text}");
    assert!(text.contains("nonces of seats 1, 2"), "{text}");
}

#[test]
fn a_server_that_changes_its_seed_after_the_commitment_is_caught() {
    let record = honest();
    // It reveals another seed than the one it committed to.
    let mut other = record.clone();
    other.seed = Some(Seed::from_u64(2));
    let out = verify(&other, &[]);
    assert!(!out.status.success());
    assert!(
        said(&out).contains("does not match the commitment"),
        "{}",
        said(&out)
    );
    // It dealt from another seed but shows the commitment and seed it promised: the
    // recorded play does not replay on the promised cards.
    let mut dealt_otherwise = game_with(Seed::from_u64(2), record.nonces.clone(), Value::Null);
    dealt_otherwise.commitment = record.commitment.clone();
    dealt_otherwise.seed = record.seed;
    let out = verify(&dealt_otherwise, &["--commitment", &record.commitment]);
    assert!(!out.status.success(), "{}", said(&out));
}

#[test]
fn a_server_that_ignores_a_nonce_is_caught() {
    let record = honest();
    // It dealt without the nonces but lists them.
    let mut ignored = game_with(Seed::from_u64(1), vec![], Value::Null);
    ignored.nonces = record.nonces.clone();
    let out = verify(&ignored, &[]);
    assert!(!out.status.success(), "{}", said(&out));
    // It left seat 1's nonce out of the deal and the record: seat 1 finds out.
    let dropped = game_with(
        Seed::from_u64(1),
        vec![Some(nonce("aa11")), None, None],
        Value::Null,
    );
    assert!(
        verify(&dropped, &[]).status.success(),
        "consistent on its own"
    );
    let out = verify(&dropped, &["--nonce", "bb22"]);
    assert!(!out.status.success());
    assert!(said(&out).contains("not in the record"), "{}", said(&out));
    // A nonce edited after the game no longer gives the deal that was played.
    let mut edited = record;
    edited.nonces[0] = Some(nonce("aa12"));
    assert!(!verify(&edited, &[]).status.success());
}

#[test]
fn a_hand_picked_deal_is_not_passed_off_as_random() {
    let deal = json!({"deal": {"hands": ["3 3 3 3 4 4 4 4 5 5 5 5 6 6 6 6 7",
        "7 7 7 8 8 8 8 9 9 9 9 T T T T J J", "J J Q Q Q Q K K K K A A A A 2 2 2"],
        "kitty": "2 BJ RJ"}, "landlord": 0});
    let record = game_with(Seed::from_u64(3), vec![], deal);
    let out = verify(&record, &[]);
    assert!(!out.status.success());
    assert!(
        said(&out).contains("custom deal, not a random one"),
        "{}",
        said(&out)
    );
    let out = verify(&record, &["--allow-custom"]);
    assert!(out.status.success(), "{}", said(&out));
    assert!(
        said(&out).contains("custom deal, not a random one"),
        "{}",
        said(&out)
    );
    // A fixed landlord alone also bypasses what the seed would decide.
    let fixed = game_with(Seed::from_u64(3), vec![], json!({"landlord": 1}));
    assert!(!verify(&fixed, &[]).status.success());
}

#[test]
fn an_edited_id_a_missing_outcome_or_another_commitment_is_not_ok() {
    let record = honest();
    let mut renamed = record.clone();
    renamed.id = "hall-43".into();
    assert!(!verify(&renamed, &[]).status.success());
    let mut unfinished = record.clone();
    unfinished.outcome = None;
    let out = verify(&unfinished, &[]);
    assert!(!out.status.success());
    assert!(
        said(&out).contains("announces no outcome"),
        "{}",
        said(&out)
    );
    let out = verify(&record, &["--commitment", &"ab".repeat(32)]);
    assert!(!out.status.success());
    assert!(
        said(&out).contains("not the one you were shown"),
        "{}",
        said(&out)
    );
    // Gomoku deals nothing, yet its record is bound to its id all the same.
    let games = games::registry();
    let gomoku = games.get("gomoku").expect("Gomoku");
    let mut table = gomoku
        .new_table(&TableSetup::new("g-7", Value::Null, 2, Seed::from_u64(4)))
        .unwrap();
    play_with_bots(table.as_mut(), "engine:L1", &Seed::from_u64(4)).unwrap();
    let mut record = table.record();
    assert!(verify(&record, &[]).status.success());
    record.id = "g-8".into();
    assert!(!verify(&record, &[]).status.success());
}
