//! The judge: rules questions over JSON (`qipai judge doudizhu5`).
//!
//! Plays are in rank-only notation (`3 3 3 4 4`); grabs and declarations, where suits
//! matter, in suited notation (`9h 9h`). `act` asks a named bot for its move from one
//! seat's view ([`game::judge::act`]).

use crate::action::{Action, Phase};
use crate::declare::Mode;
use crate::declare::{declarations, instant_win};
use crate::grab::{all_grabs, MAX_GRABS};
use crate::hand::Hand;
use crate::movegen::for_each_play;
use crate::movegen::{count, plays};
use crate::play::{KindSet, Play};
use crate::rules::DouDizhu5;
use crate::rules::{DECK, HAND, KITTY};
use crate::scoring::{score, ScoreMode};
use crate::view::View;
use cards::{format_cards, parse_cards, Card, RankCounts};
use game::judge::{answer, bool_field, opt_str_field, str_field, u64_field, unknown_op};
use game::Seat;
use serde_json::{json, Map, Value};

const OPS: [&str; 8] = [
    "classify", "beats", "legal", "count", "grabs", "declare", "score", "act",
];

/// Answers one judge request.
pub fn judge(request: &Value) -> Value {
    answer(request, |op, f| match op {
        "classify" => classify(f),
        "beats" => beats(f),
        "legal" => legal(f, false),
        "count" => legal(f, true),
        "grabs" => grabs(f),
        "declare" => declare(f),
        "score" => score_op(f),
        "act" => game::judge::act::<DouDizhu5>(f, legal_in_view),
        _ => Err(unknown_op(op, &OPS)),
    })
}

type Answer = Result<Map<String, Value>, String>;

/// What `seat` may do in `view`, from what the view shows it: the grab cards it may click
/// and declining, the landlord's declarations, or the plays of its hand that beat the
/// table (and passing when following).
pub(crate) fn legal_in_view(view: &View, seat: Seat) -> Vec<Action> {
    let mut out = Vec::new();
    match view.phase {
        Phase::Grab if view.grabbing.contains(&seat) => {
            out.extend(view.can_grab.iter().copied().map(Action::Grab));
            out.push(Action::Decline);
        }
        Phase::Declare if view.landlord == Some(seat) => {
            out.extend(view.options.iter().map(|&(m, _)| Action::Declare(m)));
        }
        Phase::Play if view.turn == Some(seat) => {
            let last = view.on_table.as_ref().and_then(|t| Play::classify(t.cards));
            for_each_play(view.ranks(), last.as_ref(), KindSet::ALL, |p| {
                out.push(Action::Play(p.cards))
            });
            if view.on_table.is_some() {
                out.push(Action::Pass);
            }
        }
        _ => {}
    }
    out
}

fn body(v: Value) -> Answer {
    match v {
        Value::Object(m) => Ok(m),
        _ => Err("internal: answer is not an object".into()),
    }
}

/// Rank-only cards that three decks can hold.
fn ranks(text: &str) -> Result<RankCounts, String> {
    let rc: RankCounts = text.parse().map_err(|e: cards::ParseError| e.to_string())?;
    DECK.check_ranks(rc).map_err(|e| e.to_string())?;
    Ok(rc)
}

/// Suited cards that three decks can hold.
fn suited(text: &str) -> Result<Vec<Card>, String> {
    let cards = parse_cards(text).map_err(|e| e.to_string())?;
    DECK.check_cards(&cards).map_err(|e| e.to_string())?;
    Ok(cards)
}

fn describe(p: &Play) -> Value {
    json!({"kind": p.kind.name(), "rank": p.rank.symbol(), "len": p.len})
}

fn classify(f: &Map<String, Value>) -> Answer {
    let cards = ranks(str_field(f, "cards")?)?;
    match Play::classify(cards) {
        Some(p) => body(describe(&p)),
        None => body(json!({"kind": Value::Null})),
    }
}

