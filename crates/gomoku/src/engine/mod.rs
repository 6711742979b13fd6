//! The computer opponent.
//!
//! # Design
//!
//! * [`pattern`]: every point keeps, per line direction, a 20-bit key of the five cells on
//!   each side; tables built once map a key to what a stone there would make on that line
//!   (five, straight four, four, open three, … down to nothing), for each colour and five
//!   rule. Four line patterns combine into a threat class (five, straight four or double
//!   four, four-three, double three, four, three).
//! * [`position`]: placing or lifting a stone updates only the 40 points on its lines within
//!   five cells, their patterns, classes and evaluation terms, and the 25-point candidate
//!   neighbourhood: evaluation is incremental and nothing is allocated per move. It is
//!   also exact (a property test holds it to a fresh board and to the rules): renju
//!   verdicts that read stones off a point's lines are renewed when those stones change.
//! * [`search`]: principal-variation alpha-beta with iterative deepening, a transposition
//!   table (Zobrist hashing), move ordering by threat value with killer and history
//!   heuristics, candidate points within two of a stone, threat pruning (a four forces its
//!   block; an open three restricts replies to blocks and counter-fours), forced wins
//!   recognised without search, late-move reductions, and depth, node and time limits with
//!   a hard stop.
//! * [`threat`]: a dedicated VCF solver (continuous fours) and a VCT solver (fours and
//!   threes) within node budgets, run at the root before the main search, and (VCF) again
//!   inside the search at the first plies below the root, so that a root move that lets
//!   the opponent win by continuous fours is seen at once, however deep the fours go.
//! * Renju: black never plays a forbidden point (the exact, recursive check of
//!   [`crate::renju`] decides whenever the patterns say a point might be one); white's threat
//!   logic counts a four whose only block is forbidden to black as a win, so white aims at
//!   them.
//! * [`Level`]s 1–10 scale depth, nodes and solver budgets; below 10 the root scores are
//!   made exact and the move is drawn among those within a margin of the best — never a
//!   move that loses to a visible threat, and always a five or a four's block when there
//!   is one. Bots use node limits only, so self-play is reproducible; the Gomocup brain
//!   uses the match clock.
//! * [`classic`]: the original program's "winning combinations" evaluator (every five-point line scored
//!   by the stones in it), kept as a baseline opponent.

pub mod classic;
pub mod pattern;
pub mod position;
pub mod search;
pub mod threat;
#[cfg(test)]
mod tune;
#[cfg(test)]
mod tune_policy;

use crate::board::{Point, Rule};
use position::Position;
use search::Searcher;
pub use search::{Limits, SearchResult, WIN, WIN_BOUND};

/// What the engine concluded about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thought {
    /// The move chosen (`None` only on a full board).
    pub best: Option<Point>,
    /// Its score for the side to move; beyond [`WIN_BOUND`] a forced win, below its
    /// negation a forced loss.
    pub eval: i32,
    /// Own moves to a five when a forced win was found.
    pub win_in: Option<u32>,
    /// Deepest completed iteration of the main search.
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Root moves with their scores, best first.
    pub root: Vec<(Point, i32)>,
}

/// The engine: a searcher with its tables, reused from move to move.
pub struct Engine {
    searcher: Searcher,
    size: u8,
    rule: Rule,
    tt_bits: u32,
}

impl Engine {
    /// An engine for an empty board, with a transposition table of `2^tt_bits` entries
    /// (16 bytes each; 20 bits is 16 MiB).
    pub fn new(size: u8, rule: Rule, tt_bits: u32) -> Engine {
        let tt_bits = tt_bits.clamp(10, 26);
        Engine {
            searcher: Searcher::new(Position::new(size, rule), tt_bits),
            size,
            rule,
            tt_bits,
        }
    }

    /// Board side.
    pub fn size(&self) -> u8 {
        self.size
    }

    /// The rule variant.
    pub fn rule(&self) -> Rule {
        self.rule
    }

