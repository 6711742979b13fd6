//! Self-play through `game::sim::run`: every game ends, and the heuristic bot beats random.
//! Run with `--release`; `--ignored` adds the long measured series.

use doudizhu5::DouDizhu5;
use game::sim::{run, SimOptions};

fn options(bots: &[&str], games: u64, seed: u64) -> SimOptions {
    SimOptions {
        config: serde_json::Value::Null,
        bots: bots.iter().map(|b| b.to_string()).collect(),
        games,
        seed,
        threads: 1,
        rotate: true,
    }
}

#[test]
fn random_self_play_finishes_every_game() {
    let r = run::<DouDizhu5>(&options(&["random"; 5], 40, 1)).unwrap();
    assert_eq!(r.games, 40);
    assert!(r.actions > 40);
}

#[test]
fn heuristic_beats_random() {
    let r = run::<DouDizhu5>(&options(
        &["heuristic", "random", "random", "random", "random"],
        200,
        2,
    ))
    .unwrap();
    let h = &r.bots[0].overall;
    let rnd = &r.bots[1].overall;
    assert!(
        h.avg_score > rnd.avg_score,
        "heuristic {h:?} vs random {rnd:?}"
    );
}

/// The measured series of the report: one line per bot and role.
#[test]
#[ignore]
fn measure_heuristic_against_random() {
    for bots in [
        vec!["heuristic", "random", "random", "random", "random"],
        vec!["heuristic", "heuristic", "random", "random", "random"],
        vec!["random"; 5],
    ] {
        let r = run::<DouDizhu5>(&options(&bots, 5000, 2026)).unwrap();
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
}
