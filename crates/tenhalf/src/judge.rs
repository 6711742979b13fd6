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
use cards::{parse_cards, Card, Deck, ParseError};
use game::judge::{Field, Fields, JudgeError};
use game::Seat;
use serde_json::{json, Value};

const OPS: &[&str] = &["value", "showdown", "game", "act"];

type Answer = Result<Value, JudgeError>;

/// Answers one request, never panicking.
pub(crate) fn answer(request: &Value) -> Value {
    game::judge::answer(request, |op, fields| match op {
        "value" => value_op(fields),
        "showdown" => showdown_op(fields),
        "game" => game_op(fields),
        "act" => game::judge::act::<TenHalf>(fields, legal_in_view),
        other => Err(JudgeError::unknown_op(other, OPS)),
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
fn one_deck(text: &str) -> Result<Vec<Card>, ParseError> {
    let cards = parse_cards(text)?;
    Deck::WITH_JOKERS.check_cards(&cards)?;
    Ok(cards)
}

fn value_op(fields: Fields<'_>) -> Answer {
    let cards = fields.cards("cards", one_deck)?;
    let total: u32 = cards.iter().map(|&c| u32::from(halves(c))).sum();
    Ok(json!({ "points": f64::from(total) / 2.0 }))
}

fn showdown_op(fields: Fields<'_>) -> Answer {
    let hands_cards = fields.card_lists("hands", one_deck)?;
    if hands_cards.is_empty() {
        return Err(JudgeError::Unreachable(
            "a showdown needs at least one hand".into(),
        ));
    }
    let mut hands = Vec::with_capacity(hands_cards.len());
    for (i, cards) in hands_cards.iter().enumerate() {
        let field = || Field::at("hands", i);
        if cards.is_empty() {
            return Err(JudgeError::invalid(
                field(),
                "an empty hand is in no showdown",
            ));
        }
        let hand = Hand::of(cards)
            .ok_or_else(|| JudgeError::invalid(field(), format!("more than {MAX_CARDS} cards")))?;
        match hand.standing() {
            Standing::Open => {}
            Standing::Bust => {
                return Err(JudgeError::invalid(
                    field(),
                    format!("{} is bust: it is not in a showdown", Points(hand.total())),
                ))
            }
            Standing::Won(_) => {
                return Err(JudgeError::invalid(
                    field(),
                    "won outright (10½ or five cards): it is not in a showdown",
                ))
            }
        }
        hands.push(hand);
    }
    let all: Vec<Card> = hands_cards.concat();
    Deck::WITH_JOKERS
        .check_cards(&all)
        .map_err(|e| JudgeError::Unreachable(format!("the hands are not from one deck: {e}")))?;
    let order = showdown_order(&hands);
    Ok(json!({ "loser": order[0], "order": order }))
}

/// The `game` op: a deal from the request's deck, then its actions; the first that cannot
/// be applied is answered with its index.
fn game_op(fields: Fields<'_>) -> Answer {
    let players = usize::try_from(fields.u64("players")?).unwrap_or(usize::MAX);
    let dealer = usize::try_from(fields.opt_u64("dealer")?.unwrap_or(0)).unwrap_or(usize::MAX);
    let deck = fields.cards("deck", parse_cards)?;
    let mut state = State::from_deck(&Config { dealer }, players, &deck)
        .map_err(|e| JudgeError::rule(None, e))?;
    let mut events = Vec::new();
    fields.replay("actions", |i, entry| {
        let action = Fields::element(
            "actions",
            i,
            entry,
            "an action {\"seat\":…,\"act\":\"hit\" or \"stand\"}",
        )?;
        let seat = action.seat("seat", players)?;
        let act = action.str("act")?;
        let act = match act {
            "hit" => Action::Hit,
            "stand" => Action::Stand,
            other => {
                return Err(JudgeError::invalid(
                    "act",
                    format!("unknown act \"{other}\" (acts: \"hit\", \"stand\")"),
                ))
            }
        };
        events.clear();
        state
            .apply(seat, act, &mut events)
            .map_err(|e| JudgeError::rule(Some(seat), e))
    })?;
    Ok(json!({ "finished": state.is_finished(), "penalties": state.penalties() }))
}
