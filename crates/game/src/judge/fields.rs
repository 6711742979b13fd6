//! Reading a request's fields: typed readers, and one meaning for each field name that
//! several games share (`seat`, `seed`, `last`, cards, replayed lists).

use super::error::{Field, JudgeError};
use crate::{Seat, Seed};
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use std::fmt::Display;

/// A JSON object read field by field: a request, or one action inside a request's list.
///
/// Every judge reads through this, so a field means the same in every game: a missing
/// field, a value of the wrong type and a value the game cannot take are told apart and
/// named alike, and the shared fields ([`Fields::seat`], [`Fields::seed`],
/// [`Fields::last`], [`Fields::cards`], [`Fields::replay`]) are read by one piece of code.
/// An optional field given as `null` is the same as an absent one, as most JSON writers
/// emit `null` for "none".
#[derive(Debug, Clone, Copy)]
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
}

impl<'a> Fields<'a> {
    /// The fields of a request; anything but a JSON object is not a request.
    pub fn of(request: &'a Value) -> Result<Fields<'a>, JudgeError> {
        match request {
            Value::Object(map) => Ok(Fields { map }),
            _ => Err(JudgeError::NotAnObject),
        }
    }

    /// The fields of `value`, element `index` of the list `list`, which must be an object
    /// as `expected` describes (`an action {"seat":…,"act":…}`).
    pub fn element(
        list: &str,
        index: usize,
        value: &'a Value,
        expected: &'static str,
    ) -> Result<Fields<'a>, JudgeError> {
        match value {
            Value::Object(map) => Ok(Fields { map }),
            _ => Err(JudgeError::WrongType {
                field: Field::at(list, index),
                expected,
            }),
        }
    }

