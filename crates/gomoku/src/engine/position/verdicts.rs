//! Renju: keeping black's verdicts exact. A point whose lines show two threes takes its
//! class from the exact forbidden-point check, whose recursion reads the lines of the
//! points that would complete those threes — stones that can lie well off the point's own
//! lines. Such points are listed with the [`Footprint`](crate::renju::Footprint) of their
//! verdict, and a stone placed or lifted on a footprint renews the verdict.

use super::{Position, Sq, NONE};
use crate::renju;

impl Position {
    /// Renju: decides whether black's square with two threes is forbidden, noting what the
    /// verdict read and listing the square for renewal.
    #[inline(never)]
    pub(super) fn decide(&mut self, sq: Sq) -> bool {
        let (verdict, seen) = renju::forbidden_with_footprint(&self.board, self.point(sq));
        self.footprints[sq] = seen;
        self.decided[sq] = self.update;
        self.enlist(sq);
        verdict.is_some()
    }

    /// Puts the empty square on the list of verdicts to renew.
    fn enlist(&mut self, sq: Sq) {
        if self.check_slot[sq] == NONE {
            self.check_slot[sq] = self.checks.len() as u16;
            self.checks.push(sq as u16);
        }
    }

    /// Takes the square off the list of verdicts to renew.
    pub(super) fn delist(&mut self, sq: Sq) {
        let slot = self.check_slot[sq];
        if slot != NONE {
            self.checks.swap_remove(usize::from(slot));
            if let Some(&moved) = self.checks.get(usize::from(slot)) {
                self.check_slot[usize::from(moved)] = slot;
            }
            self.check_slot[sq] = NONE;
        }
    }

    /// Starts an update (a play or an undo): verdicts decided from here on are current.
    pub(super) fn begin_update(&mut self) {
        self.update = self.update.wrapping_add(1);
        if self.update == 0 {
            // After 2^32 updates the counter starts again, clear of any old mark.
            self.decided.fill(0);
            self.update = 1;
        }
    }

    /// Renju: renews black's verdicts that read the square `sq`, whose stone just came or
    /// went, unless this update already decided them (their lines changed shape). A
    /// verdict can hang on stones far beyond a point's own lines — the recursion looks at
    /// the lines of the points that would complete its threes — so the lines alone do not
    /// say which verdicts a stone touches; the footprints do.
    pub(super) fn renew_verdicts(&mut self, sq: Sq) {
        if !self.renju {
            return;
        }
        let p = self.point(sq);
        let mut i = 0;
        while i < self.checks.len() {
            let q = usize::from(self.checks[i]);
            if self.decided[q] != self.update && self.footprints[q].contains(p) {
                self.remove(q, 0);
                self.refresh(q, 0);
                self.add(q, 0);
            }
            // The lines of `q` kept their shape, so it stays listed in the same slot.
            i += 1;
        }
    }
}
