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
use game::judge::{answer, Fields, JudgeError};
use game::Seat;
use serde_json::{json, Value};

const OPS: &[&str] = &[
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
        _ => Err(JudgeError::unknown_op(op, OPS)),
    })
}

type Answer = Result<Value, JudgeError>;

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

/// Rank-only cards that three decks can hold.
fn ranks(text: &str) -> Result<RankCounts, cards::ParseError> {
    let rc: RankCounts = text.parse()?;
    DECK.check_ranks(rc)?;
    Ok(rc)
}

/// Suited cards that three decks can hold.
fn suited(text: &str) -> Result<Vec<Card>, cards::ParseError> {
    let cards = parse_cards(text)?;
    DECK.check_cards(&cards)?;
    Ok(cards)
}

/// The play on the table: rank-only cards that form a play.
fn table_play(text: &str) -> Result<Play, String> {
    let cards = ranks(text).map_err(|e| e.to_string())?;
    Play::classify(cards).ok_or_else(|| format!("{cards} is not a play"))
}

fn describe(p: &Play) -> Value {
    json!({"kind": p.kind.name(), "rank": p.rank.symbol(), "len": p.len})
}

fn classify(f: Fields<'_>) -> Answer {
    Ok(match Play::classify(f.cards("cards", ranks)?) {
        Some(p) => describe(&p),
        None => json!({"kind": Value::Null}),
    })
}

/// Whether `play` may be played on `last`: `false` for cards that are no play; with
/// nothing to beat (leading), any play may be played.
fn beats(f: Fields<'_>) -> Answer {
    let play = Play::classify(f.cards("play", ranks)?);
    let last = f.last(table_play)?;
    Ok(json!({"beats": play.is_some_and(|p| last.is_none_or(|l| p.beats(&l)))}))
}

fn legal(f: Fields<'_>, just_count: bool) -> Answer {
    let hand = f.cards("hand", ranks)?;
    let last = f.last(table_play)?;
    let pass = usize::from(last.is_some());
    if just_count {
        return Ok(json!({"count": count(hand, last.as_ref()) + pass}));
    }
    let mut list: Vec<Value> = plays(hand, last.as_ref())
        .iter()
        .map(|p| json!(p.cards.to_string()))
        .collect();
    if last.is_some() {
        list.push(json!("pass"));
    }
    Ok(json!({"plays": list}))
}

fn grabs(f: Fields<'_>) -> Answer {
    let hand = Hand::of(&f.cards("hand", suited)?);
    let face: Card = f.cards("face_up", |t| t.trim().parse::<Card>())?;
    let list: Vec<Value> = all_grabs(&hand, face)
        .iter()
        .map(|s| json!(format_cards(&vec![s.card; usize::from(s.count)])))
        .collect();
    Ok(json!({"grabs": list}))
}

fn declare(f: Fields<'_>) -> Answer {
    let cards = f.cards("hand", suited)?;
    if cards.len() != HAND + KITTY {
        return Err(JudgeError::invalid(
            "hand",
            format!(
                "a landlord's hand is {} cards, not {}",
                HAND + KITTY,
                cards.len()
            ),
        ));
    }
    let hand = Hand::of(&cards);
    if let Some(w) = instant_win(&hand) {
        return Ok(json!({"instant_win": w.name(), "message": w.message(), "declarations": []}));
    }
    let list: Vec<Value> = declarations(&hand)
        .iter()
        .map(|(m, c)| json!({"mode": m.name(), "marked": c.map(|c| c.to_string())}))
        .collect();
    Ok(json!({"instant_win": Value::Null, "declarations": list}))
}

fn score_op(f: Fields<'_>) -> Answer {
    let grabs = f.u64("multiplier")?;
    let base = f.opt_u64("base")?.unwrap_or(1);
    let mode = match f.str("mode")? {
        "partner" => ScoreMode::Declared(Mode::Partner),
        "open_solo" => ScoreMode::Declared(Mode::OpenSolo),
        "hidden_solo" => ScoreMode::Declared(Mode::HiddenSolo),
        "instant" => ScoreMode::Instant,
        m => {
            return Err(JudgeError::invalid(
                "mode",
                format!("unknown mode '{m}' (partner, open_solo, hidden_solo, instant)"),
            ))
        }
    };
    if grabs > MAX_GRABS {
        return Err(JudgeError::invalid(
            "multiplier",
            format!(
                "a game has at most {MAX_GRABS} grabs (six grab cards, each clicked at most \
                 twice), so at most {MAX_GRABS}, not {grabs}"
            ),
        ));
    }
    if base > u64::from(u32::MAX) {
        return Err(JudgeError::invalid(
            "base",
            format!("a table's base score is at most {}, not {base}", u32::MAX),
        ));
    }
    let s = score(grabs, base, mode, f.bool("landlord_won")?);
    Ok(json!({"landlord": s.landlord, "partner": s.partner, "opponent": s.opponent}))
}
