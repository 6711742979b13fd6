//! Running statistics for self-play: win rates and mean scores with 95% intervals.

use serde::Serialize;

/// Wins and scores of one bot (or one bot in one role) over many games.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tally {
    /// Games counted.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games nobody won (a Gomoku draw, a Ten-and-a-half game with equal penalties).
    pub draws: u64,
    /// Sum of score changes (exact).
    pub score_sum: i128,
    /// Sum of squared score changes (exact), for the interval of the mean.
    pub score_sq_sum: i128,
}

impl Tally {
    /// Counts one game: whether this side won, whether nobody did, and its score.
    pub fn add(&mut self, won: bool, drawn: bool, score: i64) {
        self.games += 1;
        self.wins += won as u64;
        self.draws += (drawn && !won) as u64;
        self.score_sum += score as i128;
        self.score_sq_sum += (score as i128) * (score as i128);
    }

    /// Adds another tally (from another thread).
    pub fn merge(&mut self, other: &Tally) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.score_sum += other.score_sum;
        self.score_sq_sum += other.score_sq_sum;
    }

    /// The summary people read: rates, means and their 95% intervals.
    pub fn summary(&self) -> Summary {
        let n = self.games as f64;
        let (lo, hi) = wilson(self.wins, self.games);
        let mean = if n > 0.0 {
            self.score_sum as f64 / n
        } else {
            0.0
        };
        let var = if n > 1.0 {
            ((self.score_sq_sum as f64) - n * mean * mean).max(0.0) / (n - 1.0)
        } else {
            0.0
        };
        let half = if n > 0.0 {
            1.96 * (var / n).sqrt()
        } else {
            0.0
        };
        Summary {
            games: self.games,
            wins: self.wins,
            draws: self.draws,
            losses: self.games - self.wins - self.draws,
            win_rate: if n > 0.0 { self.wins as f64 / n } else { 0.0 },
            win_rate_ci95: [lo, hi],
            avg_score: mean,
            avg_score_ci95: [mean - half, mean + half],
        }
    }
}

/// A [`Tally`] as rates and means.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Summary {
    /// Games counted.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games nobody won.
    pub draws: u64,
    /// Games another side won.
    pub losses: u64,
    /// wins / games.
    pub win_rate: f64,
    /// Wilson 95% interval of the win rate.
    pub win_rate_ci95: [f64; 2],
    /// Mean score change per game.
    pub avg_score: f64,
    /// Normal 95% interval of the mean score.
    pub avg_score_ci95: [f64; 2],
}

/// The Wilson score interval (95%) for `k` successes in `n` trials: well-behaved near 0 and 1,
/// where the rates we care about (94%, 5%) live.
pub fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let n = n as f64;
    let p = k as f64 / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n) + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The Wilson bounds are the rates q at which the observed rate p lies exactly z
    /// standard errors away: (p - q)² = z² q (1 - q) / n. Solved here as that quadratic,
    /// independently of the closed form `wilson` uses.
    fn wilson_by_quadratic(k: u64, n: u64) -> (f64, f64) {
        let (p, n, z) = (k as f64 / n as f64, n as f64, 1.96f64);
        let a = 1.0 + z * z / n;
        let b = -(2.0 * p + z * z / n);
        let c = p * p;
        let d = (b * b - 4.0 * a * c).sqrt();
        ((-b - d) / (2.0 * a), (-b + d) / (2.0 * a))
    }

    #[test]
    fn wilson_interval_solves_its_defining_equation() {
        // 940 of 1000: 0.923529 and 0.953104 (the quadratic, also by hand in Python).
        let (lo, hi) = wilson(940, 1000);
        assert!((lo - 0.923_529).abs() < 1e-6, "{lo}");
        assert!((hi - 0.953_104).abs() < 1e-6, "{hi}");
        for (k, n) in [(940, 1000), (1, 10), (50, 100), (9_999, 10_000), (3, 7)] {
            let (lo, hi) = wilson(k, n);
            let (qlo, qhi) = wilson_by_quadratic(k, n);
            assert!(
                (lo - qlo).abs() < 1e-12 && (hi - qhi).abs() < 1e-12,
                "{k}/{n}"
            );
        }
        // The normal ("Wald") interval would give 0.92528..0.95472 here: a wrong formula
        // misses the tolerance above by two orders of magnitude.
        assert!((lo - 0.92528).abs() > 1e-3);
    }

    #[test]
    fn mean_interval() {
        let mut t = Tally::default();
        for s in [2, -2, 2, -2, 0] {
            t.add(s > 0, s == 0, s);
        }
        let s = t.summary();
        assert_eq!(s.avg_score, 0.0);
        assert_eq!(s.win_rate, 0.4);
        assert_eq!((s.wins, s.draws, s.losses), (2, 1, 2));
        assert!(s.avg_score_ci95[0] < 0.0 && s.avg_score_ci95[1] > 0.0);
    }
}
