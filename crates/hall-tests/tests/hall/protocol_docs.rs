//! The protocol's three descriptions agree: the Rust types, the generated schema
//! (docs/protocol.schema.json) and the examples of docs/protocol.md. Every example is a
//! message of the types (nothing in it ignored), valid by the schema, and every message
//! type has an example.
//!
//! After changing the types, regenerate the schema with
//! `QIPAI_WRITE_SCHEMA=1 cargo nextest run --release --workspace -E 'binary(hall) & test(/^protocol_docs::/)'`.

use crate::common::Validator;
use serde_json::Value;
use server::protocol::{ClientMessage, ErrorCode, ServerMessage};
use std::collections::BTreeSet;
use std::path::PathBuf;

/// The protocol's schema, with every game's view.
fn schema() -> serde_json::Value {
    server::protocol::schema(games::view_schemas())
}

fn docs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs")
}

/// The examples: each ```` ```json client ```` or ```` ```json server ```` block.
fn examples() -> Vec<(String, Value)> {
    let text = std::fs::read_to_string(docs().join("protocol.md")).expect("docs/protocol.md");
    let mut out = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        let Some(side) = line.strip_prefix("```json ") else {
            continue;
        };
        let body: Vec<&str> = lines
            .by_ref()
            .take_while(|l| !l.starts_with("```"))
            .collect();
        let value = serde_json::from_str(&body.join("\n"))
            .unwrap_or_else(|e| panic!("an example is not JSON ({e}): {}", body.join("\n")));
        out.push((side.trim().to_string(), value));
    }
    out
}

/// Whether everything in `part` is in `whole` (objects key by key, arrays item by item).
fn contained(part: &Value, whole: &Value) -> bool {
    match (part, whole) {
        (Value::Object(p), Value::Object(w)) => p
            .iter()
            .all(|(k, v)| w.get(k).is_some_and(|x| contained(v, x))),
        (Value::Array(p), Value::Array(w)) => {
            p.len() == w.len() && p.iter().zip(w).all(|(a, b)| contained(a, b))
        }
        _ => part == whole,
    }
}

#[test]
fn the_schema_file_is_generated_from_the_types() {
    let generated = serde_json::to_string_pretty(&schema()).expect("encodes") + "\n";
    let path = docs().join("protocol.schema.json");
    if std::env::var_os("QIPAI_WRITE_SCHEMA").is_some() {
        std::fs::write(&path, &generated).expect("written");
    }
    let stored = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        stored == generated,
        "docs/protocol.schema.json is not the schema of the types: regenerate it with \
         QIPAI_WRITE_SCHEMA=1 cargo nextest run --release --workspace -E 'binary(hall) & test(/^protocol_docs::/)'"
    );
}

