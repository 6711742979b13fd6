//! Self-play: the bots against each other through `game::sim::run`, as `qipai sim` runs them.

use bigtwo::{bots, Action, BigTwo, Combo};
use game::sim::{play_out, run, SimOptions};
use game::{Bot, Decision, Seed};

fn opts(bots: &[&str], games: u64, seed: u64) -> SimOptions {
    SimOptions {
        config: serde_json::Value::Null,
        bots: bots.iter().map(|b| b.to_string()).collect(),
        games,
        first: 0,
        seed,
        threads: 1,
        rotate: true,
        duplicate: false,
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

/// A yardstick stronger than `random`: always the smallest legal play, passing only when it
/// cannot play. Not offered as a bot; it exists to measure the heuristic against.
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

/// The heuristic in one seat (rotating) against three `Smallest` bots: its mean score.
fn heuristic_against_smallest(deals: u64) -> f64 {
    let base = Seed::from_u64(2026);
    let mut total = 0i64;
    for i in 0..deals {
        let seed = base.derive(i);
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
            play_out::<BigTwo>(&Default::default(), &seed, &mut players).expect("deal ends");
        total += outcome.scores[me];
    }
    total as f64 / deals as f64
}

#[test]
fn heuristic_outscores_smallest_play_players() {
    let mean = heuristic_against_smallest(200);
    assert!(
        mean > 2.0,
        "heuristic averaged {mean} per deal against smallest-play bots"
    );
}
