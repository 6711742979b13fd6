//! The counting bot against the seed bot's fixed policy, by self-play.
//!
//! The always-on runs test at every table size that the counter takes fewer penalty points
//! than the seed bots beside it, by a two-sample test on the means; the 100,000-game
//! figures of the report are
//! `cargo test --release -p tenhalf --test all strength:: -- --ignored --nocapture`.

use game::sim::{run, SimOptions, SimReport};
use game::stats::Summary;
use tenhalf::TenHalf;

/// One `counting` bot against `players - 1` `seed` bots, rotated over the seats.
fn counting_against_seed(players: usize, games: u64, seed: u64) -> SimReport {
    let mut bots = vec!["counting".to_string()];
    bots.extend((1..players).map(|_| "seed".to_string()));
    let opts = SimOptions {
        config: serde_json::Value::Null,
        bots,
        games,
        first: 0,
        seed,
        threads: 1,
        rotate: true,
        duplicate: false,
    };
    run::<TenHalf>(&opts).expect("self-play runs")
}

/// Penalty points per game (scores are minus the penalties) and the standard error of
/// that mean, read back from its 95% interval.
fn penalties(s: &Summary) -> (f64, f64) {
    let se = (s.avg_score_ci95[1] - s.avg_score_ci95[0]) / (2.0 * 1.96);
    (-s.avg_score, se)
}

/// How many standard errors fewer penalties per game the counter took than a seed seat:
/// the two-sample (Welch) z statistic of the difference of the means.
fn fewer_by(r: &SimReport) -> f64 {
    let (counting, se_c) = penalties(&r.bots[0].overall);
    let (seed, se_s) = penalties(&r.bots[1].overall);
    (seed - counting) / (se_c * se_c + se_s * se_s).sqrt()
}

fn report(players: usize, games: u64, seed: u64) -> SimReport {
    let r = counting_against_seed(players, games, seed);
    let (counting, se_c) = penalties(&r.bots[0].overall);
    let (seed_mean, se_s) = penalties(&r.bots[1].overall);
    println!(
        "{players} players, {games} games ({:.0} games/s): counting {counting:.4} ± {:.4} per game, \
         seed {seed_mean:.4} ± {:.4} per seat-game, z = {:.2}; counting took the fewest {:.1}%, \
         seed {:.1}%",
        r.games_per_s,
        1.96 * se_c,
        1.96 * se_s,
        fewer_by(&r),
        100.0 * r.bots[0].overall.win_rate,
        100.0 * r.bots[1].overall.win_rate,
    );
    r
}

/// The significance the always-on runs demand: z ≥ 3.09, a one-sided p < 0.001 that the
/// counter takes no fewer penalties than a seed seat.
const Z_ONE_IN_A_THOUSAND: f64 = 3.09;

/// Deterministic runs, a few seconds in release in all: for each table size, enough games
/// that the difference is significant at p < 0.001.
#[test]
fn counting_takes_fewer_penalties_than_seed_bots_at_every_table_size() {
    for (players, games) in [(2, 4_000), (4, 8_000), (6, 4_000), (8, 10_000)] {
        let r = report(players, games, 2026);
        let z = fewer_by(&r);
        assert!(z >= Z_ONE_IN_A_THOUSAND, "{players} players: z = {z:.2}");
    }
}

/// The mean penalty per seat-game at a table of `seed` bots only: the baseline a `seed`
/// seat would take had the counter played like the others.
fn seed_only(players: usize, games: u64) -> (f64, [f64; 2]) {
    let opts = SimOptions {
        config: serde_json::Value::Null,
        bots: vec!["seed".to_string(); players],
        games,
        first: 0,
        seed: 2026,
        threads: 2,
        rotate: true,
        duplicate: false,
    };
    let r = run::<TenHalf>(&opts).expect("self-play runs");
    let s = &r.bots[0].overall;
    (-s.avg_score, [-s.avg_score_ci95[1], -s.avg_score_ci95[0]])
}

#[test]
#[ignore = "100,000 games per table size: run in release for the report"]
fn counting_against_seed_100k() {
    for players in [2, 4, 6, 8] {
        let r = report(players, 100_000, 2026);
        let (counting, se_c) = penalties(&r.bots[0].overall);
        let (baseline, baseline_ci) = seed_only(players, 100_000);
        println!(
            "{players} players, seed bots only: {baseline:.4} [{:.4}, {:.4}] per seat-game",
            baseline_ci[0], baseline_ci[1]
        );
        let z = fewer_by(&r);
        assert!(z >= Z_ONE_IN_A_THOUSAND, "{players} players: z = {z:.2}");
        assert!(
            counting + 1.96 * se_c < baseline_ci[0],
            "{players} players: the counter's interval lies below the seed-only table's"
        );
    }
}