/// The check every hall test puts every frame through can fail: frames the server's
/// schema forbids are refused with the place and the reason, the integer formats hold
/// their ranges, and a schema with a keyword the check does not know is refused whole.
#[test]
fn the_frames_check_refuses_what_the_schema_does_not_allow() {
    let server = Validator::new(&schema()["server"]).expect("a server schema");
    let good = serde_json::to_value(ServerMessage::error(
        ErrorCode::Stale,
        "the table moved on",
        Some("t1"),
    ))
    .expect("encodes");
    assert_eq!(server.errors(&good), Vec::<String>::new());
    let broken = |change: &dyn Fn(&mut serde_json::Map<String, Value>)| {
        let mut frame = good.clone();
        change(frame.as_object_mut().expect("an object"));
        server.errors(&frame).join("\n")
    };
    let unknown_code = broken(&|f| {
        f.insert("code".into(), "no_such_code".into());
    });
    assert!(unknown_code.contains("no_such_code"), "{unknown_code}");
    let no_message = broken(&|f| {
        f.remove("message");
    });
    assert!(no_message.contains("message is missing"), "{no_message}");
    let number_message = broken(&|f| {
        f.insert("message".into(), 7.into());
    });
    assert!(
        number_message.contains("/message: 7 is not of type string"),
        "{number_message}"
    );
    let unknown_type = broken(&|f| {
        f.insert("type".into(), "no_such_message".into());
    });
    assert!(unknown_type.contains("fits none"), "{unknown_type}");

    let byte = Validator::new(&serde_json::json!({"type": "integer", "format": "uint8"}))
        .expect("a schema");
    assert!(byte.is_valid(&255.into()));
    assert!(!byte.is_valid(&256.into()) && !byte.is_valid(&(-1).into()));
    let one = Validator::new(&serde_json::json!({"oneOf": [{"type": "integer"}, {"minimum": 0}]}))
        .expect("a schema");
    assert!(one.is_valid(&(-1).into()) && !one.is_valid(&1.into()));
    let closed = Validator::new(&serde_json::json!({
        "type": "object",
        "properties": {"seat": {"$ref": "#/$defs/Seat"}},
        "additionalProperties": false,
        "$defs": {"Seat": {"type": "integer", "minimum": 0}},
    }))
    .expect("a schema");
    assert!(closed.is_valid(&serde_json::json!({"seat": 2})));
    assert!(!closed.is_valid(&serde_json::json!({"seat": -2})));
    assert!(!closed.is_valid(&serde_json::json!({"seat": 2, "hand": []})));

    for (schema, says) in [
        (
            serde_json::json!({"type": "string", "pattern": "^a"}),
            "pattern",
        ),
        (serde_json::json!({"$ref": "#/$defs/Nowhere"}), "Nowhere"),
    ] {
        let refused = Validator::new(&schema).err().expect("refused");
        assert!(refused.contains(says), "{refused}");
    }
}

#[test]
fn every_example_is_a_message_of_the_types_and_valid_by_the_schema() {
    let schema = schema();
    let client = Validator::new(&schema["client"]).expect("a client schema");
    let server = Validator::new(&schema["server"]).expect("a server schema");
    let examples = examples();
    assert!(examples.len() > 40, "{} examples", examples.len());
    for (side, example) in &examples {
        let back = match side.as_str() {
            "client" => {
                let m: ClientMessage = serde_json::from_value(example.clone())
                    .unwrap_or_else(|e| panic!("not a client message ({e}): {example}"));
                assert!(client.is_valid(example), "invalid by the schema: {example}");
                serde_json::to_value(m).expect("encodes")
            }
            "server" => {
                let m: ServerMessage = serde_json::from_value(example.clone())
                    .unwrap_or_else(|e| panic!("not a server message ({e}): {example}"));
                assert!(server.is_valid(example), "invalid by the schema: {example}");
                serde_json::to_value(m).expect("encodes")
            }
            other => panic!("an example marked '{other}', not client or server"),
        };
        assert!(
            contained(example, &back),
            "part of the example is ignored by the types: {example}\nreads back as {back}"
        );
    }
}

/// The `type` of every message in a schema (its `oneOf` variants).
fn message_types(schema: &Value) -> BTreeSet<String> {
    schema["oneOf"]
        .as_array()
        .expect("the messages are a oneOf")
        .iter()
        .filter_map(|v| {
            let t = &v["properties"]["type"];
            t["const"]
                .as_str()
                .or_else(|| t["enum"][0].as_str())
                .map(str::to_string)
        })
        .collect()
}

#[test]
fn every_message_type_has_an_example() {
    let schema = schema();
    let examples = examples();
    for side in ["client", "server"] {
        let shown: BTreeSet<String> = examples
            .iter()
            .filter(|(s, _)| s == side)
            .filter_map(|(_, e)| e["type"].as_str().map(str::to_string))
            .collect();
        let all = message_types(&schema[side]);
        assert!(all.len() > 5, "{side}: {all:?}");
        let missing: Vec<_> = all.difference(&shown).collect();
        assert!(
            missing.is_empty(),
            "{side} messages without an example: {missing:?}"
        );
    }
}

/// The codes of a table in one section of docs/protocol.md: the first cell of each row,
/// between backticks.
fn documented_codes(section: &str) -> BTreeSet<String> {
    let text = std::fs::read_to_string(docs().join("protocol.md")).expect("docs/protocol.md");
    let start = text.find(section).expect("the section");
    let rest = &text[start + section.len()..];
    let end = rest.find("\n## ").unwrap_or(rest.len());
    rest[..end]
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split_once('`'))
        .map(|(code, _)| code.to_string())
        .collect()
}