fn last_play(f: &Map<String, Value>) -> Result<Option<Play>, String> {
    match opt_str_field(f, "last")? {
        None => Ok(None),
        Some(t) if t.trim().is_empty() || t.trim() == "pass" => Ok(None),
        Some(t) => Play::classify(ranks(t)?)
            .map(Some)
            .ok_or_else(|| format!("last '{t}' is not a play")),
    }
}

fn beats(f: &Map<String, Value>) -> Answer {
    let play = Play::classify(ranks(str_field(f, "play")?)?);
    let last = last_play(f)?.ok_or("missing \"last\": the play to beat")?;
    body(json!({"beats": play.is_some_and(|p| p.beats(&last))}))
}

fn legal(f: &Map<String, Value>, just_count: bool) -> Answer {
    let hand = ranks(str_field(f, "hand")?)?;
    let last = last_play(f)?;
    let pass = usize::from(last.is_some());
    if just_count {
        return body(json!({"count": count(hand, last.as_ref()) + pass}));
    }
    let mut list: Vec<Value> = plays(hand, last.as_ref())
        .iter()
        .map(|p| json!(p.cards.to_string()))
        .collect();
    if last.is_some() {
        list.push(json!("pass"));
    }
    body(json!({"plays": list}))
}

fn grabs(f: &Map<String, Value>) -> Answer {
    let hand = Hand::of(&suited(str_field(f, "hand")?)?);
    let face: Card = str_field(f, "face_up")?
        .trim()
        .parse()
        .map_err(|e: cards::ParseError| e.to_string())?;
    let list: Vec<Value> = all_grabs(&hand, face)
        .iter()
        .map(|s| json!(format_cards(&vec![s.card; usize::from(s.count)])))
        .collect();
    body(json!({"grabs": list}))
}

fn declare(f: &Map<String, Value>) -> Answer {
    let cards = suited(str_field(f, "hand")?)?;
    if cards.len() != HAND + KITTY {
        return Err(format!(
            "a landlord's hand is {} cards, not {}",
            HAND + KITTY,
            cards.len()
        ));
    }
    let hand = Hand::of(&cards);
    if let Some(w) = instant_win(&hand) {
        return body(json!({"instant_win": w.name(), "message": w.message(), "declarations": []}));
    }
    let list: Vec<Value> = declarations(&hand)
        .iter()
        .map(|(m, c)| json!({"mode": m.name(), "marked": c.map(|c| c.to_string())}))
        .collect();
    body(json!({"instant_win": Value::Null, "declarations": list}))
}

fn score_op(f: &Map<String, Value>) -> Answer {
    let grabs = u64_field(f, "multiplier")?;
    let base = match f.get("base") {
        None => 1,
        Some(_) => u64_field(f, "base")?,
    };
    let mode = match str_field(f, "mode")? {
        "partner" => ScoreMode::Declared(Mode::Partner),
        "open_solo" => ScoreMode::Declared(Mode::OpenSolo),
        "hidden_solo" => ScoreMode::Declared(Mode::HiddenSolo),
        "instant" => ScoreMode::Instant,
        m => {
            return Err(format!(
                "unknown mode '{m}' (partner, open_solo, hidden_solo, instant)"
            ))
        }
    };
    if grabs > MAX_GRABS {
        return Err(format!(
            "a game has at most {MAX_GRABS} grabs (six grab cards, each clicked at most twice), \
             so \"multiplier\" is at most {MAX_GRABS}, not {grabs}"
        ));
    }
    if base > u64::from(u32::MAX) {
        return Err(format!(
            "\"base\" is a table's base score, at most {}, not {base}",
            u32::MAX
        ));
    }
    let s = score(grabs, base, mode, bool_field(f, "landlord_won")?);
    body(json!({"landlord": s.landlord, "partner": s.partner, "opponent": s.opponent}))
}
