//! Glicko-2 ratings per game, after Mark Glickman's "Example of the Glicko-2 system"
//! (2012), one rating period per game.
//!
//! A game is rated as a set of pairings between players of opposite sides: in Dou Dizhu the
//! landlord against each peasant, never peasant against peasant (team games rate the team
//! result). Games without a winning side (Ten and a half's penalties, Big Two's shares)
//! pair everyone, and the higher score wins the pairing.

use game::Outcome;
use serde::{Deserialize, Serialize};

/// The Glicko-2 scale factor between the displayed scale and the internal one.
const SCALE: f64 = 173.7178;
/// The system constant τ: how much volatility may change per period.
const TAU: f64 = 0.5;
/// Convergence tolerance of the volatility iteration.
const EPSILON: f64 = 0.000_001;

/// A deviation above this marks a rating as provisional: it rests on too few games to rank
/// the player by (a new rating starts at 350, and about fourteen games bring it under; see
/// `provisional_until_a_few_games`).
pub const PROVISIONAL_DEVIATION: f64 = 110.0;

/// A player's rating at one game.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// The rating (1500 to start).
    pub rating: f64,
    /// Its deviation: how unsure it is (350 to start).
    pub deviation: f64,
    /// Its volatility: how erratic the player's results are (0.06 to start).
    pub volatility: f64,
    /// Rated games played.
    pub games: u64,
}

impl Rating {
    /// Whether the rating is still too unsure to rank by: the rankings list such players
    /// after everyone ranked, whatever their number, so a lucky first game does not put a
    /// newcomer above players who have proved their rating over many games.
    pub fn provisional(&self) -> bool {
        self.deviation > PROVISIONAL_DEVIATION
    }
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
            games: 0,
        }
    }
}

/// One result against one opponent: 1 a win, 0.5 a draw, 0 a loss.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Result1 {
    /// The opponent's rating before the game.
    pub opponent: Rating,
    /// The score.
    pub score: f64,
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (std::f64::consts::PI * std::f64::consts::PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

/// The rating after one period with these results. With no results only the deviation
/// grows, as the system prescribes.
pub fn update(player: Rating, results: &[Result1]) -> Rating {
    let mu = (player.rating - 1500.0) / SCALE;
    let phi = player.deviation / SCALE;
    let sigma = player.volatility;
    if results.is_empty() {
        let phi_star = (phi * phi + sigma * sigma).sqrt();
        return Rating {
            deviation: phi_star * SCALE,
            ..player
        };
    }
    let mut v_inv = 0.0;
    let mut delta_sum = 0.0;
    for r in results {
        let mu_j = (r.opponent.rating - 1500.0) / SCALE;
        let phi_j = r.opponent.deviation / SCALE;
        let e = expected(mu, mu_j, phi_j);
        v_inv += g(phi_j) * g(phi_j) * e * (1.0 - e);
        delta_sum += g(phi_j) * (r.score - e);
    }
    let v = 1.0 / v_inv;
    let delta = v * delta_sum;
    let sigma = new_volatility(phi, sigma, v, delta);
    let phi_star = (phi * phi + sigma * sigma).sqrt();
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    let mu_new = mu + phi_new * phi_new * delta_sum;
    Rating {
        rating: SCALE * mu_new + 1500.0,
        deviation: SCALE * phi_new,
        volatility: sigma,
        games: player.games + 1,
    }
}

/// The new volatility, by the Illinois algorithm of step 5 of Glickman's paper.
fn new_volatility(phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi * phi + v + ex;
        ex * (delta * delta - d) / (2.0 * d * d) - (x - a) / (TAU * TAU)
    };
    let mut big_a = a;
    let mut big_b = if delta * delta > phi * phi + v {
        (delta * delta - phi * phi - v).ln()
    } else {
        let mut k = 1.0;
        while f(a - k * TAU) < 0.0 {
            k += 1.0;
        }
        a - k * TAU
    };
    let mut f_a = f(big_a);
    let mut f_b = f(big_b);
    let mut rounds = 0;
    while (big_b - big_a).abs() > EPSILON && rounds < 100 {
        let c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        let f_c = f(c);
        if f_c * f_b <= 0.0 {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = c;
        f_b = f_c;
        rounds += 1;
    }
    (big_a / 2.0).exp()
}

/// Which seats a game pairs, and each pairing's score for the first seat: opposite sides
/// when the game has winners, everyone by score when it has none.
pub fn pairings(outcome: &Outcome) -> Vec<(usize, usize, f64)> {
    let n = outcome.scores.len();
    let sides = outcome.won.iter().any(|&w| w);
    let mut out = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if sides {
                if outcome.won[i] != outcome.won[j] {
                    out.push((i, j, if outcome.won[i] { 1.0 } else { 0.0 }));
                }
            } else {
                let score = match outcome.scores[i].cmp(&outcome.scores[j]) {
                    std::cmp::Ordering::Greater => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Less => 0.0,
                };
                out.push((i, j, score));
            }
        }
    }
    out
}

