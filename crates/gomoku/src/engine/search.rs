//! Principal-variation alpha-beta with iterative deepening, a transposition table, threat
//! pruning and killer/history move ordering.
//!
//! The search is a negamax over candidate points (empty points within two of a stone). Its
//! shape is set by Gomoku's tactics rather than by brute width:
//!
//! * a five to make ends the node; an opponent's four forces the one block (searched
//!   without using up depth, so forcing lines are followed to their end);
//! * an opponent's open three (or four-three) restricts the moves to blocks and own fours;
//! * a straight four, or a four-three, against an opponent with no four to reply is a win
//!   found without searching it out;
//! * otherwise the best-ordered few points are searched, late quiet ones at reduced depth;
//! * at the root the threat solvers look for a VCF, then a VCT, before any search, and at
//!   the first plies below it a VCF check tells at once whether a move lets the opponent
//!   win by continuous fours.
//!
//! Limits are a depth, a node count (deterministic, for bots) and a soft and a hard time
//! (for matches, see [`Limits::timed`]): the hard stop aborts mid-iteration and the best
//! move found so far stands.

use super::pattern::{B4, C_B4F3, C_F3, C_F4};
use super::position::{Position, Sq};
use super::threat::ThreatSolver;
use std::time::{Duration, Instant};

/// A won game scores `WIN - plies to the five`; a lost one the negation.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses in a known number of plies.
pub const WIN_BOUND: i32 = WIN - 1_000;
const INF: i32 = WIN + 1;
const MAX_PLY: usize = 96;
/// The plies below the root where the VCF solver runs inside the search.
const INNER_VCF_PLIES: usize = 2;

/// How long and how deep to think.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Deepest iteration.
    pub max_depth: u32,
    /// Nodes after which the search stops (the main search; threat solvers have their own).
    pub max_nodes: u64,
    /// No new iteration starts after this much time.
    pub soft_time: Option<Duration>,
    /// The search stops mid-iteration at this time.
    pub hard_time: Option<Duration>,
    /// Node budget of the VCF solver at the root.
    pub vcf_nodes: u64,
    /// Node budget of the VCT solver at the root (0 skips it).
    pub vct_nodes: u64,
    /// Moves searched at an inner node (the best-ordered ones).
    pub width: usize,
    /// Node budget of the VCF solver at the nodes of the first plies below the root where
    /// the side to move can make a four: above all, whether a root move lets the opponent
    /// win by continuous fours (0 skips it).
    pub inner_vcf: u64,
    /// Search every root move with a full window, so all root scores are exact (the
    /// weaker levels choose among near-best moves).
    pub exact_root: bool,
}

impl Limits {
    /// Limits for a clock budget: stop hard at `budget`, start no iteration after 70% of
    /// it, and size the threat solvers (which do not look at the clock) to a fraction of it.
    ///
    /// An iteration cut short by the hard stop is not wasted: it searches the last best
    /// move first, and any root move it then finds better stands.
    /// So starting late costs little, and 70% plays better than the 40% used before: at
    /// 100 ms a move it scored 58.1% against the 40% engine over 500 games (`opening=3`,
    /// colours swapped; docs/bots.md, "Comparing two builds of the Gomoku engine").
    pub fn timed(budget: Duration) -> Limits {
        let ms = budget.as_millis().min(u128::from(u32::MAX)) as u64;
        Limits {
            soft_time: Some(budget * 7 / 10),
            hard_time: Some(budget),
            vcf_nodes: (ms * 100).clamp(2_000, 400_000),
            vct_nodes: (ms * 50).clamp(1_000, 200_000),
            ..Limits::default()
        }
    }
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 64,
            max_nodes: u64::MAX,
            soft_time: None,
            hard_time: None,
            vcf_nodes: 20_000,
            vct_nodes: 20_000,
            width: 14,
            inner_vcf: 3_000,
            exact_root: false,
        }
    }
}

/// What a search found.
#[derive(Clone, Debug, Default)]
pub struct SearchResult {
    /// The move to play (`None` only on a full board).
    pub best: Option<Sq>,
    /// Its score for the side to move (pattern units; ±[`WIN`] minus plies when decided).
    pub eval: i32,
    /// Own moves to a five, if a forced win was found.
    pub win_in: Option<u32>,
    /// Deepest completed iteration.
    pub depth: u32,
    /// Nodes searched (main search and threat solvers).
    pub nodes: u64,
    /// Root moves with their last scores (exact only with [`Limits::exact_root`]).
    pub root: Vec<(Sq, i32)>,
}

#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    score: i32,
    best: u16,
    depth: i8,
    bound: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

