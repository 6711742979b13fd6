//! `qipai judge doudizhu`: the rules as an oracle over JSON lines.
//!
//! Ops: `classify`, `legal`, `beats`, `score`, `game`, `act` (see the README and the issue
//! that specified them). Cards are in the rank-only notation (`"3 3 3 4"`, `BJ`, `RJ`).

use crate::movegen::legal_plays;
use crate::rules::{Action, Config, CustomDeal, DouDizhu, Phase};
use crate::scoring::MAX_BOMBS;
use crate::text::hint_order;
use crate::{bots, score, Play, ScoreInput, View};
use cards::{Deck, RankCounts};
use game::judge::{
    answer, array_field, bool_field, opt_str_field, str_field, u64_field, unknown_op,
};
use game::{Decision, Rules, Seat, Seed};
use serde_json::{json, Map, Value};

const OPS: &[&str] = &["classify", "legal", "beats", "score", "game", "act"];

type Body = Result<Map<String, Value>, String>;

/// Answers one judge request.
pub(crate) fn judge(request: &Value) -> Value {
    if let (Some("game"), Some(f)) = (
        request.get("op").and_then(Value::as_str),
        request.as_object(),
    ) {
        return match game(f) {
            Ok(mut body) => {
                body.insert("ok".into(), json!(true));
                Value::Object(body)
            }
            Err(GameFailure { error, at }) => json!({ "ok": false, "error": error, "at": at }),
        };
    }
    answer(request, |op, f| match op {
        "classify" => classify(f),
        "legal" => legal(f),
        "beats" => beats(f),
        "score" => score_op(f),
        "act" => act(f),
        _ => Err(unknown_op(op, OPS)),
    })
}

