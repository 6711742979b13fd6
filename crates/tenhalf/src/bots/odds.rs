//! The arithmetic of the counting bot: card values as draw odds, and how a player who plays
//! the original rules' policy ends a round when the deck holds a given number of cards for them.

use super::seed::SEED_STANDS_AT;
use crate::hand::{Halves, MAX_CARDS, TEN_AND_A_HALF};
use cards::{Card, Rank};

/// Card values: index 0 is ½ (J, Q, K, jokers), index `k` is `k` points (A = 1 … 10).
pub(super) const VALUES: usize = 11;
/// Totals a hand can have before it busts: 0 to 10½ in half points.
pub(super) const TOTALS: usize = TEN_AND_A_HALF as usize + 1;
/// 7½, the lowest total a player may stand on.
pub(super) const MAY_STAND_FROM: Halves = 15;
/// Deck budgets worked out one by one. A player's round almost never takes this many cards,
/// so with more cards left the deck is as good as endless.
pub(super) const BUDGETS: usize = 24;

/// A per-total, per-card-count table (index: total in halves, cards in hand; 0 cards unused).
pub(super) type Table = [[f64; MAX_CARDS]; TOTALS];
/// A table of zeros.
pub(super) const ZEROS: Table = [[0.0; MAX_CARDS]; TOTALS];

/// The value index of a card (see [`VALUES`]).
pub(super) fn value_index(card: Card) -> usize {
    match card.rank() {
        Rank::Jack | Rank::Queen | Rank::King | Rank::BlackJoker | Rank::RedJoker => 0,
        r => r.pips() as usize,
    }
}

/// The half points of value index `k`.
pub(super) const fn value_halves(k: usize) -> Halves {
    if k == 0 {
        1
    } else {
        2 * k as Halves
    }
}

/// How a player's round ends, as chances.
#[derive(Clone, Debug)]
pub(super) struct Ending {
    /// Wins outright.
    pub win: f64,
    /// Busts on the deck's last card and is out of the round.
    pub out: f64,
    /// Stands on each total with each number of cards (by choice, or stuck on an empty deck).
    pub stand: Table,
    /// Expected cards taken from the deck (hits and new base cards).
    pub draws: f64,
    /// Expected busts.
    pub busts: f64,
}

impl Ending {
    /// For each total and card count of another hand: the chance that this player does not
    /// stand below it, i.e. wins, is out, or stands higher. A tie counts half: the best
    /// cards decide it, and they are not known.
    pub fn not_below(&self) -> Table {
        not_below(self.win + self.out, &self.stand)
    }
}

/// [`Ending::not_below`] for a player who is certainly out of the way with chance `away` and
/// stands as `stand` says otherwise.
pub(super) fn not_below(away: f64, stand: &Table) -> Table {
    let mut out = ZEROS;
    let mut higher = away;
    for t in (0..TOTALS).rev() {
        for n in (1..MAX_CARDS).rev() {
            out[t][n] = higher + 0.5 * stand[t][n];
            higher += stand[t][n];
        }
    }
    out
}

/// How a player who plays the original rules' policy from a fresh base card ends the round, for each
/// number of cards the deck holds for them (index 0 to [`BUDGETS`]), every card drawn with
/// the odds `p`.
///
/// A player who wants a card when the budget is spent stands where they are; one who busts
/// on the last card gets no new base card and is out.
pub(super) fn seed_policy_endings(p: &[f64; VALUES]) -> Vec<Ending> {
    // mass[u]: open hands after `u` cards taken from the deck.
    let mut mass = vec![ZEROS; BUDGETS + 1];
    // restart[u]: hands that busted and take their new base card as card `u`.
    let mut restart = vec![0.0; BUDGETS + 2];
    let mut won = vec![0.0; BUDGETS + 2];
    let mut busted = vec![0.0; BUDGETS + 2];
    let mut stood = ZEROS;
    let (mut won_so_far, mut busts_so_far, mut draws_so_far) = (0.0, 0.0, 0.0);
    for (k, &pk) in p.iter().enumerate() {
        mass[0][value_halves(k) as usize][1] += pk;
    }
    let mut endings = Vec::with_capacity(BUDGETS + 1);
    for u in 0..=BUDGETS {
        if u > 0 && restart[u] > 0.0 {
            for (k, &pk) in p.iter().enumerate() {
                mass[u][value_halves(k) as usize][1] += restart[u] * pk;
            }
        }
        let mut stuck = ZEROS;
        // The chance of wanting card u + 1: a hit, or a new base after a bust on card u.
        let mut need = restart.get(u + 1).copied().unwrap_or(0.0);
        for t in 0..TOTALS {
            for n in 1..MAX_CARDS {
                let m = mass[u][t][n];
                if m == 0.0 {
                    continue;
                }
                if t as Halves >= SEED_STANDS_AT {
                    stood[t][n] += m;
                    continue;
                }
                stuck[t][n] += m;
                need += m;
                if u == BUDGETS {
                    continue;
                }
                for (k, &pk) in p.iter().enumerate() {
                    let q = m * pk;
                    let t2 = t + value_halves(k) as usize;
                    if t2 > TEN_AND_A_HALF as usize {
                        busted[u + 1] += q;
                        restart[u + 2] += q;
                    } else if t2 == TEN_AND_A_HALF as usize || n + 1 == MAX_CARDS {
                        won[u + 1] += q;
                    } else {
                        mass[u + 1][t2][n + 1] += q;
                    }
                }
            }
        }
        won_so_far += won[u];
        busts_so_far += busted[u];
        let mut stand = stood;
        for (row, stuck_row) in stand.iter_mut().zip(&stuck) {
            for (cell, s) in row.iter_mut().zip(stuck_row) {
                *cell += s;
            }
        }
        endings.push(Ending {
            win: won_so_far,
            out: busted[u],
            stand,
            draws: draws_so_far,
            busts: busts_so_far,
        });
        draws_so_far += need;
    }
    endings
}

#[cfg(test)]
mod tests {
    use super::*;

    fn full_deck_odds() -> [f64; VALUES] {
        let mut counts = [0u32; VALUES];
        for c in Card::all() {
            counts[value_index(c)] += 1;
        }
        counts.map(|n| f64::from(n) / 54.0)
    }

    #[test]
    fn every_budget_accounts_for_every_ending() {
        let endings = seed_policy_endings(&full_deck_odds());
        for (b, e) in endings.iter().enumerate() {
            let stands: f64 = e.stand.iter().flatten().sum();
            let total = e.win + e.out + stands;
            assert!((total - 1.0).abs() < 1e-9, "budget {b}: {total}");
            assert!(e.draws <= b as f64 + 1e-9, "budget {b}: {} draws", e.draws);
        }
        // Without cards every player stands on the base card.
        assert_eq!(endings[0].win, 0.0);
        assert!(endings[0].stand[1][1] > 0.0);
        // With a deck to spare, busts are restarts, not endings: a round of more than
        // BUDGETS cards is rare.
        assert!(endings[BUDGETS].out < 0.01, "{}", endings[BUDGETS].out);
        assert!(endings[BUDGETS].busts > 0.1);
    }

    #[test]
    fn not_below_counts_higher_hands_and_half_the_ties() {
        let mut stand = ZEROS;
        stand[18][1] = 0.5;
        stand[20][1] = 0.25;
        let t = not_below(0.25, &stand);
        assert!((t[18][1] - (0.25 + 0.25 + 0.25)).abs() < 1e-12);
        assert!((t[19][1] - 0.5).abs() < 1e-12);
        assert!((t[0][1] - 1.0).abs() < 1e-12);
    }
}