/// The searcher: a position, its tables and its counters.
pub struct Searcher {
    /// The position searched; callers set it up with [`Position::play`].
    pub pos: Position,
    tt: Vec<Entry>,
    killers: [[u16; 2]; MAX_PLY],
    history: Vec<[i32; 2]>,
    nodes: u64,
    stop: bool,
    limits: Limits,
    started: Instant,
    solver: ThreatSolver,
    move_stack: Vec<Vec<(Sq, i32)>>,
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score + ply as i32
    } else if score < -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score > WIN_BOUND {
        score - ply as i32
    } else if score < -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

/// Whether the side to move faces a four-three or better to come, so that only blocks
/// and its own fours are candidates ([`static_order`]'s `defending`).
pub(super) fn defending(pos: &Position) -> bool {
    pos.count_at_least(1 - pos.side(), C_B4F3) > 0
}

/// A point's place in the move order before anything the search learns (history, killers,
/// the table's move): its worth to the side to move plus four fifths of its worth to the
/// other; `None` when it is no candidate — taken, farther than two from every stone, or,
/// when `defending`, neither a block nor a four of its own.
#[inline]
pub(super) fn static_order(pos: &Position, sq: Sq, defending: bool) -> Option<i32> {
    if !pos.is_empty(sq) || !pos.is_near(sq) {
        return None;
    }
    let me = pos.side();
    let op = 1 - me;
    if defending && pos.max_pattern(sq, op) < B4 && pos.max_pattern(sq, me) < B4 {
        return None;
    }
    Some(pos.score(sq, me) + pos.score(sq, op) * 4 / 5)
}

impl Searcher {
    /// A searcher for `pos` with a transposition table of `2^tt_bits` entries.
    pub fn new(pos: Position, tt_bits: u32) -> Searcher {
        let cells = pos.cells();
        Searcher {
            pos,
            tt: vec![Entry::default(); 1 << tt_bits],
            killers: [[u16::MAX; 2]; MAX_PLY],
            history: vec![[0; 2]; cells],
            nodes: 0,
            stop: false,
            limits: Limits::default(),
            started: Instant::now(),
            solver: ThreatSolver::new(0),
            move_stack: (0..MAX_PLY).map(|_| Vec::with_capacity(64)).collect(),
        }
    }

    /// Replaces the position, keeping the tables (hashes stay valid across positions).
    pub fn set_position(&mut self, pos: Position) {
        if pos.cells() != self.pos.cells() {
            self.history = vec![[0; 2]; pos.cells()];
        }
        self.pos = pos;
    }

    fn tt_index(&self, key: u64) -> usize {
        (key as usize) & (self.tt.len() - 1)
    }

    fn check_stop(&mut self) {
        if self.nodes >= self.limits.max_nodes {
            self.stop = true;
        }
        if let Some(hard) = self.limits.hard_time {
            if self.nodes & 1023 == 0 && self.started.elapsed() >= hard {
                self.stop = true;
            }
        }
    }

    /// A square where the side to move wins by force without search: a straight four (or
    /// two fours), or a four-three, when the opponent cannot answer with a four.
    fn quick_win(&self) -> Option<(Sq, i32)> {
        let me = self.pos.side();
        let op = 1 - me;
        if self.pos.can_four(op) || self.pos.count_at_least(me, C_B4F3) == 0 {
            return None;
        }
        let renju_black = me == 0 && self.pos.rule().has_forbidden(crate::board::Color::Black);
        let mut best: Option<(Sq, i32)> = None;
        for sq in 0..self.pos.cells() {
            if !self.pos.is_empty(sq) {
                continue;
            }
            let c = self.pos.combo(sq, me);
            let plies = if c == C_F4 {
                3
            } else if c == C_B4F3 && !renju_black {
                5
            } else {
                continue;
            };
            if self.pos.forbidden(sq, me) {
                continue;
            }
            if best.is_none_or(|(_, p)| plies < p) {
                best = Some((sq, plies));
            }
        }
        best
    }

    /// Candidate moves for the side to move in `out`, the best `keep` first in order.
    fn gen_moves(&self, ply: usize, tt_move: u16, keep: usize, out: &mut Vec<(Sq, i32)>) {
        let me = self.pos.side();
        let defending = defending(&self.pos);
        out.clear();
        for sq in 0..self.pos.cells() {
            let Some(base) = static_order(&self.pos, sq, defending) else {
                continue;
            };
            let mut s = base + self.history[sq][me] / 64;
            if sq as u16 == tt_move {
                s += 1 << 28;
            } else if ply < MAX_PLY && self.killers[ply].contains(&(sq as u16)) {
                s += 1 << 20;
            }
            out.push((sq, s));
        }
        if out.len() > keep && keep > 0 {
            out.select_nth_unstable_by_key(keep - 1, |&(_, s)| std::cmp::Reverse(s));
            out.truncate(keep);
        }
        out.sort_unstable_by_key(|&(_, s)| std::cmp::Reverse(s));
    }

