//! The measured series of self-play: one line per bot and role, 5,000 games per table. A
//! report, not a test: the claim it measures (the heuristic beats random play by a margin)
//! is asserted on a smaller run in `tests/all/selfplay.rs`.
//!
//! `cargo run --release -p doudizhu5 --example selfplay_report`

use doudizhu5::DouDizhu5;
use game::sim::{run, SimOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    for bots in [
        vec!["heuristic", "random", "random", "random", "random"],
        vec!["heuristic", "heuristic", "random", "random", "random"],
        vec!["random"; 5],
    ] {
        let r = run::<DouDizhu5>(&SimOptions {
            config: serde_json::Value::Null,
            bots: bots.iter().map(|b| b.to_string()).collect(),
            games: 5000,
            first: 0,
            seed: 2026,
            threads: 1,
            rotate: true,
            duplicate: false,
        })?;
        println!(
            "{}: {} games, {:.0} games/s (1 thread)",
            bots.join(","),
            r.games,
            r.games_per_s
        );
        for b in &r.bots {
            let o = &b.overall;
            println!(
                "  {:9} overall win {:.3} [{:.3}, {:.3}] avg score {:+.2}",
                b.bot, o.win_rate, o.win_rate_ci95[0], o.win_rate_ci95[1], o.avg_score
            );
            for (role, s) in &b.roles {
                println!(
                    "  {:9} {:8} {:5} games win {:.3} [{:.3}, {:.3}] avg score {:+.2}",
                    b.bot,
                    role,
                    s.games,
                    s.win_rate,
                    s.win_rate_ci95[0],
                    s.win_rate_ci95[1],
                    s.avg_score
                );
            }
        }
    }
    Ok(())
}