    /// A field's value, `None` when absent or `null`.
    pub fn opt_value(&self, name: &str) -> Option<&'a Value> {
        self.map.get(name).filter(|v| !v.is_null())
    }

    /// Whether the field is given (present and not `null`).
    pub fn has(&self, name: &str) -> bool {
        self.opt_value(name).is_some()
    }

    /// A required field's value, whatever its type.
    pub fn value(&self, name: &str) -> Result<&'a Value, JudgeError> {
        self.opt_value(name)
            .ok_or_else(|| JudgeError::Missing(Field::new(name)))
    }

    /// A required field whose value must be `expected` (`pick` answers `None` otherwise).
    fn typed<T>(
        &self,
        name: &str,
        expected: &'static str,
        pick: impl FnOnce(&'a Value) -> Option<T>,
    ) -> Result<T, JudgeError> {
        pick(self.value(name)?).ok_or_else(|| JudgeError::WrongType {
            field: Field::new(name),
            expected,
        })
    }

    /// An optional field whose value must be `expected` when given.
    fn opt_typed<T>(
        &self,
        name: &str,
        expected: &'static str,
        pick: impl FnOnce(&'a Value) -> Option<T>,
    ) -> Result<Option<T>, JudgeError> {
        match self.opt_value(name) {
            None => Ok(None),
            Some(_) => self.typed(name, expected, pick).map(Some),
        }
    }

    /// A required string.
    pub fn str(&self, name: &str) -> Result<&'a str, JudgeError> {
        self.typed(name, "a string", Value::as_str)
    }

    /// An optional string.
    pub fn opt_str(&self, name: &str) -> Result<Option<&'a str>, JudgeError> {
        self.opt_typed(name, "a string", Value::as_str)
    }

    /// A required non-negative integer.
    pub fn u64(&self, name: &str) -> Result<u64, JudgeError> {
        self.typed(name, "a non-negative integer", Value::as_u64)
    }

    /// An optional non-negative integer.
    pub fn opt_u64(&self, name: &str) -> Result<Option<u64>, JudgeError> {
        self.opt_typed(name, "a non-negative integer", Value::as_u64)
    }

    /// A required `true` or `false`.
    pub fn bool(&self, name: &str) -> Result<bool, JudgeError> {
        self.typed(name, "true or false", Value::as_bool)
    }

    /// A required array.
    pub fn array(&self, name: &str) -> Result<&'a [Value], JudgeError> {
        self.typed(name, "an array", |v| v.as_array().map(Vec::as_slice))
    }

    /// A required field in a JSON form the game defines (a view, a list of actions); the
    /// decoder's words say what did not fit.
    pub fn json<T: DeserializeOwned>(&self, name: &str) -> Result<T, JudgeError> {
        T::deserialize(self.value(name)?).map_err(|e| JudgeError::invalid(name, e))
    }

    /// A seat of a table of `seats`: a number from 0, as programs index seats. A seat the
    /// table does not have is refused here, by the same words in every game, rather than
    /// by whatever the game would do with it.
    pub fn seat(&self, name: &str, seats: usize) -> Result<Seat, JudgeError> {
        let n = self.u64(name)?;
        Seat::try_from(n)
            .ok()
            .filter(|&s| s < seats)
            .ok_or_else(|| {
                JudgeError::invalid(name, format!("a seat is {}, not {n}", seats_text(seats)))
            })
    }

    /// The `seed` field, which seeds bots and redeals: absent or `null` is seed 0, so a
    /// request without one answers the same every time; a number `n` is
    /// [`Seed::from_u64`]`(n)`; a string is what a person may type after `--seed` — a
    /// number or the 64 hex digits a finished game prints ([`Seed::from_text`]).
    pub fn seed(&self) -> Result<Seed, JudgeError> {
        match self.opt_value("seed") {
            None => Ok(Seed::from_u64(0)),
            Some(Value::String(text)) => {
                Seed::from_text(text).map_err(|e| JudgeError::invalid("seed", e))
            }
            Some(v) => v.as_u64().map(Seed::from_u64).ok_or(JudgeError::WrongType {
                field: Field::new("seed"),
                expected: "a non-negative integer or a printed seed (64 hex digits)",
            }),
        }
    }

    /// A required string of cards, read by the game's own notation (`parse`): its error
    /// is given as the reason, under the field's name.
    pub fn cards<T, E: Display>(
        &self,
        name: &str,
        parse: impl FnOnce(&str) -> Result<T, E>,
    ) -> Result<T, JudgeError> {
        let text = self.typed(name, "a string of cards", Value::as_str)?;
        parse(text).map_err(|e| JudgeError::invalid(name, e))
    }

    /// An optional string of cards: absent, `null` and a blank string all mean none.
    pub fn opt_cards<T, E: Display>(
        &self,
        name: &str,
        parse: impl FnOnce(&str) -> Result<T, E>,
    ) -> Result<Option<T>, JudgeError> {
        match self.opt_typed(name, "a string of cards", Value::as_str)? {
            Some(text) if !text.trim().is_empty() => parse(text)
                .map(Some)
                .map_err(|e| JudgeError::invalid(name, e)),
            _ => Ok(None),
        }
    }

    /// A required array of strings of cards (one hand per seat, say), each read by
    /// `parse`; an error names the element (`"hands"[2]`).
    pub fn card_lists<T, E: Display>(
        &self,
        name: &str,
        mut parse: impl FnMut(&str) -> Result<T, E>,
    ) -> Result<Vec<T>, JudgeError> {
        self.array(name)?
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let text = v.as_str().ok_or_else(|| JudgeError::WrongType {
                    field: Field::at(name, i),
                    expected: "a string of cards",
                })?;
                parse(text).map_err(|e| JudgeError::invalid(Field::at(name, i), e))
            })
            .collect()
    }

    /// The `last` field: the play to beat, read by the game's `parse`, or `None` when the
    /// seat leads. Absent, `null`, a blank string and `"pass"` (any case) all mean
    /// leading: a tool that tracks the table as "the last play, or pass" and one that
    /// leaves the field out ask the same question, in every game.
    pub fn last<T, E: Display>(
        &self,
        parse: impl FnOnce(&str) -> Result<T, E>,
    ) -> Result<Option<T>, JudgeError> {
        let text = self.opt_typed("last", "a string of cards, or \"pass\"", Value::as_str)?;
        match text.map(str::trim) {
            None | Some("") => Ok(None),
            Some(t) if t.eq_ignore_ascii_case("pass") => Ok(None),
            Some(t) => parse(t)
                .map(Some)
                .map_err(|e| JudgeError::invalid("last", e)),
        }
    }

    /// Replays the list `name` in order: `step` gets each element and its index, and the
    /// first error stops the replay as the failure of that action — answered with its
    /// index, `{"ok":false,"error":…,"at":i}`. Answers how many were replayed.
    pub fn replay(
        &self,
        name: &str,
        mut step: impl FnMut(usize, &'a Value) -> Result<(), JudgeError>,
    ) -> Result<usize, JudgeError> {
        let list = self.array(name)?;
        for (i, v) in list.iter().enumerate() {
            step(i, v).map_err(|e| e.at(i))?;
        }
        Ok(list.len())
    }
}

