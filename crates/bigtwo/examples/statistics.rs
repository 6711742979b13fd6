//! The heuristic bot's figures over 10,000 deals each, printed as `SimReport` JSON, and its
//! mean against three smallest-play players. A report, not a test: the claims are asserted
//! on smaller runs in `tests/all/sim.rs`.
//!
//! `cargo run --release -p bigtwo --example statistics` (about ten seconds)

use bigtwo::{bots, Action, BigTwo, Combo};
use game::sim::{play_out, run, SimOptions};
use game::{Bot, Decision, Seed};

/// Always the smallest legal play, passing only when it cannot play: the yardstick of
/// `tests/all/sim.rs`.
struct Smallest;

impl Bot<BigTwo> for Smallest {
    fn act(&mut self, decision: &Decision<'_, BigTwo>) -> Action {
        decision
            .legal()
            .iter()
            .filter_map(|a| match a {
                Action::Play(cards) => Combo::classify(*cards),
                Action::Pass => None,
            })
            .min_by_key(Combo::order_key)
            .map_or(Action::Pass, |c| Action::Play(c.cards))
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for bots in [
        ["heuristic", "random", "random", "random"],
        ["heuristic", "heuristic", "heuristic", "heuristic"],
        ["random", "random", "random", "random"],
    ] {
        let report = run::<BigTwo>(&SimOptions {
            config: serde_json::Value::Null,
            bots: bots.iter().map(|b| b.to_string()).collect(),
            games: 10_000,
            first: 0,
            seed: 2026,
            threads: 1,
            rotate: true,
            duplicate: false,
        })?;
        println!("{}", serde_json::to_string_pretty(&report)?);
    }
    let base = Seed::from_u64(2026);
    let deals = 10_000u64;
    let mut total = 0i64;
    for i in 0..deals {
        let me = (i % 4) as usize;
        let mut players: Vec<Box<dyn Bot<BigTwo>>> = (0..4)
            .map(|s| -> Box<dyn Bot<BigTwo>> {
                if s == me {
                    Box::new(bots::Heuristic::new())
                } else {
                    Box::new(Smallest)
                }
            })
            .collect();
        let (_, outcome, _) =
            play_out::<BigTwo>(&Default::default(), &base.derive(i), &mut players)?;
        total += outcome.scores[me];
    }
    println!(
        "heuristic vs three smallest-play bots: {:.2} per deal",
        total as f64 / deals as f64
    );
    Ok(())
}
