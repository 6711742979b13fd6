//! The threat solver: VCF (victory by continuous fours, 连续冲四) and VCT (victory by
//! continuous threats, fours and threes).
//!
//! Both are AND/OR searches over a narrow move set. In VCF every attacking move is a four,
//! so the defender's reply is forced (the one point that stops the five) and the search is
//! a single line per attacking choice; failed positions are remembered in a small table, as
//! the same stones are often reached in another order. VCT adds threes: the defender may
//! then answer at any point that stops the three from becoming a straight four, or with a
//! four of its own, and the attacker must win against every answer. Renju is respected both
//! ways: black's attacking and defending moves skip forbidden points, and a four whose only
//! defence is a point forbidden to black wins outright.

use super::pattern::{B4, C_B4, C_B4F3, C_F3, C_F3F3, C_F4, C_FIVE};
use super::position::{Position, Sq};

/// Remembered failures: direct-mapped on the hash, storing the hash and the depth it failed at.
const CACHE_BITS: u32 = 16;

/// A threat search with a node budget.
pub struct ThreatSolver {
    /// Nodes visited so far.
    pub nodes: u64,
    budget: u64,
    cache: Vec<(u64, u32)>,
}

impl ThreatSolver {
    /// A solver that gives up after `budget` nodes.
    pub fn new(budget: u64) -> ThreatSolver {
        ThreatSolver {
            nodes: 0,
            budget,
            cache: vec![(0, 0); 1 << CACHE_BITS],
        }
    }

    /// Sets a new budget and forgets the node count (the cache stays valid).
    pub fn reset(&mut self, budget: u64) {
        self.nodes = 0;
        self.budget = budget;
    }

    fn cached_fail(&self, hash: u64, depth: u32) -> bool {
        let e = self.cache[(hash as usize) & ((1 << CACHE_BITS) - 1)];
        e.0 == hash && e.1 >= depth
    }

    fn remember_fail(&mut self, hash: u64, depth: u32) {
        let i = (hash as usize) & ((1 << CACHE_BITS) - 1);
        self.cache[i] = (hash, depth);
    }

    /// A VCF for the side to move within `depth` fours: the first move and the number of
    /// the attacker's moves to the five.
    pub fn vcf(&mut self, pos: &mut Position, depth: u32) -> Option<(Sq, u32)> {
        self.vcf_inner(pos, depth)
    }

    /// The whole VCF line for the side to move, attacker's and defender's moves alternating
    /// and ending with the five, found by solving each step again within the budget.
    pub fn vcf_line(&mut self, pos: &mut Position, depth: u32) -> Option<Vec<Sq>> {
        let mut line = Vec::new();
        let result = loop {
            let Some((sq, k)) = self.vcf_inner(pos, depth) else {
                break None;
            };
            pos.play(sq);
            line.push(sq);
            if k == 1 {
                break Some(());
            }
            let me = 1 - pos.side();
            let (fives, n) = pos.five_points_around(sq, me);
            if n != 1 {
                // Two fives (or a block forbidden to black): the defender is lost; show the
                // defender blocking one, then the other five.
                let (all, m) = pos.five_points(me);
                let block = all[0];
                if m == 0 || pos.forbidden(block, pos.side()) {
                    break Some(());
                }
                pos.play(block);
                line.push(block);
                continue;
            }
            if pos.forbidden(fives[0], pos.side()) {
                // The only block is forbidden to black: black is lost here.
                break Some(());
            }
            pos.play(fives[0]);
            line.push(fives[0]);
        };
        for _ in 0..line.len() {
            pos.undo();
        }
        result.map(|_| line)
    }

    fn four_moves(pos: &Position, me: usize, out: &mut Vec<Sq>) {
        for sq in 0..pos.cells() {
            if pos.is_empty(sq) {
                let c = pos.combo(sq, me);
                if c == C_F4
                    || c == C_B4F3
                    || c == C_B4
                    || (c != C_FIVE && pos.max_pattern(sq, me) >= B4)
                {
                    out.push(sq);
                }
            }
        }
        // Straight fours and four-threes first: they end the search soonest.
        out.sort_by_key(|&sq| std::cmp::Reverse(pos.combo(sq, me)));
    }