    fn search(&mut self, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.check_stop();
        if self.stop {
            return 0;
        }
        let me = self.pos.side();
        let op = 1 - me;
        if self.pos.count_at_least(me, super::pattern::C_FIVE) > 0 {
            return WIN - ply as i32 - 1;
        }
        if self.pos.ply() >= self.pos.cells() {
            return 0;
        }
        let (theirs, n_theirs) = self.pos.five_points(op);
        if n_theirs >= 2 {
            return -(WIN - ply as i32 - 2);
        }
        let forced = (n_theirs == 1).then_some(theirs[0]);
        if let Some(sq) = forced {
            if self.pos.forbidden(sq, me) {
                return -(WIN - ply as i32 - 2);
            }
        } else if let Some((_, plies)) = self.quick_win() {
            return WIN - ply as i32 - plies;
        }
        if forced.is_none()
            && ply <= INNER_VCF_PLIES
            && self.limits.inner_vcf > 0
            && self.pos.can_four(me)
        {
            self.solver.reset(self.limits.inner_vcf);
            let found = self.solver.vcf(&mut self.pos, 30);
            self.nodes += self.solver.nodes;
            if let Some((_, k)) = found {
                return WIN - ply as i32 - (2 * k as i32 - 1);
            }
        }
        if ply + 1 >= MAX_PLY || (depth <= 0 && forced.is_none()) {
            return self.pos.evaluate();
        }
        let key = self.pos.hash();
        let slot = self.tt_index(key);
        let entry = self.tt[slot];
        let mut tt_move = u16::MAX;
        if entry.key == key {
            tt_move = entry.best;
            if i32::from(entry.depth) >= depth && beta - alpha == 1 {
                let s = from_tt(entry.score, ply);
                match entry.bound {
                    EXACT => return s,
                    LOWER if s >= beta => return s,
                    UPPER if s <= alpha => return s,
                    _ => {}
                }
            }
        }
        let mut moves = std::mem::take(&mut self.move_stack[ply]);
        moves.clear();
        if let Some(sq) = forced {
            moves.push((sq, 0));
        } else {
            self.gen_moves(ply, tt_move, self.limits.width, &mut moves);
        }
        let best = self.search_moves(&moves, depth, alpha, beta, ply, forced.is_some());
        self.move_stack[ply] = moves;
        if self.stop {
            return 0;
        }
        let Some((best, best_move)) = best else {
            // Renju black with every candidate forbidden: it cannot hold the position.
            return -(WIN - ply as i32 - 2);
        };
        let bound = if best >= beta {
            LOWER
        } else if best > alpha {
            EXACT
        } else {
            UPPER
        };
        self.tt[slot] = Entry {
            key,
            score: to_tt(best, ply),
            best: best_move,
            depth: depth.clamp(0, 127) as i8,
            bound,
        };
        best
    }