    /// Sets the stones to `moves` (black first), keeping the tables when the board and rule
    /// are unchanged.
    pub fn set_moves(&mut self, size: u8, rule: Rule, moves: &[Point]) -> Result<(), String> {
        let pos = Position::from_moves(size, rule, moves)?;
        if size != self.size || rule != self.rule {
            *self = Engine::new(size, rule, self.tt_bits);
        }
        self.searcher.set_position(pos);
        Ok(())
    }

    /// The moves on the board.
    pub fn moves(&self) -> Vec<Point> {
        let pos = &self.searcher.pos;
        pos.history().iter().map(|&sq| pos.point(sq)).collect()
    }

    /// The engine's position (for tests and benchmarks).
    pub fn position(&self) -> &Position {
        &self.searcher.pos
    }

    /// Plays a stone for the side to move; fails on an off-board or occupied point.
    pub fn play(&mut self, p: Point) -> Result<(), String> {
        let pos = &mut self.searcher.pos;
        let sq = pos
            .sq_checked(p)
            .ok_or_else(|| format!("{p} is off the board"))?;
        if !pos.is_empty(sq) {
            return Err(format!("{p} is occupied"));
        }
        pos.play(sq);
        Ok(())
    }

    /// Takes back the last stone.
    pub fn undo(&mut self) {
        self.searcher.pos.undo();
    }

    /// Thinks about the side to move within `limits`.
    pub fn think(&mut self, limits: &Limits) -> Thought {
        let r = self.searcher.think(limits);
        let pos = &self.searcher.pos;
        Thought {
            best: r.best.map(|sq| pos.point(sq)),
            eval: r.eval,
            win_in: r.win_in,
            depth: r.depth,
            nodes: r.nodes,
            root: r.root.iter().map(|&(sq, s)| (pos.point(sq), s)).collect(),
        }
    }
}

/// A playing strength from 1 (beginner) to 10 (full strength).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level(u8);

impl Level {
    /// The strongest level.
    pub const MAX: Level = Level(10);

    /// A level, clamped to 1..=10.
    pub fn new(n: u8) -> Level {
        Level(n.clamp(1, 10))
    }

    /// The level's number.
    pub fn number(self) -> u8 {
        self.0
    }

    /// Node-bounded limits (no clock, so games replay exactly).
    pub fn limits(self) -> Limits {
        // (depth, nodes, root VCF budget, root VCT budget, width, inner VCF budget)
        const TABLE: [(u32, u64, u64, u64, usize, u64); 10] = [
            (1, 3_000, 0, 0, 10, 0),
            (2, 6_000, 50, 0, 10, 0),
            (2, 10_000, 200, 0, 12, 0),
            (3, 20_000, 500, 0, 12, 0),
            (4, 30_000, 1_000, 0, 12, 0),
            (5, 50_000, 2_000, 300, 14, 0),
            (7, 150_000, 4_000, 1_000, 14, 500),
            (9, 250_000, 8_000, 2_000, 14, 1_000),
            (11, 400_000, 12_000, 5_000, 14, 1_000),
            (64, 600_000, 30_000, 20_000, 14, 2_000),
        ];
        let (max_depth, max_nodes, vcf_nodes, vct_nodes, width, inner_vcf) =
            TABLE[usize::from(self.0 - 1)];
        Limits {
            max_depth,
            max_nodes,
            soft_time: None,
            hard_time: None,
            vcf_nodes,
            vct_nodes,
            width,
            inner_vcf,
            exact_root: self.0 < 10,
        }
    }

    /// The size of the level's transposition table, as a power of two: at least half as
    /// many entries as the search visits nodes (and 2^18 at the least). With fewer,
    /// entries are likely overwritten before they are used again, and play suffers: L10
    /// on 600,000 nodes with a 2^18 table lost 4 of 100 games to the one-ply `classic`
    /// evaluator, all as white, and won all four with 2^19 (docs/bots.md, "Gomoku levels").
    pub fn tt_bits(self) -> u32 {
        let half = (self.limits().max_nodes / 2).max(1 << 18);
        64 - (half - 1).leading_zeros()
    }

    /// How far below the best root score a move may be and still be chosen (pattern
    /// units; an open three is worth about 70).
    pub fn margin(self) -> i32 {
        [120, 90, 60, 45, 32, 22, 14, 8, 3, 0][usize::from(self.0 - 1)]
    }
}