/// Every rated seat's new rating after a game: `before[s]` is `None` for a seat that is
/// not rated (a guest, a computer), whose pairings are skipped.
pub fn rate_game(outcome: &Outcome, before: &[Option<Rating>]) -> Vec<Option<Rating>> {
    let mut results: Vec<Vec<Result1>> = vec![Vec::new(); before.len()];
    for (i, j, score) in pairings(outcome) {
        if let (Some(Some(ri)), Some(Some(rj))) = (before.get(i), before.get(j)) {
            results[i].push(Result1 {
                opponent: *rj,
                score,
            });
            results[j].push(Result1 {
                opponent: *ri,
                score: 1.0 - score,
            });
        }
    }
    before
        .iter()
        .zip(&results)
        .map(|(r, res)| match r {
            Some(r) if !res.is_empty() => Some(update(*r, res)),
            _ => None,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two newcomers playing only each other, winning in turn, stay provisional for their
    /// first ten games and leave it within fifteen (fourteen, as the numbers stand): the
    /// line sits where a rating has begun to mean something, not where only veterans reach.
    #[test]
    fn provisional_until_a_few_games() {
        let (mut a, mut b) = (Rating::default(), Rating::default());
        let mut games = 0;
        while a.provisional() || b.provisional() {
            let a_wins = if games % 2 == 0 { 1.0 } else { 0.0 };
            let (na, nb) = (
                update(
                    a,
                    &[Result1 {
                        opponent: b,
                        score: a_wins,
                    }],
                ),
                update(
                    b,
                    &[Result1 {
                        opponent: a,
                        score: 1.0 - a_wins,
                    }],
                ),
            );
            (a, b) = (na, nb);
            games += 1;
            assert!(games <= 15, "still provisional after {games} games: {a:?}");
        }
        assert!(games >= 10, "provisional for only {games} games");
    }

    /// Glickman's worked example: a 1500 player (RD 200, σ 0.06) beats a 1400 (RD 30) and
    /// loses to a 1550 (RD 100) and a 1700 (RD 300): 1464.06, RD 151.52, σ 0.05999.
    #[test]
    fn glickmans_worked_example() {
        let player = Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
            games: 0,
        };
        let opp = |rating, deviation| Rating {
            rating,
            deviation,
            ..Rating::default()
        };
        let r = update(
            player,
            &[
                Result1 {
                    opponent: opp(1400.0, 30.0),
                    score: 1.0,
                },
                Result1 {
                    opponent: opp(1550.0, 100.0),
                    score: 0.0,
                },
                Result1 {
                    opponent: opp(1700.0, 300.0),
                    score: 0.0,
                },
            ],
        );
        assert!((r.rating - 1464.06).abs() < 0.01, "{}", r.rating);
        assert!((r.deviation - 151.52).abs() < 0.01, "{}", r.deviation);
        assert!((r.volatility - 0.05999).abs() < 0.00001, "{}", r.volatility);
        assert_eq!(r.games, 1);
    }

    #[test]
    fn team_games_pair_only_opposite_sides() {
        let landlord_won = Outcome {
            scores: vec![4, -2, -2],
            won: vec![true, false, false],
            roles: vec!["landlord".into(), "peasant".into(), "peasant".into()],
        };
        assert_eq!(pairings(&landlord_won), vec![(0, 1, 1.0), (0, 2, 1.0)]);
        let penalties = Outcome {
            scores: vec![-2, 0, -2],
            won: vec![false; 3],
            roles: vec!["player".into(); 3],
        };
        assert_eq!(
            pairings(&penalties),
            vec![(0, 1, 0.0), (0, 2, 0.5), (1, 2, 1.0)]
        );
        let after = rate_game(
            &landlord_won,
            &[Some(Rating::default()), None, Some(Rating::default())],
        );
        assert!(after[0].is_some_and(|r| r.rating > 1500.0));
        assert!(after[1].is_none());
        assert!(after[2].is_some_and(|r| r.rating < 1500.0));
    }
}
