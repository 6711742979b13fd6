//! The judge: rules questions over JSON (`qipai judge gomoku`).
//!
//! Points are `[x, y]`, 0-based, `x` the column; `moves` alternate black, white, … from the
//! first. `size` defaults to 15 and `rule` to freestyle.
//!
//! * `winner` → `{"winner":"black"|"white"|null}`
//! * `forbidden` (renju, black's points) → `{"forbidden":[{"point":[x,y],"reason":…},…]}`
//! * `legal` with `point` → `{"legal":bool,"reason":null|"occupied"|"off_board"|"game_over"|
//!   "overline"|"double_four"|"double_three"}`
//! * `best` with `ms` (default 1000; optional `nodes`, `depth`) →
//!   `{"point":[x,y],"eval":…,"win_in":n|null}`
//! * `act` with `bot`, `seat` and the seat's `view` → `{"action":…,"text":"h8"}`: a named
//!   bot's move ([`game::judge::act`]).

use crate::board::{Point, Rule, MAX_SIZE};
use crate::engine::{Engine, Limits};
use crate::renju::{self, Forbidden};
use crate::rules::{Action, Config, State, View};
use crate::{Color, Gomoku};
use game::judge::{answer, array_field, opt_str_field, unknown_op};
use game::Seat;
use serde_json::{json, Map, Value};
use std::time::Duration;

const OPS: &[&str] = &["winner", "forbidden", "legal", "best", "act"];

/// Answers one judge request.
pub fn judge(request: &Value) -> Value {
    answer(request, |op, f| match op {
        "winner" => winner(f),
        "forbidden" => forbidden(f),
        "legal" => legal(f),
        "best" => best(f),
        "act" => game::judge::act::<Gomoku>(f, legal_in_view),
        _ => Err(unknown_op(op, OPS)),
    })
}

/// What `seat` (0 black, 1 white) may do in `view`: answer the other's undo request, or
/// place a stone on an empty point that is not forbidden to it.
fn legal_in_view(view: &View, seat: Seat) -> Vec<Action> {
    let color = match seat {
        0 => Color::Black,
        1 => Color::White,
        _ => return Vec::new(),
    };
    if view.end.is_some() {
        return Vec::new();
    }
    if let Some(asker) = view.pending_undo {
        return if asker == color {
            Vec::new()
        } else {
            vec![Action::AnswerUndo(true), Action::AnswerUndo(false)]
        };
    }
    if view.to_move != Some(color) {
        return Vec::new();
    }
    let board = view.board();
    board
        .points()
        .filter(|&p| board.is_empty_at(p) && !view.forbidden.contains(&p))
        .map(Action::Place)
        .collect()
}

fn size_field(f: &Map<String, Value>) -> Result<u8, String> {
    match f.get("size") {
        None | Some(Value::Null) => Ok(15),
        Some(v) => v
            .as_u64()
            .filter(|s| (5..=MAX_SIZE as u64).contains(s))
            .map(|s| s as u8)
            .ok_or_else(|| format!("\"size\" must be a board side from 5 to {MAX_SIZE}")),
    }
}

fn rule_field(f: &Map<String, Value>, default: Rule) -> Result<Rule, String> {
    match opt_str_field(f, "rule")? {
        None => Ok(default),
        Some(s) => Rule::parse(s)
            .ok_or_else(|| format!("unknown rule '{s}' (rules: freestyle, standard, renju)")),
    }
}

/// A `[x, y]` pair of non-negative integers (not checked against the board).
fn point_value(v: &Value, what: &str) -> Result<Point, String> {
    let a = v
        .as_array()
        .filter(|a| a.len() == 2)
        .ok_or_else(|| format!("{what} must be a point [x, y]"))?;
    let coord = |c: &Value| {
        c.as_u64()
            .filter(|&n| n < 256)
            .map(|n| n as u8)
            .ok_or_else(|| format!("{what} must be a point [x, y] of non-negative integers"))
    };
    Ok(Point::new(coord(&a[0])?, coord(&a[1])?))
}

/// The game after the request's moves, each checked by the rules.
fn replay(f: &Map<String, Value>, rule: Rule) -> Result<State, String> {
    let size = size_field(f)?;
    let config = Config {
        size,
        rule,
        ..Config::default()
    };
    let mut state = State::new(&config).map_err(|e| e.to_string())?;
    for (i, v) in array_field(f, "moves")?.iter().enumerate() {
        let p = point_value(v, &format!("move {}", i + 1))?;
        state
            .play(p)
            .map_err(|e| format!("move {} [{}, {}]: {e}", i + 1, p.x, p.y))?;
    }
    Ok(state)
}

fn winner(f: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let state = replay(f, rule_field(f, Rule::Freestyle)?)?;
    let w = state.end().and_then(|e| e.winner).map(|c| c.name());
    Ok(obj(json!({ "winner": w })))
}

fn forbidden(f: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let state = replay(f, Rule::Renju)?;
    let list: Vec<Value> = renju::forbidden_points(state.board())
        .into_iter()
        .map(|(p, why)| json!({ "point": [p.x, p.y], "reason": why.name() }))
        .collect();
    Ok(obj(json!({ "forbidden": list })))
}

fn legal(f: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let rule = rule_field(f, Rule::Freestyle)?;
    let state = replay(f, rule)?;
    let p = point_value(f.get("point").ok_or("missing \"point\"")?, "\"point\"")?;
    let reason: Option<&str> = if state.end().is_some() {
        Some("game_over")
    } else if !state.board().contains(p) {
        Some("off_board")
    } else if !state.board().is_empty_at(p) {
        Some("occupied")
    } else if rule.has_forbidden(state.to_move()) {
        renju::forbidden(state.board(), p).map(Forbidden::name)
    } else {
        None
    };
    Ok(obj(json!({ "legal": reason.is_none(), "reason": reason })))
}

fn best(f: &Map<String, Value>) -> Result<Map<String, Value>, String> {
    let rule = rule_field(f, Rule::Freestyle)?;
    let state = replay(f, rule)?;
    if state.end().is_some() {
        return Err("the game is over".into());
    }
    let ms = match f.get("ms") {
        None | Some(Value::Null) => 1000,
        Some(v) => v
            .as_u64()
            .ok_or("\"ms\" must be a non-negative integer")?
            .clamp(1, 600_000),
    };
    let mut limits = Limits::timed(Duration::from_millis(ms));
    if let Some(n) = f.get("nodes").and_then(Value::as_u64) {
        limits.max_nodes = n.max(1);
    }
    if let Some(d) = f.get("depth").and_then(Value::as_u64) {
        limits.max_depth = d.clamp(1, 64) as u32;
    }
    let mut engine = Engine::new(state.config().size, rule, 20);
    engine.set_moves(state.config().size, rule, state.moves())?;
    let t = engine.think(&limits);
    let p = t.best.ok_or("the board is full")?;
    Ok(obj(
        json!({ "point": [p.x, p.y], "eval": t.eval, "win_in": t.win_in }),
    ))
}

fn obj(v: Value) -> Map<String, Value> {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}
