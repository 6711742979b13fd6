//! The computer players offered to tables and self-play: `random`, `classic` and the engine
//! at levels 1 to 10 (`engine:L1` … `engine:L10`; `engine` alone is level 10).
//!
//! Every bot grants an undo request (as the original program's computer does) and otherwise places a
//! stone chosen from its seat's view. In a swap2 opening each chooses by its own measure:
//! the engine lays the opening its search finds most even and takes the colour it finds
//! better ([`crate::swap2`]), `classic` compares the two colours' best attacks, `random`
//! draws among its choices. The listed bots think by node counts, never by the
//! clock, so a self-play run replays exactly. One unlisted setting, `engine:Nms`, thinks
//! for N milliseconds a move as the Gomocup brain does: it is for matches at equal time
//! against another engine (`qipai sim gomoku --a engine:1000ms --b external`), and its
//! moves depend on the machine.

use crate::board::{Color, Point};
use crate::engine::{classic, Engine, Level, Limits, WIN_BOUND};
use crate::opening::Swap2Step;
use crate::rules::{Action, Gomoku, View};
use crate::swap2::{self, Answer};
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
                plan: Vec::new(),
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
        // At a swap2 choice: a stone (playing White), Black, or two more, equally likely.
        let choices: Vec<Action> = d
            .legal()
            .iter()
            .copied()
            .filter(|a| matches!(a, Action::TakeBlack | Action::PlaceTwo))
            .collect();
        let k = deal::below(&mut self.rng, choices.len() + 1);
        if k > 0 {
            return choices[k - 1];
        }
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
        // At a swap2 choice White is to move: play it when its best attack is worth as
        // much as Black's, else take Black.
        if view.swap2.is_some_and(Swap2Step::is_choice) {
            let board = view.board();
            let best = |c: Color| {
                classic::grades(&board, c)
                    .iter()
                    .map(|&(_, a, _)| a)
                    .max()
                    .unwrap_or(0)
            };
            if best(me.other()) > best(me) {
                return Action::TakeBlack;
            }
        }
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
    /// The moves a swap2 opening of its own is to make (the stones before them included),
    /// laid one a turn while the board follows them.
    plan: Vec<Point>,
}

impl EngineBot {
    /// The engine, made for `view`'s board at first use.
    fn engine(&mut self, view: &View) -> &mut Engine {
        // A timed engine gets the Gomocup brain's table (64 MiB), a level one sized to its
        // nodes (4 MiB up to L9, 8 MiB at L10).
        let tt_bits = if self.turn.is_some() {
            crate::gomocup::TT_BITS
        } else {
            self.level.tt_bits()
        };
        self.engine
            .get_or_insert_with(|| Engine::new(view.size, view.rule, tt_bits))
    }

    /// A swap2 step's action: the planned stone while the board follows the plan, else
    /// the choice [`swap2::decide_within`] makes for the stones so far (none, three or
    /// five), thinking within the level's nodes (or the turn's time), shared among its
    /// searches. `None` leaves the stone to the ordinary search.
    fn opening(&mut self, view: &View, step: Swap2Step, allowed: &[Point]) -> Option<Action> {
        let n = view.moves.len();
        if self.plan.len() > n && self.plan[..n] == view.moves[..] && !step.is_choice() {
            let p = self.plan[n];
            return allowed.contains(&p).then_some(Action::Place(p));
        }
        if !matches!(n, 0 | 3 | 5) {
            return None;
        }
        let (level, turn) = (self.level, self.turn);
        let limits = move |share: u32| match turn {
            Some(ms) => Limits::timed(crate::gomocup::think_time(ms) / share),
            None => {
                let mut l = level.limits();
                l.max_nodes = (l.max_nodes / u64::from(share)).max(2_000);
                l
            }
        };
        let engine = self.engine(view);
        let answer =
            swap2::decide_within(engine, view.size, view.rule, &view.moves, limits).ok()?;
        match answer {
            Answer::Opening(stones) => {
                // One of the board's eight symmetries, drawn: the same shape, not the same
                // stones, every game.
                let turn = deal::below(&mut self.rng, 8);
                self.plan = stones
                    .iter()
                    .map(|&p| symmetric(p, view.size, turn))
                    .collect();
                let p = self.plan[0];
                Some(Action::Place(p)).filter(|_| allowed.contains(&p))
            }
            Answer::Swap => Some(Action::TakeBlack),
            Answer::Stay(p) => allowed.contains(&p).then_some(Action::Place(p)),
            Answer::Two(a, b) => {
                self.plan = view.moves.iter().copied().chain([a, b]).collect();
                Some(Action::PlaceTwo)
            }
        }
    }

    fn choose(&mut self, view: &View, allowed: &[Point]) -> Option<Point> {
        let (turn, level) = (self.turn, self.level);
        let engine = self.engine(view);
        engine.set_moves(view.size, view.rule, &view.moves).ok()?;
        if let Some(turn) = turn {
            // Full strength at equal time: the best move, no variety, thinking as long
            // as the Gomocup brain would with this turn time.
            return engine
                .think(&Limits::timed(crate::gomocup::think_time(turn)))
                .best;
        }
        // Variety in the opening, and the weaker levels' margin: draw among near-best moves,
        // but never leave a forced win or walk into a forced loss.
        let own_stones = view.moves.len() / 2;
        let mut limits = level.limits();
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
        if let Some(step) = view.swap2 {
            if let Some(a) = self.opening(&view, step, &points) {
                if d.legal().contains(&a) {
                    return a;
                }
            }
        }
        match self.choose(&view, &points) {
            Some(p) if points.contains(&p) => Action::Place(p),
            _ => Action::Place(points[0]),
        }
    }
}

/// `p` under one of the eight symmetries of a `size` board (`turn` 0 to 7: four rotations,
/// each also mirrored).
fn symmetric(p: Point, size: u8, turn: usize) -> Point {
    let m = size - 1;
    let (x, y) = if turn & 4 == 0 {
        (p.x, p.y)
    } else {
        (m - p.x, p.y)
    };
    let (x, y) = match turn & 3 {
        0 => (x, y),
        1 => (m - y, x),
        2 => (m - x, m - y),
        _ => (y, m - x),
    };
    Point::new(x, y)
}
