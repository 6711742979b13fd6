//! The judge: rules questions over JSON (`qipai judge gomoku`).
//!
//! Points are `[x, y]`, 0-based, `x` the column; `moves` alternate black, white, … from the
//! first (seat 0 is black), and the first move that is malformed or that the rules refuse
//! is answered with its index, `"at"`. `size` defaults to 15 and `rule` to freestyle.
//!
//! * `winner` → `{"winner":"black"|"white"|null}`
//! * `forbidden` (renju, black's points) → `{"forbidden":[{"point":[x,y],"reason":…},…]}`
//! * `legal` with `point` → `{"legal":bool,"reason":null|"occupied"|"off_board"|"game_over"|
//!   "overline"|"double_four"|"double_three"}`
//! * `best` with `ms` (default 1000; optional `nodes`, `depth`) →
//!   `{"point":[x,y],"eval":…,"win_in":n|null}`
//! * `act` with `bot`, `seat` and the seat's `view` → `{"action":…,"text":"h8"}`: a named
//!   bot's move ([`game::judge::act`]); in a swap2 opening (the view's `swap2` step) also
//!   `"take_black"` or `"place_two"`.
//!
//! The other operations read moves only, which alternate the same way under swap2: an
//! opening's stones are black, white, black (white, black), whoever laid them.

use crate::board::{Color, Point, Rule, MAX_SIZE};
use crate::engine::{Engine, Limits};
use crate::opening::Swap2Step;
use crate::renju::{self, Forbidden};
use crate::rules::{Action, Config, State, View};
use crate::Gomoku;
use game::judge::{answer, Field, Fields, JudgeError};
use game::Seat;
use serde_json::{json, Value};
use std::time::Duration;

const OPS: &[&str] = &["winner", "forbidden", "legal", "best", "act"];

type Answer = Result<Value, JudgeError>;

/// Answers one judge request.
pub fn judge(request: &Value) -> Value {
    answer(request, |op, f| match op {
        "winner" => winner(f),
        "forbidden" => forbidden(f),
        "legal" => legal(f),
        "best" => best(f),
        "act" => game::judge::act::<Gomoku>(f, legal_in_view),
        _ => Err(JudgeError::unknown_op(op, OPS)),
    })
}

/// What `seat` (black is the view's `black` seat, 0 unless it says) may do in `view`: answer
/// the other's undo request, or place a stone on an empty point that is not forbidden to
/// it; in a swap2 opening (the view's `swap2` step), the opening's stones and choices.
fn legal_in_view(view: &View, seat: Seat) -> Vec<Action> {
    let Some(color) = view.color_of(seat) else {
        return Vec::new();
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
    // In the swap2 opening the first player (black until the choice) lays three stones
    // and makes the last choice, the second player the rest, whatever colour is to move.
    let acting = match view.swap2 {
        Some(step) => (color == Color::Black) == step.is_first_players(),
        None => view.to_move == Some(color),
    };
    if !acting {
        return Vec::new();
    }
    let board = view.board();
    let mut legal: Vec<Action> = board
        .points()
        .filter(|&p| board.is_empty_at(p) && !view.forbidden.contains(&p))
        .map(Action::Place)
        .collect();
    if view.swap2.is_some_and(Swap2Step::is_choice) {
        legal.push(Action::TakeBlack);
    }
    if view.swap2 == Some(Swap2Step::Choose) {
        legal.push(Action::PlaceTwo);
    }
    legal
}

fn size_field(f: Fields<'_>) -> Result<u8, JudgeError> {
    match f.opt_u64("size")? {
        None => Ok(15),
        Some(s) if (5..=MAX_SIZE as u64).contains(&s) => Ok(s as u8),
        Some(s) => Err(JudgeError::invalid(
            "size",
            format!("a board side is 5 to {MAX_SIZE}, not {s}"),
        )),
    }
}

fn rule_field(f: Fields<'_>, default: Rule) -> Result<Rule, JudgeError> {
    match f.opt_str("rule")? {
        None => Ok(default),
        Some(s) => Rule::parse(s).ok_or_else(|| {
            JudgeError::invalid(
                "rule",
                format!("unknown rule '{s}' (rules: freestyle, standard, renju)"),
            )
        }),
    }
}

/// A `[x, y]` pair of non-negative integers (not checked against the board).
fn point_value(v: &Value, field: Field) -> Result<Point, JudgeError> {
    let coord = |c: &Value| c.as_u64().filter(|&n| n < 256).map(|n| n as u8);
    v.as_array()
        .filter(|a| a.len() == 2)
        .and_then(|a| Some(Point::new(coord(&a[0])?, coord(&a[1])?)))
        .ok_or(JudgeError::WrongType {
            field,
            expected: "a point [x, y] of non-negative integers",
        })
}

/// The game after the request's moves, each checked by the rules: the first that is not
/// a legal move is answered with its index.
fn replay(f: Fields<'_>, rule: Rule) -> Result<State, JudgeError> {
    let config = Config {
        size: size_field(f)?,
        rule,
        ..Config::default()
    };
    let mut state = State::new(&config).map_err(|e| JudgeError::rule(None, e))?;
    f.replay("moves", |i, v| {
        let p = point_value(v, Field::at("moves", i))?;
        let seat = state.to_move().index();
        state
            .play(p)
            .map(drop)
            .map_err(|e| JudgeError::rule(Some(seat), e))
    })?;
    Ok(state)
}

fn winner(f: Fields<'_>) -> Answer {
    let state = replay(f, rule_field(f, Rule::Freestyle)?)?;
    let w = state.end().and_then(|e| e.winner).map(|c| c.name());
    Ok(json!({ "winner": w }))
}

fn forbidden(f: Fields<'_>) -> Answer {
    let state = replay(f, Rule::Renju)?;
    let list: Vec<Value> = renju::forbidden_points(state.board())
        .into_iter()
        .map(|(p, why)| json!({ "point": [p.x, p.y], "reason": why.name() }))
        .collect();
    Ok(json!({ "forbidden": list }))
}

fn legal(f: Fields<'_>) -> Answer {
    let rule = rule_field(f, Rule::Freestyle)?;
    let state = replay(f, rule)?;
    let p = point_value(f.value("point")?, Field::new("point"))?;
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
    Ok(json!({ "legal": reason.is_none(), "reason": reason }))
}

fn best(f: Fields<'_>) -> Answer {
    let rule = rule_field(f, Rule::Freestyle)?;
    let state = replay(f, rule)?;
    if state.end().is_some() {
        return Err(JudgeError::Unreachable("the game is over".into()));
    }
    let ms = f.opt_u64("ms")?.unwrap_or(1000).clamp(1, 600_000);
    let mut limits = Limits::timed(Duration::from_millis(ms));
    if let Some(n) = f.opt_u64("nodes")? {
        limits.max_nodes = n.max(1);
    }
    if let Some(d) = f.opt_u64("depth")? {
        limits.max_depth = d.clamp(1, 64) as u32;
    }
    let mut engine = Engine::new(state.config().size, rule, 20);
    engine
        .set_moves(state.config().size, rule, state.moves())
        .map_err(JudgeError::Internal)?;
    let t = engine.think(&limits);
    let p = t
        .best
        .ok_or_else(|| JudgeError::Unreachable("the board is full".into()))?;
    Ok(json!({ "point": [p.x, p.y], "eval": t.eval, "win_in": t.win_in }))
}
