//! Benchmarks of the hot paths: the incremental board, the search (nodes per second and
//! time to depth 10 from fixed positions), the classic evaluator as a same-run baseline,
//! renju's forbidden-point scan, the VCF solver and random self-play.
//!
//! Run: `CARGO_TARGET_DIR=… cargo bench -p gomoku`

use divan::counter::ItemsCount;
use divan::{black_box, Bencher};
use game::{Bot, Seed};
use gomoku::engine::position::Position;
use gomoku::engine::threat::ThreatSolver;
use gomoku::engine::{classic, Engine, Limits};
use gomoku::notation::parse_point;
use gomoku::{bots, Board, Color, Gomoku, Point, Rule};

fn main() {
    divan::main();
}

/// Fixed middle-game positions (black first), renju notation.
const POSITIONS: [&str; 3] = [
    "h8 i9 j8 g8 i7 j6 h7 h6 g6",
    "h8 i9 i8 g8 j9 h10 k10 l11 j7 k6",
    "h8 h9 i9 g7 j10 k11 g9 i10 j8 k7 j7 j9",
];

fn moves(i: usize) -> Vec<Point> {
    POSITIONS[i]
        .split_whitespace()
        .map(|t| parse_point(t, 15).unwrap())
        .collect()
}

#[divan::bench(args = [0, 1, 2])]
fn play_undo(bencher: Bencher, i: usize) {
    let mut pos = Position::from_moves(15, Rule::Freestyle, &moves(i)).unwrap();
    let sq = (0..pos.cells())
        .find(|&sq| pos.is_empty(sq) && pos.is_near(sq))
        .unwrap();
    bencher.bench_local(|| {
        pos.play(black_box(sq));
        pos.undo();
    });
}

#[divan::bench(args = [0, 1, 2], sample_count = 5, sample_size = 1)]
fn search_100k_nodes(bencher: Bencher, i: usize) {
    let m = moves(i);
    let mut nodes = 0;
    {
        let mut e = Engine::new(15, Rule::Freestyle, 20);
        e.set_moves(15, Rule::Freestyle, &m).unwrap();
        nodes += e.think(&limits_nodes()).nodes;
    }
    bencher.counter(ItemsCount::new(nodes)).bench_local(|| {
        let mut e = Engine::new(15, Rule::Freestyle, 20);
        e.set_moves(15, Rule::Freestyle, &m).unwrap();
        black_box(e.think(&limits_nodes()))
    });
}

fn limits_nodes() -> Limits {
    Limits {
        max_nodes: 100_000,
        vcf_nodes: 0,
        vct_nodes: 0,
        ..Limits::default()
    }
}

#[divan::bench(args = [0, 1, 2], sample_count = 3, sample_size = 1)]
fn search_to_depth_10(bencher: Bencher, i: usize) {
    let m = moves(i);
    bencher.bench_local(|| {
        let mut e = Engine::new(15, Rule::Freestyle, 20);
        e.set_moves(15, Rule::Freestyle, &m).unwrap();
        black_box(e.think(&Limits {
            max_depth: 10,
            vcf_nodes: 0,
            vct_nodes: 0,
            ..Limits::default()
        }))
    });
}

#[divan::bench(args = [0, 1, 2])]
fn classic_move(bencher: Bencher, i: usize) {
    let mut b = Board::new(15);
    let m = moves(i);
    for (k, &p) in m.iter().enumerate() {
        b.set(p, Some(Color::of_ply(k)));
    }
    let allowed: Vec<Point> = b.points().filter(|&p| b.is_empty_at(p)).collect();
    let me = Color::of_ply(m.len());
    bencher.bench_local(|| black_box(classic::choose(&b, me, &allowed, |_| 0)));
}

#[divan::bench(args = [0, 1, 2])]
fn renju_forbidden_scan(bencher: Bencher, i: usize) {
    let mut b = Board::new(15);
    let m = moves(i);
    for (k, &p) in m.iter().enumerate() {
        b.set(p, Some(Color::of_ply(k)));
    }
    bencher.bench_local(|| black_box(gomoku::renju::forbidden_points(&b)));
}

#[divan::bench(sample_count = 5, sample_size = 1)]
fn vcf_puzzle_set(bencher: Bencher) {
    let set: Vec<(Rule, Vec<Point>)> = include_str!("../puzzles/vcf.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            let m = f[2]
                .split_whitespace()
                .map(|t| parse_point(t, 15).unwrap())
                .collect();
            (Rule::parse(f[1]).unwrap(), m)
        })
        .collect();
    bencher.counter(ItemsCount::new(set.len())).bench_local(|| {
        for (rule, m) in &set {
            let mut pos = Position::from_moves(15, *rule, m).unwrap();
            black_box(ThreatSolver::new(300_000).vcf(&mut pos, 40));
        }
    });
}

#[divan::bench(args = ["random", "classic"], sample_count = 5)]
fn self_play_game(bencher: Bencher, bot: &str) {
    let mut n = 0u64;
    bencher.bench_local(|| {
        n += 1;
        let seed = Seed::from_u64(n);
        let mut players: Vec<Box<dyn Bot<Gomoku>>> = (0..2)
            .map(|s| bots::make(bot, &seed.derive(s)).unwrap())
            .collect();
        black_box(
            game::sim::play_out::<Gomoku>(&Default::default(), &seed, &mut players)
                .unwrap()
                .2,
        )
    });
}
