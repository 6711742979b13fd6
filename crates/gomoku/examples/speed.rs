//! Engine speed on this machine, with the original program's classic evaluator as a same-run baseline
//! (the machine may be shared: CPU time is reported beside wall time).
//!
//! Run: `cargo run --release -p gomoku --example speed`

use gomoku::engine::{classic, Engine, Limits};
use gomoku::notation::parse_point;
use gomoku::{Board, Color, Point, Rule};
use std::time::{Duration, Instant};

/// The calling thread's CPU time so far (Linux; zero elsewhere).
fn cpu_time() -> Duration {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map(Duration::from_nanos)
        .unwrap_or_default()
}

const POSITIONS: [&str; 3] = [
    "h8 i9 j8 g8 i7 j6 h7 h6 g6",
    "h8 i9 i8 g8 j9 h10 k10 l11 j7 k6",
    "h8 h9 i9 g7 j10 k11 g9 i10 j8 k7 j7 j9",
];

fn moves(i: usize) -> Vec<Point> {
    POSITIONS[i]
        .split_whitespace()
        .filter_map(|t| parse_point(t, 15).ok())
        .collect()
}

fn main() {
    // Baseline: classic evaluator moves per second.
    let (w0, c0) = (Instant::now(), cpu_time());
    let mut n = 0u32;
    for i in 0..3 {
        let mut b = Board::new(15);
        let m = moves(i);
        for (k, &p) in m.iter().enumerate() {
            b.set(p, Some(Color::of_ply(k)));
        }
        let allowed: Vec<Point> = b.points().filter(|&p| b.is_empty_at(p)).collect();
        for _ in 0..300 {
            std::hint::black_box(classic::choose(&b, Color::of_ply(m.len()), &allowed, |_| 0));
            n += 1;
        }
    }
    let (w, c) = (w0.elapsed(), cpu_time() - c0);
    println!(
        "classic evaluator: {n} moves, {:.0} moves/s wall, {:.0} moves/s cpu",
        f64::from(n) / w.as_secs_f64(),
        f64::from(n) / c.as_secs_f64().max(1e-9)
    );
    // The same positions under both board kinds: renju keeps black's forbidden points up
    // to date as stones come and go, which the freestyle board does not need.
    for rule in [Rule::Freestyle, Rule::Renju] {
        for i in 0..3 {
            let mut e = Engine::new(15, rule, 20);
            e.set_moves(15, rule, &moves(i)).expect("position");
            let (w0, c0) = (Instant::now(), cpu_time());
            let t = e.think(&Limits {
                max_depth: 10,
                vcf_nodes: 0,
                vct_nodes: 0,
                ..Limits::default()
            });
            let (w, c) = (w0.elapsed(), cpu_time() - c0);
            println!(
                "{} position {i}: depth {} in {:.3} s wall / {:.3} s cpu, {} nodes, {:.0} nodes/s wall, {:.0} nodes/s cpu, eval {}",
                rule.name(),
                t.depth,
                w.as_secs_f64(),
                c.as_secs_f64(),
                t.nodes,
                t.nodes as f64 / w.as_secs_f64(),
                t.nodes as f64 / c.as_secs_f64().max(1e-9),
                t.eval
            );
        }
    }
}