/// The `err.…` keys of one of the page's dictionaries (`const zh = {…};` in web/js/i18n.js).
fn page_codes(language: &str) -> BTreeSet<String> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../web/js/i18n.js");
    let text = std::fs::read_to_string(path).expect("web/js/i18n.js");
    let open = format!("const {language} = {{");
    let start = text.find(&open).expect("the dictionary") + open.len();
    let end = start + text[start..].find("\n};").expect("its end");
    text[start..end]
        .split("'err.")
        .skip(1)
        .filter_map(|s| s.split_once('\''))
        .map(|(code, _)| code.to_string())
        .collect()
}

/// The server's error codes are one enum; the schema lists exactly its codes, and
/// docs/protocol.md and the page's English and Chinese texts have an entry for each and
/// for nothing else, so a new code cannot be sent undocumented or shown untranslated.
#[test]
fn every_error_code_is_in_the_schema_the_docs_and_both_languages_of_the_page() {
    let codes: BTreeSet<String> = ErrorCode::ALL
        .iter()
        .map(|c| c.as_str().to_string())
        .collect();
    assert_eq!(codes.len(), ErrorCode::ALL.len(), "no code twice");
    for code in ErrorCode::ALL {
        assert_eq!(
            serde_json::to_value(code).expect("encodes"),
            Value::String(code.as_str().into()),
            "the wire form is as_str"
        );
    }
    let schema = schema();
    let in_schema: BTreeSet<String> = schema["server"]["$defs"]["ErrorCode"]["oneOf"]
        .as_array()
        .expect("the codes are a oneOf in the schema")
        .iter()
        .filter_map(|c| c["const"].as_str().map(str::to_string))
        .collect();
    assert_eq!(in_schema, codes, "the schema's codes");
    assert_eq!(
        documented_codes("## Errors"),
        codes,
        "docs/protocol.md's table of codes"
    );
    for language in ["zh", "en"] {
        assert_eq!(page_codes(language), codes, "the page's {language} texts");
    }
}

/// One rule for every client message: a field the message does not have is refused,
/// naming it, whether the message has fields of its own or none (serde lets a stray field
/// through on a message without fields, whatever the attributes say; the server must not).
#[test]
fn every_client_message_refuses_a_field_it_does_not_have() {
    let examples = examples();
    let mut kinds = BTreeSet::new();
    for (_, example) in examples.iter().filter(|(side, _)| side == "client") {
        let mut stray = example.clone();
        stray["stray"] = Value::from(1);
        let error = serde_json::from_value::<ClientMessage>(stray.clone())
            .expect_err(&format!("a stray field is refused: {stray}"));
        assert!(
            error.to_string().contains("`stray`"),
            "the refusal names the field: {error}"
        );
        kinds.insert(example["type"].as_str().unwrap_or_default().to_string());
    }
    assert_eq!(
        kinds,
        message_types(&schema()["client"]),
        "every message tried"
    );
}

/// The section of docs/protocol.md that starts at the heading naming `game` in backticks
/// (`### 斗地主 \`doudizhu\``), up to the next heading.
fn game_section(text: &str, game: &str) -> String {
    let heading = text
        .lines()
        .find(|l| l.starts_with("### ") && l.contains(&format!("`{game}`")))
        .unwrap_or_else(|| panic!("docs/protocol.md has no section on {game}'s view"));
    let start = text.find(heading).unwrap_or_default() + heading.len();
    let rest = &text[start..];
    let end = rest.find("\n#").unwrap_or(rest.len());
    rest[..end].to_string()
}

/// Every game's view is in the schema, and docs/protocol.md explains each of its fields in
/// that game's section (a row of its table of fields), so a client's author need not read
/// the games' Rust to know what `revealed` means in each.
#[test]
fn every_field_of_every_game_s_view_is_explained_in_the_docs() {
    let schema = schema();
    let views = schema["views"].as_object().expect("the views");
    let games: BTreeSet<String> = crate::common::registry()
        .ids()
        .into_iter()
        .map(str::to_string)
        .collect();
    assert_eq!(
        views.keys().cloned().collect::<BTreeSet<_>>(),
        games,
        "a view schema for every game"
    );
    let text = std::fs::read_to_string(docs().join("protocol.md")).expect("docs/protocol.md");
    for (game, view) in views {
        let section = game_section(&text, game);
        let fields = view["properties"].as_object().expect("the view's fields");
        for field in fields.keys() {
            assert!(
                section.contains(&format!("| `{field}` |")),
                "docs/protocol.md's {game} section does not explain `{field}`"
            );
        }
    }
}

