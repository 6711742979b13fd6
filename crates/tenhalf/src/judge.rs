//! The judge: JSON-line questions about the rules (`qipai judge tenhalf`).
//!
//! * `{"op":"value","cards":"Ah Ks BJ"}` → `{"ok":true,"points":2.0}`
//! * `{"op":"showdown","hands":["Ts","9h Ah"]}` → `{"ok":true,"loser":1,"order":[1,0]}`,
//!   the hands' indices worst first
//! * `{"op":"game","players":3,"deck":"<54 cards, top first>","dealer":0,
//!   "actions":[{"seat":1,"act":"hit"},…]}` → `{"ok":true,"finished":false,"penalties":[…]}`,
//!   or `{"ok":false,"error":…,"at":i}` at the first action that cannot be applied.
//! * `{"op":"act","bot":"counting","seat":1,"view":{…}}` → `{"ok":true,"action":"hit",
//!   "text":"hit"}`: a bot's move from one seat's view ([`game::judge::act`]).

use crate::hand::{halves, showdown_order, Hand, Points, Standing, MAX_CARDS, MUST_HIT_UP_TO};
use crate::state::{Action, Config, State};
use crate::{TenHalf, View};
use cards::{parse_cards, Card, Deck};
use game::judge::{array_field, error, str_field, u64_field, unknown_op};
use game::Seat;
use serde_json::{json, Map, Value};

const OPS: &[&str] = &["value", "showdown", "game", "act"];

/// Answers one request, never panicking.
pub(crate) fn answer(request: &Value) -> Value {
    if let Some(fields) = request.as_object() {
        if fields.get("op").and_then(Value::as_str) == Some("game") {
            return game_op(fields);
        }
    }
    game::judge::answer(request, |op, fields| match op {
        "value" => value_op(fields),
        "showdown" => showdown_op(fields),
        "act" => game::judge::act::<TenHalf>(fields, legal_in_view),
        other => Err(unknown_op(other, OPS)),
    })
}

/// What `seat` may do in `view`: hit, and stand from 7½ up (its own total is in its view).
fn legal_in_view(view: &View, seat: Seat) -> Vec<Action> {
    if view.finished || view.to_act != Some(seat) {
        return Vec::new();
    }
    let total = view
        .players
        .iter()
        .find(|p| p.seat == seat)
        .and_then(|p| p.points);
    let mut legal = vec![Action::Hit];
    if total.is_some_and(|Points(t)| t > MUST_HIT_UP_TO) {
        legal.push(Action::Stand);
    }
    legal
}

/// Reads cards of one deck (no card twice).
fn one_deck(text: &str) -> Result<Vec<Card>, String> {
    let cards = parse_cards(text).map_err(|e| e.to_string())?;
    Deck::WITH_JOKERS
        .check_cards(&cards)
        .map_err(|e| e.to_string())?;
    Ok(cards)
}

fn value_op(fields: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let cards = one_deck(str_field(fields, "cards")?)?;
    let total: u32 = cards.iter().map(|&c| u32::from(halves(c))).sum();
    let mut out = Map::new();
    out.insert("points".into(), json!(f64::from(total) / 2.0));
    Ok(out)
}

fn showdown_op(fields: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let texts = array_field(fields, "hands")?;
    if texts.is_empty() {
        return Err("a showdown needs at least one hand".into());
    }
    let mut hands = Vec::with_capacity(texts.len());
    let mut all = Vec::new();
    for (i, t) in texts.iter().enumerate() {
        let text = t
            .as_str()
            .ok_or_else(|| format!("hand {i} must be a string of cards"))?;
        let cards = one_deck(text).map_err(|e| format!("hand {i}: {e}"))?;
        if cards.is_empty() {
            return Err(format!("hand {i} is empty"));
        }
        let hand =
            Hand::of(&cards).ok_or_else(|| format!("hand {i} has more than {MAX_CARDS} cards"))?;
        match hand.standing() {
            Standing::Open => {}
            Standing::Bust => {
                return Err(format!(
                    "hand {i} has {} and busted: it is not in a showdown",
                    Points(hand.total())
                ))
            }
            Standing::Won(_) => {
                return Err(format!(
                    "hand {i} won outright (10½ or five cards): it is not in a showdown"
                ))
            }
        }
        all.extend_from_slice(&cards);
        hands.push(hand);
    }
    Deck::WITH_JOKERS
        .check_cards(&all)
        .map_err(|e| format!("the hands are not from one deck: {e}"))?;
    let order = showdown_order(&hands);
    let mut out = Map::new();
    out.insert("loser".into(), json!(order[0]));
    out.insert("order".into(), json!(order));
    Ok(out)
}

/// The `game` op: its errors at an action carry the action's index.
fn game_op(fields: &Map<String, Value>) -> Value {
    let state = match start_game(fields) {
        Ok(s) => s,
        Err(e) => return error(e),
    };
    let actions = match array_field(fields, "actions") {
        Ok(a) => a,
        Err(e) => return error(e),
    };
    let mut state = state;
    let mut events = Vec::new();
    for (at, entry) in actions.iter().enumerate() {
        let step = read_action(entry).and_then(|(seat, action)| {
            state
                .apply(seat, action, &mut events)
                .map_err(|e| format!("seat {seat}: {e}"))
        });
        if let Err(e) = step {
            return json!({ "ok": false, "error": e, "at": at });
        }
        events.clear();
    }
    json!({ "ok": true, "finished": state.is_finished(), "penalties": state.penalties() })
}

fn start_game(fields: &Map<String, Value>) -> Result<State, String> {
    let players = usize::try_from(u64_field(fields, "players")?)
        .map_err(|_| "\"players\" is too large".to_string())?;
    let dealer = match fields.get("dealer") {
        None | Some(Value::Null) => 0,
        Some(_) => usize::try_from(u64_field(fields, "dealer")?)
            .map_err(|_| "\"dealer\" is too large".to_string())?,
    };
    let deck = parse_cards(str_field(fields, "deck")?).map_err(|e| format!("deck: {e}"))?;
    State::from_deck(&Config { dealer }, players, &deck).map_err(|e| e.to_string())
}

fn read_action(entry: &Value) -> Result<(usize, Action), String> {
    let fields = entry
        .as_object()
        .ok_or("an action is an object {\"seat\":…,\"act\":\"hit\"|\"stand\"}")?;
    let seat = usize::try_from(u64_field(fields, "seat")?)
        .map_err(|_| "\"seat\" is too large".to_string())?;
    let act = fields.get("act").ok_or("missing \"act\"")?;
    let action: Action = serde_json::from_value(act.clone())
        .map_err(|_| format!("unknown act {act} (acts: \"hit\", \"stand\")"))?;
    Ok((seat, action))
}
