//! What every game's judge shares: reading request fields, shaping answers, and the `act`
//! op.
//!
//! A judge answers one JSON object per request. Success is `{"ok":true, …}`; anything wrong
//! with the request is `{"ok":false,"error":"…"}` — never a panic, so one bad line cannot end
//! a session of thousands.

use crate::{Decision, GameSpec, Seat, Seed};
use serde_json::{Map, Value};

/// A request field that is missing or of the wrong type, as an error message.
pub type FieldError = String;

/// Runs `handler` on the request's op and fields, turning `Err(message)` into the error
/// answer and adding `"ok":true` to a successful object.
pub fn answer(
    request: &Value,
    handler: impl FnOnce(&str, &Map<String, Value>) -> Result<Map<String, Value>, String>,
) -> Value {
    let Some(fields) = request.as_object() else {
        return error("a request is a JSON object with an \"op\"");
    };
    let Some(op) = fields.get("op").and_then(Value::as_str) else {
        return error("missing \"op\"");
    };
    match handler(op, fields) {
        Ok(mut body) => {
            let mut out = Map::new();
            out.insert("ok".into(), Value::Bool(true));
            out.append(&mut body);
            Value::Object(out)
        }
        Err(e) => error(e),
    }
}

/// The error answer `{"ok":false,"error":message}`.
pub fn error(message: impl std::fmt::Display) -> Value {
    serde_json::json!({ "ok": false, "error": message.to_string() })
}

/// The answer for an op the game does not know.
pub fn unknown_op(op: &str, known: &[&str]) -> String {
    format!("unknown op '{op}' (ops: {})", known.join(", "))
}

/// A required string field.
pub fn str_field<'a>(fields: &'a Map<String, Value>, name: &str) -> Result<&'a str, FieldError> {
    match fields.get(name) {
        Some(Value::String(s)) => Ok(s),
        Some(_) => Err(format!("\"{name}\" must be a string")),
        None => Err(format!("missing \"{name}\"")),
    }
}

/// An optional string field (`None` when absent or null).
pub fn opt_str_field<'a>(
    fields: &'a Map<String, Value>,
    name: &str,
) -> Result<Option<&'a str>, FieldError> {
    match fields.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(format!("\"{name}\" must be a string")),
    }
}

/// A required unsigned integer field.
pub fn u64_field(fields: &Map<String, Value>, name: &str) -> Result<u64, FieldError> {
    match fields.get(name) {
        Some(v) => v
            .as_u64()
            .ok_or_else(|| format!("\"{name}\" must be a non-negative integer")),
        None => Err(format!("missing \"{name}\"")),
    }
}

/// A required boolean field.
pub fn bool_field(fields: &Map<String, Value>, name: &str) -> Result<bool, FieldError> {
    match fields.get(name) {
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(format!("\"{name}\" must be true or false")),
        None => Err(format!("missing \"{name}\"")),
    }
}

/// A required array field.
pub fn array_field<'a>(
    fields: &'a Map<String, Value>,
    name: &str,
) -> Result<&'a Vec<Value>, FieldError> {
    match fields.get(name) {
        Some(Value::Array(a)) => Ok(a),
        Some(_) => Err(format!("\"{name}\" must be an array")),
        None => Err(format!("missing \"{name}\"")),
    }
}

/// The `act` op of every game's judge: one seat's view in, a named bot's action out, so
/// another framework or a tournament harness can seat any qipai bot.
///
/// Request: `{"op":"act","bot":"search","seat":1,"view":{…},"legal":[…],"seed":7}` — the
/// view in the JSON form a table sends that seat; `legal` (the seat's legal actions in
/// their JSON form) may be left out, and `legal_of` then works them out from the view;
/// `seed` (default 0) seeds the bot. Answer: `{"action":…,"text":"…"}`, the action in its
/// JSON form and as a player types it. The bot sees the view and nothing else.
pub fn act<R: GameSpec>(
    fields: &Map<String, Value>,
    legal_of: impl FnOnce(&R::View, Seat) -> Vec<R::Action>,
) -> Result<Map<String, Value>, String> {
    let name = str_field(fields, "bot")?;
    let seat = u64_field(fields, "seat")?;
    let seat = Seat::try_from(seat)
        .ok()
        .filter(|&s| s < 16)
        .ok_or_else(|| format!("\"seat\" {seat} is not a seat"))?;
    let seed = match fields.get("seed") {
        None | Some(Value::Null) => 0,
        Some(_) => u64_field(fields, "seed")?,
    };
    let view_json = fields.get("view").ok_or("missing \"view\"")?;
    let view: R::View =
        serde_json::from_value(view_json.clone()).map_err(|e| format!("\"view\": {e}"))?;
    let legal: Vec<R::Action> = match fields.get("legal") {
        None | Some(Value::Null) => legal_of(&view, seat),
        Some(_) => array_field(fields, "legal")?
            .iter()
            .map(|a| serde_json::from_value(a.clone()).map_err(|e| format!("\"legal\": {e}")))
            .collect::<Result<_, _>>()?,
    };
    if legal.is_empty() {
        return Err(format!("seat {seat} has nothing to do in this view"));
    }
    let mut bot = R::bot(name, &Seed::from_u64(seed))
        .ok_or_else(|| format!("no bot '{name}' (bots: {})", R::bot_names().join(", ")))?;
    // A view no table would send could trip a bot up; the judge answers an error instead.
    let choice = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        bot.act(&Decision::from_view(&view, seat, &legal))
    }))
    .map_err(|_| "the bot could not decide from this view".to_string())?;
    let mut out = Map::new();
    out.insert(
        "text".into(),
        Value::String(R::action_text_at(&view, &choice)),
    );
    out.insert(
        "action".into(),
        serde_json::to_value(&choice).map_err(|e| e.to_string())?,
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn answers_are_shaped_and_errors_never_panic() {
        let echo = |op: &str, f: &Map<String, Value>| -> Result<Map<String, Value>, String> {
            let mut m = Map::new();
            m.insert("op".into(), json!(op));
            m.insert("n".into(), json!(u64_field(f, "n")?));
            Ok(m)
        };
        assert_eq!(
            answer(&json!({"op":"x","n":3}), echo),
            json!({"ok":true,"op":"x","n":3})
        );
        assert_eq!(
            answer(&json!({"op":"x"}), echo),
            json!({"ok":false,"error":"missing \"n\""})
        );
        assert_eq!(answer(&json!([1]), echo)["ok"], json!(false));
        assert_eq!(
            answer(&json!({"n":1}), echo)["error"],
            json!("missing \"op\"")
        );
    }
}