/// The tests' client checks every frame it receives against the schema: a frame the
/// schema does not allow fails the test that received it.
#[test]
#[should_panic(expected = "the schema does not allow")]
fn the_tests_client_fails_a_test_on_a_frame_the_schema_does_not_allow() {
    let mut games = std::collections::HashMap::new();
    crate::common::check_frame(r#"{"type":"pong","extra":1}"#, &mut games);
}

/// ... and a view that is not its table's game's (here a Gomoku view at a Dou Dizhu
/// table), though the schema allows it as some game's view.
#[test]
#[should_panic(expected = "view its schema does not allow")]
fn the_tests_client_fails_a_test_on_a_view_its_game_s_schema_does_not_allow() {
    let mut games = std::collections::HashMap::new();
    crate::common::check_frame(
        r#"{"type":"lobby_table","table":{"id":"t1","game":"doudizhu","status":"playing","seats":[],"spectators":0,"options":{"config":null,"private":false,"computers":true,"rated":false,"turn_seconds":{}},"host":"a","games":0,"totals":[],"quick":false}}"#,
        &mut games,
    );
    crate::common::check_frame(
        r#"{"type":"action","table":"t1","seq":1,"seat":0,"action":"resign","events":[],"game":{"game_id":"t1-1","commitment":"c","nonces":[],"view":{"size":15,"rule":"freestyle","undo":"ask","moves":[],"to_move":"black","pending_undo":null,"undo_left":[3,3],"undo_refused":[false,false],"black":0,"swap2":null,"end":null,"win_line":[],"forbidden":[]},"to_act":[],"phase":"move"}}"#,
        &mut games,
    );
}

/// docs/fairness.md's worked example is a real record, as a hall serves it: the page's
/// commitment `C` and game seed `G` are what the server's code computes from it, and the
/// record replays as `qipai verify` replays it, against that commitment and seat 0's nonce.
#[test]
fn the_fairness_example_is_a_real_record_whose_numbers_hold() {
    use game::fair::{commitment, game_seed};
    use game::record::{Record, VerifyOptions};
    use game::{Nonce, Seed};
    let page = std::fs::read_to_string(docs().join("fairness.md")).expect("docs/fairness.md");
    let example = page
        .find("## A worked example")
        .expect("the worked example");
    let text = &page[example..];
    let after = |marker: &str| {
        let start = text
            .find(marker)
            .unwrap_or_else(|| panic!("{marker} in the page"))
            + marker.len();
        text[start..]
            .lines()
            .next()
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    let (shown_c, shown_g) = (after("C = "), after("G = "));
    let record: Record = serde_json::from_str(&after("```json record\n"))
        .expect("the page's record reads as a record");
    let seed: Seed = record.seed.expect("the record reveals its seed");
    assert_eq!(
        commitment(
            &record.game,
            &record.id,
            record.seats,
            &record.config,
            &seed
        ),
        shown_c
    );
    assert_eq!(record.commitment, shown_c);
    let nonces: Vec<Option<Nonce>> = record.nonces.clone();
    assert_eq!(game_seed(&seed, &nonces).to_hex(), shown_g);
    let keys = record.config.as_object().map_or(0, |c| c.len());
    assert_eq!(keys, 4, "the configuration as a Dou Dizhu table records it");
    let games = crate::common::registry();
    let verdict = games
        .get(&record.game)
        .expect("the game")
        .verify(
            &record,
            &VerifyOptions {
                commitment: Some(shown_c.clone()),
                nonce: nonces[0].clone(),
                allow_custom: false,
            },
        )
        .expect("the record verifies");
    assert_eq!(verdict.nonce_seat, Some(0));
}