/// The seats of a table of `seats`, in words: `0 or 1`, `0, 1 or 2`, `0 to 7`.
fn seats_text(seats: usize) -> String {
    match seats {
        0 => "none".into(),
        1 => "0".into(),
        2..=5 => {
            let first: Vec<String> = (0..seats - 1).map(|s| s.to_string()).collect();
            format!("{} or {}", first.join(", "), seats - 1)
        }
        _ => format!("0 to {}", seats - 1),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn fields(v: &Value) -> Fields<'_> {
        Fields::of(v).expect("an object")
    }

    /// Cards for these tests: words of letters, at least one.
    fn letters(text: &str) -> Result<Vec<String>, String> {
        let words: Vec<String> = text.split_whitespace().map(str::to_string).collect();
        match words
            .iter()
            .find(|w| !w.chars().all(|c| c.is_ascii_alphabetic()))
        {
            Some(w) => Err(format!("unknown card '{w}'")),
            None if words.is_empty() => Err("no cards".into()),
            None => Ok(words),
        }
    }

    #[test]
    fn typed_readers_tell_missing_wrong_and_null_apart() {
        let v = json!({"s":"x","n":3,"b":true,"a":[1],"null":null,"neg":-1});
        let f = fields(&v);
        assert_eq!(f.str("s"), Ok("x"));
        assert_eq!(f.u64("n"), Ok(3));
        assert_eq!(f.bool("b"), Ok(true));
        assert_eq!(f.array("a").map(<[Value]>::len), Ok(1));
        assert_eq!(f.opt_str("null"), Ok(None));
        assert_eq!(f.opt_u64("gone"), Ok(None));
        assert!(!f.has("null"));
        assert_eq!(f.str("gone").unwrap_err().to_string(), "missing \"gone\"");
        assert_eq!(
            f.str("null").unwrap_err().to_string(),
            "missing \"null\"",
            "null is absent"
        );
        assert_eq!(
            f.u64("neg").unwrap_err().to_string(),
            "\"neg\" must be a non-negative integer"
        );
        assert_eq!(
            f.bool("s").unwrap_err().to_string(),
            "\"s\" must be true or false"
        );
        assert!(Fields::of(&json!([1])).is_err());
        let e = Fields::element("actions", 2, &json!(7), "an action").unwrap_err();
        assert_eq!(e.to_string(), "\"actions\"[2] must be an action");
    }

    #[test]
    fn seat_is_a_number_the_table_has() {
        let v = json!({"seat":2,"big":5,"text":"1"});
        let f = fields(&v);
        assert_eq!(f.seat("seat", 3), Ok(2));
        assert_eq!(
            f.seat("seat", 2).unwrap_err().to_string(),
            "\"seat\": a seat is 0 or 1, not 2"
        );
        assert_eq!(
            f.seat("big", 3).unwrap_err().to_string(),
            "\"big\": a seat is 0, 1 or 2, not 5"
        );
        assert_eq!(
            f.seat("big", 5).unwrap_err().to_string(),
            "\"big\": a seat is 0, 1, 2, 3 or 4, not 5"
        );
        assert_eq!(f.seat("big", 8), Ok(5));
        assert_eq!(
            f.seat("big", 4).unwrap_err().to_string(),
            "\"big\": a seat is 0, 1, 2 or 3, not 5"
        );
        assert_eq!(
            f.seat("seat", 1).unwrap_err().to_string(),
            "\"seat\": a seat is 0, not 2"
        );
        let many = json!({"seat":9});
        assert_eq!(
            fields(&many).seat("seat", 8).unwrap_err().to_string(),
            "\"seat\": a seat is 0 to 7, not 9"
        );
        assert_eq!(
            f.seat("text", 3).unwrap_err().to_string(),
            "\"text\" must be a non-negative integer"
        );
    }

    #[test]
    fn seed_is_zero_by_default_a_number_or_a_printed_seed() {
        let zero = Seed::from_u64(0);
        assert_eq!(fields(&json!({})).seed(), Ok(zero));
        assert_eq!(fields(&json!({"seed":null})).seed(), Ok(zero));
        assert_eq!(fields(&json!({"seed":7})).seed(), Ok(Seed::from_u64(7)));
        assert_eq!(fields(&json!({"seed":"7"})).seed(), Ok(Seed::from_u64(7)));
        let printed = Seed::from_u64(9).to_hex();
        assert_eq!(
            fields(&json!({ "seed": printed })).seed(),
            Ok(Seed::from_u64(9))
        );
        let e = fields(&json!({"seed":"seven"})).seed().unwrap_err();
        assert!(e.to_string().starts_with("\"seed\": "), "{e}");
        let e = fields(&json!({"seed":-1})).seed().unwrap_err();
        assert!(e.to_string().starts_with("\"seed\" must be"), "{e}");
    }

    #[test]
    fn cards_read_through_the_games_notation_under_the_fields_name() {
        let v = json!({"hand":"a b","bad":"a 9","num":3,"blank":" ","hands":["a",7,"b 1"]});
        let f = fields(&v);
        assert_eq!(f.cards("hand", letters), Ok(vec!["a".into(), "b".into()]));
        assert_eq!(
            f.cards("bad", letters).unwrap_err().to_string(),
            "\"bad\": unknown card '9'"
        );
        assert_eq!(
            f.cards("num", letters).unwrap_err().to_string(),
            "\"num\" must be a string of cards"
        );
        assert_eq!(f.opt_cards("blank", letters), Ok(None));
        assert_eq!(f.opt_cards("gone", letters), Ok(None));
        assert_eq!(
            f.card_lists("hands", letters).unwrap_err().to_string(),
            "\"hands\"[1] must be a string of cards"
        );
        let v = json!({"hands":["a","b 1"]});
        assert_eq!(
            fields(&v)
                .card_lists("hands", letters)
                .unwrap_err()
                .to_string(),
            "\"hands\"[1]: unknown card '1'"
        );
    }

    #[test]
    fn last_absent_null_blank_and_pass_all_mean_leading() {
        for v in [
            json!({}),
            json!({"last":null}),
            json!({"last":""}),
            json!({"last":"  "}),
            json!({"last":"pass"}),
            json!({"last":" PASS "}),
        ] {
            assert_eq!(fields(&v).last(letters), Ok(None), "{v}");
        }
        assert_eq!(
            fields(&json!({"last":"a"})).last(letters),
            Ok(Some(vec!["a".to_string()]))
        );
        assert_eq!(
            fields(&json!({"last":"a 9"}))
                .last(letters)
                .unwrap_err()
                .to_string(),
            "\"last\": unknown card '9'"
        );
        assert_eq!(
            fields(&json!({"last":3}))
                .last(letters)
                .unwrap_err()
                .to_string(),
            "\"last\" must be a string of cards, or \"pass\""
        );
    }

    #[test]
    fn a_replay_stops_at_the_first_failing_action_with_its_index() {
        let v = json!({"moves":[1,2,"x",4]});
        let mut seen = Vec::new();
        let e = fields(&v)
            .replay("moves", |i, m| {
                let n = m.as_u64().ok_or(JudgeError::WrongType {
                    field: Field::at("moves", i),
                    expected: "a number",
                })?;
                seen.push(n);
                Ok(())
            })
            .unwrap_err();
        assert_eq!(seen, [1, 2]);
        assert_eq!(
            e.answer(),
            json!({"ok":false,"error":"\"moves\"[2] must be a number","at":2})
        );
        assert_eq!(
            fields(&json!({"moves":[]})).replay("moves", |_, _| Ok(())),
            Ok(0)
        );
        assert_eq!(
            fields(&json!({}))
                .replay("moves", |_, _| Ok(()))
                .unwrap_err(),
            JudgeError::Missing(Field::new("moves")),
            "a missing list is no action's fault"
        );
    }
}