    fn vcf_inner(&mut self, pos: &mut Position, depth: u32) -> Option<(Sq, u32)> {
        self.nodes += 1;
        let me = pos.side();
        let op = 1 - me;
        let (mine, n_mine) = pos.five_points(me);
        if n_mine > 0 {
            return Some((mine[0], 1));
        }
        if depth == 0 || self.nodes > self.budget {
            return None;
        }
        let (theirs, n_theirs) = pos.five_points(op);
        if n_theirs >= 2 {
            return None;
        }
        let hash = pos.hash();
        if self.cached_fail(hash, depth) {
            return None;
        }
        let mut moves = Vec::new();
        if n_theirs == 1 {
            let sq = theirs[0];
            if pos.max_pattern(sq, me) >= B4 {
                moves.push(sq);
            }
        } else {
            Self::four_moves(pos, me, &mut moves);
        }
        for sq in moves {
            if pos.forbidden(sq, me) {
                continue;
            }
            pos.play(sq);
            let (fives, n) = pos.five_points_around(sq, me);
            let found = if n >= 2 {
                Some(2)
            } else if n == 1 {
                let block = fives[0];
                if pos.forbidden(block, op) {
                    Some(2)
                } else {
                    pos.play(block);
                    let r = self.vcf_inner(pos, depth - 1).map(|(_, k)| k + 1);
                    pos.undo();
                    r
                }
            } else {
                None
            };
            pos.undo();
            if let Some(k) = found {
                return Some((sq, k));
            }
        }
        if self.nodes <= self.budget {
            self.remember_fail(hash, depth);
        }
        None
    }

    /// A VCT for the side to move within `depth` attacking moves (fours and threes): the
    /// first move and the attacker's moves to the five, found within the budget.
    pub fn vct(&mut self, pos: &mut Position, depth: u32) -> Option<(Sq, u32)> {
        if let Some(w) = self.vcf_inner(pos, depth.max(1) * 2) {
            return Some(w);
        }
        self.vct_inner(pos, depth)
    }

    fn vct_inner(&mut self, pos: &mut Position, depth: u32) -> Option<(Sq, u32)> {
        self.nodes += 1;
        if depth == 0 || self.nodes > self.budget {
            return None;
        }
        let me = pos.side();
        let op = 1 - me;
        if me == 0 && pos.rule().has_forbidden(crate::board::Color::Black) {
            // Renju black's threes may hinge on forbidden points; only its VCF is trusted.
            return None;
        }
        let (_, n_theirs) = pos.five_points(op);
        if n_theirs > 0 {
            // Fours of the defender: only a VCF (already tried by the caller) could win.
            return None;
        }
        let mut moves = Vec::new();
        for sq in 0..pos.cells() {
            if pos.is_empty(sq) && pos.is_near(sq) {
                let c = pos.combo(sq, me);
                if c == C_F3 || c == C_F3F3 || c == C_B4F3 || c == C_F4 {
                    moves.push(sq);
                }
            }
        }
        moves.sort_by_key(|&sq| std::cmp::Reverse((pos.combo(sq, me), pos.score(sq, me))));
        for sq in moves {
            if pos.forbidden(sq, me) {
                continue;
            }
            pos.play(sq);
            let won = self.defend_all(pos, depth - 1);
            pos.undo();
            if let Some(k) = won {
                return Some((sq, k + 1));
            }
            if self.nodes > self.budget {
                return None;
            }
        }
        None
    }

    /// The attacker has just made a three (or stronger); every defence must lose.
    fn defend_all(&mut self, pos: &mut Position, depth: u32) -> Option<u32> {
        let me = pos.side(); // the defender
        let att = 1 - me;
        let (fives, n) = pos.five_points(att);
        if n > 0 {
            // A four: the block is forced (VCF-style).
            if n >= 2 || pos.forbidden(fives[0], me) {
                return Some(1);
            }
            if pos.five_points(me).1 > 0 {
                return None;
            }
            pos.play(fives[0]);
            let r = self.vct_or_vcf(pos, depth);
            pos.undo();
            return r;
        }
        if pos.count_at_least(me, C_FIVE) > 0 {
            return None;
        }
        let mut defences = Vec::new();
        for sq in 0..pos.cells() {
            if !pos.is_empty(sq) {
                continue;
            }
            let stops = pos.max_pattern(sq, att) >= B4;
            let counter = matches!(pos.combo(sq, me), C_B4 | C_B4F3 | C_F4);
            if stops || counter {
                defences.push(sq);
            }
        }
        if defences.is_empty() {
            return None;
        }
        let mut worst = 0;
        for sq in defences {
            if pos.forbidden(sq, me) {
                continue;
            }
            pos.play(sq);
            let r = self.vct_or_vcf(pos, depth);
            pos.undo();
            match r {
                Some(k) => worst = worst.max(k),
                None => return None,
            }
        }
        Some(worst)
    }

    fn vct_or_vcf(&mut self, pos: &mut Position, depth: u32) -> Option<u32> {
        if let Some((_, k)) = self.vcf_inner(pos, 2 * depth + 2) {
            return Some(k);
        }
        self.vct_inner(pos, depth).map(|(_, k)| k)
    }
}
