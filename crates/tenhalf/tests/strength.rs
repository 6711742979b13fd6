//! The counting bot against the seed's fixed policy, by self-play.
//!
//! The small run always runs; the 100,000-game figure of the report is
//! `cargo test --release -p tenhalf --test strength -- --ignored --nocapture`.

use game::sim::{run, SimOptions};
use tenhalf::TenHalf;

/// One `counting` bot against `players - 1` `seed` bots, rotated over the seats.
fn counting_against_seed(players: usize, games: u64) -> game::sim::SimReport {
    let mut bots = vec!["counting".to_string()];
    bots.extend((1..players).map(|_| "seed".to_string()));
    let opts = SimOptions {
        config: serde_json::Value::Null,
        bots,
        games,
        seed: 2026,
        threads: 2,
        rotate: true,
    };
    run::<TenHalf>(&opts).expect("self-play runs")
}

fn report(players: usize, games: u64) -> (f64, [f64; 2], f64, [f64; 2]) {
    let r = counting_against_seed(players, games);
    let counting = &r.bots[0].overall;
    let seed = &r.bots[1].overall;
    println!(
        "{players} players, {games} games ({:.0} games/s): counting {:.4} [{:.4}, {:.4}] per game, \
         seed {:.4} [{:.4}, {:.4}] per seat-game; counting took the fewest {:.1}%, seed {:.1}%",
        r.games_per_s,
        -counting.avg_score,
        -counting.avg_score_ci95[1],
        -counting.avg_score_ci95[0],
        -seed.avg_score,
        -seed.avg_score_ci95[1],
        -seed.avg_score_ci95[0],
        100.0 * counting.win_rate,
        100.0 * seed.win_rate,
    );
    (
        -counting.avg_score,
        [-counting.avg_score_ci95[1], -counting.avg_score_ci95[0]],
        -seed.avg_score,
        [-seed.avg_score_ci95[1], -seed.avg_score_ci95[0]],
    )
}

#[test]
fn counting_takes_fewer_penalties_than_seed_bots() {
    let (counting, counting_ci, seed, seed_ci) = report(4, 4_000);
    assert!(counting < seed, "counting {counting} vs seed {seed}");
    assert!(counting_ci[1] < seed_ci[1]);
}

/// The mean penalty per seat-game at a table of `seed` bots only: the baseline a `seed`
/// seat would take had the counter played like the others.
fn seed_only(players: usize, games: u64) -> (f64, [f64; 2]) {
    let opts = SimOptions {
        config: serde_json::Value::Null,
        bots: vec!["seed".to_string(); players],
        games,
        seed: 2026,
        threads: 2,
        rotate: true,
    };
    let r = run::<TenHalf>(&opts).expect("self-play runs");
    let s = &r.bots[0].overall;
    (-s.avg_score, [-s.avg_score_ci95[1], -s.avg_score_ci95[0]])
}

#[test]
#[ignore = "100,000 games per table size: run in release for the report"]
fn counting_against_seed_100k() {
    for players in [2, 4, 6, 8] {
        let (counting, counting_ci, seed, _) = report(players, 100_000);
        let (baseline, baseline_ci) = seed_only(players, 100_000);
        println!(
            "{players} players, seed bots only: {baseline:.4} [{:.4}, {:.4}] per seat-game",
            baseline_ci[0], baseline_ci[1]
        );
        assert!(
            counting < seed && counting_ci[1] < seed,
            "{players} players"
        );
        assert!(counting_ci[1] < baseline_ci[0], "{players} players");
    }
}
