//! The rules oracle (`qipai judge bigtwo`): one JSON request in, one JSON answer out.
//!
//! Ops: `classify`, `beats`, `legal`, `score`, and `act` (a named bot's move from one seat's
//! view, [`game::judge::act`]). Cards are in the suited notation (`3d Ts Ah`).
//! Malformed requests, unknown cards and duplicate cards answer `{"ok":false,"error":…}`.

use crate::combo::Combo;
use crate::movegen::legal_plays;
use crate::rules::{BigTwo, HAND_SIZE, SEATS};
use crate::scoring::{card_score, results};
use crate::text::parse_set;
use cards::{Card, CardSet};
use game::judge::{answer, array_field, opt_str_field, str_field, unknown_op};
use serde_json::{json, Map, Value};

const OPS: [&str; 5] = ["classify", "beats", "legal", "score", "act"];

/// Answers one judge request.
pub fn judge(request: &Value) -> Value {
    answer(request, |op, fields| match op {
        "classify" => classify(fields),
        "beats" => beats(fields),
        "legal" => legal(fields),
        "score" => score(fields),
        "act" => game::judge::act::<BigTwo>(fields, game::search::legal_in_view::<BigTwo>),
        _ => Err(unknown_op(op, &OPS)),
    })
}

fn body(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// A card-list field; `field` names it in errors.
fn cards(fields: &Map<String, Value>, field: &str) -> Result<CardSet, String> {
    parse_set(str_field(fields, field)?).map_err(|e| format!("\"{field}\": {e}"))
}

/// An optional card-list field, where absent and `""` both mean "none" (leading).
fn opt_cards(fields: &Map<String, Value>, field: &str) -> Result<Option<CardSet>, String> {
    match opt_str_field(fields, field)? {
        Some(text) if !text.trim().is_empty() => parse_set(text)
            .map(Some)
            .map_err(|e| format!("\"{field}\": {e}")),
        _ => Ok(None),
    }
}

/// The play on the table named by `field`, which must be a real play.
fn table_play(fields: &Map<String, Value>, field: &str) -> Result<Option<Combo>, String> {
    opt_cards(fields, field)?
        .map(|set| {
            Combo::classify(set).ok_or_else(|| format!("\"{field}\": {set} is not a Big Two play"))
        })
        .transpose()
}

fn classify(fields: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let set = cards(fields, "cards")?;
    Ok(body(match Combo::classify(set) {
        Some(c) => json!({"kind": c.kind.name(), "top": c.top.to_string()}),
        None => json!({"kind": null}),
    }))
}

/// Whether `play` may be played on `last`: `false` if `play` is no play at all; `last`
/// empty or absent means `play` would lead, which any real play may.
fn beats(fields: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let play = cards(fields, "play")?;
    let last = table_play(fields, "last")?;
    let beats = Combo::classify(play).is_some_and(|p| last.is_none_or(|l| p.beats(&l)));
    Ok(body(json!({ "beats": beats })))
}

fn legal(fields: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let hand = cards(fields, "hand")?;
    let last = table_play(fields, "last")?;
    let must: Option<Card> = match opt_str_field(fields, "must_include")? {
        Some(text) if !text.trim().is_empty() => {
            let set = parse_set(text).map_err(|e| format!("\"must_include\": {e}"))?;
            match (set.len(), set.lowest()) {
                (1, Some(c)) => Some(c),
                _ => return Err("\"must_include\" is one card, e.g. \"3d\"".into()),
            }
        }
        _ => None,
    };
    if let Some(m) = must {
        if !hand.contains(m) {
            return Err(format!(
                "the hand does not hold {m}, which every play must include"
            ));
        }
    }
    let mut plays = Vec::new();
    legal_plays(hand, last.as_ref(), must, &mut plays);
    plays.sort_by_key(|c| (c.order_key(), c.cards));
    let mut list: Vec<Value> = plays.iter().map(|c| json!(c.cards.to_string())).collect();
    if last.is_some() {
        list.push(json!("pass"));
    }
    Ok(body(json!({ "plays": list })))
}

fn score(fields: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let texts = array_field(fields, "hands")?;
    if texts.len() != SEATS {
        return Err(format!(
            "\"hands\" lists the four hands left, not {}",
            texts.len()
        ));
    }
    let mut hands = Vec::with_capacity(SEATS);
    let mut seen = CardSet::EMPTY;
    for (i, t) in texts.iter().enumerate() {
        let text = t
            .as_str()
            .ok_or_else(|| format!("\"hands\"[{i}] must be a string of cards"))?;
        let hand = parse_set(text).map_err(|e| format!("\"hands\"[{i}]: {e}"))?;
        if hand.len() as usize > HAND_SIZE {
            return Err(format!(
                "\"hands\"[{i}] holds {} cards; a hand has 13",
                hand.len()
            ));
        }
        let twice = CardSet::from_bits(seen.bits() & hand.bits());
        if !twice.is_empty() {
            return Err(format!("\"hands\"[{i}]: {twice} is in another hand too"));
        }
        seen = seen.union(hand);
        hands.push(hand);
    }
    let card_scores: Vec<i64> = hands.iter().map(|&h| card_score(h)).collect();
    let results = results(&card_scores);
    Ok(body(
        json!({ "card_scores": card_scores, "results": results }),
    ))
}
