//! Self-play: the bots against each other through `game::sim::run`, as `qipai sim` runs them.

use bigtwo::BigTwo;
use game::sim::{run, SimOptions};

fn opts(bots: &[&str], games: u64, seed: u64) -> SimOptions {
    SimOptions {
        config: serde_json::Value::Null,
        bots: bots.iter().map(|b| b.to_string()).collect(),
        games,
        seed,
        threads: 1,
        rotate: true,
    }
}

fn heuristic_mean(bots: &[&str], games: u64, seed: u64) -> f64 {
    let report = run::<BigTwo>(&opts(bots, games, seed)).expect("self-play runs");
    report
        .bots
        .iter()
        .find(|b| b.bot == "heuristic")
        .map(|b| b.overall.avg_score)
        .unwrap_or(f64::NAN)
}

#[test]
fn heuristic_outscores_random_players() {
    let mean = heuristic_mean(&["heuristic", "random", "random", "random"], 200, 1);
    assert!(
        mean > 10.0,
        "heuristic averaged {mean} per deal against random"
    );
}

/// The figures of the report: 10,000 deals each. Run in release mode:
/// `CARGO_TARGET_DIR=/work/target-bigtwo cargo test -p bigtwo --release --test sim -- --ignored --nocapture`
#[test]
#[ignore = "statistics run: release mode, about a minute"]
fn heuristic_statistics_over_10000_deals() {
    for bots in [
        ["heuristic", "random", "random", "random"],
        ["heuristic", "heuristic", "heuristic", "heuristic"],
        ["random", "random", "random", "random"],
    ] {
        let report = run::<BigTwo>(&opts(&bots, 10_000, 2026)).expect("self-play runs");
        println!(
            "{}",
            serde_json::to_string_pretty(&report).unwrap_or_default()
        );
    }
}
