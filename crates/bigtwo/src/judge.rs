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
use game::judge::{answer, Field, Fields, JudgeError};
use serde_json::{json, Value};

const OPS: &[&str] = &["classify", "beats", "legal", "score", "act"];

type Answer = Result<Value, JudgeError>;

/// Answers one judge request.
pub fn judge(request: &Value) -> Value {
    answer(request, |op, fields| match op {
        "classify" => classify(fields),
        "beats" => beats(fields),
        "legal" => legal(fields),
        "score" => score(fields),
        "act" => game::judge::act::<BigTwo>(fields, game::search::legal_in_view::<BigTwo>),
        _ => Err(JudgeError::unknown_op(op, OPS)),
    })
}

/// The play on the table: cards that form a Big Two play.
fn table_play(text: &str) -> Result<Combo, String> {
    let set = parse_set(text).map_err(|e| e.to_string())?;
    Combo::classify(set).ok_or_else(|| format!("{set} is not a Big Two play"))
}

fn classify(fields: Fields<'_>) -> Answer {
    let set = fields.cards("cards", parse_set)?;
    Ok(match Combo::classify(set) {
        Some(c) => json!({"kind": c.kind.name(), "top": c.top.to_string()}),
        None => json!({"kind": null}),
    })
}

/// Whether `play` may be played on `last`: `false` if `play` is no play at all; with
/// nothing to beat (leading), any real play may be played.
fn beats(fields: Fields<'_>) -> Answer {
    let play = fields.cards("play", parse_set)?;
    let last = fields.last(table_play)?;
    let beats = Combo::classify(play).is_some_and(|p| last.is_none_or(|l| p.beats(&l)));
    Ok(json!({ "beats": beats }))
}

fn legal(fields: Fields<'_>) -> Answer {
    let hand = fields.cards("hand", parse_set)?;
    let last = fields.last(table_play)?;
    let must: Option<Card> = fields
        .opt_cards("must_include", parse_set)?
        .map(|set| match (set.len(), set.lowest()) {
            (1, Some(c)) => Ok(c),
            _ => Err(JudgeError::invalid("must_include", "one card, e.g. \"3d\"")),
        })
        .transpose()?;
    if let Some(m) = must {
        if !hand.contains(m) {
            return Err(JudgeError::Unreachable(format!(
                "the hand does not hold {m}, which every play must include"
            )));
        }
    }
    let mut plays = Vec::new();
    legal_plays(hand, last.as_ref(), must, &mut plays);
    plays.sort_by_key(|c| (c.order_key(), c.cards));
    let mut list: Vec<Value> = plays.iter().map(|c| json!(c.cards.to_string())).collect();
    if last.is_some() {
        list.push(json!("pass"));
    }
    Ok(json!({ "plays": list }))
}

fn score(fields: Fields<'_>) -> Answer {
    let hands = fields.card_lists("hands", parse_set)?;
    if hands.len() != SEATS {
        return Err(JudgeError::invalid(
            "hands",
            format!("the four hands left, not {}", hands.len()),
        ));
    }
    let mut seen = CardSet::EMPTY;
    for (i, &hand) in hands.iter().enumerate() {
        if hand.len() as usize > HAND_SIZE {
            return Err(JudgeError::invalid(
                Field::at("hands", i),
                format!("{} cards; a hand has 13", hand.len()),
            ));
        }
        let twice = CardSet::from_bits(seen.bits() & hand.bits());
        if !twice.is_empty() {
            return Err(JudgeError::invalid(
                Field::at("hands", i),
                format!("{twice} is in another hand too"),
            ));
        }
        seen = seen.union(hand);
    }
    let card_scores: Vec<i64> = hands.iter().map(|&h| card_score(h)).collect();
    let results = results(&card_scores);
    Ok(json!({ "card_scores": card_scores, "results": results }))
}
