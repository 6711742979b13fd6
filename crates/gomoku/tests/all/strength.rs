//! Playing strength through `game::sim::run`, colours alternated. Every bot uses node
//! limits (no clock), so a series with a given seed is the same games on every machine:
//! the short series below are exact claims about those games, run every time, and each
//! stops as soon as its claim is settled ([`wins_at_least`]). The long series beside them
//! make the statistical claims and are run by hand:
//! `cargo test --release -p gomoku --test all strength:: -- --ignored --nocapture`.

use game::sim::{run, SimOptions};
use game::stats::Summary;
use gomoku::Gomoku;

/// The first bot's results over `games` games against the second, colours alternating.
fn series(bots: [&str; 2], games: u64, rule: &str) -> Summary {
    let report = run::<Gomoku>(&SimOptions {
        config: serde_json::json!({ "rule": rule }),
        bots: bots.iter().map(|b| b.to_string()).collect(),
        games,
        first: 0,
        seed: 2026,
        threads: 1,
        rotate: true,
        duplicate: false,
    })
    .expect("self-play runs");
    let top = report.bots[0].overall;
    eprintln!(
        "{} vs {} ({rule}): {} games, {} wins ({:.1}%), {:.2} games/s, {} actions",
        bots[0],
        bots[1],
        top.games,
        top.wins,
        100.0 * top.win_rate,
        report.games_per_s,
        report.actions
    );
    top
}

/// Whether the first bot wins at least `need` of the first `games` games of the series
/// [`series`] plays (freestyle): the games are played one at a time, in order, and the
/// series stops once the answer is known, at the `need`th win or at the loss (or draw)
/// that leaves too few games to reach it. The answer is the whole series' answer for any
/// results whatever, so the claim is exactly the same; the games after it are not played.
/// Returns the answer, and the wins and the games played.
fn wins_at_least(bots: [&str; 2], games: u64, need: u64) -> (bool, u64, u64) {
    let (mut wins, mut played) = (0, 0);
    while wins < need && played - wins <= games - need {
        let report = run::<Gomoku>(&SimOptions {
            config: serde_json::json!({ "rule": "freestyle" }),
            bots: bots.iter().map(|b| b.to_string()).collect(),
            games: 1,
            first: played,
            seed: 2026,
            threads: 1,
            rotate: true,
            duplicate: false,
        })
        .expect("self-play runs");
        wins += report.bots[0].overall.wins;
        played += 1;
    }
    eprintln!(
        "{} vs {}: {wins} wins in the first {played} of {games} games",
        bots[0], bots[1]
    );
    (wins >= need, wins, played)
}

// ---------------------------------------------------------------------------------------
// Always run: short, deterministic series (about a minute in release mode together).

/// Also a check on the level's transposition table: on 600,000 nodes with a table of
/// 2^18 entries (fewer than its nodes) L10 lost the fourth of these games as white.
#[test]
fn the_top_level_beats_the_classic_evaluator_in_4_of_4_games() {
    let (won, wins, played) = wins_at_least(["engine:L10", "classic"], 4, 4);
    assert!(won, "{wins} of the first {played}");
}

#[test]
fn level_6_beats_level_1_in_at_least_5_of_6_games() {
    let (won, wins, played) = wins_at_least(["engine:L6", "engine:L1"], 6, 5);
    assert!(won, "{wins} of the first {played} of 6");
}

/// L7 once searched to the same depth as L6 and scored half its games against it, from
/// the empty board and from random openings alike (docs/bots.md, "Gomoku levels"); at
/// depth 7 it scores about three games in four from the empty board. These 20 games
/// (about 30 s in release mode) scored 10 of 20 with the old L7 and 16 with today's.
#[test]
fn level_7_beats_level_6_in_at_least_14_of_20_games() {
    let (won, wins, played) = wins_at_least(["engine:L7", "engine:L6"], 20, 14);
    assert!(won, "{wins} of the first {played} of 20");
}

#[test]
fn level_3_beats_the_classic_evaluator_in_at_least_8_of_10_games() {
    let (won, wins, played) = wins_at_least(["engine:L3", "classic"], 10, 8);
    assert!(won, "{wins} of the first {played} of 10");
}

// ---------------------------------------------------------------------------------------
// Long series, by hand.

#[test]
#[ignore = "long: 100 full-strength games"]
fn the_top_level_beats_the_classic_evaluator_in_99_percent_of_games() {
    assert!(series(["engine:L10", "classic"], 100, "freestyle").win_rate >= 0.99);
}

#[test]
#[ignore = "long: level ladder"]
fn higher_levels_beat_lower_ones() {
    assert!(series(["engine:L10", "engine:L3"], 20, "freestyle").win_rate > 0.5);
    assert!(series(["engine:L3", "classic"], 20, "freestyle").win_rate > 0.5);
    assert!(series(["engine:L10", "classic"], 20, "renju").win_rate >= 0.9);
}
