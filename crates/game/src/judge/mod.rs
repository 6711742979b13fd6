//! What every game's judge shares: one request layer, so the same input means the same
//! thing in every game, and the `act` op.
//!
//! A judge answers one JSON object per request. Success is `{"ok":true, …}`; anything wrong
//! with the request is `{"ok":false,"error":"…"}` — never a panic, so one bad line cannot end
//! a session of thousands. A judge reads its request through [`Fields`] and refuses with a
//! [`JudgeError`]; [`answer`] shapes both into the answer line.
//!
//! Fields several games have mean the same everywhere (docs/judge.md lists them): `seat`
//! ([`Fields::seat`]), `seed` ([`Fields::seed`]), `last` ([`Fields::last`]), cards
//! ([`Fields::cards`], each game reading its own notation) and a replayed list of actions
//! ([`Fields::replay`], failing with the action's index `at`).

mod error;
mod fields;

pub use error::{Field, JudgeError};
pub use fields::Fields;

use crate::{Decision, GameSpec, Rules, Seat};
use serde_json::{Map, Value};

/// Runs `handler` on the request's `op` and fields and shapes the answer line: the
/// handler's object with `"ok":true` first, or its error as [`JudgeError::answer`].
///
/// A request that is not an object, or has no string `op`, is refused before the handler
/// runs. The handler refuses an op it does not know with [`JudgeError::unknown_op`] and the
/// game's list of ops.
pub fn answer(
    request: &Value,
    handler: impl FnOnce(&str, Fields<'_>) -> Result<Value, JudgeError>,
) -> Value {
    let result = Fields::of(request).and_then(|fields| {
        let op = fields.str("op")?;
        match handler(op, fields)? {
            Value::Object(mut body) => {
                let mut out = Map::new();
                out.insert("ok".into(), Value::Bool(true));
                out.append(&mut body);
                Ok(Value::Object(out))
            }
            other => Err(JudgeError::Internal(format!(
                "the answer {other} is not an object"
            ))),
        }
    });
    result.unwrap_or_else(|e| e.answer())
}

/// The most seats a table of `R` has: the range of `act`'s `seat`.
pub fn max_seats<R: Rules>() -> usize {
    *R::seats(&R::Config::default()).end()
}

/// The `act` op of every game's judge: one seat's view in, a named bot's action out, so
/// another framework or a tournament harness can seat any qipai bot.
///
/// Request: `{"op":"act","bot":"search","seat":1,"view":{…},"legal":[…],"seed":7}` — the
/// view in the JSON form a table sends that seat; `legal` (the seat's legal actions in
/// their JSON form) may be left out, and `legal_of` then works them out from the view;
/// `seed` ([`Fields::seed`]) seeds the bot. Answer: `{"action":…,"text":"…"}`, the action
/// in its JSON form and as a player types it. The bot sees the view and nothing else.
pub fn act<R: GameSpec>(
    fields: Fields<'_>,
    legal_of: impl FnOnce(&R::View, Seat) -> Vec<R::Action>,
) -> Result<Value, JudgeError> {
    let name = fields.str("bot")?;
    let seat = fields.seat("seat", max_seats::<R>())?;
    let seed = fields.seed()?;
    let view: R::View = fields.json("view")?;
    let legal: Vec<R::Action> = match fields.opt_value("legal") {
        None => legal_of(&view, seat),
        Some(_) => fields.json("legal")?,
    };
    if legal.is_empty() {
        return Err(JudgeError::NothingToDo(seat));
    }
    let mut bot = R::bot(name, &seed).ok_or_else(|| JudgeError::UnknownBot {
        name: name.to_string(),
        known: R::bot_names(),
    })?;
    // A view no table would send could trip a bot up; the judge answers an error instead.
    let choice = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        bot.act(&Decision::from_view(&view, seat, &legal))
    }))
    .map_err(|_| JudgeError::BotFailed)?;
    // One of `legal`, as the asker expects (a suited play is given by its ranks).
    let choice = R::listed(&choice);
    let action = serde_json::to_value(&choice).map_err(|e| JudgeError::Internal(e.to_string()))?;
    Ok(serde_json::json!({
        "action": action,
        "text": R::action_text_at(&view, &choice),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const OPS: &[&str] = &["echo"];

    fn echo(request: Value) -> Value {
        answer(&request, |op, f| match op {
            "echo" => Ok(json!({ "op": op, "n": f.u64("n")? })),
            "broken" => Ok(json!([1])),
            _ => Err(JudgeError::unknown_op(op, OPS)),
        })
    }

    #[test]
    fn answers_are_shaped_and_errors_never_panic() {
        assert_eq!(
            echo(json!({"op":"echo","n":3})),
            json!({"ok":true,"op":"echo","n":3})
        );
        assert_eq!(
            echo(json!({"op":"echo"})),
            json!({"ok":false,"error":"missing \"n\""})
        );
        assert_eq!(
            echo(json!([1])),
            json!({"ok":false,"error":"a request is a JSON object with an \"op\""})
        );
        assert_eq!(echo(json!({"n":1}))["error"], json!("missing \"op\""));
        assert_eq!(
            echo(json!({"op":7}))["error"],
            json!("\"op\" must be a string")
        );
        assert_eq!(
            echo(json!({"op":"fly"}))["error"],
            json!("unknown op 'fly' (ops: echo)")
        );
        assert_eq!(echo(json!({"op":"broken"}))["ok"], json!(false));
    }
}
