//! How long the threat solver takes on the VCF puzzle sets of `puzzles/` — a report, not a
//! test: times depend on the machine (the tests hold the solver to node limits instead).
//! The requirement it checks by eye is a second per position at most.
//!
//! Run: `cargo run --release -p gomoku --example vcf_times`

use gomoku::engine::position::Position;
use gomoku::engine::threat::ThreatSolver;
use gomoku::notation::parse_point;
use gomoku::{Point, Rule};
use std::time::{Duration, Instant};

/// Nodes and depth as in `tests/all/puzzles.rs`.
const NODES: u64 = 300_000;
const SELF_PLAY_DEPTH: u32 = 40;
const PUBLISHED_DEPTH: u32 = 100;

fn points(s: &str) -> Vec<Point> {
    s.split_whitespace()
        .filter_map(|t| parse_point(t, 15).ok())
        .collect()
}

/// (id, rule, stones) of each position: `id|rule|moves|…` in the self-play set,
/// `id|rule|expectation|moves|…` in the published one.
fn positions(text: &str, moves_field: usize) -> Vec<(String, Rule, Vec<Point>)> {
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter_map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            let rule = Rule::parse(f.get(1)?)?;
            Some((f[0].to_string(), rule, points(f.get(moves_field)?)))
        })
        .collect()
}

fn main() {
    let sets = [
        (
            "self-play",
            positions(include_str!("../puzzles/vcf.txt"), 2),
            SELF_PLAY_DEPTH,
        ),
        (
            "published",
            positions(include_str!("../puzzles/vcf_published.txt"), 3),
            PUBLISHED_DEPTH,
        ),
    ];
    for (name, set, depth) in sets {
        let (mut total, mut slowest, mut solved) =
            (Duration::ZERO, (Duration::ZERO, String::new()), 0);
        for (id, rule, moves) in &set {
            let Ok(mut pos) = Position::from_moves(15, *rule, moves) else {
                println!("{id}: the stones do not make a position");
                continue;
            };
            let mut solver = ThreatSolver::new(NODES);
            let t = Instant::now();
            let line = solver.vcf_line(&mut pos, depth);
            let el = t.elapsed();
            total += el;
            if el > slowest.0 {
                slowest = (el, id.clone());
            }
            solved += usize::from(line.is_some());
            println!(
                "{id}: {}, {} nodes, {el:?}",
                if line.is_some() { "solved" } else { "unsolved" },
                solver.nodes
            );
        }
        println!(
            "{name} set: {solved} of {} solved, total {total:?}, slowest {:?} ({})",
            set.len(),
            slowest.0,
            slowest.1
        );
    }
}
