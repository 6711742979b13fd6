//! The heuristic bot's figures over 10,000 deals each, printed as `SimReport` JSON, then the
//! speed of heuristic self-play (one thread, so `games_per_s` is per core). A report, not a
//! test: the claims it measures are asserted on smaller runs in `tests/all/heuristic.rs`.
//!
//! `cargo run --release -p doudizhu --example heuristic_report`

use doudizhu::DouDizhu;
use game::sim::{run, SimOptions, SimReport};
use serde_json::json;

/// Self-play with seat 0 the fixed landlord (no bidding), bots in seat order.
fn fixed_landlord(bots: [&str; 3], games: u64, seed: u64) -> Result<SimReport, game::GameError> {
    run::<DouDizhu>(&SimOptions::seated(
        json!({"landlord": 0}),
        &bots,
        games,
        seed,
    ))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for (bots, seed) in [
        (["heuristic", "random", "random"], 10_000),
        (["random", "heuristic", "heuristic"], 20_000),
    ] {
        let report = fixed_landlord(bots, 10_000, seed)?;
        println!("{}", serde_json::to_string_pretty(&report)?);
    }
    let report = run::<DouDizhu>(&SimOptions {
        config: serde_json::Value::Null,
        bots: vec!["heuristic".into(); 3],
        games: 10_000,
        first: 0,
        seed: 30_000,
        threads: 1,
        rotate: true,
        duplicate: false,
    })?;
    println!("{}", serde_json::to_string_pretty(&report)?);
    Ok(())
}