fn obj(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// Reads cards in the rank-only notation and checks that one deck holds them.
fn cards(text: &str, what: &str) -> Result<RankCounts, String> {
    let rc: RankCounts = text.parse().map_err(|e| format!("{what}: {e}"))?;
    Deck::WITH_JOKERS
        .check_ranks(rc)
        .map_err(|e| format!("{what}: {e}"))?;
    Ok(rc)
}

/// Reads a play: cards that form one of the 27,471 plays.
fn play(text: &str, what: &str) -> Result<Play, String> {
    let rc = cards(text, what)?;
    Play::classify(rc).ok_or_else(|| format!("{what}: {rc} is not a play"))
}

/// Reads an optional `last` play: absent or empty means leading.
fn last_play(f: &Map<String, Value>) -> Result<Option<Play>, String> {
    match opt_str_field(f, "last")? {
        None => Ok(None),
        Some(s) if s.trim().is_empty() => Ok(None),
        Some(s) => play(s, "last").map(Some),
    }
}

fn classify(f: &Map<String, Value>) -> Body {
    let rc = cards(str_field(f, "cards")?, "cards")?;
    Ok(obj(match Play::classify(rc) {
        Some(p) => json!({"kind": p.kind().name(), "rank": p.rank().symbol(), "len": p.len()}),
        None => json!({"kind": null}),
    }))
}

fn legal(f: &Map<String, Value>) -> Body {
    let hand = cards(str_field(f, "hand")?, "hand")?;
    let last = last_play(f)?;
    let mut plays = Vec::new();
    legal_plays(hand, last, &mut plays);
    hint_order(&mut plays);
    let mut out: Vec<String> = plays.iter().map(Play::to_string).collect();
    if last.is_some() {
        out.push("pass".into());
    }
    Ok(obj(json!({ "plays": out })))
}

fn beats(f: &Map<String, Value>) -> Body {
    let p = play(str_field(f, "play")?, "play")?;
    let last = play(str_field(f, "last")?, "last")?;
    Ok(obj(json!({ "beats": p.beats(last) })))
}

fn score_op(f: &Map<String, Value>) -> Body {
    let bid = u64_field(f, "bid")?;
    if !(1..=3).contains(&bid) {
        return Err(format!("\"bid\" is 1, 2 or 3, not {bid}"));
    }
    let bombs = u64_field(f, "bombs")?;
    if bombs > u64::from(MAX_BOMBS) {
        return Err(format!(
            "\"bombs\" is at most {MAX_BOMBS} (thirteen four-of-a-kinds and the rocket), not {bombs}"
        ));
    }
    let input = ScoreInput {
        bid: bid as u8,
        landlord_won: bool_field(f, "landlord_won")?,
        bombs: bombs as u32,
        spring: bool_field(f, "spring")?,
        anti_spring: bool_field(f, "anti_spring")?,
    };
    input.check()?;
    let (landlord, peasant) = score(&input);
    Ok(obj(json!({ "landlord": landlord, "peasant": peasant })))
}

fn seat_of(v: &Map<String, Value>, name: &str) -> Result<Seat, String> {
    let s = u64_field(v, name)?;
    if s >= 3 {
        return Err(format!("\"{name}\" is a seat 0, 1 or 2, not {s}"));
    }
    Ok(s as Seat)
}

/// Why the `game` op stopped: the message, and the index of the refused action (`None` when
/// the deal itself is malformed).
struct GameFailure {
    error: String,
    at: Option<usize>,
}

impl From<String> for GameFailure {
    fn from(error: String) -> Self {
        GameFailure { error, at: None }
    }
}

impl From<&str> for GameFailure {
    fn from(error: &str) -> Self {
        GameFailure {
            error: error.into(),
            at: None,
        }
    }
}

fn game(f: &Map<String, Value>) -> Result<Map<String, Value>, GameFailure> {
    let hands_json = array_field(f, "hands")?;
    if hands_json.len() != 3 {
        return Err("\"hands\" lists three hands".into());
    }
    let mut hands = [RankCounts::EMPTY; 3];
    for (i, h) in hands_json.iter().enumerate() {
        let text = h.as_str().ok_or("each hand is a string of cards")?;
        hands[i] = cards(text, &format!("hand {i}"))?;
    }
    let kitty = cards(str_field(f, "kitty")?, "kitty")?;
    let first_bidder = seat_of(f, "first_bidder")?;
    let seed = match f.get("seed") {
        Some(v) => Seed::from_u64(v.as_u64().ok_or("\"seed\" must be a number")?),
        None => Seed::from_u64(0),
    };
    let config = Config {
        first_bidder: Some(first_bidder),
        deal: Some(CustomDeal { hands, kitty }),
        ..Config::default()
    };
    let mut state = DouDizhu::start(&config, 3, &seed).map_err(|e| e.to_string())?;
    let mut events = Vec::new();
    for (at, a) in array_field(f, "actions")?.iter().enumerate() {
        let fail = |error: String| {
            Err(GameFailure {
                error,
                at: Some(at),
            })
        };
        let Some(a) = a.as_object() else {
            return fail("an action is an object with \"seat\" and \"bid\" or \"play\"".into());
        };
        let seat = match seat_of(a, "seat") {
            Ok(s) => s,
            Err(e) => return fail(e),
        };
        let action = match (a.get("bid"), a.get("play")) {
            (Some(b), None) => match b.as_u64() {
                Some(b) if b <= 3 => Action::Bid(b as u8),
                _ => return fail("\"bid\" is 0 (no bid), 1, 2 or 3".into()),
            },
            (None, Some(Value::String(p))) if p.trim() == "pass" => Action::Pass,
            (None, Some(Value::String(p))) => match play(p, "play") {
                Ok(p) => Action::Play(p),
                Err(e) => return fail(e),
            },
            _ => return fail("an action has either \"bid\" or \"play\" (a string)".into()),
        };
        if let Err(e) = DouDizhu::apply(&mut state, seat, action, &mut events) {
            return fail(e.to_string());
        }
    }
    let finished = state.phase() == Phase::Finished;
    let outcome = DouDizhu::outcome(&state);
    Ok(obj(json!({
        "finished": finished,
        "scores": outcome.map(|o| o.scores),
        "landlord": state.landlord(),
        "multiplier": state.multiplier(),
    })))
}

/// Rebuilds, from what one seat knows, the view it would have at its turn in the play phase.
fn view_from_history(f: &Map<String, Value>, seat: Seat) -> Result<View, String> {
    let landlord = seat_of(f, "landlord")?;
    let hand = cards(str_field(f, "hand")?, "hand")?;
    let kitty = match opt_str_field(f, "kitty")? {
        Some(k) => cards(k, "kitty")?,
        None => RankCounts::EMPTY,
    };
    let mut history = Vec::new();
    let mut sizes = [17u32; 3];
    sizes[landlord] = 20;
    let mut turn = landlord;
    let mut last: Option<(Seat, Play)> = None;
    for (i, entry) in array_field(f, "history")?.iter().enumerate() {
        let pair = entry
            .as_array()
            .filter(|a| a.len() == 2)
            .ok_or_else(|| format!("history[{i}] is [seat, \"cards\" or \"pass\"]"))?;
        let s = pair[0]
            .as_u64()
            .filter(|&s| s < 3)
            .ok_or_else(|| format!("history[{i}]: the seat is 0, 1 or 2"))? as Seat;
        if s != turn {
            return Err(format!(
                "history[{i}]: it was seat {turn}'s turn, not seat {s}'s"
            ));
        }
        let text = pair[1]
            .as_str()
            .ok_or_else(|| format!("history[{i}]: the play is a string"))?;
        if text.trim() == "pass" {
            if last.is_none() {
                return Err(format!("history[{i}]: the leader cannot pass"));
            }
            history.push((s, None));
        } else {
            let p = play(text, &format!("history[{i}]"))?;
            if let Some((_, l)) = last {
                if !p.beats(l) {
                    return Err(format!("history[{i}]: {p} does not beat {l}"));
                }
            }
            if p.size() > sizes[s] {
                return Err(format!(
                    "history[{i}]: seat {s} does not have that many cards"
                ));
            }
            sizes[s] -= p.size();
            history.push((s, Some(p)));
            last = Some((s, p));
        }
        turn = (turn + 1) % 3;
        if last.is_some_and(|(owner, _)| owner == turn) {
            last = None;
        }
        if sizes[s] == 0 {
            return Err(format!("history[{i}]: seat {s} went out; the game is over"));
        }
    }
    if turn != seat {
        return Err(format!(
            "after this history it is seat {turn}'s turn, not seat {seat}'s"
        ));
    }
    if hand.len() != sizes[seat] {
        return Err(format!(
            "seat {seat} should hold {} cards after this history, the hand has {}",
            sizes[seat],
            hand.len()
        ));
    }
    let view = View {
        seat: Some(seat),
        phase: Phase::Playing,
        hand: Some(hand),
        hand_sizes: sizes,
        first_bidder: landlord,
        bids: Vec::new(),
        redeals: 0,
        landlord: Some(landlord),
        bid: 1,
        kitty: Some(kitty),
        history,
        last,
        to_act: Some(seat),
        multiplier: 1,
        winner: None,
        scores: None,
        spring: false,
        anti_spring: false,
        revealed: None,
    };
    // The seat's own cards, the kitty and the plays must fit in one deck together.
    let played = (0..3).fold(RankCounts::EMPTY, |a, s| a.plus(view.played_by(s)));
    Deck::WITH_JOKERS
        .check_ranks(played.plus(hand))
        .map_err(|e| format!("hand and history together: {e}"))?;
    Ok(view)
}

fn act(f: &Map<String, Value>) -> Body {
    let name = str_field(f, "bot")?;
    let seat = seat_of(f, "seat")?;
    let seed = Seed::from_u64(match f.get("seed") {
        None => 0,
        Some(v) => v.as_u64().ok_or("\"seed\" must be a number")?,
    });
    let view = view_from_history(f, seat)?;
    let mut bot = bots::by_name(name, &seed)
        .ok_or_else(|| format!("no bot '{name}' (bots: {})", bots::NAMES.join(", ")))?;
    let mut legal = Vec::new();
    let last = view.last.map(|(_, p)| p);
    if last.is_some() {
        legal.push(Action::Pass);
    }
    let mut plays = Vec::new();
    legal_plays(view.hand.unwrap_or_default(), last, &mut plays);
    legal.extend(plays.into_iter().map(Action::Play));
    let choice = bot.act(&Decision::from_view(&view, seat, &legal));
    let play = match choice {
        Action::Play(p) => p.to_string(),
        Action::Pass | Action::Bid(_) => "pass".to_string(),
    };
    Ok(obj(json!({ "play": play })))
}
