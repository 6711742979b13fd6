//! Playing strength through `game::sim::run`, colours alternated. Long: run with
//! `cargo test --release -p gomoku --test strength -- --ignored --nocapture`.

use game::sim::{run, SimOptions};
use gomoku::Gomoku;

fn series(bots: [&str; 2], games: u64, rule: &str) -> f64 {
    let report = run::<Gomoku>(&SimOptions {
        config: serde_json::json!({ "rule": rule }),
        bots: bots.iter().map(|b| b.to_string()).collect(),
        games,
        seed: 2026,
        threads: 1,
        rotate: true,
    })
    .expect("self-play runs");
    let top = &report.bots[0];
    eprintln!(
        "{} vs {} ({rule}): {} games, {} wins ({:.1}%), {:.2} games/s, {} actions",
        bots[0],
        bots[1],
        top.overall.games,
        top.overall.wins,
        100.0 * top.overall.win_rate,
        report.games_per_s,
        report.actions
    );
    top.overall.win_rate
}

#[test]
#[ignore = "long: 100 full-strength games"]
fn the_top_level_beats_the_classic_evaluator_in_99_percent_of_games() {
    assert!(series(["engine:L10", "classic"], 100, "freestyle") >= 0.99);
}

#[test]
#[ignore = "long: level ladder"]
fn higher_levels_beat_lower_ones() {
    assert!(series(["engine:L10", "engine:L3"], 20, "freestyle") > 0.5);
    assert!(series(["engine:L3", "classic"], 20, "freestyle") > 0.5);
    assert!(series(["engine:L10", "classic"], 20, "renju") >= 0.9);
}