    /// The PVS loop over `moves`: the best score and move, `None` if none could be played.
    fn search_moves(
        &mut self,
        moves: &[(Sq, i32)],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        forced: bool,
    ) -> Option<(i32, u16)> {
        let me = self.pos.side();
        let op = 1 - me;
        let mut best = -INF;
        let mut best_move = u16::MAX;
        let mut searched = 0;
        for (i, &(sq, _)) in moves.iter().enumerate() {
            if !forced && self.pos.forbidden(sq, me) {
                continue;
            }
            let quiet = self.pos.combo(sq, me) < C_F3 && self.pos.combo(sq, op) < C_F3;
            let new_depth = if forced { depth } else { depth - 1 };
            self.pos.play(sq);
            let score = if searched == 0 {
                -self.search(new_depth, -beta, -alpha, ply + 1)
            } else {
                let reduce = if quiet && i >= 4 && depth >= 3 { 1 } else { 0 };
                let mut s = -self.search(new_depth - reduce, -alpha - 1, -alpha, ply + 1);
                if s > alpha && (reduce > 0 || s < beta) {
                    s = -self.search(new_depth, -beta, -alpha, ply + 1);
                }
                s
            };
            self.pos.undo();
            searched += 1;
            if self.stop {
                return None;
            }
            if score > best {
                best = score;
                best_move = sq as u16;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        if quiet && ply < MAX_PLY && self.killers[ply][0] != sq as u16 {
                            self.killers[ply][1] = self.killers[ply][0];
                            self.killers[ply][0] = sq as u16;
                        }
                        self.history[sq][me] += depth * depth;
                        break;
                    }
                }
            }
        }
        (searched > 0).then_some((best, best_move))
    }

    /// Searches the position for its side to move within `limits`.
    pub fn think(&mut self, limits: &Limits) -> SearchResult {
        self.limits = limits.clone();
        self.started = Instant::now();
        self.nodes = 0;
        self.stop = false;
        self.killers = [[u16::MAX; 2]; MAX_PLY];
        let mut result = SearchResult::default();
        let me = self.pos.side();
        let op = 1 - me;
        if self.pos.ply() >= self.pos.cells() {
            return result;
        }
        if self.pos.ply() == 0 {
            let c = self.pos.size() / 2;
            result.best = Some(c * self.pos.size() + c);
            return result;
        }
        let (mine, n_mine) = self.pos.five_points(me);
        if n_mine > 0 {
            result.best = Some(mine[0]);
            result.eval = WIN - 1;
            result.win_in = Some(1);
            return result;
        }
        let (theirs, n_theirs) = self.pos.five_points(op);
        if n_theirs == 0 {
            if let Some(r) = self.solve_threats(limits) {
                return r;
            }
        }
        let mut root = Vec::new();
        if n_theirs > 0 {
            root.push((theirs[0], 0));
        } else {
            self.gen_moves(0, u16::MAX, 0, &mut root);
        }
        root.retain(|&(sq, _)| !self.pos.forbidden(sq, me));
        if root.is_empty() {
            // Only forbidden points near the stones: take any allowed point.
            let any = (0..self.pos.cells())
                .find(|&sq| self.pos.is_empty(sq) && !self.pos.forbidden(sq, me));
            result.best = any;
            result.eval = -WIN_BOUND;
            return result;
        }
        result.best = Some(root[0].0);
        result.root = root.clone();
        if root.len() == 1 {
            self.pos.play(root[0].0);
            let s = -self.search(2, -INF, INF, 1);
            self.pos.undo();
            result.eval = s;
            result.nodes = self.nodes;
            return result;
        }
        for depth in 1..=limits.max_depth.max(1) as i32 {
            let mut alpha = -INF;
            let mut best = -INF;
            let mut best_sq = root[0].0;
            let mut scores = Vec::with_capacity(root.len());
            for (i, &(sq, _)) in root.iter().enumerate() {
                self.pos.play(sq);
                let s = if i == 0 || limits.exact_root {
                    -self.search(depth - 1, -INF, INF, 1)
                } else {
                    let mut s = -self.search(depth - 1, -alpha - 1, -alpha, 1);
                    if s > alpha && !self.stop {
                        s = -self.search(depth - 1, -INF, -alpha, 1);
                    }
                    s
                };
                self.pos.undo();
                if self.stop {
                    break;
                }
                scores.push((sq, s));
                if s > best {
                    best = s;
                    best_sq = sq;
                    if s > alpha {
                        alpha = s;
                    }
                }
            }
            if self.stop && scores.is_empty() {
                break;
            }
            if !self.stop || scores.len() == root.len() {
                result.depth = depth as u32;
            }
            // A cut iteration still searched the last best move first, fully (or `scores`
            // would be empty), so a move that beat it is better at this depth: a timed
            // search takes it. The node-bounded levels keep their measured rule (a cut
            // iteration's move only if it scores above the last iteration's), so the level
            // ladder in docs/bots.md stays what was measured.
            let timed = limits.hard_time.is_some();
            if timed || !self.stop || best > result.eval || scores.len() == root.len() {
                result.best = Some(best_sq);
                result.eval = best;
            }
            // Re-order the root: this iteration's best first, then by score.
            for (sq, s) in &scores {
                if let Some(r) = root.iter_mut().find(|(q, _)| q == sq) {
                    r.1 = *s;
                }
            }
            let searched: Vec<Sq> = scores.iter().map(|&(sq, _)| sq).collect();
            root.sort_by_key(|&(sq, s)| {
                (
                    std::cmp::Reverse(searched.contains(&sq)),
                    std::cmp::Reverse(if sq == best_sq { INF } else { s }),
                )
            });
            result.root = root.clone();
            if self.stop || best.abs() > WIN_BOUND {
                break;
            }
            if let Some(soft) = limits.soft_time {
                if self.started.elapsed() >= soft {
                    break;
                }
            }
        }
        if result.eval > WIN_BOUND {
            result.win_in = Some(((WIN - result.eval) as u32).div_ceil(2));
        }
        result.nodes = self.nodes;
        result
    }

    /// The threat solvers at the root: a VCF, then a VCT, each within its budget.
    fn solve_threats(&mut self, limits: &Limits) -> Option<SearchResult> {
        let mut out = SearchResult::default();
        self.solver.reset(limits.vcf_nodes);
        let mut found = self.solver.vcf(&mut self.pos, 40);
        self.nodes += self.solver.nodes;
        if found.is_none() && limits.vct_nodes > 0 {
            self.solver.reset(limits.vct_nodes);
            found = self.solver.vct(&mut self.pos, 6);
            self.nodes += self.solver.nodes;
        }
        let (sq, k) = found?;
        out.best = Some(sq);
        out.win_in = Some(k);
        out.eval = WIN - (2 * k as i32 - 1);
        out.nodes = self.nodes;
        Some(out)
    }
}
