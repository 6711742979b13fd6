//! Self-play through `game::sim::run`: every game ends, and the heuristic bot beats random.
//! Run with `--release`; `--ignored` adds the long measured series.

use doudizhu5::Doudizhu5;
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
    let r = run::<Doudizhu5>(&options(&["random"; 5], 40, 1)).unwrap();
    assert_eq!(r.games, 40);
    assert!(r.actions > 40);
}

#[test]
fn heuristic_beats_random() {
    let r = run::<Doudizhu5>(&options(
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

/// The measured series of the report: prints the JSON report.
#[test]
#[ignore]
fn measure_heuristic_against_random() {
    for bots in [
        vec!["heuristic", "random", "random", "random", "random"],
        vec!["heuristic", "heuristic", "random", "random", "random"],
        vec!["random"; 5],
    ] {
        let r = run::<Doudizhu5>(&options(&bots, 2000, 2026)).unwrap();
        println!("{}", serde_json::to_string_pretty(&r).unwrap());
    }
}
