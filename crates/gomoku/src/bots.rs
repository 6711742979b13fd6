//! The computer players offered to tables and self-play: `random`, `classic` and the engine
//! at levels 1 to 10 (`engine:L1` … `engine:L10`; `engine` alone is level 10).
//!
//! Every bot grants an undo request (as the original program's computer does) and otherwise places a
//! stone chosen from its seat's view. The listed bots think by node counts, never by the
//! clock, so a self-play run replays exactly. One unlisted setting, `engine:Nms`, thinks
//! for N milliseconds a move as the Gomocup brain does: it is for matches at equal time
//! against another engine (`qipai sim gomoku --a engine:1000ms --b external`), and its
//! moves depend on the machine.

use crate::board::{Color, Point};
use crate::engine::{classic, Engine, Level, Limits, WIN_BOUND};
use crate::rules::{Action, Gomoku, View};
use game::{deal, Bot, Decision, GameRng, Seed};

/// Every bot name, weakest first.
pub const BOT_NAMES: &[&str] = &[
    "random",
    "classic",
    "engine:L1",
    "engine:L2",
    "engine:L3",
    "engine:L4",
    "engine:L5",
    "engine:L6",
    "engine:L7",
    "engine:L8",
    "engine:L9",
    "engine:L10",
    "engine",
];

/// The level an engine bot name asks for.
pub fn level_of(name: &str) -> Option<Level> {
    if name == "engine" {
        return Some(Level::MAX);
    }
    let n: u8 = name.strip_prefix("engine:L")?.parse().ok()?;
    (1..=10).contains(&n).then(|| Level::new(n))
}

/// The turn time in milliseconds of an `engine:Nms` name (1 to 60,000).
pub fn turn_of(name: &str) -> Option<u64> {
    let ms: u64 = name
        .strip_prefix("engine:")?
        .strip_suffix("ms")?
        .parse()
        .ok()?;
    (1..=60_000).contains(&ms).then_some(ms)
}

/// A bot by name.
pub fn make(name: &str, seed: &Seed) -> Option<Box<dyn Bot<Gomoku>>> {
    match name {
        "random" => Some(Box::new(RandomPlacer { rng: seed.rng() })),
        "classic" => Some(Box::new(ClassicBot { rng: seed.rng() })),
        _ => {
            let (level, turn) = match turn_of(name) {
                Some(t) => (Level::MAX, Some(t)),
                None => (level_of(name)?, None),
            };
            Some(Box::new(EngineBot {
                level,
                turn,
                rng: seed.rng(),
                engine: None,
            }))
        }
    }
}

/// The stone-placing actions among the legal ones.
fn placements(legal: &[Action]) -> Vec<Point> {
    legal
        .iter()
        .filter_map(|a| match a {
            Action::Place(p) => Some(*p),
            _ => None,
        })
        .collect()
}

/// What every bot does before thinking: grant a pending undo, or resign if no stone can be
/// placed (only renju black with every empty point forbidden).
fn routine(legal: &[Action]) -> Option<Action> {
    if legal.contains(&Action::AnswerUndo(true)) {
        return Some(Action::AnswerUndo(true));
    }
    if placements(legal).is_empty() {
        return Some(Action::Resign);
    }
    None
}

/// Places uniformly at random on a legal point.
struct RandomPlacer {
    rng: GameRng,
}

impl Bot<Gomoku> for RandomPlacer {
    fn act(&mut self, d: &Decision<'_, Gomoku>) -> Action {
        if let Some(a) = routine(d.legal()) {
            return a;
        }
        let points = placements(d.legal());
        Action::Place(points[deal::below(&mut self.rng, points.len())])
    }
}

/// The seed's winning-combinations evaluator, equal choices drawn at random.
struct ClassicBot {
    rng: GameRng,
}

impl Bot<Gomoku> for ClassicBot {
    fn act(&mut self, d: &Decision<'_, Gomoku>) -> Action {
        if let Some(a) = routine(d.legal()) {
            return a;
        }
        let view = d.view();
        let points = placements(d.legal());
        let me = view.to_move.unwrap_or(Color::Black);
        let rng = &mut self.rng;
        let p = classic::choose(&view.board(), me, &points, |n| deal::below(rng, n.max(1)))
            .unwrap_or(points[0]);
        Action::Place(p)
    }
}

/// The engine at a level.
struct EngineBot {
    level: Level,
    /// Think by the clock, as the Gomocup brain does with this turn time in milliseconds,
    /// instead of by the level's nodes.
    turn: Option<u64>,
    rng: GameRng,
    engine: Option<Engine>,
}

impl EngineBot {
    fn choose(&mut self, view: &View, allowed: &[Point]) -> Option<Point> {
        // A timed engine gets the Gomocup brain's table (64 MiB), a level one sized to its
        // nodes (4 MiB up to L9, 8 MiB at L10).
        let tt_bits = if self.turn.is_some() {
            crate::gomocup::TT_BITS
        } else {
            self.level.tt_bits()
        };
        let engine = match &mut self.engine {
            Some(e) => e,
            None => self
                .engine
                .insert(Engine::new(view.size, view.rule, tt_bits)),
        };
        engine.set_moves(view.size, view.rule, &view.moves).ok()?;
        if let Some(turn) = self.turn {
            // Full strength at equal time: the best move, no variety, thinking as long
            // as the Gomocup brain would with this turn time.
            return engine
                .think(&Limits::timed(crate::gomocup::think_time(turn)))
                .best;
        }
        // Variety in the opening, and the weaker levels' margin: draw among near-best moves,
        // but never leave a forced win or walk into a forced loss.
        let own_stones = view.moves.len() / 2;
        let mut limits = self.level.limits();
        if own_stones < 2 {
            limits.exact_root = true;
        }
        let t = engine.think(&limits);
        let best = t.best?;
        let margin = if own_stones < 2 {
            self.level.margin().max(8)
        } else {
            self.level.margin()
        };
        if t.win_in.is_some() || margin == 0 || t.root.len() < 2 || t.eval.abs() > WIN_BOUND {
            return Some(best);
        }
        let best_score = t.root.iter().map(|&(_, s)| s).max().unwrap_or(t.eval);
        let near: Vec<Point> = t
            .root
            .iter()
            .filter(|&&(p, s)| s >= best_score - margin && s > -WIN_BOUND && allowed.contains(&p))
            .map(|&(p, _)| p)
            .collect();
        if near.is_empty() {
            return Some(best);
        }
        Some(near[deal::below(&mut self.rng, near.len())])
    }
}

impl Bot<Gomoku> for EngineBot {
    fn act(&mut self, d: &Decision<'_, Gomoku>) -> Action {
        if let Some(a) = routine(d.legal()) {
            return a;
        }
        let view = d.view();
        let points = placements(d.legal());
        match self.choose(&view, &points) {
            Some(p) if points.contains(&p) => Action::Place(p),
            _ => Action::Place(points[0]),
        }
    }
}
